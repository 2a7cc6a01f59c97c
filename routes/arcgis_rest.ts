/**
 * HTTP face of the ArcGIS REST API (`/arcgis/rest/...`, answered by
 * `map/rest`): GET query strings and POST form bodies
 * (`application/x-www-form-urlencoded` or `multipart/form-data`), HEAD,
 * CORS for any origin (with OPTIONS preflight). The tile and output-file
 * routes (`arcgis_files.ts`) are walked first; everything else below
 * `/arcgis/rest` comes here, and an unknown resource is the ArcGIS 404 error.
 *
 * @module
 */
import type { MapServer, RequestUrls } from "../map/mod.ts";
import { joinBytes } from "./_bytes.ts";
import { createRestApi, type RestEndpoint, RestParams, type RestReply } from "../map/rest/mod.ts";

/** What the REST routes need from the application. */
export interface ArcgisRestContext {
  maps: MapServer;
  /** Public base URL of a request (`http://host:port`, no trailing slash). */
  baseUrl: (req: Request) => string;
  /** Endpoints (default: every REST endpoint). */
  endpoints?: readonly RestEndpoint[];
  /** Largest form body in bytes (default 10 MiB). */
  maxBodyBytes?: number;
  /** Called with unexpected errors (logging). */
  onError?: (error: unknown, path: string) => void;
}

/** One route entry, in the shape the application router walks. */
export interface ArcgisRestRoute {
  pattern: URLPattern;
  method?: string;
  handler: (req: Request, match: URLPatternResult) => Response | Promise<Response>;
}

const CORS = { "access-control-allow-origin": "*" };
const PREFIX = "/arcgis/rest";

function reply(r: RestReply, head: boolean): Response {
  const body = typeof r.body === "string" ? r.body : r.body as Uint8Array<ArrayBuffer>;
  return new Response(head ? null : body, {
    status: r.status,
    headers: { ...CORS, "content-type": r.contentType },
  });
}

/** The form fields of a POST body; other media types are refused with the reason. */
async function formParams(req: Request, limit: number): Promise<URLSearchParams | string> {
  const type = (req.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > limit) return `The request body is larger than the limit of ${limit} bytes.`;
  if (type === "" && declared === 0) return new URLSearchParams();
  if (type === "application/x-www-form-urlencoded") {
    const bytes = await readLimited(req, limit);
    if (bytes === null) return `The request body is larger than the limit of ${limit} bytes.`;
    return new URLSearchParams(new TextDecoder().decode(bytes));
  }
  if (type === "multipart/form-data") {
    try {
      const form = await req.formData();
      const out = new URLSearchParams();
      for (const [k, v] of form) if (typeof v === "string") out.append(k, v);
      return out;
    } catch {
      return "The multipart/form-data body could not be read.";
    }
  }
  return `POST bodies must be application/x-www-form-urlencoded (or multipart/form-data), not '${type}'.`;
}

async function readLimited(req: Request, limit: number): Promise<Uint8Array | null> {
  if (!req.body) return new Uint8Array(0);
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of req.body) {
    size += chunk.byteLength;
    if (size > limit) return null;
    parts.push(chunk);
  }
  return joinBytes("", parts, "", "");
}

/**
 * The REST routes: one pattern for everything below `/arcgis/rest`, walked
 * after the tile and output-file routes.
 *
 * @example
 * ```ts ignore
 * const routes = [...arcgisFileRoutes(files), ...arcgisRestRoutes({ maps, baseUrl })];
 * ```
 */
export function arcgisRestRoutes(ctx: ArcgisRestContext): ArcgisRestRoute[] {
  const rest = createRestApi(ctx.maps, { endpoints: ctx.endpoints, onError: ctx.onError });
  const limit = ctx.maxBodyBytes ?? 10 * 1024 * 1024;
  const pattern = new URLPattern({ pathname: `${PREFIX}{/*}?` }, { ignoreCase: true });

  async function answer(req: Request): Promise<Response> {
    const url = new URL(req.url);
    const path = url.pathname.slice(PREFIX.length) || "/";
    const urls: RequestUrls = { baseUrl: ctx.baseUrl(req) };
    const query = url.searchParams;
    let params = new RestParams(query);
    if (req.method === "POST") {
      const form = await formParams(req, limit);
      if (typeof form === "string") {
        const error = { error: { code: 400, message: form, details: [] } };
        return reply({
          status: 200,
          contentType: "application/json; charset=utf-8",
          body: JSON.stringify(error),
        }, false);
      }
      params = new RestParams(query, form);
    }
    return reply(await rest.handle(path, params, urls), req.method === "HEAD");
  }

  return [
    { pattern, method: "GET", handler: answer },
    { pattern, method: "HEAD", handler: answer },
    { pattern, method: "POST", handler: answer },
    {
      pattern,
      method: "OPTIONS",
      handler: (req) =>
        new Response(null, {
          status: 204,
          headers: {
            ...CORS,
            "access-control-allow-methods": "GET, HEAD, POST, OPTIONS",
            "access-control-allow-headers": req.headers.get("access-control-request-headers") ??
              "content-type",
            "access-control-max-age": "86400",
          },
        }),
    },
  ];
}
