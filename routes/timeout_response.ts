/**
 * The `408 Request Timeout` answer to a request whose body did not arrive in
 * time, in the form of the protocol the client speaks: a SOAP Fault on the
 * ArcGIS SOAP endpoints, DRF's `{"detail": ...}` everywhere else.
 *
 * @module
 */
import { errorResponse } from "./_drf.ts";
import { withCommonHeaders } from "./_common_headers.ts";
import { DEFAULT_NAMESPACE, faultEnvelope } from "../map/soap/envelope.ts";
import { SoapFault } from "../map/soap/fault.ts";
import { SOAP_CONTENT_TYPE } from "../map/soap/dispatch.ts";

/**
 * The 408 for `req` with `message`; it asks the client to close the
 * connection (the server closes it too).
 *
 * @example
 * ```ts
 * const res = bodyTimeoutResponse(
 *   new Request("http://x/arcgis/services/Recruitment/MapServer", { method: "POST" }),
 *   "The request body did not arrive within 60 seconds.",
 * );
 * res.status; // 408, a soap:Client Fault
 * ```
 */
export function bodyTimeoutResponse(req: Request, message: string): Response {
  const path = new URL(req.url).pathname.toLowerCase();
  let res: Response;
  if (path.startsWith("/arcgis/services")) {
    res = new Response(faultEnvelope(DEFAULT_NAMESPACE, new SoapFault("Client", message)), {
      status: 408,
      headers: { "content-type": SOAP_CONTENT_TYPE, "cache-control": "no-store" },
    });
  } else {
    res = errorResponse(408, message);
  }
  res.headers.set("connection", "close");
  // Built outside the application's handler, so its common headers are added here.
  return withCommonHeaders(req, res);
}
