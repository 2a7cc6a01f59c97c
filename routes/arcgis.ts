/**
 * HTTP handlers of the ArcGIS SOAP endpoints:
 *
 * - `POST /arcgis/services/{Service}/MapServer`: SOAP 1.1 requests (any or
 *   no SOAPAction; dispatch is on the Body's first element);
 * - `GET  /arcgis/services/{Service}/MapServer?wsdl` (also `?token=..&wsdl`);
 * - `POST /arcgis/services` and `GET /arcgis/services?wsdl`: the catalog.
 *
 * Paths match case-insensitively, as ArcGIS Server's do.
 *
 * @module
 */
import type { MapServer, SoapReply } from "../map/mod.ts";
import { faultEnvelope } from "../map/soap/envelope.ts";
import { SoapFault } from "../map/soap/fault.ts";
import { DEFAULT_NAMESPACE } from "../map/soap/envelope.ts";
import { SOAP_CONTENT_TYPE } from "../map/soap/dispatch.ts";

/** Default request body limit (bytes). */
export const DEFAULT_MAX_SOAP_BODY = 10 * 1024 * 1024;

/** What the ArcGIS routes need from the application. */
export interface ArcgisRoutesContext {
  maps: MapServer;
  /** Public base URL of a request (`http://host:port`, no trailing slash). */
  baseUrl: (req: Request) => string;
  /** Request body limit in bytes (default 10 MiB). */
  maxBodyBytes?: number;
}

/** One route entry, in the shape the application router walks. */
export interface ArcgisRoute {
  pattern: URLPattern;
  /** HTTP method; undefined answers any method (the 405 fallbacks, walked last). */
  method?: string;
  handler: (req: Request, match: URLPatternResult) => Response | Promise<Response>;
}

/** Methods a SOAP endpoint answers (the `Allow` header of its 405). */
const ALLOW = "GET, HEAD, POST";

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

/** Reads the body as text (UTF-8, or UTF-16 with a BOM), refusing more than `limit` bytes without buffering them. */
async function readBody(req: Request, limit: number): Promise<string> {
  const declared = Number(req.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  if (!req.body) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = req.body.getReader();
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.byteLength;
  }
  return new TextDecoder(bomEncoding(all)).decode(all);
}

/** UTF-16 bodies announce themselves with a byte-order mark; everything else is read as UTF-8. */
function bomEncoding(b: Uint8Array): string {
  if (b[0] === 0xff && b[1] === 0xfe) return "utf-16le";
  if (b[0] === 0xfe && b[1] === 0xff) return "utf-16be";
  return "utf-8";
}

/** Raised for a path whose percent-escapes are not UTF-8 (`%FF`): the client's mistake, a 400. */
class MalformedPath extends Error {
  constructor() {
    super(
      "The request path contains an invalid percent-escape: escapes must encode UTF-8 (e.g. %C3%A9, not %FF).",
    );
  }
}

function serviceName(match: URLPatternResult): string {
  try {
    return decodeURIComponent(match.pathname.groups.service ?? "");
  } catch {
    throw new MalformedPath();
  }
}

function textResponse(status: number, message: string, headers: Record<string, string> = {}) {
  return new Response(message + "\n", {
    status,
    headers: { "content-type": "text/plain; charset=utf-8", ...headers },
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
 * const routes = arcgisRoutes({ maps, baseUrl: (req) => new URL(req.url).origin });
 * ```
 */
export function arcgisRoutes(ctx: ArcgisRoutesContext): ArcgisRoute[] {
  const limit = ctx.maxBodyBytes ?? DEFAULT_MAX_SOAP_BODY;
  const opts = { ignoreCase: true };
  const service = new URLPattern({ pathname: "/arcgis/services/:service/MapServer{/}?" }, opts);
  const catalog = new URLPattern({ pathname: "/arcgis/services{/}?" }, opts);

  const routes: ArcgisRoute[] = [
    {
      pattern: service,
      method: "POST",
      async handler(req, match) {
        try {
          const body = await readBody(req, limit);
          return replyResponse(
            await ctx.maps.soap(serviceName(match), body, { baseUrl: ctx.baseUrl(req) }),
          );
        } catch (e) {
          if (e instanceof MalformedPath) {
            return faultResponse(new SoapFault("Client", e.message), 400);
          }
          if (e instanceof SoapFault) return faultResponse(e);
          return faultResponse(new SoapFault("Client", "The request body could not be read."));
        }
      },
    },
    {
      pattern: service,
      method: "GET",
      handler(req, match) {
        let name: string;
        try {
          name = serviceName(match);
        } catch (e) {
          if (e instanceof MalformedPath) return textResponse(400, e.message);
          throw e;
        }
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
        const endpoint = ctx.maps.serviceUrl(s, { baseUrl: ctx.baseUrl(req) });
        return xmlResponse(ctx.maps.wsdl(s.name, endpoint)!);
      },
    },
    {
      pattern: catalog,
      method: "POST",
      async handler(req) {
        try {
          const body = await readBody(req, limit);
          return replyResponse(await ctx.maps.catalogSoap(body, { baseUrl: ctx.baseUrl(req) }));
        } catch (e) {
          if (e instanceof SoapFault) return faultResponse(e);
          return faultResponse(new SoapFault("Client", "The request body could not be read."));
        }
      },
    },
    {
      pattern: catalog,
      method: "GET",
      handler(req) {
        if (!wantsWsdl(req)) {
          return new Response(
            "This is the ArcGIS SOAP service catalog. Fetch its WSDL with ?wsdl; send SOAP requests with POST.\n",
            { status: 400, headers: { "content-type": "text/plain; charset=utf-8" } },
          );
        }
        return xmlResponse(ctx.maps.catalogWsdl(`${ctx.baseUrl(req)}/arcgis/services`));
      },
    },
  ];
  // HEAD answers like GET without the body (link checkers, proxies probing the WSDL).
  for (const r of routes.filter((r) => r.method === "GET")) {
    routes.push({
      pattern: r.pattern,
      method: "HEAD",
      async handler(req, match) {
        const res = await r.handler(req, match);
        return new Response(null, { status: res.status, headers: res.headers });
      },
    });
  }
  // Any other method on an endpoint is 405 with Allow (not the 404 a fall-through would give):
  // the resource exists, only the method is wrong. Plain text, since such a client speaks no SOAP.
  for (const pattern of [service, catalog]) {
    routes.push({
      pattern,
      method: undefined,
      handler: (req) =>
        textResponse(
          405,
          `Method ${req.method} is not allowed here: send SOAP requests with POST and fetch the WSDL with GET ?wsdl.`,
          { allow: ALLOW },
        ),
    });
  }
  return routes;
}
