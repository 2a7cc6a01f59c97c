/**
 * HTTP handlers of the WMS face: `GET`, `HEAD` and `POST` (a form of the
 * same key-value parameters) on `/arcgis/services/{Service}/MapServer/WMSServer`,
 * as ArcGIS Server 10.3 publishes a MapServer's WMS capability. Paths match
 * case-insensitively, as ArcGIS Server's do; form bodies share the server's
 * body budget with SOAP and REST.
 *
 * @module
 */
import { type Face, type Route, route, type RouteHandler } from "./router.ts";
import type { MapServer, RequestUrls } from "../map/mod.ts";
import { answerWms, exceptionReport, negotiateVersion, type WmsReply } from "../map/wms/mod.ts";
import { WmsError } from "../map/wms/mod.ts";
import { BodyBudget } from "./_body_budget.ts";
import { formParams } from "./arcgis_rest.ts";

/** What the WMS routes need from the application. */
export interface OgcWmsContext {
  maps: MapServer;
  /** Public base URL of a request (`http://host:port`, no trailing slash). */
  baseUrl: (req: Request) => string;
  /** Largest form body in bytes (default 1 MiB: a WMS request is a handful of parameters). */
  maxBodyBytes?: number;
  /** Server-wide budget of request bodies read at once (default: one of its own). */
  bodyBudget?: BodyBudget;
  /** Called with unexpected errors (logging). */
  onError?: (error: unknown) => void;
}

function response(r: WmsReply, head = false): Response {
  const body = typeof r.body === "string" ? r.body : r.body as Uint8Array<ArrayBuffer>;
  return new Response(head ? null : body, {
    status: r.status,
    headers: { "content-type": r.contentType },
  });
}

/** An exception report outside any operation (a refused body, a malformed path). */
function refused(status: number, message: string, query: URLSearchParams): Response {
  let asked: string | undefined;
  for (const [k, v] of query) {
    if (k.toUpperCase() === "VERSION" || k.toUpperCase() === "WMTVER") asked ??= v;
  }
  const report = exceptionReport(new WmsError(undefined, message), negotiateVersion(asked));
  return response({ status, ...report });
}

/**
 * The WMS routes.
 *
 * @example
 * ```ts ignore
 * const routes = ogcWmsRoutes({ maps, baseUrl: (req) => new URL(req.url).origin });
 * ```
 */
export function ogcWmsRoutes(ctx: OgcWmsContext): Route[] {
  const limit = ctx.maxBodyBytes ?? 1024 * 1024;
  const budget = ctx.bodyBudget ?? new BodyBudget();
  const answer: RouteHandler = async (req, match, _info, url) => {
    const query = url.searchParams;
    const name = match.pathname.groups.service!;
    const urls: RequestUrls = { baseUrl: ctx.baseUrl(req) };
    const opts = { onError: ctx.onError };
    if (req.method !== "POST") {
      return response(await answerWms(ctx.maps, name, query, urls, opts), req.method === "HEAD");
    }
    return await budget.whileReserved(req, limit, (m) => refused(503, m, query), async () => {
      const form = await formParams(req, limit);
      if (!(form instanceof URLSearchParams)) return refused(form.status, form.message, query);
      // The form's parameters, then the query's for what the form leaves out.
      const all = new URLSearchParams(form);
      for (const [k, v] of query) all.append(k, v);
      return response(await answerWms(ctx.maps, name, all, urls, opts));
    });
  };

  return [
    route({
      path: "/arcgis/services/:service/MapServer/WMSServer{/}?",
      ignoreCase: true,
      face: WMS_FACE,
      decode: ["service"],
      methods: { GET: answer, HEAD: answer, POST: answer },
    }),
  ];
}

/** WMS refuses with a service exception report in the version the client asked for; no OPTIONS. */
const WMS_FACE: Face = {
  options: false,
  methodNotAllowed: (req, url) =>
    refused(
      405,
      `Method ${req.method} is not allowed here: send WMS requests with GET (or POST a form).`,
      url.searchParams,
    ),
  badPath: (_req, url, message) => refused(400, message, url.searchParams),
};
