/**
 * OWS exception reports of the WFS face (OWS 1.1 for WFS 2.0.0 and 1.1.0):
 * one `ows:Exception` with its standard code and the parameter it is
 * about (`locator`), every reflected value escaped.
 *
 * @module
 */
import { escapeAttr, escapeText } from "../xml_text.ts";
import type { WfsReply } from "./_reply.ts";

/** The OWS exception codes the face answers with. */
export type WfsExceptionCode =
  | "InvalidParameterValue"
  | "MissingParameterValue"
  | "OperationNotSupported"
  | "OptionNotSupported"
  | "VersionNegotiationFailed"
  | "OperationParsingFailed"
  | "NotFound"
  | "NoApplicableCode";

/** A request the WFS refuses: its code, a message and the parameter at fault. */
export class WfsError extends Error {
  /** Builds the refusal. */
  constructor(
    readonly code: WfsExceptionCode,
    message: string,
    readonly locator?: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

/**
 * The ExceptionReport of `err` in WFS `version` ("2.0.0" writes OWS 1.1 version 2.0.0).
 *
 * @example
 * ```ts
 * exceptionReport(new WfsError("MissingParameterValue", "REQUEST is missing.", "REQUEST"), "2.0.0").status;
 * // 400
 * ```
 */
export function exceptionReport(err: WfsError, version: string): WfsReply {
  const locator = err.locator === undefined ? "" : ` locator="${escapeAttr(err.locator)}"`;
  const body = `<?xml version="1.0" encoding="UTF-8"?>
<ows:ExceptionReport xmlns:ows="http://www.opengis.net/ows/1.1" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.opengis.net/ows/1.1 http://schemas.opengis.net/ows/1.1.0/owsExceptionReport.xsd" version="${
    version === "1.1.0" ? "1.1.0" : "2.0.0"
  }" xml:lang="en">
  <ows:Exception exceptionCode="${err.code}"${locator}>
    <ows:ExceptionText>${escapeText(err.message)}</ows:ExceptionText>
  </ows:Exception>
</ows:ExceptionReport>
`;
  return { status: err.status, contentType: "text/xml; charset=utf-8", body };
}
