/**
 * Routing as data: an ordered array of `{ pattern, method, handler }` walked
 * in order, with one fallback for paths nobody claimed.
 *
 * @module
 */

/**
 * Handler of one route: gets the request, the URLPattern match and the
 * request's URL, parsed once by the router (handlers need not parse it again).
 */
export type RouteHandler = (
  req: Request,
  match: URLPatternResult,
  info: Deno.ServeHandlerInfo | undefined,
  url: URL,
) => Response | Promise<Response>;

/** One route entry. `method` undefined means "any method" (the handler decides). */
export interface Route {
  pattern: URLPattern;
  method?: string | string[];
  handler: RouteHandler;
  /**
   * Optional shortcut (see {@link pathRoute}): every pathname the pattern
   * matches starts with this literal text, so other paths skip the pattern
   * without running it; with `exact`, the pathname equals it. The text is
   * compared with the request's pathname as the URL parser leaves it
   * (percent-encoded, dot segments resolved), so it must be in that form too.
   */
  prefix?: { text: string; exact: boolean };
}

/** Characters that start something other than literal text in a URLPattern pathname. */
const PATTERN_SYNTAX = /[:*(){}?+\\]/;

/**
 * A route on a case-sensitive pathname pattern, with the literal start of
 * the pattern as its {@link Route.prefix} (running a URLPattern costs a few
 * microseconds; a router walking many routes pays that for each).
 *
 * @example
 * ```ts
 * const r = pathRoute("/api/v1/vacancies/:id([^/.]+)/", () => new Response("one"));
 * r.prefix; // { text: "/api/v1/vacancies/", exact: false }
 * ```
 */
export function pathRoute(
  pathname: string,
  handler: RouteHandler,
  method?: string | string[],
): Route {
  const pattern = new URLPattern({ pathname });
  // The literal text as the pattern compares it: percent-encoded as a URL path is
  // ("/a b" matches "/a%20b", "/é" matches "/%C3%A9"), the form the request's pathname has.
  const canonical = pattern.pathname;
  const at = canonical.search(PATTERN_SYNTAX);
  const prefix = at < 0
    ? { text: canonical, exact: true }
    : { text: canonical.slice(0, at), exact: false };
  return { pattern, method, handler, prefix };
}

/**
 * Answer for a request no route took. `allowed` holds the methods of the
 * routes whose path matched (empty: no route knows the path), so the
 * fallback can tell 405 from 404.
 */
export type Fallback = (req: Request, allowed: string[]) => Response | Promise<Response>;

/**
 * Builds a request handler that walks `routes` in order. A path that matches
 * but with another method continues the walk (a later "any method" route may
 * answer 405); no match at all goes to `fallback`, with the methods the
 * path's routes take.
 *
 * @example
 * ```ts
 * const handler = createRouter([
 *   pathRoute("/ping", () => new Response("pong"), "GET"),
 * ], (_req, allowed) => new Response("no", { status: allowed.length > 0 ? 405 : 404 }));
 * ```
 */
export function createRouter(
  routes: Route[],
  fallback: Fallback,
): (req: Request, info?: Deno.ServeHandlerInfo) => Promise<Response> {
  return async function route(req, info) {
    // Parsed and normalized once: the pathname as the patterns see it, and the handlers' URL.
    const url = new URL(req.url);
    const pathname = url.pathname;
    // Routes passed over for their method only; their patterns run if nothing answers.
    let others: Route[] | undefined;
    for (const r of routes) {
      if (r.prefix !== undefined) {
        if (
          r.prefix.exact ? pathname !== r.prefix.text : !pathname.startsWith(r.prefix.text)
        ) continue;
      }
      if (r.method !== undefined) {
        const ok = Array.isArray(r.method)
          ? r.method.includes(req.method)
          : r.method === req.method;
        if (!ok) {
          (others ??= []).push(r);
          continue;
        }
      }
      // A pathname equal to a literal pattern's matches it: its match is only run if read.
      const match = r.prefix?.exact ? new LazyMatch(r.pattern, req.url) : r.pattern.exec(req.url);
      if (match) return await r.handler(req, match, info, url);
    }
    const allowed = new Set<string>();
    for (const r of others ?? []) {
      if (r.pattern.exec(req.url)) [r.method!].flat().forEach((m) => allowed.add(m));
    }
    return await fallback(req, [...allowed]);
  };
}

/**
 * The match of an input known to match a pattern, run on the first read of
 * any of its parts (a URLPattern costs microseconds a run; most handlers of
 * literal paths never look at their match).
 */
class LazyMatch implements URLPatternResult {
  #m: URLPatternResult | undefined;
  constructor(readonly pattern: URLPattern, readonly input: string) {}
  #get(): URLPatternResult {
    return this.#m ??= this.pattern.exec(this.input)!;
  }
  get inputs() {
    return this.#get().inputs;
  }
  get protocol() {
    return this.#get().protocol;
  }
  get username() {
    return this.#get().username;
  }
  get password() {
    return this.#get().password;
  }
  get hostname() {
    return this.#get().hostname;
  }
  get port() {
    return this.#get().port;
  }
  get pathname() {
    return this.#get().pathname;
  }
  get search() {
    return this.#get().search;
  }
  get hash() {
    return this.#get().hash;
  }
}
