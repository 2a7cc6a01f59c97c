/**
 * HTTP face of the ArcGIS REST API (`/arcgis/rest/...`, answered by
 * `map/rest`): GET query strings and POST form bodies
 * (`application/x-www-form-urlencoded` or `multipart/form-data`), HEAD and
 * OPTIONS (the router's; CORS headers and preflights are the application's, see
 * `_common_headers.ts`). The tile and output-file
 * routes (`arcgis_files.ts`) are walked first; everything else below
 * `/arcgis/rest` comes here, and an unknown resource is the ArcGIS 404 error.
 *
 * @module
 */
import type { MapServer, RequestUrls } from "../map/mod.ts";
import { type Face, type Route, route } from "./router.ts";
import { BodyBudget, BodyTooLargeError, declaredTooLarge, limitBody } from "./_body_budget.ts";
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
  /**
   * Server-wide budget of request bodies read at once (default: a budget of 64 MiB of its
   * own). A POST that finds no room waits, then gets a 503 ArcGIS error with Retry-After.
   */
  bodyBudget?: BodyBudget;
  /** Called with unexpected errors (logging). */
  onError?: (error: unknown, path: string) => void;
}

const PREFIX = "/arcgis/rest";

function reply(r: RestReply, head: boolean): Response {
  const body = typeof r.body === "string" ? r.body : r.body as Uint8Array<ArrayBuffer>;
  return new Response(head ? null : body, {
    status: r.status,
    headers: { "content-type": r.contentType },
  });
}

/** A POST body that could not be taken: its HTTP status and the reason. */
export interface FormRefusal {
  status: 400 | 413;
  message: string;
}

/**
 * The form fields of a POST body, read through {@link limitBody}: a body
 * over `limit` bytes (declared or streamed, chunked or not, urlencoded or
 * multipart) is refused with 413 as soon as its limit is passed, having held
 * no more than `limit` bytes; other media types are refused with the reason.
 *
 * @example
 * ```ts ignore
 * const form = await formParams(req, 10 * 1024 * 1024);
 * if (form instanceof URLSearchParams) form.get("f");
 * ```
 */
export async function formParams(
  req: Request,
  limit: number,
): Promise<URLSearchParams | FormRefusal> {
  const type = (req.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (declaredTooLarge(req, limit)) {
    return { status: 413, message: new BodyTooLargeError(limit).message };
  }
  if (type === "" && (req.body === null || req.headers.get("content-length") === "0")) {
    return new URLSearchParams();
  }
  if (type !== "application/x-www-form-urlencoded" && type !== "multipart/form-data") {
    return {
      status: 400,
      message:
        `POST bodies must be application/x-www-form-urlencoded (or multipart/form-data), not '${type}'.`,
    };
  }
  const body = new Response(limitBody(req.body, limit), { headers: req.headers });
  try {
    if (type === "application/x-www-form-urlencoded") {
      return new URLSearchParams(await body.text());
    }
    const form = await body.formData();
    const out = new URLSearchParams();
    for (const [k, v] of form) if (typeof v === "string") out.append(k, v);
    return out;
  } catch (err) {
    if (err instanceof BodyTooLargeError) return { status: 413, message: err.message };
    return { status: 400, message: `The ${type} body could not be read.` };
  }
}

/**
 * The ArcGIS error for a refused body. A bad form is a 400 inside a 200, as
 * ArcGIS Server answers; a body over the limit is a real 413 (clients and
 * proxies must see it; the server drops the rest of the body as it comes,
 * so a client that sends it all before reading still gets the answer).
 */
function refusal(r: FormRefusal): Response {
  return restError(r.status, r.message, r.status === 413 ? 413 : 200);
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
export function arcgisRestRoutes(ctx: ArcgisRestContext): Route[] {
  const rest = createRestApi(ctx.maps, { endpoints: ctx.endpoints, onError: ctx.onError });
  const limit = ctx.maxBodyBytes ?? 10 * 1024 * 1024;
  const budget = ctx.bodyBudget ?? new BodyBudget();

  async function answer(req: Request): Promise<Response> {
    const url = new URL(req.url);
    const path = url.pathname.slice(PREFIX.length) || "/";
    const urls: RequestUrls = { baseUrl: ctx.baseUrl(req) };
    const query = url.searchParams;
    let params = new RestParams(query);
    if (req.method !== "POST") {
      return reply(await rest.handle(path, params, urls), req.method === "HEAD");
    }
    // A form body counts against the server-wide budget (shared with SOAP) from before it is
    // read until the answer is built, as the parameters read from it live that long.
    return await budget.whileReserved(req, limit, (m) => restError(503, m), async () => {
      const form = await formParams(req, limit);
      if (!(form instanceof URLSearchParams)) return refusal(form);
      params = new RestParams(query, form);
      return reply(await rest.handle(path, params, urls), false);
    });
  }

  return [
    route({
      path: `${PREFIX}{/*}?`,
      ignoreCase: true,
      face: ARCGIS_REST_FACE,
      methods: { GET: answer, HEAD: answer, POST: answer },
    }),
  ];
}

/**
 * ArcGIS REST's error body (`{"error": {"code", "message", "details"}}`),
 * sent with HTTP `status` (default: the code).
 *
 * @example
 * ```ts
 * restError(400, "Tile addresses are /{level}/{row}/{col}.");
 * ```
 */
export function restError(code: number, message: string, status = code): Response {
  return reply({
    status,
    contentType: "application/json; charset=utf-8",
    body: JSON.stringify({ error: { code, message, details: [] } }),
  }, false);
}

/**
 * How the REST tree refuses, for its routes and the tile and file routes
 * within it: ArcGIS's `{"error": ...}` JSON; OPTIONS is answered (CORS).
 */
export const ARCGIS_REST_FACE: Face = {
  options: true,
  methodNotAllowed: (req) =>
    restError(405, `Method ${req.method} is not allowed here: use GET or POST.`),
  badPath: (_req, _url, message) => restError(400, message),
};
