/**
 * HTTP face of WMTS (`/arcgis/rest/services/{Service}/MapServer/WMTS...`,
 * answered by `map/wmts`): GET and HEAD, tiles with their ETag,
 * `Cache-Control` and (the router's) 304; walked before the ArcGIS REST routes, which
 * answer everything else below `/arcgis/rest`.
 *
 * @module
 */
import { type Face, type Route, route, type RouteHandler } from "./router.ts";
import type { MapServer } from "../map/mod.ts";
import { createWmtsFace } from "../map/wmts/mod.ts";
import { decodePathPart, PERCENT_ESCAPE_MESSAGE } from "../map/percent.ts";

/** What the WMTS routes need from the application. */
export interface WmtsContext {
  maps: MapServer;
  /** Public base URL of a request (`http://host:port`, no trailing slash). */
  baseUrl: (req: Request) => string;
  /** `Cache-Control: max-age` of tiles in seconds (default 300, as the REST tiles). */
  tileMaxAge?: number;
}

/**
 * The WMTS routes.
 *
 * @example
 * ```ts ignore
 * const routes = [...wmtsRoutes({ maps, baseUrl }), ...arcgisRestRoutes({ maps, baseUrl })];
 * ```
 */
export function wmtsRoutes(ctx: WmtsContext): Route[] {
  const face = createWmtsFace(ctx.maps);
  const maxAge = ctx.tileMaxAge ?? 300;
  const answer: RouteHandler = async (req, match, _info, url) => {
    const path: string[] = [];
    for (const part of url.pathname.replace(/^.*?\/MapServer\/WMTS/i, "").split("/")) {
      const decoded = decodePathPart(part);
      if (decoded === undefined) return WMTS_FACE.badPath!(req, url, PERCENT_ESCAPE_MESSAGE);
      path.push(decoded);
    }
    const reply = await face.handle({
      service: match.pathname.groups.service!,
      path,
      query: url.searchParams,
      baseUrl: ctx.baseUrl(req),
    });
    const headers: Record<string, string> = { "content-type": reply.contentType };
    if (reply.etag) {
      headers["etag"] = reply.etag;
      headers["cache-control"] = `public, max-age=${maxAge}`;
    }
    const body = typeof reply.body === "string"
      ? reply.body
      : reply.body as Uint8Array<ArrayBuffer>;
    return new Response(req.method === "HEAD" ? null : body, { status: reply.status, headers });
  };

  return [
    route({
      path: "/arcgis/rest/services/:service/MapServer/WMTS{/*}?",
      ignoreCase: true,
      face: WMTS_FACE,
      decode: ["service"],
      conditional: true,
      methods: { GET: answer, HEAD: answer },
    }),
  ];
}

function text(status: number, message: string): Response {
  return new Response(`${message}\n`, {
    status,
    headers: { "content-type": "text/plain; charset=utf-8" },
  });
}

/** WMTS refuses in plain text (its KVP and RESTful bindings define no error body for these). */
const WMTS_FACE: Face = {
  options: true,
  methodNotAllowed: (req) =>
    text(405, `Method ${req.method} is not allowed: WMTS is read with GET.`),
  badPath: (_req, _url, message) => text(400, message),
};
