/**
 * HTTP face of WMTS (`/arcgis/rest/services/{Service}/MapServer/WMTS...`,
 * answered by `map/wmts`): GET and HEAD, tiles with their ETag,
 * `Cache-Control` and 304; walked before the ArcGIS REST routes, which
 * answer everything else below `/arcgis/rest`.
 *
 * @module
 */
import type { Route } from "./router.ts";
import type { MapServer } from "../map/mod.ts";
import { createWmtsFace } from "../map/wmts/mod.ts";
import { etagMatches } from "./_conditional.ts";

/** What the WMTS routes need from the application. */
export interface WmtsContext {
  maps: MapServer;
  /** Public base URL of a request (`http://host:port`, no trailing slash). */
  baseUrl: (req: Request) => string;
  /** `Cache-Control: max-age` of tiles in seconds (default 300, as the REST tiles). */
  tileMaxAge?: number;
}

const ALLOW = "GET, HEAD, OPTIONS";

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
  const pattern = new URLPattern(
    { pathname: "/arcgis/rest/services/:service/MapServer/WMTS{/*}?" },
    { ignoreCase: true },
  );

  async function answer(req: Request, match: URLPatternResult): Promise<Response> {
    const url = new URL(req.url);
    let service: string, path: string[];
    try {
      service = decodeURIComponent(match.pathname.groups.service ?? "");
      path = url.pathname.replace(/^.*?\/MapServer\/WMTS/i, "").split("/").map(decodeURIComponent);
    } catch {
      return new Response("Malformed percent-encoding in the path.\n", {
        status: 400,
        headers: { "content-type": "text/plain; charset=utf-8" },
      });
    }
    const reply = await face.handle({
      service,
      path,
      query: url.searchParams,
      baseUrl: ctx.baseUrl(req),
    });
    const headers: Record<string, string> = { "content-type": reply.contentType };
    if (reply.etag) {
      headers["etag"] = reply.etag;
      headers["cache-control"] = `public, max-age=${maxAge}`;
      if (etagMatches(req.headers.get("if-none-match"), reply.etag)) {
        return new Response(null, { status: 304, headers });
      }
    }
    const body = typeof reply.body === "string"
      ? reply.body
      : reply.body as Uint8Array<ArrayBuffer>;
    return new Response(req.method === "HEAD" ? null : body, { status: reply.status, headers });
  }

  return [
    { pattern, method: "GET", handler: answer },
    { pattern, method: "HEAD", handler: answer },
    {
      pattern,
      method: "OPTIONS",
      handler: () =>
        new Response(null, {
          status: 204,
          headers: { allow: ALLOW, "access-control-allow-methods": ALLOW },
        }),
    },
    {
      pattern,
      handler: (req) =>
        new Response(
          `Method ${req.method} is not allowed: WMTS is read with GET.\n`,
          { status: 405, headers: { "content-type": "text/plain; charset=utf-8", allow: ALLOW } },
        ),
    },
  ];
}
