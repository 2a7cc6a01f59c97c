/**
 * Helpers for WMS tests: GET a WMS request of the demo server's
 * `Recruitment` service and read the answer, and XPath over XML answers
 * (libxml2, namespaces of WMS 1.3.0, OGC exceptions, xlink).
 *
 * @module
 */
import assert from "node:assert/strict";
import { XmlDocument } from "libxml2-wasm";

/** Namespaces of the XPath expressions. */
export const WMS_NS = {
  w: "http://www.opengis.net/wms",
  ogc: "http://www.opengis.net/ogc",
  xlink: "http://www.w3.org/1999/xlink",
  sld: "http://www.opengis.net/sld",
  gml: "http://www.opengis.net/gml",
  wfs: "http://www.opengis.net/wfs",
};

/**
 * A GetMap 1.3.0 of the demo service: both layers in the map's order (countries under the
 * competitions), 20..60 E x 40..70 N (EPSG:4326, latitude first) on 400 x 300 pixels.
 */
export const MAP13: Readonly<Record<string, string>> = {
  SERVICE: "WMS",
  VERSION: "1.3.0",
  REQUEST: "GetMap",
  LAYERS: "1,0",
  STYLES: "",
  CRS: "EPSG:4326",
  BBOX: "40,20,70,60",
  WIDTH: "400",
  HEIGHT: "300",
  FORMAT: "image/png",
};

/** A WMS answer: status, content type and body (bytes and text). */
export interface WmsAnswer {
  status: number;
  contentType: string;
  bytes: Uint8Array;
  text: string;
}

/** The WMSServer URL of a service of the server at `base`. */
export function wmsUrl(base: string, service = "Recruitment"): string {
  return `${base}/arcgis/services/${service}/MapServer/WMSServer`;
}

/**
 * GETs a WMS request (`params` as given, any case).
 *
 * @example
 * ```ts ignore
 * const a = await wms(s.url, { SERVICE: "WMS", REQUEST: "GetCapabilities" });
 * ```
 */
export async function wms(
  base: string,
  params: Record<string, string>,
  service = "Recruitment",
): Promise<WmsAnswer> {
  const res = await fetch(`${wmsUrl(base, service)}?${new URLSearchParams(params)}`);
  const bytes = new Uint8Array(await res.arrayBuffer());
  return {
    status: res.status,
    contentType: res.headers.get("content-type") ?? "",
    bytes,
    text: new TextDecoder().decode(bytes),
  };
}

/**
 * Runs `fn` on the parsed XML document of `text` (asserting it is well-formed), freed after.
 *
 * @example
 * ```ts ignore
 * withXml(a.text, (doc) => xpathText(doc, "/w:WMS_Capabilities/@version"));
 * ```
 */
export function withXml<T>(text: string, fn: (doc: XmlDocument) => T): T {
  const doc = XmlDocument.fromString(text);
  try {
    return fn(doc);
  } finally {
    doc.dispose();
  }
}

/** The string value of an XPath expression. */
export function xpathText(doc: XmlDocument, expr: string): string {
  const v = doc.eval(`string(${expr})`, WMS_NS);
  assert.equal(typeof v, "string");
  return v as string;
}

/**
 * Whether two byte arrays are equal (pixels: assert.deepEqual's diff of
 * arrays this long would take gigabytes).
 */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/** The number of nodes an XPath expression selects. */
export function xpathCount(doc: XmlDocument, expr: string): number {
  return doc.eval(`count(${expr})`, WMS_NS) as number;
}

/**
 * Asserts that `a` is a ServiceExceptionReport of `version` with `code`, and returns its message.
 *
 * @example
 * ```ts ignore
 * assertException(a, "1.3.0", "LayerNotDefined");
 * ```
 */
export function assertException(a: WmsAnswer, version: "1.3.0" | "1.1.1", code: string): string {
  assert.equal(a.status, 200, a.text);
  if (version === "1.3.0") assert.match(a.contentType, /^text\/xml/);
  else assert.equal(a.contentType, "application/vnd.ogc.se_xml");
  return withXml(a.text, (doc) => {
    const root = version === "1.3.0" ? "/ogc:ServiceExceptionReport" : "/ServiceExceptionReport";
    const item = `${root}/${version === "1.3.0" ? "ogc:" : ""}ServiceException`;
    assert.equal(xpathText(doc, `${root}/@version`), version, a.text);
    assert.equal(xpathText(doc, `${item}/@code`), code, a.text);
    return xpathText(doc, item);
  });
}
