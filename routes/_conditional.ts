/**
 * Conditional GET: a strong ETag derived from the data revision and
 * everything else that shapes the body, `Last-Modified` from the last
 * import, and `304 Not Modified` for `If-None-Match` / `If-Modified-Since`.
 * Validators depend only on the request and the revision, so a 304 costs no
 * query at all.
 *
 * @module
 */
import { API_HEADERS } from "./_drf.ts";

/** What `validators` needs from the data layer. */
export interface Revisioned {
  revision(): string;
  lastModified(): Date;
  /** `lastModified()` as an HTTP date, when the source keeps it formatted (optional). */
  lastModifiedHttp?(): string;
}

/** The two validators of a response. */
export interface Validators {
  etag: string;
  lastModified: string;
}

/** FNV-1a 32-bit over UTF-16 code units: cheap and stable, enough to tell variants apart. */
function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(36);
}

/**
 * ETag and Last-Modified for a response whose body is a pure function of the
 * data revision and `variant` (base URL, path, query, indentation...; as
 * JSON text when the caller has serialized it already).
 *
 * @example
 * ```ts
 * const catalog = { revision: () => "r1", lastModified: () => new Date(0) };
 * validators(catalog, ["http://h", "/api/v1/vacancies/", "?page=2", 0]);
 * ```
 */
export function validators(data: Revisioned, variant: unknown[] | string): Validators {
  const rev = data.revision();
  const text = typeof variant === "string" ? variant : JSON.stringify(variant);
  return {
    etag: `"${rev}-${fnv1a(text)}"`,
    lastModified: data.lastModifiedHttp?.() ?? data.lastModified().toUTCString(),
  };
}

/**
 * Whether an `If-None-Match` header names `etag` (or `*`); weak tags
 * compare by their opaque part, as RFC 9110's weak comparison does.
 *
 * @example
 * ```ts
 * etagMatches('W/"a", "b"', '"a"'); // true
 * ```
 */
export function etagMatches(header: string | null, etag: string): boolean {
  if (header === null) return false;
  return header.split(",").map((t) => t.trim().replace(/^W\//, "")).some((t) =>
    t === "*" || t === etag
  );
}

/**
 * A 304 response when the client's validators match (`If-None-Match` wins
 * over `If-Modified-Since`, RFC 9110 §13.2.2), or null.
 */
export function conditional(headers: Headers, v: Validators): Response | null {
  const inm = headers.get("if-none-match");
  let fresh = false;
  if (inm !== null) {
    fresh = etagMatches(inm, v.etag);
  } else {
    const ims = headers.get("if-modified-since");
    if (ims !== null) {
      const since = Date.parse(ims);
      fresh = !Number.isNaN(since) && Date.parse(v.lastModified) <= since;
    }
  }
  if (!fresh) return null;
  const { "content-type": _ct, ...rest } = API_HEADERS;
  return new Response(null, {
    status: 304,
    headers: { ...rest, "etag": v.etag, "last-modified": v.lastModified },
  });
}

/**
 * Conditional GET for an answer already built: a 200 whose `ETag` the
 * request's `If-None-Match` names becomes a 304 with the same headers (the
 * body is dropped); any other answer is returned as it is. The router runs
 * it on the routes that ask for it (tiles).
 *
 * @example
 * ```ts
 * const req = new Request("http://x/t", { headers: { "if-none-match": '"a"' } });
 * notModified(req, new Response("png", { headers: { etag: '"a"' } })).status; // 304
 * ```
 */
export function notModified(req: Request, res: Response): Response {
  const inm = req.headers.get("if-none-match");
  if (inm === null || res.status !== 200) return res;
  const etag = res.headers.get("etag");
  if (etag === null || !etagMatches(inm, etag)) return res;
  res.body?.cancel().catch(() => {});
  return new Response(null, { status: 304, headers: res.headers });
}
