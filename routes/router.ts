/**
 * Routing as data: an ordered table of routes, each a path pattern with a
 * handler per method, walked in order. What every route needs is done here
 * once, from the table: `405` with an `Allow` listing the methods the route
 * declares (in its face's error form), `OPTIONS` (a 204 with `Allow`) where
 * the face takes it, `HEAD` from `GET`, the percent-decoding of path
 * parameters (one message for a bad escape, in the face's form) and
 * conditional GET (`If-None-Match` → 304). Everything is built when the
 * table is: a request costs a walk and a lookup.
 *
 * @module
 */
import { decodePathPart, PERCENT_ESCAPE_MESSAGE } from "../map/percent.ts";
import { type PathGroups, PathPattern } from "../map/path_pattern.ts";
import { notModified } from "./_conditional.ts";

/**
 * What a route's pattern matched: the path parameters (the shape of a
 * `URLPatternResult`'s, which a test may pass instead).
 */
export interface RouteMatch {
  readonly pathname: { readonly groups: PathGroups };
}

/**
 * Handler of one method of a route: gets the request, the match of its path
 * pattern (its parameters percent-decoded when the route asked for it) and the
 * request's URL, parsed once by the router (handlers need not parse it again).
 */
export type RouteHandler = (
  req: Request,
  match: RouteMatch,
  info: Deno.ServeHandlerInfo | undefined,
  url: URL,
) => Response | Promise<Response>;

/**
 * How one face of the server answers what the router refuses on its
 * behalf: each face keeps its own error form (DRF `{"detail"}`, ArcGIS
 * `{"error"}`, a SOAP Fault, an OWS exception report...).
 */
export interface Face {
  /** The body of a 405 for `req.method` (the router sets `Allow` on it). */
  methodNotAllowed(req: Request, url: URL): Response | Promise<Response>;
  /**
   * A 400 for a path parameter whose percent-escapes are not UTF-8
   * (`message` is the one the server gives for that). Needed by the routes that
   * decode parameters.
   */
  badPath?(req: Request, url: URL, message: string): Response;
  /** Whether the router answers `OPTIONS` (204 with `Allow`) on the face's routes. */
  options: boolean;
  /** Take a method in any case (`get` as `GET`), as Django does (default: exact, as HTTP says). */
  anyCaseMethods?: boolean;
}

/**
 * Handlers by method (upper case, as `Request` spells them). `"*"` answers
 * any method the route does not name (a route with it never answers 405).
 */
export type Methods = Readonly<Record<string, RouteHandler>>;

/** A route as a face declares it; {@link route} builds the table entry. */
export interface RouteSpec {
  /** URLPattern pathname (`/arcgis/services/:service/MapServer{/}?`). */
  path: string;
  /** Match the path case-insensitively, as ArcGIS Server does (default false). */
  ignoreCase?: boolean;
  methods: Methods;
  face: Face;
  /**
   * Named path parameters percent-decoded before any handler runs; an
   * escape that is not UTF-8 (`%FF`) is the face's {@link Face.badPath}.
   */
  decode?: readonly string[];
  /**
   * Answer `If-None-Match` on the route's `GET` and `HEAD`: a 200 whose
   * `ETag` the client names becomes a 304 with the same headers.
   */
  conditional?: boolean;
  /**
   * The route lies over part of a later route's paths (tiles within the
   * REST tree): a method it does not declare goes on to the routes after
   * it instead of being a 405.
   */
  overlay?: boolean;
}

/** One entry of the route table, built by {@link route}. */
export interface Route {
  /** The path pattern, matched against the request URL's pathname. */
  readonly pattern: PathPattern;
  /** Handlers by method, `HEAD` and `OPTIONS` included when the router adds them. */
  readonly methods: ReadonlyMap<string, RouteHandler>;
  /** The handler of any other method (`"*"`), if any. */
  readonly any?: RouteHandler;
  /** The `Allow` header of the route: its methods, in the usual order. */
  readonly allow: string;
  readonly face: Face;
  readonly overlay: boolean;
}

/** The order methods are listed in `Allow` (others after these, `OPTIONS` last). */
const METHOD_ORDER = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"];

function allowOf(methods: Iterable<string>): string {
  const rank = (m: string) => {
    if (m === "OPTIONS") return METHOD_ORDER.length + 1;
    const i = METHOD_ORDER.indexOf(m);
    return i < 0 ? METHOD_ORDER.length : i;
  };
  return [...new Set(methods)].sort((a, b) => rank(a) - rank(b)).join(", ");
}

/** HEAD as GET answers it, without the body. */
function headOf(get: RouteHandler): RouteHandler {
  return async (req, match, info, url) => {
    const res = await get(req, match, info, url);
    await res.body?.cancel();
    return new Response(null, { status: res.status, headers: res.headers });
  };
}

/** The handler with the named parameters of its match percent-decoded, or the face's 400. */
function decoding(
  names: readonly string[],
  bad: NonNullable<Face["badPath"]>,
  handler: RouteHandler,
): RouteHandler {
  return (req, match, info, url) => {
    const groups = match.pathname.groups;
    for (const name of names) {
      const raw = groups[name];
      if (raw === undefined) continue;
      const value = decodePathPart(raw);
      if (value === undefined) return bad(req, url, PERCENT_ESCAPE_MESSAGE);
      groups[name] = value;
    }
    return handler(req, match, info, url);
  };
}

/** The handler, with a 304 for an `If-None-Match` naming the ETag of its 200. */
function conditionalOf(handler: RouteHandler): RouteHandler {
  return async (req, match, info, url) => notModified(req, await handler(req, match, info, url));
}

/**
 * Builds a table entry from a face's declaration: the middleware the route
 * asks for wraps its handlers, `HEAD` comes from `GET` when not declared,
 * `OPTIONS` is a 204 with `Allow` when the face takes it, and the `Allow`
 * of the route's 405 lists what results.
 *
 * @example
 * ```ts
 * declare const face: Face;
 * const r = route({
 *   path: "/api/v1/vacancies/:id([^/.]+)/",
 *   face,
 *   methods: { GET: () => new Response("one") },
 * });
 * r.allow; // "GET, HEAD" (and ", OPTIONS" when the face takes OPTIONS)
 * ```
 */
export function route(spec: RouteSpec): Route {
  const pattern = new PathPattern(spec.path, { ignoreCase: spec.ignoreCase ?? false });
  const bad = spec.face.badPath;
  if (spec.decode?.length && !bad) {
    throw new TypeError("A route that decodes its path needs a face with badPath.");
  }
  const methods = new Map<string, RouteHandler>();
  let any: RouteHandler | undefined;
  for (const [method, declared] of Object.entries(spec.methods)) {
    let handler = declared;
    if (spec.decode?.length) handler = decoding(spec.decode, bad!, handler);
    if (spec.conditional && (method === "GET" || method === "HEAD")) {
      handler = conditionalOf(handler);
    }
    if (method === "*") any = handler;
    else methods.set(method, handler);
  }
  const get = methods.get("GET");
  if (get && !methods.has("HEAD")) methods.set("HEAD", headOf(get));
  let allow = allowOf(methods.keys());
  // An overlay leaves OPTIONS to the route below it, which knows all the path's methods.
  if (spec.face.options && !spec.overlay && !methods.has("OPTIONS")) {
    allow = allowOf([...methods.keys(), "OPTIONS"]);
    const answer = allow;
    methods.set("OPTIONS", () => new Response(null, { status: 204, headers: { allow: answer } }));
  }
  return {
    pattern,
    methods,
    any,
    allow,
    face: spec.face,
    overlay: spec.overlay ?? false,
  };
}

/** Answer for a request whose path no route knows. */
export type Fallback = (req: Request) => Response | Promise<Response>;

/**
 * Builds a request handler that walks `routes` in order. The first route
 * whose path matches answers: with its handler for the method, else a 405
 * in its face's form with its `Allow` (an overlay route passes the request
 * on instead). A path no route matches goes to `fallback`.
 *
 * @example
 * ```ts
 * declare const face: Face;
 * const handler = createRouter([
 *   route({ path: "/ping", face, methods: { GET: () => new Response("pong") } }),
 * ], () => new Response("no", { status: 404 }));
 * ```
 */
export function createRouter(
  routes: readonly Route[],
  fallback: Fallback,
): (req: Request, info?: Deno.ServeHandlerInfo) => Promise<Response> {
  return async function walk(req, info) {
    // Parsed and normalized once: the pathname as the patterns see it, and the handlers' URL.
    const url = new URL(req.url);
    const pathname = url.pathname;
    const method = req.method;
    // Overlays passed over for their method only: their patterns run if a 405 is answered.
    let passed: Route[] | undefined;
    for (const r of routes) {
      let handler = r.methods.get(method) ?? r.any;
      if (handler === undefined && r.face.anyCaseMethods) {
        handler = r.methods.get(method.toUpperCase());
      }
      if (handler === undefined && r.overlay) {
        (passed ??= []).push(r);
        continue;
      }
      const groups = r.pattern.exec(pathname);
      if (!groups) continue;
      if (handler !== undefined) return await handler(req, { pathname: { groups } }, info, url);
      return await notAllowed(req, url, r, passed);
    }
    const overlay = passed?.find((r) => r.pattern.test(pathname));
    return overlay ? await notAllowed(req, url, overlay, passed) : await fallback(req);
  };
}

/** 405 in the face's form, with the methods of `r` and of the overlays on the same path. */
async function notAllowed(
  req: Request,
  url: URL,
  r: Route,
  passed: Route[] | undefined,
): Promise<Response> {
  const over = passed?.filter((o) => o !== r && o.pattern.test(url.pathname)) ?? [];
  const allow = over.length === 0
    ? r.allow
    : allowOf([...over, r].flatMap((o) => [...o.methods.keys()]));
  const res = await r.face.methodNotAllowed(req, url);
  res.headers.set("allow", allow);
  return res;
}
