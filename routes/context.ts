/**
 * What every HTTP handler may need: the opened data, the map server and the
 * options that decide how absolute URLs are built.
 *
 * @module
 */
import type { Catalog } from "../data/mod.ts";

/** Options that shape absolute URLs in responses. */
export interface UrlOptions {
  /** Fixed public base URL (e.g. `https://jobs.example.org`); wins over everything. */
  publicUrl?: string;
  /** Honour `X-Forwarded-Proto` / `X-Forwarded-Host` (only behind a trusted proxy). */
  trustProxy?: boolean;
}

/** Shared state of the HTTP layer. */
export interface AppContext extends UrlOptions {
  catalog: Catalog;
}

/**
 * The scheme + authority (+ optional path prefix from `--public-url`) that
 * absolute links start with, without a trailing slash. By default it is the
 * request's own scheme and `Host` header, as Django builds it.
 *
 * @example
 * ```ts
 * baseUrl(new Request("http://127.0.0.1:8000/api/v1/"), {}); // "http://127.0.0.1:8000"
 * ```
 */
export function baseUrl(req: Request, opts: UrlOptions, url?: URL): string {
  if (opts.publicUrl) return opts.publicUrl.replace(/\/+$/, "");
  // `url`: the request's URL when the caller has it parsed already.
  url ??= new URL(req.url);
  let proto = url.protocol.slice(0, -1);
  let host = req.headers.get("host") ?? url.host;
  if (opts.trustProxy) {
    const fProto = firstListValue(req.headers.get("x-forwarded-proto"));
    const fHost = firstListValue(req.headers.get("x-forwarded-host"));
    if (fProto && /^https?$/i.test(fProto)) proto = fProto.toLowerCase();
    if (fHost && isValidHost(fHost)) host = fHost;
  }
  return `${proto}://${host}`;
}

function firstListValue(v: string | null): string | undefined {
  const first = v?.split(",")[0]?.trim();
  return first ? first : undefined;
}

/**
 * Django's `validate_host` form check (ALLOWED_HOSTS `*` still applies it):
 * a domain of letters, digits, dots and hyphens, or a bracketed IPv6
 * literal, with an optional port.
 *
 * @example
 * ```ts
 * isValidHost("api.example.org:8443"); // true
 * isValidHost("exa mple.com"); // false
 * isValidHost("127.0.0.1:99999999999"); // false (no such port)
 * ```
 */
export function isValidHost(host: string): boolean {
  const m = /^([a-z0-9.-]+|\[[a-f0-9]*:[a-f0-9.:]+\])(?::(\d+))?$/.exec(host.toLowerCase());
  // Django's regex takes any digits as a port, but a port past 65535 makes no URL (the request
  // would not route at all), so it is refused with the other malformed forms.
  return m !== null && (m[2] === undefined || Number(m[2]) <= 65535);
}
