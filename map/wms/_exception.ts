/**
 * WMS exceptions: the error a request is refused with (a standard code, a
 * message, the parameter at fault) and its ServiceExceptionReport in the
 * form of each version (1.3.0: `text/xml` in the OGC namespace; 1.1.1:
 * `application/vnd.ogc.se_xml` with the DTD). Every reflected value goes
 * through XML escaping.
 *
 * @module
 */
import { escapeAttr, escapeText } from "../xml_text.ts";
import { InvalidRequestError } from "../errors.ts";
import type { WmsVersion } from "./_kvp.ts";

/** The exception codes of WMS 1.3.0 (§ Annex A) and 1.1.1 (InvalidSRS). */
export type WmsExceptionCode =
  | "InvalidFormat"
  | "InvalidCRS"
  | "InvalidSRS"
  | "LayerNotDefined"
  | "StyleNotDefined"
  | "LayerNotQueryable"
  | "InvalidPoint"
  | "CurrentUpdateSequence"
  | "InvalidUpdateSequence"
  | "MissingDimensionValue"
  | "InvalidDimensionValue"
  | "OperationNotSupported"
  | "MissingParameterValue"
  | "InvalidParameterValue";

/**
 * A refused WMS request. `code` is left out for errors the standard names no
 * code for (a service that does not exist).
 *
 * @example
 * ```ts
 * const e = new WmsError("LayerNotDefined", "Layer 9 is not defined; layers are 0, 1.", "LAYERS");
 * e.locator; // "LAYERS"
 * ```
 */
export class WmsError extends Error {
  /** The standard code, if any. */
  readonly code: WmsExceptionCode | undefined;
  /** The parameter at fault (the report's `locator`). */
  readonly locator: string | undefined;

  /** Creates the error; `message` should say what to send instead. */
  constructor(code: WmsExceptionCode | undefined, message: string, locator?: string) {
    super(message);
    this.name = "WmsError";
    this.code = code;
    this.locator = locator;
  }
}

/**
 * `e` as a WMS error when it is the client's mistake (a WmsError, or the
 * engine's InvalidRequestError, an InvalidParameterValue); undefined for
 * anything else.
 *
 * @example
 * ```ts
 * import { InvalidRequestError } from "../errors.ts";
 * asWmsError(new InvalidRequestError("Bad extent."))?.code; // "InvalidParameterValue"
 * ```
 */
export function asWmsError(e: unknown): WmsError | undefined {
  if (e instanceof WmsError) return e;
  if (e instanceof InvalidRequestError) return new WmsError("InvalidParameterValue", e.message);
  return undefined;
}

/** Content type of a 1.1.1 exception report. */
export const SE_XML_111 = "application/vnd.ogc.se_xml";

/**
 * The ServiceExceptionReport of `error` in `version`'s form, with its content type.
 *
 * @example
 * ```ts
 * exceptionReport(new WmsError("InvalidCRS", "EPSG:1 is not offered.", "CRS"), "1.3.0").contentType; // "text/xml; charset=utf-8"
 * ```
 */
export function exceptionReport(
  error: WmsError,
  version: WmsVersion,
): { contentType: string; body: string } {
  // 1.1.1 calls the CRS an SRS, and its code says so.
  const code = version === "1.1.1" && error.code === "InvalidCRS" ? "InvalidSRS" : error.code;
  const attrs = (code ? ` code="${escapeAttr(code)}"` : "") +
    (error.locator ? ` locator="${escapeAttr(error.locator)}"` : "");
  const item = `<ServiceException${attrs}>${escapeText(error.message)}</ServiceException>`;
  if (version === "1.1.1") {
    return {
      contentType: SE_XML_111,
      body: `<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n` +
        `<!DOCTYPE ServiceExceptionReport SYSTEM "http://schemas.opengis.net/wms/1.1.1/exception_1_1_1.dtd">\n` +
        `<ServiceExceptionReport version="1.1.1">\n${item}\n</ServiceExceptionReport>\n`,
    };
  }
  return {
    contentType: "text/xml; charset=utf-8",
    body: `<?xml version="1.0" encoding="UTF-8"?>\n` +
      `<ServiceExceptionReport version="1.3.0" xmlns="http://www.opengis.net/ogc" ` +
      `xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ` +
      `xsi:schemaLocation="http://www.opengis.net/ogc http://schemas.opengis.net/wms/1.3.0/exceptions_1_3_0.xsd">\n` +
      `${item}\n</ServiceExceptionReport>\n`,
  };
}
