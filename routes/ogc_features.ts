/**
 * HTTP face of OGC API – Features (`/arcgis/rest/services/{Service}/OGCFeatureServer...`,
 * answered by `map/ogcapi`): GET and HEAD; walked before the ArcGIS REST
 * routes, which answer everything else below `/arcgis/rest`.
 *
 * @module
 */
import { type Face, type Route, route, type RouteHandler } from "./router.ts";
import { decodePathPart } from "../map/percent.ts";
import type { FeatureServerFront } from "../map/ogcapi/mod.ts";
import { createOgcFeaturesApi } from "../map/ogcapi/mod.ts";

/** What the OGC API routes need from the application. */
export interface OgcFeaturesContext {
  maps: FeatureServerFront;
  /** Public base URL of a request (`http://host:port`, no trailing slash). */
  baseUrl: (req: Request) => string;
  /** Called with unexpected errors (logging). */
  onError?: (error: unknown, path: string) => void;
}

/**
 * The OGC API – Features routes: GET and HEAD answered, OPTIONS with the
 * methods, any other method a 405 in the OGC exception form.
 *
 * @example
 * ```ts ignore
 * const routes = [...ogcFeaturesRoutes({ maps, baseUrl }), ...arcgisRestRoutes({ maps, baseUrl })];
 * ```
 */
export function ogcFeaturesRoutes(ctx: OgcFeaturesContext): Route[] {
  const api = createOgcFeaturesApi(ctx.maps, { onError: ctx.onError });
  const answer: RouteHandler = async (req, match, _info, url) => {
    const raw = match.pathname.groups.service!;
    // Malformed percent-encoding names no service: the face answers 404 for it as written.
    const service = decodePathPart(raw) ?? raw;
    const path = url.pathname.replace(/^.*?\/OGCFeatureServer/i, "");
    const reply = await api.handle({
      service,
      path,
      params: url.searchParams,
      accept: req.headers.get("accept"),
      baseUrl: ctx.baseUrl(req),
    });
    return new Response(req.method === "HEAD" ? null : reply.body, {
      status: reply.status,
      headers: { "content-type": reply.contentType, ...reply.headers },
    });
  };

  return [
    route({
      path: "/arcgis/rest/services/:service/OGCFeatureServer{/*}?",
      ignoreCase: true,
      face: OGC_FEATURES_FACE,
      methods: { GET: answer, HEAD: answer },
    }),
  ];
}

/** OGC API – Features refuses with its JSON exception; OPTIONS is answered (CORS). */
const OGC_FEATURES_FACE: Face = {
  options: true,
  methodNotAllowed: (req) =>
    new Response(
      JSON.stringify({
        code: "MethodNotAllowed",
        description:
          `Method ${req.method} is not allowed here: OGC API – Features is read with GET.`,
      }),
      { status: 405, headers: { "content-type": "application/json" } },
    ),
};
