/**
 * The HTTP face of the product: one handler that routes the JSON API, the
 * ArcGIS SOAP endpoints and the map files, and answers everything else with
 * a JSON 404.
 *
 * @module
 */
import { createRouter, type Route } from "./router.ts";
import { apiRoutes } from "./api.ts";
import type { ApiContext } from "./_api_data.ts";
import { errorResponse, notFound } from "./_drf.ts";
import { withCommonHeaders } from "./_common_headers.ts";
import { isValidHost } from "./context.ts";
import { ResponseCache } from "./_response_cache.ts";

export type { Face, Methods, Route, RouteHandler, RouteSpec } from "./router.ts";
export { createRouter, route } from "./router.ts";
export { COMMON_HEADERS, withCommonHeaders } from "./_common_headers.ts";
export type {
  ApiContext,
  ApiData,
  ListCollection,
  ListPage,
  ListRequest,
  PageEnvelope,
  PageInfo,
} from "./_api_data.ts";
export { baseUrl, type UrlOptions } from "./context.ts";
export { v8MinorGc, YOUNG_GC_BYTES, YoungCollector } from "./_young_gc.ts";
export {
  type MallocControl,
  type MallocStats,
  MallocTrimmer,
  type MallocTrimmerOptions,
  openGlibcMalloc,
} from "./_malloc_trim.ts";

/** Everything the HTTP layer serves. */
export interface AppOptions extends ApiContext {
  /** Further routes (the map server's), walked after the API's. */
  extraRoutes?: Route[];
  /** Size of the rendered-body cache in bytes (default 16 MiB; 0 turns it off). */
  responseCacheBytes?: number;
  /** Called with each finished request when access logging is on. */
  log?: (req: Request, res: Response, ms: number) => void;
}

/** Methods some route of the server takes (the API answers the others of these 405). */
const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "OPTIONS", "PUT", "PATCH", "DELETE"]);

/**
 * The answer for a path no route knows (the routes answer 405 themselves):
 * 501 for a method no route of the server takes (TRACE, TRACK, CONNECT,
 * any other token), else 404.
 */
function unrouted(req: Request): Response {
  return KNOWN_METHODS.has(req.method.toUpperCase()) ? notFound() : notImplemented(req.method);
}

/** 501: the server takes `method` for no resource (RFC 9110, 15.6.2). */
function notImplemented(method: string): Response {
  const res = errorResponse(501, `Method "${method}" is not implemented by this server.`);
  res.headers.delete("allow");
  return res;
}

/**
 * Builds the server's request handler. Unexpected exceptions become a JSON
 * 500 and are logged; they never take the process down. Every answer gets
 * the common headers (CORS, nosniff; `_common_headers.ts`), and a method no
 * route takes anywhere gets 501 rather than a face's 404.
 *
 * @example
 * ```ts
 * import type { ApiData } from "./_api_data.ts";
 * declare const data: ApiData;
 * Deno.serve({ port: 8000 }, createApp({ data, trustProxy: false }));
 * ```
 */
export function createApp(
  opts: AppOptions,
): (req: Request, info?: Deno.ServeHandlerInfo) => Promise<Response> {
  const cacheBytes = opts.responseCacheBytes ?? 16 * 2 ** 20;
  const api = cacheBytes > 0 ? { ...opts, responseCache: new ResponseCache(cacheBytes) } : opts;
  const routes = [...apiRoutes(api), ...(opts.extraRoutes ?? [])];
  const route = createRouter(routes, unrouted);
  // Clients send the same Host on every request: the last one's verdict is reused.
  let lastHost: string | null = null;
  let lastHostValid = true;
  const validHost = (host: string | null) => {
    if (host === null) return true;
    if (host !== lastHost) {
      lastHostValid = isValidHost(host);
      lastHost = host;
    }
    return lastHostValid;
  };
  return async function handle(req, info) {
    const started = opts.log ? performance.now() : 0;
    let res: Response;
    try {
      // Links are built from Host, so a malformed one is refused before
      // routing, as Django does (some forms would not even parse as a URL).
      res = !validHost(req.headers.get("host"))
        ? errorResponse(400, "Invalid Host header.")
        : await route(req, info);
      // A face's 404 to a method the server takes nowhere (`/api/v1/x/` with TRACE).
      if (res.status === 404 && !KNOWN_METHODS.has(req.method.toUpperCase())) {
        res = notImplemented(req.method);
      }
    } catch (err) {
      console.error(`${new Date().toISOString()} ${req.method} ${req.url} failed:`, err);
      res = new Response(JSON.stringify({ detail: "Internal server error." }), {
        status: 500,
        headers: { "content-type": "application/json" },
      });
    }
    res = withCommonHeaders(req, res);
    opts.log?.(req, res, performance.now() - started);
    return res;
  };
}
