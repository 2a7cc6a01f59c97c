/**
 * GETting JSON from an upstream API with bounded retries and a bounded body,
 * for sync.
 *
 * @module
 */

/** How to fetch. */
export interface FetchJsonOptions {
  /** Attempts per request after the first, on network errors, 429 and 5xx (default 3). */
  retries?: number;
  /** First retry delay in ms, doubled on each attempt (default 500). */
  retryDelayMs?: number;
  /** Per-request timeout in ms (default 30000). */
  timeoutMs?: number;
  /** Largest response body in bytes (default 64 MiB). */
  maxBodyBytes?: number;
  /** HTTP client (default: global fetch). */
  fetch?: typeof fetch;
}

/** Default cap of one response body. */
export const MAX_BODY_BYTES = 64 * 2 ** 20;

/** A request failed for good; `url` is the request. */
export class FetchJsonError extends Error {
  /** `url` is the request that failed. */
  constructor(message: string, readonly url: string) {
    super(message);
    this.name = "FetchJsonError";
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The body as text, refusing (and cancelling) one larger than `max` bytes. */
async function boundedText(res: Response, url: string, max: number): Promise<string> {
  const tooBig = () =>
    new FetchJsonError(
      `${url}: the response is larger than ${max} bytes; a page that big is not an API page ` +
        `(raise maxPageBytes if it really is).`,
      url,
    );
  const declared = Number(res.headers.get("content-length") ?? "NaN");
  if (declared > max) {
    await res.body?.cancel();
    throw tooBig();
  }
  if (!res.body) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > max) {
      await reader.cancel();
      throw tooBig();
    }
    chunks.push(value);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.length;
  }
  return new TextDecoder().decode(all);
}

/** GETs JSON with bounded retries on transient failures and a bounded body. */
export async function getJson(url: string, opts: FetchJsonOptions): Promise<unknown> {
  const retries = opts.retries ?? 3;
  const delay = opts.retryDelayMs ?? 500;
  const doFetch = opts.fetch ?? fetch;
  let last = "";
  for (let attempt = 0; attempt <= retries; attempt++) {
    if (attempt > 0) await sleep(delay * 2 ** (attempt - 1));
    let res: Response;
    try {
      res = await doFetch(url, {
        headers: { accept: "application/json" },
        signal: AbortSignal.timeout(opts.timeoutMs ?? 30_000),
      });
    } catch (err) {
      last = `request failed: ${(err as Error).message}`;
      continue;
    }
    if (res.status === 429 || res.status >= 500) {
      await res.body?.cancel();
      last = `the server answered ${res.status} ${res.statusText}`;
      continue;
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw new FetchJsonError(`${url}: the server answered ${res.status} ${res.statusText}.`, url);
    }
    const text = await boundedText(res, url, opts.maxBodyBytes ?? MAX_BODY_BYTES);
    try {
      return JSON.parse(text);
    } catch {
      throw new FetchJsonError(
        `${url}: the response is not JSON (${text.slice(0, 60)}...).`,
        url,
      );
    }
  }
  throw new FetchJsonError(`${url}: ${last}; gave up after ${retries + 1} attempts.`, url);
}
