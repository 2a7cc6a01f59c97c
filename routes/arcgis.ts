/**
 * HTTP handlers of the ArcGIS SOAP endpoints:
 *
 * - `POST /arcgis/services/{Service}/MapServer`: SOAP 1.1 requests (any or
 *   no SOAPAction; dispatch is on the Body's first element);
 * - `GET  /arcgis/services/{Service}/MapServer?wsdl` (also `?token=..&wsdl`);
 * - `POST /arcgis/services` and `GET /arcgis/services?wsdl`: the catalog.
 *
 * Paths match case-insensitively, as ArcGIS Server's do. Bodies are parsed
 * as they arrive, within a server-wide byte budget ({@link BodyBudget}).
 *
 * @module
 */
import type { MapServer } from "../map/mod.ts";
import { type Face, type Route, route } from "./router.ts";
import {
  createSoapFace,
  type SoapBody,
  type SoapFace,
  type SoapReply,
} from "../map/soap/server.ts";
import {
  BodyBudget,
  BodyTooLargeError,
  BudgetBusyError,
  declaredTooLarge,
  limitBody,
} from "./_body_budget.ts";
import { faultEnvelope } from "../map/soap/envelope.ts";
import { SoapFault } from "../map/soap/fault.ts";
import { DEFAULT_NAMESPACE } from "../map/soap/envelope.ts";
import { SOAP_CONTENT_TYPE } from "../map/soap/dispatch.ts";

export { BodyBudget, type BodyBudgetOptions, DEFAULT_BODY_BUDGET } from "./_body_budget.ts";

/** Default request body limit (bytes). */
export const DEFAULT_MAX_SOAP_BODY = 10 * 1024 * 1024;

/** What the ArcGIS routes need from the application. */
export interface ArcgisRoutesContext {
  maps: MapServer;
  /** The SOAP face over `maps` (default: one with every operation, errors unlogged). */
  soap?: SoapFace;
  /** Public base URL of a request (`http://host:port`, no trailing slash). */
  baseUrl: (req: Request) => string;
  /** Request body limit in bytes (default 10 MiB). */
  maxBodyBytes?: number;
  /**
   * Server-wide budget of request bodies read at once (default: a budget of 64 MiB of its
   * own). A request that finds no room waits, then gets a 503 Fault with Retry-After.
   */
  bodyBudget?: BodyBudget;
}

const XML_HEADERS = { "content-type": SOAP_CONTENT_TYPE, "cache-control": "no-store" };

function xmlResponse(body: string, status = 200): Response {
  return new Response(body, { status, headers: XML_HEADERS });
}

function replyResponse(r: SoapReply): Response {
  return new Response(r.body, {
    status: r.status,
    headers: { "content-type": r.contentType, "cache-control": "no-store" },
  });
}

function faultResponse(fault: SoapFault, status = 500): Response {
  return xmlResponse(faultEnvelope(DEFAULT_NAMESPACE, fault), status);
}

/**
 * 413 with a Client fault. The connection stays open: the server drops the
 * rest of the body as it comes (within the body timeout), so a client that
 * sends it all before reading still gets this answer rather than a reset.
 */
function tooLargeResponse(limit: number): Response {
  return faultResponse(tooLarge(limit), 413);
}

/** True for `?wsdl`, `?WSDL`, `?token=x&wsdl`, ... */
function wantsWsdl(req: Request): boolean {
  for (const key of new URL(req.url).searchParams.keys()) {
    if (key.toLowerCase() === "wsdl") return true;
  }
  return false;
}

function tooLarge(limit: number): SoapFault {
  return new SoapFault(
    "Client",
    `The request body is larger than the limit of ${limit} bytes.`,
    { Limit: limit },
  );
}

/**
 * The body as decoded text pieces (UTF-8, or UTF-16 with a BOM), as they
 * arrive: nothing is buffered, so the parser holds only the tree it builds.
 * `body` comes cut at the limit ({@link limitBody}); a body over it, or one
 * that cannot be read, is a Client fault (and `onTooLarge` is told).
 */
async function* bodyText(
  body: ReadableStream<Uint8Array>,
  onTooLarge: (err: BodyTooLargeError) => void,
): AsyncGenerator<string> {
  const reader = body.getReader();
  let decoder: TextDecoder | undefined;
  let head: Uint8Array = new Uint8Array(0);
  try {
    while (true) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (err) {
        if (err instanceof BodyTooLargeError) {
          onTooLarge(err);
          throw tooLarge(err.limit);
        }
        throw new SoapFault("Client", "The request body could not be read.");
      }
      if (chunk.done) break;
      const value = chunk.value;
      if (!decoder) {
        // The encoding is known once two bytes (a possible BOM) are in.
        head = concat(head, value);
        if (head.byteLength < 2) continue;
        decoder = new TextDecoder(bomEncoding(head));
        yield decoder.decode(head, { stream: true });
        continue;
      }
      yield decoder.decode(value, { stream: true });
    }
    if (!decoder) yield new TextDecoder().decode(head);
    else yield decoder.decode();
  } finally {
    await reader.cancel().catch(() => {});
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.byteLength === 0) return b;
  const out = new Uint8Array(a.byteLength + b.byteLength);
  out.set(a);
  out.set(b, a.byteLength);
  return out;
}

/** UTF-16 bodies announce themselves with a byte-order mark; everything else is read as UTF-8. */
function bomEncoding(b: Uint8Array): string {
  if (b[0] === 0xff && b[1] === 0xfe) return "utf-16le";
  if (b[0] === 0xfe && b[1] === 0xff) return "utf-16be";
  return "utf-8";
}

function textResponse(status: number, message: string) {
  return new Response(message + "\n", {
    status,
    headers: { "content-type": "text/plain; charset=utf-8" },
  });
}

function notFound(message: string): Response {
  return textResponse(404, message);
}

/**
 * The ArcGIS SOAP routes.
 *
 * @example
 * ```ts
 * import type { MapServer } from "../map/mod.ts";
 * declare const maps: MapServer;
 * const routes = arcgisRoutes({ maps, baseUrl: (req) => new URL(req.url).origin });
 * ```
 */
export function arcgisRoutes(ctx: ArcgisRoutesContext): Route[] {
  const limit = ctx.maxBodyBytes ?? DEFAULT_MAX_SOAP_BODY;
  const budget = ctx.bodyBudget ?? new BodyBudget();
  const soap = ctx.soap ?? createSoapFace(ctx.maps);

  /**
   * Reserves the body's size in the server-wide budget (its Content-Length, or the limit when
   * it is sent chunked), then streams it into the SOAP parser; the bytes are given back once
   * the reply is built, since the parsed tree lives until then.
   */
  async function answer(req: Request, call: (body: SoapBody) => Promise<SoapReply>) {
    if (declaredTooLarge(req, limit)) return tooLargeResponse(limit);
    const release = await budget.reserveFor(req, limit);
    if (release instanceof BudgetBusyError) {
      const res = faultResponse(new SoapFault("Server", release.message), 503);
      res.headers.set("retry-after", "5");
      // Closing spares the server reading (and dropping) a body it never wanted.
      res.headers.set("connection", "close");
      return res;
    }
    let over = false;
    const text = bodyText(limitBody(req.body, limit), () => over = true);
    try {
      const reply = await call(text);
      // Whatever the operation made of the fault, the answer to a body over the limit is 413.
      return over ? tooLargeResponse(limit) : replyResponse(reply);
    } finally {
      release();
    }
  }
  const service = "/arcgis/services/:service/MapServer{/}?";
  const catalog = "/arcgis/services{/}?";

  return [
    route({
      path: service,
      ignoreCase: true,
      face: SOAP_FACE,
      decode: ["service"],
      methods: {
        GET(req, match) {
          const name = match.pathname.groups.service!;
          const s = ctx.maps.service(name);
          if (!s) {
            return notFound(
              `Service "${name}" does not exist. Published services: ${
                ctx.maps.services.map((x) => x.name).join(", ") || "none"
              }.`,
            );
          }
          if (!wantsWsdl(req)) {
            return new Response(
              `This is the SOAP endpoint of map service ${s.name}. Fetch its WSDL with ?wsdl; send SOAP requests with POST.\n`,
              { status: 400, headers: { "content-type": "text/plain; charset=utf-8" } },
            );
          }
          const endpoint = soap.serviceUrl(s, { baseUrl: ctx.baseUrl(req) });
          return xmlResponse(soap.wsdl(s.name, endpoint)!);
        },
        POST(req, match) {
          const name = match.pathname.groups.service!;
          return answer(req, (body) => soap.soap(name, body, { baseUrl: ctx.baseUrl(req) }));
        },
      },
    }),
    route({
      path: catalog,
      ignoreCase: true,
      face: SOAP_FACE,
      methods: {
        GET(req) {
          if (!wantsWsdl(req)) {
            return new Response(
              "This is the ArcGIS SOAP service catalog. Fetch its WSDL with ?wsdl; send SOAP requests with POST.\n",
              { status: 400, headers: { "content-type": "text/plain; charset=utf-8" } },
            );
          }
          return xmlResponse(soap.catalogWsdl(`${ctx.baseUrl(req)}/arcgis/services`));
        },
        POST(req) {
          return answer(req, (body) => soap.catalogSoap(body, { baseUrl: ctx.baseUrl(req) }));
        },
      },
    }),
  ];
}

/**
 * How the SOAP endpoints refuse: a method they do not speak is a 405 in
 * plain text (such a client speaks no SOAP), with no OPTIONS; a service name
 * that is not UTF-8 is a Client Fault to a POST and plain text to a GET.
 * HEAD answers like GET without the body (link checkers, proxies probing the WSDL).
 */
const SOAP_FACE: Face = {
  options: false,
  methodNotAllowed: (req) =>
    textResponse(
      405,
      `Method ${req.method} is not allowed here: send SOAP requests with POST and fetch the WSDL with GET ?wsdl.`,
    ),
  badPath: (req, _url, message) =>
    req.method === "POST"
      ? faultResponse(new SoapFault("Client", message), 400)
      : textResponse(400, message),
};
