/**
 * HTTP/1.x responses for the js engine (`_http1_conn.ts`): the head with our
 * framing and the body after it in one buffer, so that an answer leaves in
 * one write; chunks of a streamed body; the `Date` header.
 *
 * @module
 */

const ENCODER = new TextEncoder();

/** Canonical reason phrases (as hyper writes them), by status. */
export const REASONS: Record<number, string> = {
  100: "Continue",
  101: "Switching Protocols",
  200: "OK",
  201: "Created",
  202: "Accepted",
  203: "Non-Authoritative Information",
  204: "No Content",
  205: "Reset Content",
  206: "Partial Content",
  300: "Multiple Choices",
  301: "Moved Permanently",
  302: "Found",
  303: "See Other",
  304: "Not Modified",
  307: "Temporary Redirect",
  308: "Permanent Redirect",
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  406: "Not Acceptable",
  408: "Request Timeout",
  409: "Conflict",
  410: "Gone",
  411: "Length Required",
  412: "Precondition Failed",
  413: "Payload Too Large",
  414: "URI Too Long",
  415: "Unsupported Media Type",
  416: "Range Not Satisfiable",
  417: "Expectation Failed",
  422: "Unprocessable Entity",
  429: "Too Many Requests",
  431: "Request Header Fields Too Large",
  500: "Internal Server Error",
  501: "Not Implemented",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
  505: "HTTP Version Not Supported",
};

let dateSecond = 0;
let dateText = "";
/**
 * The `Date` header's value, computed once a second.
 *
 * @example
 * ```ts
 * httpDate(); // "Sun, 29 Nov 2026 04:20:00 GMT"
 * ```
 */
export function httpDate(): string {
  const now = Date.now();
  const s = Math.floor(now / 1000);
  if (s !== dateSecond) {
    dateSecond = s;
    dateText = new Date(now).toUTCString();
  }
  return dateText;
}

/** Latin-1 bytes of `s` (header values are byte strings), fast for ASCII. */
function latin1Bytes(s: string, extra: number): { bytes: Uint8Array; at: number } {
  const bytes = new Uint8Array(s.length + extra);
  const { read, written } = ENCODER.encodeInto(s, bytes);
  // All ASCII when each character took one byte; else byte strings are written byte by byte.
  if (read !== s.length || written !== s.length) {
    for (let i = 0; i < s.length; i++) bytes[i] = s.charCodeAt(i) & 0xff;
  }
  return { bytes, at: s.length };
}

/**
 * True for statuses that never have a body.
 *
 * @example
 * ```ts
 * noBody(304); // true
 * ```
 */
export function noBody(status: number): boolean {
  return status === 204 || status === 304 || (status >= 100 && status < 200);
}

/**
 * `data` as one chunk of a chunked body (or as it is).
 *
 * @example
 * ```ts
 * frame(new Uint8Array(3), true).length; // 8: "3\r\n" + 3 bytes + "\r\n"
 * ```
 */
export function frame(data: Uint8Array, chunked: boolean): Uint8Array {
  if (!chunked) return data;
  const size = `${data.length.toString(16)}\r\n`;
  const out = new Uint8Array(size.length + data.length + 2);
  ENCODER.encodeInto(size, out);
  out.set(data, size.length);
  out[out.length - 2] = 13;
  out[out.length - 1] = 10;
  return out;
}

/**
 * The head of `res` for HTTP/1.x (`http10`: the client's version) with `body`
 * after it in the same buffer, to leave in one write. The framing is ours:
 * the handler's `Content-Length`, `Transfer-Encoding` and `Connection` give way
 * to `length` (none when undefined, never for a 204), `chunked` and `keepAlive`.
 *
 * @example
 * ```ts
 * const bytes = responseBytes(new Response("hi"), false, true, 2, new TextEncoder().encode("hi"));
 * ```
 */
export function responseBytes(
  res: Response,
  http10: boolean,
  keepAlive: boolean,
  length: number | undefined,
  body: Uint8Array | null,
  chunked = false,
): Uint8Array {
  const status = res.status;
  let s = `HTTP/1.1 ${status} ${REASONS[status] ?? res.statusText}\r\n`;
  let hasDate = false;
  for (const [k, v] of res.headers) {
    if (k === "content-length" || k === "transfer-encoding" || k === "connection") continue;
    if (k === "date") hasDate = true;
    s += `${k}: ${v}\r\n`;
  }
  if (!hasDate) s += `date: ${httpDate()}\r\n`;
  if (!keepAlive) s += "connection: close\r\n";
  else if (http10) s += "connection: keep-alive\r\n";
  if (chunked) s += "transfer-encoding: chunked\r\n";
  else if (length !== undefined && status !== 204) {
    s += `content-length: ${length}\r\n`;
  }
  s += "\r\n";
  const extra = body?.length ?? 0;
  const { bytes, at } = latin1Bytes(s, extra);
  if (body !== null) bytes.set(body, at);
  return bytes;
}

/**
 * The `Content-Length` of an answer of `bytes`; without a body, a HEAD's or
 * a 304's is the one the handler gave (the GET's), if any.
 *
 * @example
 * ```ts
 * contentLength(new Response(null, { headers: { "content-length": "5" } }), null, true); // 5
 * ```
 */
export function contentLength(
  res: Response,
  bytes: Uint8Array | null,
  isHead: boolean,
): number | undefined {
  if (bytes !== null) return bytes.length;
  if (!isHead && res.status !== 304) return 0;
  const given = res.headers.get("content-length");
  return given !== null && /^\d{1,15}$/.test(given) ? Number(given) : undefined;
}
