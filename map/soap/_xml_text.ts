/**
 * XML 1.0 escaping, from the shared module every XML-writing face uses.
 *
 * @module
 */
export { escapeAttr, escapeText } from "../xml_text.ts";
