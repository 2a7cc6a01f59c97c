/**
 * A small namespace-aware XML reader for WFS request bodies and FES
 * filters, over `saxes`: a light element tree, no DTDs (so no entities
 * beyond the predefined ones), with bounds on depth and element count.
 *
 * @module
 */
import { SaxesParser, type SaxesTagNS } from "saxes";
import { WfsError } from "./_exception.ts";

/** One element of the tree. */
export interface XmlNode {
  ns: string;
  local: string;
  /** Attributes by local name (namespace declarations left out). */
  attrs: Map<string, string>;
  children: XmlNode[];
  /** Character data directly inside the element. */
  text: string;
}

const MAX_DEPTH = 64;
const MAX_ELEMENTS = 100_000;

/**
 * Parses `text` to its root element; malformed XML is an
 * OperationParsingFailed WfsError naming `locator`.
 *
 * @example
 * ```ts
 * parseXml("<a xmlns='urn:x'><b>1</b></a>", "FILTER").children[0].text; // "1"
 * ```
 */
export function parseXml(text: string, locator: string): XmlNode {
  const parser = new SaxesParser({ xmlns: true, position: false });
  const stack: XmlNode[] = [];
  let root: XmlNode | undefined;
  let count = 0;
  let failure: string | undefined;
  parser.on("error", (e) => {
    failure ??= e.message;
  });
  parser.on("doctype", () => {
    failure ??= "a DOCTYPE is not accepted";
  });
  parser.on("opentag", (tag) => {
    const t = tag as SaxesTagNS;
    if (++count > MAX_ELEMENTS || stack.length >= MAX_DEPTH) {
      failure ??= "the document is too large or too deeply nested";
      return;
    }
    const attrs = new Map<string, string>();
    for (const a of Object.values(t.attributes)) {
      if (a.prefix === "xmlns" || a.name === "xmlns") continue;
      attrs.set(a.local, a.value);
    }
    const node: XmlNode = { ns: t.uri, local: t.local, attrs, children: [], text: "" };
    if (stack.length) stack[stack.length - 1].children.push(node);
    else root ??= node;
    stack.push(node);
  });
  parser.on("closetag", () => {
    stack.pop();
  });
  const addText = (s: string) => {
    if (stack.length) stack[stack.length - 1].text += s;
  };
  parser.on("text", addText);
  parser.on("cdata", addText);
  try {
    parser.write(text).close();
  } catch (e) {
    failure ??= e instanceof Error ? e.message : String(e);
  }
  if (failure || !root) {
    throw new WfsError(
      "OperationParsingFailed",
      `The XML of ${locator} is not well-formed: ${failure ?? "it is empty"}.`,
      locator,
    );
  }
  return root;
}

/** The element children of `n` called `local` (any namespace). */
export function childrenNamed(n: XmlNode, local: string): XmlNode[] {
  return n.children.filter((c) => c.local === local);
}
