/**
 * Escaping for XML 1.0 output. Characters XML 1.0 cannot carry at all
 * (most C0 controls, lone surrogates, U+FFFE/U+FFFF) are replaced by
 * U+FFFD so that data from any source still yields well-formed XML.
 * Shared by the faces that write XML (SOAP, WMS).
 *
 * @module
 */

// deno-lint-ignore no-control-regex
const NEEDS_TEXT = /[&<>\r\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF\uD800-\uDFFF]/;
// deno-lint-ignore no-control-regex
const INVALID = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

/**
 * Escapes character data (element content).
 *
 * @example
 * ```ts
 * escapeText("a < b & c"); // "a &lt; b &amp; c"
 * ```
 */
export function escapeText(s: string): string {
  if (!NEEDS_TEXT.test(s)) return s;
  return s.toWellFormed().replace(INVALID, "\uFFFD").replace(/&/g, "&amp;").replace(/</g, "&lt;")
    .replace(/>/g, "&gt;").replace(/\r/g, "&#13;");
}

/**
 * Escapes an attribute value written between double quotes.
 *
 * @example
 * ```ts
 * escapeAttr('say "hi"'); // "say &quot;hi&quot;"
 * ```
 */
export function escapeAttr(s: string): string {
  return escapeText(s).replace(/"/g, "&quot;").replace(/\n/g, "&#10;").replace(/\t/g, "&#9;");
}
