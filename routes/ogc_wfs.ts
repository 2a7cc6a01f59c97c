/**
 * HTTP handlers of the WFS face: `GET` and `HEAD` (key-value parameters)
 * and `POST` (an XML request, or a form of the key-value parameters) on
 * `/arcgis/services/{Service}/MapServer/WFSServer`, as ArcGIS Server 10.3
 * publishes a MapServer's WFS capability. Paths match case-insensitively;
 * bodies share the server's body budget with SOAP and REST.
 *
 * @module
 */
import { type Face, type Route, route, type RouteHandler } from "./router.ts";
import type { MapServer, RequestUrls } from "../map/mod.ts";
import { answerWfs, exceptionReport, type WfsInput, type WfsReply } from "../map/wfs/mod.ts";
import { WfsError } from "../map/wfs/mod.ts";
import { BodyBudget, BodyTooLargeError, declaredTooLarge, limitBody } from "./_body_budget.ts";
import { formParams } from "./arcgis_rest.ts";

/** An XML body as text, or the status and message of its refusal. */
async function bodyText(
  req: Request,
  limit: number,
): Promise<string | { status: number; message: string }> {
  if (declaredTooLarge(req, limit)) {
    return { status: 413, message: new BodyTooLargeError(limit).message };
  }
  try {
    return await new Response(limitBody(req.body, limit)).text();
  } catch (err) {
    if (err instanceof BodyTooLargeError) return { status: 413, message: err.message };
    return { status: 400, message: "The request body could not be read." };
  }
}

/** What the WFS routes need from the application. */
export interface OgcWfsContext {
  maps: MapServer;
  /** Public base URL of a request (`http://host:port`, no trailing slash). */
  baseUrl: (req: Request) => string;
  /** Largest body in bytes (default 4 MiB: a filter with a detailed polygon). */
  maxBodyBytes?: number;
  /** Server-wide budget of request bodies read at once (default: one of its own). */
  bodyBudget?: BodyBudget;
  /** Called with unexpected errors (logging). */
  onError?: (error: unknown) => void;
}

function response(r: WfsReply, head = false): Response {
  return new Response(head ? null : r.body, {
    status: r.status,
    headers: { "content-type": r.contentType },
  });
}

function refused(status: number, message: string): Response {
  return response(
    exceptionReport(new WfsError("NoApplicableCode", message, undefined, status), "2.0.0"),
  );
}

/**
 * The WFS routes.
 *
 * @example
 * ```ts ignore
 * const routes = ogcWfsRoutes({ maps, baseUrl: (req) => new URL(req.url).origin });
 * ```
 */
export function ogcWfsRoutes(ctx: OgcWfsContext): Route[] {
  const limit = ctx.maxBodyBytes ?? 4 * 1024 * 1024;
  const budget = ctx.bodyBudget ?? new BodyBudget();
  const answer: RouteHandler = async (req, match, _info, url) => {
    const query = url.searchParams;
    const name = match.pathname.groups.service!;
    const urls: RequestUrls = { baseUrl: ctx.baseUrl(req) };
    const opts = { onError: ctx.onError };
    if (req.method !== "POST") {
      return response(
        await answerWfs(ctx.maps, name, { query }, urls, opts),
        req.method === "HEAD",
      );
    }
    return await budget.whileReserved(req, limit, (m) => refused(503, m), async () => {
      let input: WfsInput;
      if (/^application\/x-www-form-urlencoded/i.test(req.headers.get("content-type") ?? "")) {
        const form = await formParams(req, limit);
        if (!(form instanceof URLSearchParams)) return refused(form.status, form.message);
        const all = new URLSearchParams(form);
        for (const [k, v] of query) all.append(k, v);
        input = { query: all };
      } else {
        const text = await bodyText(req, limit);
        if (typeof text !== "string") return refused(text.status, text.message);
        input = text.trim() === "" ? { query } : { xml: text };
      }
      return response(await answerWfs(ctx.maps, name, input, urls, opts));
    });
  };

  return [
    route({
      path: "/arcgis/services/:service/MapServer/WFSServer{/}?",
      ignoreCase: true,
      face: WFS_FACE,
      decode: ["service"],
      methods: { GET: answer, HEAD: answer, POST: answer },
    }),
  ];
}

/** WFS refuses with an OWS exception report; no OPTIONS. */
const WFS_FACE: Face = {
  options: false,
  methodNotAllowed: (req) =>
    refused(405, `Method ${req.method} is not allowed here: send WFS requests with GET or POST.`),
  badPath: (_req, _url, message) => refused(400, message),
};
