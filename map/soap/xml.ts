/**
 * A small, namespace-aware, non-validating XML reader for SOAP envelopes,
 * built on `saxes`. It produces a light element tree and refuses whatever
 * could make a request cost more than its size: DTDs (and with them entity
 * declarations and external entities), bodies over a size limit, nesting
 * over a depth limit, too many elements or attributes. Only the five
 * predefined entities and character references are expanded.
 *
 * @module
 */
import { SaxesParser, type SaxesTagNS } from "saxes";
import { SoapFault } from "./fault.ts";

/** The XML Schema instance namespace (`xsi:type`, `xsi:nil`). */
export const XSI_NS = "http://www.w3.org/2001/XMLSchema-instance";

/** A namespace-qualified name; `ns` is "" for unqualified names. */
export interface QName {
  ns: string;
  local: string;
}

/** One attribute (unqualified ones are kept only with `allAttributes`). */
export interface XmlAttribute {
  ns: string;
  local: string;
  value: string;
}

/** One element of the parsed tree. */
export interface XmlElement {
  /** Namespace URI ("" when unqualified). */
  ns: string;
  local: string;
  /** Qualified attributes (xsi:*, soap:*; all with `allAttributes`), never namespace declarations. */
  attrs: XmlAttribute[];
  children: XmlElement[];
  /** Concatenated character data directly inside this element (CDATA included). */
  text: string;
  /** `xsi:type`, its QName resolved against the bindings in scope. */
  xsiType?: QName;
  /** `xsi:nil="true"` (or "1"). */
  nil: boolean;
}

/** Resource limits of one parse. */
export interface XmlLimits {
  /** Maximum document length in UTF-16 code units (default 10 MiB). */
  maxLength: number;
  /** Maximum element nesting depth (default 64). */
  maxDepth: number;
  /** Maximum number of elements (default 250,000). */
  maxElements: number;
  /** Maximum attributes on one element (default 64). */
  maxAttributes: number;
}

/** The default limits. */
export const DEFAULT_XML_LIMITS: Readonly<XmlLimits> = Object.freeze({
  maxLength: 10 * 1024 * 1024,
  maxDepth: 64,
  maxElements: 250_000,
  maxAttributes: 64,
});

/** How much of the document to keep. */
export interface XmlReadOptions {
  /** Keep unqualified attributes too (reading WSDL or XSD); SOAP messages need only xsi:/soap: ones. */
  allAttributes?: boolean;
}

/** Thrown inside saxes handlers to stop the parse; turned into a fault. */
class Refusal extends Error {}

/** How {@link parseXmlChunks} shares the event loop. */
export interface XmlPacing {
  /** Characters parsed between two pauses (default 64 Ki). */
  sliceChars?: number;
  /** Gives other work a turn (default: a macrotask, so timers and network I/O run). */
  pause?: () => Promise<void>;
}

/** A macrotask: lets the event loop poll I/O and run timers before the parse goes on. */
const macrotask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Parses `text` into an element tree and returns the root element.
 * Throws a `SoapFault("Client", ...)` for malformed or refused input.
 *
 * @example
 * ```ts
 * const root = parseXml('<a:E xmlns:a="urn:x"><B>1</B></a:E>');
 * root.ns; // "urn:x"
 * root.children[0].text; // "1"
 * ```
 */
export function parseXml(
  text: string,
  limits: Partial<XmlLimits> & XmlReadOptions = {},
): XmlElement {
  const reader = new TreeReader(limits);
  reader.write(text);
  return reader.finish();
}

/**
 * Parses a document that arrives in pieces (a request body as it is read),
 * pausing every `sliceChars` characters so that a 10 MB body never holds the
 * event loop for more than a few milliseconds at a time. Nothing but the
 * tree is kept: each piece is dropped once parsed. Same limits and faults
 * as {@link parseXml}.
 *
 * @example
 * ```ts
 * const root = await parseXmlChunks(["<a:E xmlns:a='urn:x'>", "<B>1</B></a:E>"]);
 * root.children[0].text; // "1"
 * ```
 */
export async function parseXmlChunks(
  chunks: AsyncIterable<string> | Iterable<string>,
  limits: Partial<XmlLimits> & XmlReadOptions = {},
  pacing: XmlPacing = {},
): Promise<XmlElement> {
  const slice = pacing.sliceChars ?? 64 * 1024;
  const pause = pacing.pause ?? macrotask;
  const reader = new TreeReader(limits);
  let sincePause = 0;
  for await (const chunk of chunks) {
    for (let at = 0; at < chunk.length; at += slice) {
      const piece = at === 0 && chunk.length <= slice ? chunk : chunk.slice(at, at + slice);
      reader.write(piece);
      sincePause += piece.length;
      if (sincePause >= slice) {
        sincePause = 0;
        await pause();
      }
    }
  }
  return reader.finish();
}

/** The saxes parser with its tree-building handlers and limit counters. */
class TreeReader {
  private readonly lim: XmlLimits;
  private readonly parser = new SaxesParser({ xmlns: true, position: false });
  private readonly stack: XmlElement[] = [];
  private root: XmlElement | undefined;
  private length = 0;
  /** The end of the previous piece, so a DOCTYPE split across two pieces is still seen. */
  private tail = "";

  constructor(limits: Partial<XmlLimits> & XmlReadOptions) {
    const lim: XmlLimits = { ...DEFAULT_XML_LIMITS, ...limits };
    this.lim = lim;
    const keepAll = limits.allAttributes === true;
    const { parser, stack } = this;
    let elements = 0;
    let attributes = 0;
    parser.on("doctype", () => {
      throw new Refusal("Document type declarations are not allowed in SOAP messages.");
    });
    parser.on("opentagstart", () => {
      attributes = 0;
      if (++elements > lim.maxElements) {
        throw new Refusal(`The request has more than ${lim.maxElements} elements.`);
      }
      if (stack.length >= lim.maxDepth) {
        throw new Refusal(`The request nests elements deeper than ${lim.maxDepth} levels.`);
      }
    });
    parser.on("attribute", () => {
      if (++attributes > lim.maxAttributes) {
        throw new Refusal(`An element has more than ${lim.maxAttributes} attributes.`);
      }
    });
    parser.on("opentag", (tag: SaxesTagNS) => {
      const el = makeElement(tag, parser, keepAll);
      const parent = stack[stack.length - 1];
      if (parent) {
        // Indentation around child elements means nothing in SOAP; dropping it keeps the tree
        // of a pretty-printed 10 MB request from holding megabytes of spaces.
        if (parent.text !== "" && WHITESPACE.test(parent.text)) parent.text = "";
        if (parent.children === NONE) parent.children = [el];
        else parent.children.push(el);
      } else this.root = el;
      stack.push(el);
    });
    parser.on("closetag", () => {
      stack.pop();
    });
    const onText = (t: string) => {
      const top = stack[stack.length - 1];
      if (!top) return;
      if (top.children !== NONE && WHITESPACE.test(t) && WHITESPACE.test(top.text)) return;
      top.text += t;
    };
    parser.on("text", onText);
    parser.on("cdata", onText);
  }

  /** Parses one more piece of the document. */
  write(piece: string): void {
    this.length += piece.length;
    if (this.length > this.lim.maxLength) {
      throw new SoapFault(
        "Client",
        `The request body is larger than the limit of ${this.lim.maxLength} characters.`,
        { Limit: this.lim.maxLength },
      );
    }
    // Refuse DTDs before saxes reads them: it would scan the whole internal subset first.
    const seen = this.tail + piece;
    if (/<!DOCTYPE/i.test(seen) || /<!ENTITY/i.test(seen)) {
      throw refused(
        "Document type declarations (DOCTYPE, ENTITY) are not allowed in SOAP messages.",
      );
    }
    this.tail = piece.slice(-8);
    this.guard(() => this.parser.write(piece));
  }

  /** Ends the document and returns its root element. */
  finish(): XmlElement {
    this.guard(() => this.parser.close());
    if (!this.root) throw new SoapFault("Client", "The request body contains no XML element.");
    return this.root;
  }

  private guard(step: () => unknown): void {
    try {
      step();
    } catch (e) {
      if (e instanceof SoapFault) throw e;
      if (e instanceof Refusal) throw refused(e.message);
      throw new SoapFault(
        "Client",
        `The request is not well-formed XML: ${cleanSaxesMessage(e)}`,
      );
    }
  }
}

const WHITESPACE = /^[ \t\r\n]*$/;

function refused(message: string): SoapFault {
  return new SoapFault("Client", `The request was refused: ${message}`);
}

function cleanSaxesMessage(e: unknown): string {
  const msg = e instanceof Error ? e.message : String(e);
  // saxes prefixes messages with "undefined:line:col: "; keep the readable part.
  return msg.replace(/^[^:]*:\d+:\d+: /, "").slice(0, 300);
}

// Shared empty lists keep hostile floods of empty elements cheap (replaced on first use).
const NONE: XmlElement[] = [];
const NO_ATTRS: XmlAttribute[] = [];

function makeElement(
  tag: SaxesTagNS,
  parser: SaxesParser<{ xmlns: true }>,
  keepAll: boolean,
): XmlElement {
  let attrs = NO_ATTRS;
  let xsiType: QName | undefined;
  let nil = false;
  for (const name in tag.attributes) {
    const a = tag.attributes[name];
    // Namespace declarations are bookkeeping; unqualified attributes carry nothing in SOAP
    // or the ArcGIS schema (which declares no attributes), so neither is kept.
    if (a.uri === "http://www.w3.org/2000/xmlns/" || (a.uri === "" && !keepAll)) continue;
    if (attrs === NO_ATTRS) attrs = [];
    attrs.push({ ns: a.uri, local: a.local, value: a.value });
    if (a.uri === XSI_NS) {
      if (a.local === "type") xsiType = resolveQName(a.value, parser);
      else if (a.local === "nil") nil = a.value.trim() === "true" || a.value.trim() === "1";
    }
  }
  return { ns: tag.uri, local: tag.local, attrs, children: NONE, text: "", xsiType, nil };
}

/** Resolves `prefix:local` (or `local`, in the default namespace) against the bindings in scope. */
function resolveQName(value: string, parser: SaxesParser<{ xmlns: true }>): QName {
  const v = value.trim();
  const colon = v.indexOf(":");
  if (colon < 0) return { ns: parser.resolve("") ?? "", local: v };
  const prefix = v.slice(0, colon);
  const ns = parser.resolve(prefix);
  if (ns === undefined) {
    throw new Refusal(`xsi:type "${v}" uses the undeclared namespace prefix "${prefix}".`);
  }
  return { ns, local: v.slice(colon + 1) };
}

/** Child elements of `el` with the given local name (any namespace). */
export function childrenNamed(el: XmlElement, local: string): XmlElement[] {
  return el.children.filter((c) => c.local === local);
}

/** First child element of `el` with the given local name (any namespace), if any. */
export function childNamed(el: XmlElement, local: string): XmlElement | undefined {
  return el.children.find((c) => c.local === local);
}

/** Attribute value by namespace and local name. */
export function attribute(el: XmlElement, ns: string, local: string): string | undefined {
  return el.attrs.find((a) => a.ns === ns && a.local === local)?.value;
}
