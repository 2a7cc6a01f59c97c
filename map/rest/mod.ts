/**
 * The ArcGIS REST face of the map server (ArcGIS Server 10.3 conventions),
 * beside the SOAP face in `map/soap`: it reads REST parameters, builds the
 * typed requests of the SAME operations SOAP calls (`map/ops`), and writes
 * their answers as ArcGIS REST JSON (`f=json`, `pjson`, `html`, JSONP) or
 * files. The renderer and the operations never import this folder.
 *
 * Adding an endpoint (e.g. `/export`):
 * 1. write `map/rest/_export.ts` exporting a {@link RestEndpoint}: `path`
 *    is a URLPattern pathname under `/arcgis/rest`, matched
 *    case-insensitively (`/services/:service/MapServer/export`); list any
 *    `formats` beyond json/pjson/html (`["image"]`); `handle(call)` returns
 *    a JSON value, or a {@link RestFile} for bytes (`f=image`);
 * 2. build the operation's typed request from `call.params` in
 *    `_requests.ts` (the one module that turns REST parameters into
 *    `map/ops` requests), resolve the service with `serviceOf` and
 *    call the operation with `operationContext` (`endpoint.ts`);
 * 3. add the endpoint to {@link REST_ENDPOINTS} and a row to the endpoint
 *    table of `docs/rest.md`.
 * Bad input: throw `InvalidRequestError` (code 400) or {@link RestError}
 * (404 for unknown things); anything else is logged and answered with code
 * 500. Errors are HTTP 200 with the ArcGIS error body, as ArcGIS sends them.
 *
 * @module
 */
import type { MapServer, RequestUrls } from "../mod.ts";
import type { RestCall, RestEndpoint } from "./endpoint.ts";
import type { RestParams } from "./params.ts";
import {
  errorBody,
  isCallbackName,
  JSON_FORMATS,
  RestError,
  RestFile,
  type RestReply,
  type RestWords,
  writeJson,
} from "./reply.ts";
import { SERVICE_ENDPOINTS } from "./_services.ts";
import { EXPORT_ENDPOINT } from "./_export.ts";
import { FIND_ENDPOINT, IDENTIFY_ENDPOINT } from "./_search.ts";
import { LEGEND_ENDPOINT, LEGEND_IMAGE_ENDPOINT } from "./_legend.ts";
import { LAYER_ENDPOINTS } from "./_layers.ts";
import { QUERY_ENDPOINTS } from "./_query.ts";
import { SwatchCache } from "./_swatch_cache.ts";
import { errorPage, HTML_PAGES, type HtmlPage, htmlReply } from "./html/mod.ts";
import { decodePathPart, PERCENT_ESCAPE_MESSAGE } from "../percent.ts";
import { PathPattern } from "../path_pattern.ts";

export { RestParams } from "./params.ts";
export {
  frameOf,
  layerOf,
  operationContext,
  type RestCall,
  type RestEndpoint,
  serviceOf,
} from "./endpoint.ts";
export { RestError, RestFile, type RestReply } from "./reply.ts";

/** Every endpoint, walked in order (more specific paths first where two could match). */
export const REST_ENDPOINTS: readonly RestEndpoint[] = [
  ...SERVICE_ENDPOINTS,
  EXPORT_ENDPOINT,
  IDENTIFY_ENDPOINT,
  FIND_ENDPOINT,
  LEGEND_ENDPOINT,
  LEGEND_IMAGE_ENDPOINT,
  ...LAYER_ENDPOINTS,
  ...QUERY_ENDPOINTS,
];

/** Options of {@link createRestApi}. */
export interface RestApiOptions {
  /** Endpoints to serve (default {@link REST_ENDPOINTS}). */
  endpoints?: readonly RestEndpoint[];
  /** Called with each unexpected error (logging); the client gets code 500. */
  onError?: (error: unknown, path: string) => void;
  /** Bytes of legend swatch images kept for `/images/` requests (default 8 MiB). */
  swatchCacheBytes?: number;
  /** The `f=html` Services Directory page of each endpoint that has one (default {@link HTML_PAGES}). */
  pages?: ReadonlyMap<RestEndpoint, HtmlPage>;
}

/** The REST face: answers one request addressed below `/arcgis/rest`. */
export interface RestApi {
  /**
   * Answers `path` (the raw pathname after `/arcgis/rest`, still
   * percent-encoded) with `params`; never throws.
   */
  handle(path: string, params: RestParams, urls: RequestUrls): Promise<RestReply>;
}

interface Compiled {
  endpoint: RestEndpoint;
  pattern: PathPattern;
}

function decodeGroups(groups: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(groups)) {
    if (v === undefined) continue;
    const decoded = decodePathPart(v);
    if (decoded === undefined) throw new RestError(400, PERCENT_ESCAPE_MESSAGE);
    out[k] = decoded;
  }
  return out;
}

/**
 * Builds the REST face over a map server.
 *
 * @example
 * ```ts ignore
 * const rest = createRestApi(maps);
 * const reply = await rest.handle("/services", new RestParams(new URLSearchParams("f=json")), {
 *   baseUrl: "http://127.0.0.1:8000",
 * });
 * ```
 */
export function createRestApi(maps: MapServer, opts: RestApiOptions = {}): RestApi {
  const compiled: Compiled[] = (opts.endpoints ?? REST_ENDPOINTS).map((endpoint) => ({
    endpoint,
    pattern: new PathPattern(endpoint.path, { ignoreCase: true }),
  }));
  const swatches = new SwatchCache(opts.swatchCacheBytes);
  const pages = opts.pages ?? HTML_PAGES;

  async function handle(rawPath: string, params: RestParams, urls: RequestUrls) {
    // `.../MapServer/` is `.../MapServer`, as ArcGIS Server reads it.
    const path = rawPath.length > 1 ? rawPath.replace(/\/+$/, "") : rawPath;
    const callback = params.string("callback");
    if (callback !== undefined && !isCallbackName(callback)) {
      return writeError(
        new RestError(400, "Invalid callback: use letters, digits, '_', '$' and dots only.", [
          "'callback' parameter is invalid",
        ]),
        { format: "json" },
      );
    }
    const requested = (params.string("f") ?? "html").trim().toLowerCase();
    const out = { format: requested, callback, title: `ArcGIS REST: ${path}` };
    let words: RestWords = {};
    try {
      const hit = find(path);
      if (!hit) {
        throw new RestError(404, `The requested resource '/arcgis/rest${path}' does not exist.`);
      }
      const { endpoint, groups } = hit;
      words = endpoint.words ?? {};
      const formats = [...JSON_FORMATS, ...(endpoint.formats ?? [])];
      if (!formats.includes(requested)) {
        out.format = "json";
        throw new RestError(
          400,
          `Invalid format '${requested}': this resource answers f=${formats.join(", f=")}.`,
          ["'f' parameter is invalid"],
        );
      }
      const call: RestCall = { params, path: groups, format: requested, urls, maps, swatches };
      if (endpoint.title) out.title = endpoint.title(call);
      const page = requested === "html" ? pages.get(endpoint) : undefined;
      if (page) return htmlReply(await page(call, endpoint));
      const value = await endpoint.handle(call);
      if (value instanceof RestFile) {
        return { status: 200, contentType: value.contentType, body: value.body };
      }
      return writeJson(value, {
        ...out,
        format: requested === "geojson" ? "json" : requested,
        jsonType: requested === "geojson" && !callback ? "application/geo+json" : undefined,
      });
    } catch (err) {
      return writeError(err, out, words);
    }
  }

  function find(path: string): { endpoint: RestEndpoint; groups: Record<string, string> } | null {
    for (const c of compiled) {
      const groups = c.pattern.exec(path);
      if (groups) return { endpoint: c.endpoint, groups: decodeGroups(groups) };
    }
    return null;
  }

  function writeError(
    err: unknown,
    out: { format: string; callback?: string; title?: string },
    words: RestWords = {},
  ): RestReply {
    const { body, server } = errorBody(err, words);
    if (server) opts.onError?.(err, out.title ?? "");
    if (out.format === "html") return htmlReply(errorPage(body.error));
    const format = out.format === "pjson" || out.format === "html" ? out.format : "json";
    return writeJson(body, { ...out, format });
  }

  return {
    async handle(path, params, urls) {
      try {
        return await handle(path, params, urls);
      } catch (err) {
        // Only writing itself could get here; never let it take the server down.
        opts.onError?.(err, path);
        return writeJson(errorBody(err).body, { format: "json" });
      }
    },
  };
}
