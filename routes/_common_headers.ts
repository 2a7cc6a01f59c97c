/**
 * What every answer of every face carries, added in one place around the
 * whole application: `Access-Control-Allow-Origin: *` (any web page may read
 * the API, the maps, the tiles and the exported images, as `docs/api.md`
 * promises), `X-Content-Type-Options: nosniff` (a browser must not read a
 * JSON error or an image as HTML), and the answer to a CORS preflight on any
 * path.
 *
 * @module
 */

/** Headers added to every answer that does not set them itself. */
export const COMMON_HEADERS: Readonly<Record<string, string>> = {
  "access-control-allow-origin": "*",
  "x-content-type-options": "nosniff",
};

/** Marks a response that carries every common header already (see withAllCommonHeaders). */
const COMPLETE = Symbol("has the common headers");

/**
 * Marks `res`, built with {@link COMMON_HEADERS} among its headers, so that
 * {@link withCommonHeaders} returns it as it is instead of reading its
 * headers back (reading them costs a copy of every header per response).
 *
 * @example
 * ```ts
 * const res = withAllCommonHeaders(new Response("{}", { headers: { ...COMMON_HEADERS } }));
 * ```
 */
export function withAllCommonHeaders(res: Response): Response {
  (res as Response & { [COMPLETE]?: true })[COMPLETE] = true;
  return res;
}

/** Methods a preflight is told about when the route did not say (no `Allow`). */
const PREFLIGHT_METHODS = "GET, HEAD, POST, OPTIONS";
/** How long a browser may reuse a preflight's answer, in seconds. */
const PREFLIGHT_MAX_AGE = "86400";

/**
 * True for a CORS preflight: `OPTIONS` with `Access-Control-Request-Method`.
 *
 * @example
 * ```ts
 * isPreflight(new Request("http://x/", {
 *   method: "OPTIONS",
 *   headers: { "access-control-request-method": "POST" },
 * })); // true
 * ```
 */
export function isPreflight(req: Request): boolean {
  return req.method === "OPTIONS" && req.headers.has("access-control-request-method");
}

/**
 * `res` with {@link COMMON_HEADERS} (those it does not set itself); for a
 * preflight, a 2xx answer with the methods (the route's `Allow`), request
 * headers and max age a browser needs (a route that knows no OPTIONS
 * answers 204 here). The one place CORS headers are written. Headers
 * a route made immutable (`Response.redirect`, a fetched response) are
 * copied into a new response with the same status and body.
 *
 * @example
 * ```ts
 * const res = withCommonHeaders(new Request("http://x/"), Response.redirect("http://x/a", 302));
 * res.headers.get("x-content-type-options"); // "nosniff"
 * ```
 */
export function withCommonHeaders(req: Request, res: Response): Response {
  const preflight = isPreflight(req);
  if (!preflight && (res as Response & { [COMPLETE]?: true })[COMPLETE] === true) return res;
  const add: Record<string, string> = {};
  if (preflight) {
    // The methods are the route's `Allow` (the router's OPTIONS and 405 carry it).
    const allow = res.headers.get("allow");
    if (res.status < 200 || res.status > 299) {
      // The route knows no preflight (or refused OPTIONS): the answer to the real request
      // will say what is wrong, and carries CORS headers the browser lets the page read.
      res = new Response(null, { status: 204 });
    }
    add["access-control-allow-methods"] = allow ? withOptions(allow) : PREFLIGHT_METHODS;
    add["access-control-allow-headers"] = req.headers.get("access-control-request-headers") ??
      "content-type";
    add["access-control-max-age"] = PREFLIGHT_MAX_AGE;
  }
  for (const [k, v] of Object.entries(COMMON_HEADERS)) add[k] = v;
  const missing = Object.entries(add).filter(([k]) => !res.headers.has(k));
  if (missing.length === 0) return res;
  try {
    for (const [k, v] of missing) res.headers.set(k, v);
    return res;
  } catch {
    // Immutable headers: same status and body, headers copied.
    const headers = new Headers(res.headers);
    for (const [k, v] of missing) headers.set(k, v);
    return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
  }
}

function withOptions(allow: string): string {
  return /\bOPTIONS\b/i.test(allow) ? allow : `${allow}, OPTIONS`;
}
