/**
 * Routing as data: an ordered array of `{ pattern, method, handler }` walked
 * in order, with one fallback for paths nobody claimed.
 *
 * @module
 */

/** Handler of one route: gets the request and the URLPattern match. */
export type RouteHandler = (
  req: Request,
  match: URLPatternResult,
  info: Deno.ServeHandlerInfo | undefined,
) => Response | Promise<Response>;

/** One route entry. `method` undefined means "any method" (the handler decides). */
export interface Route {
  pattern: URLPattern;
  method?: string | string[];
  handler: RouteHandler;
}

/**
 * Builds a request handler that walks `routes` in order. A path that matches
 * but with another method continues the walk (a later "any method" route may
 * answer 405); no match at all goes to `fallback`.
 *
 * @example
 * ```ts
 * const handler = createRouter([
 *   { pattern: new URLPattern({ pathname: "/ping" }), handler: () => new Response("pong") },
 * ], () => new Response("no", { status: 404 }));
 * ```
 */
export function createRouter(
  routes: Route[],
  fallback: (req: Request) => Response | Promise<Response>,
): (req: Request, info?: Deno.ServeHandlerInfo) => Promise<Response> {
  return async function route(req, info) {
    for (const r of routes) {
      if (r.method !== undefined) {
        const ok = Array.isArray(r.method)
          ? r.method.includes(req.method)
          : r.method === req.method;
        if (!ok) continue;
      }
      const match = r.pattern.exec(req.url);
      if (match) return await r.handler(req, match, info);
    }
    return await fallback(req);
  };
}
