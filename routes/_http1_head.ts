/**
 * HTTP/1.x request heads for the js engine (`_http1_conn.ts`): the request
 * line and headers checked and turned into what a `Request` needs, with the
 * request-smuggling guards (both `Content-Length` and `Transfer-Encoding`, a
 * bad or repeated `Content-Length`, a `Transfer-Encoding` other than
 * `chunked`: 400), `Host` required for HTTP/1.1, absolute-form targets, and
 * 505 for another HTTP version.
 *
 * @module
 */

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const BAD_VALUE = /[\0\r\n]/;
const BAD_TARGET = /[\0-\x20\x7f]/;
const UTF8 = new TextDecoder();

/** A request refused before any handler sees it: the status and a sentence for `detail`. */
export class HeadRefusal {
  constructor(readonly status: number, readonly detail: string) {}
}

/** A parsed request head. */
export interface RequestHead {
  method: string;
  url: string;
  headers: [string, string][];
  http10: boolean;
  keepAlive: boolean;
  /** Body length, "chunked", or 0 for none. */
  body: number | "chunked";
  expectContinue: boolean;
}

/**
 * A Latin-1 string of `bytes` (a request head: header values are byte strings).
 *
 * @example
 * ```ts
 * latin1Text(new Uint8Array([104, 233])); // "h\u00e9"
 * ```
 */
export function latin1Text(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 8192) {
    s += String.fromCharCode.apply(null, bytes.subarray(i, i + 8192) as unknown as number[]);
  }
  return s;
}

/**
 * Parses a request head (`text`: request line and header lines up to the
 * blank line, read as Latin-1); throws a {@link HeadRefusal} for a request
 * that must not reach the application.
 *
 * @example
 * ```ts
 * parseRequestHead("GET /a HTTP/1.1\r\nhost: x\r\n\r\n", 128).url; // "http://x/a"
 * ```
 */
export function parseRequestHead(text: string, maxHeaders: number): RequestHead {
  const lines = text.split("\n");
  // The last two are the blank line's parts.
  lines.length -= 2;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (l.endsWith("\r")) lines[i] = l.slice(0, -1);
  }
  const parts = lines[0].split(" ");
  if (parts.length !== 3) throw new HeadRefusal(400, "Malformed request line.");
  const [method, target, version] = parts;
  if (!TOKEN.test(method)) throw new HeadRefusal(400, "Malformed request method.");
  if (target === "" || BAD_TARGET.test(target)) {
    throw new HeadRefusal(400, "Malformed request target.");
  }
  let http10: boolean;
  if (version === "HTTP/1.1") http10 = false;
  else if (version === "HTTP/1.0") http10 = true;
  else if (/^HTTP\/\d\.\d$/.test(version)) {
    throw new HeadRefusal(505, `${version} is not supported; use HTTP/1.1.`);
  } else throw new HeadRefusal(400, "Malformed HTTP version.");
  if (lines.length - 1 > maxHeaders) {
    throw new HeadRefusal(431, "Too many request headers.");
  }
  const headers: [string, string][] = [];
  let host: string | undefined;
  let length: string | undefined;
  let chunked = false;
  let te = false;
  let keepAlive = !http10;
  let expectContinue = false;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i];
    const colon = line.indexOf(":");
    if (colon <= 0) throw new HeadRefusal(400, "Malformed request header.");
    const name = line.slice(0, colon);
    if (!TOKEN.test(name)) throw new HeadRefusal(400, "Malformed request header name.");
    const value = line.slice(colon + 1).trim();
    if (BAD_VALUE.test(value)) throw new HeadRefusal(400, "Malformed request header value.");
    const lower = name.toLowerCase();
    switch (lower) {
      case "host":
        if (host !== undefined) throw new HeadRefusal(400, "More than one Host header.");
        host = value;
        break;
      case "content-length":
        if (length !== undefined || !/^\d{1,15}$/.test(value)) {
          throw new HeadRefusal(400, "Bad or repeated Content-Length.");
        }
        length = value;
        break;
      case "transfer-encoding":
        if (te || value.toLowerCase() !== "chunked") {
          throw new HeadRefusal(400, "Only Transfer-Encoding: chunked is supported.");
        }
        te = chunked = true;
        break;
      case "connection":
        for (const t of value.toLowerCase().split(",")) {
          const token = t.trim();
          if (token === "close") keepAlive = false;
          else if (token === "keep-alive" && http10) keepAlive = true;
        }
        break;
      case "expect":
        if (value.toLowerCase() === "100-continue") expectContinue = !http10;
        break;
    }
    headers.push([lower, value]);
  }
  if (length !== undefined && chunked) {
    throw new HeadRefusal(400, "Content-Length and Transfer-Encoding together.");
  }
  if (chunked && http10) throw new HeadRefusal(400, "Transfer-Encoding in an HTTP/1.0 request.");
  if (host === undefined && !http10) throw new HeadRefusal(400, "Missing Host header.");
  let path = target;
  if (!target.startsWith("/")) {
    const abs = /^https?:\/\/([^/?#]+)([^#]*)$/i.exec(target);
    if (abs) {
      host = abs[1];
      path = abs[2] === "" ? "/" : abs[2];
      if (!path.startsWith("/")) path = "/" + path;
    } else if (method.toUpperCase() === "CONNECT" && /^[^/?#@]+:\d+$/.test(target)) {
      host = target;
      path = "/";
    } else if (target === "*" && method.toUpperCase() === "OPTIONS") {
      path = "/*";
    } else throw new HeadRefusal(400, "Malformed request target.");
  } else if (method.toUpperCase() === "CONNECT") {
    throw new HeadRefusal(400, "CONNECT needs an authority (host:port) as its target.");
  }
  // The head was read as Latin-1; a target's other bytes are UTF-8, as hyper reads them.
  // deno-lint-ignore no-control-regex
  if (/[^\x00-\x7f]/.test(path)) {
    path = UTF8.decode(Uint8Array.from(path, (ch) => ch.charCodeAt(0)));
  }
  const url = `http://${host || "localhost"}${path}`;
  if (!URL.canParse(url)) throw new HeadRefusal(400, "Malformed Host or request target.");
  const body = chunked ? "chunked" as const : length === undefined ? 0 : Number(length);
  return { method, url, headers, http10, keepAlive, body, expectContinue };
}
