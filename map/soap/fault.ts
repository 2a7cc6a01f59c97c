/**
 * The one error type of the SOAP layer. Anything thrown as a `SoapFault`
 * reaches the client as a SOAP 1.1 Fault with this code and message; any
 * other exception becomes a `soap:Server` fault with a generic message.
 *
 * @module
 */

/** SOAP 1.1 fault codes (§4.4.1). Client = bad request, Server = our failure. */
export type SoapFaultCode = "Client" | "Server" | "VersionMismatch" | "MustUnderstand";

/** Extra machine-readable facts written into the fault's `detail`. */
export type SoapFaultDetail = Record<string, string | number | boolean>;

/**
 * A SOAP Fault to send back instead of a response.
 *
 * @example
 * ```ts
 * throw new SoapFault("Client", "Map 'Roads' does not exist. Use GetMapName to list maps.", {
 *   MapName: "Roads",
 * });
 * ```
 */
export class SoapFault extends Error {
  /** Fault code without prefix; written as `soap:<code>`. */
  readonly code: SoapFaultCode;
  /** Optional key/value facts for `detail`. */
  readonly detail?: SoapFaultDetail;

  /** Creates a fault; `message` becomes `faultstring` and should tell the user what to change. */
  constructor(code: SoapFaultCode, message: string, detail?: SoapFaultDetail) {
    super(message);
    this.name = "SoapFault";
    this.code = code;
    this.detail = detail;
  }
}

/** True when `e` is a SoapFault (also across module copies). */
export function isSoapFault(e: unknown): e is SoapFault {
  return e instanceof SoapFault ||
    (e instanceof Error && e.name === "SoapFault" && typeof (e as SoapFault).code === "string");
}
