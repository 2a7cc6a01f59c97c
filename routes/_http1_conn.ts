/**
 * A JavaScript HTTP/1.1 server for one accepted connection, the alternative
 * to Deno's hyper (`_hyper_conn.ts`) with the same interface.
 *
 * Why: Deno 2.9.6's hyper writes a response's head in one `sendto` and its
 * body in a second one once both exceed ~512 bytes. A replica killed between
 * the two leaves a load balancer holding a head without a body, and nginx
 * never retries a request once it has read the upstream's head (issue 24).
 * Here an answer whose body is bytes or a string leaves in ONE `write` of
 * head and body (looping only on a partial write), and what the kernel
 * accepted is delivered even after the process dies. A streamed body goes
 * out as the head with its first chunk in one write, then chunked (HTTP/1.1)
 * or close-delimited (HTTP/1.0).
 *
 * Requests are read one at a time, so pipelined requests are answered in
 * order. The request-smuggling guards refuse with 400 and close: both
 * `Content-Length` and `Transfer-Encoding`, a bad or repeated
 * `Content-Length`, a `Transfer-Encoding` other than `chunked`. `req.signal`
 * never aborts (nothing in the product listens to it).
 *
 * @module
 */
import type { ConnHandler, ConnServer } from "./_hyper_conn.ts";
import { hasStaticBody, staticBody } from "./_hyper_conn.ts";

/** What the server needs of a connection (`Deno.Conn` has it; a test can record the writes). */
export interface Http1Conn {
  readonly remoteAddr: Deno.Addr;
  read(p: Uint8Array): Promise<number | null>;
  write(p: Uint8Array): Promise<number>;
  close(): void;
}

/** Limits of a request's head and of what is read after an answer. */
export interface Http1Limits {
  /** Bytes of a request head (request line and headers); more get a 431. */
  maxHeadBytes: number;
  /** Header lines of a request; more get a 431. */
  maxHeaders: number;
  /** Unread request body dropped after an answer to keep the connection; more closes it. */
  maxDrainBytes: number;
}

/** Defaults of {@link Http1Limits}: about hyper's in Deno 2.9.6 (128 header lines, a head of 64-90 KB). */
export const HTTP1_LIMITS: Http1Limits = {
  maxHeadBytes: 64 * 1024,
  maxHeaders: 128,
  maxDrainBytes: 256 * 1024,
};

/** Bytes asked of the socket per read of a body. */
const READ_SIZE = 64 * 1024;
/** First size of a connection's head buffer (grows up to the head limit). */
const HEAD_BUFFER = 8 * 1024;
/** A chunk-size line or a trailer section longer than this is a bad request. */
const MAX_CHUNK_LINE = 4 * 1024;

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const BAD_VALUE = /[\0\r\n]/;
const BAD_TARGET = /[\0-\x20\x7f]/;
const ENCODER = new TextEncoder();

/** Canonical reason phrases (as hyper writes them). */
const REASONS: Record<number, string> = {
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

/** Methods `new Request` refuses, and those it upper-cases. */
const FORBIDDEN = new Set(["CONNECT", "TRACE", "TRACK"]);
const NORMALIZED = new Set(["DELETE", "GET", "HEAD", "OPTIONS", "POST", "PUT"]);
const UTF8 = new TextDecoder();

/** A request the connection refuses before any handler sees it. */
class Refusal {
  constructor(readonly status: number, readonly detail: string) {}
}

/** A parsed request head. */
interface Head {
  method: string;
  url: string;
  headers: [string, string][];
  http10: boolean;
  keepAlive: boolean;
  /** Body length, "chunked", or 0 for none. */
  body: number | "chunked";
  expectContinue: boolean;
}

let dateSecond = 0;
let dateText = "";
/** The `Date` header's value, computed once a second. */
function httpDate(): string {
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

/** A Latin-1 string of `bytes` (a request head), fast for ASCII. */
function latin1Text(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 8192) {
    s += String.fromCharCode.apply(null, bytes.subarray(i, i + 8192) as unknown as number[]);
  }
  return s;
}

/**
 * Serves HTTP/1.x on one accepted connection, answering each response whose
 * body is bytes or a string in a single write. Never throws or rejects: I/O
 * errors end the connection quietly, `finished` resolves once it is closed.
 *
 * @example
 * ```ts
 * const conn = await Deno.connect({ hostname: "127.0.0.1", port: 8000 });
 * const s = serveHttp1Connection(conn, () => new Response("hi"), () => new Response(null, { status: 500 }));
 * s.abort();
 * await s.finished;
 * ```
 */
export function serveHttp1Connection(
  conn: Http1Conn,
  handler: ConnHandler,
  onError: (err: unknown) => Response | Promise<Response>,
  limits: Http1Limits = HTTP1_LIMITS,
): ConnServer {
  const c = new _Http1Connection(conn, handler, onError, limits);
  return { finished: c.run(), abort: () => c.close() };
}

class _Http1Connection {
  readonly #conn: Http1Conn;
  readonly #handler: ConnHandler;
  readonly #onError: (err: unknown) => Response | Promise<Response>;
  readonly #limits: Http1Limits;
  #buf = new Uint8Array(HEAD_BUFFER);
  #start = 0;
  #end = 0;
  #closed = false;
  #eof = false;

  constructor(
    conn: Http1Conn,
    handler: ConnHandler,
    onError: (err: unknown) => Response | Promise<Response>,
    limits: Http1Limits,
  ) {
    this.#conn = conn;
    this.#handler = handler;
    this.#onError = onError;
    this.#limits = limits;
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    try {
      this.#conn.close();
    } catch { /* closed already */ }
  }

  async run(): Promise<void> {
    try {
      while (!this.#closed) {
        let head: Head | null;
        try {
          head = await this.#readHead();
        } catch (err) {
          if (err instanceof Refusal) await this.#refuse(err);
          break;
        }
        if (head === null) break;
        if (!(await this.#exchange(head))) break;
      }
    } catch { /* an I/O error ends the connection */ }
    this.close();
  }

  /** Reads more bytes into the head buffer; false at the end of the stream. */
  async #fill(): Promise<boolean> {
    if (this.#eof || this.#closed) return false;
    if (this.#start > 0 && this.#start === this.#end) this.#start = this.#end = 0;
    if (this.#end === this.#buf.length) {
      if (this.#start > 0) {
        this.#buf.copyWithin(0, this.#start, this.#end);
        this.#end -= this.#start;
        this.#start = 0;
      } else {
        const grown = new Uint8Array(this.#buf.length * 2);
        grown.set(this.#buf);
        this.#buf = grown;
      }
    }
    const n = await this.#conn.read(this.#buf.subarray(this.#end));
    if (n === null || n === 0) {
      this.#eof = true;
      return false;
    }
    this.#end += n;
    return true;
  }

  /** The next request's head; null when the client closed between requests. */
  async #readHead(): Promise<Head | null> {
    const max = this.#limits.maxHeadBytes;
    // Bytes from #start already searched for the head's end (#fill may move the buffer).
    let scanned = 0;
    while (true) {
      // Empty lines before a request line are ignored (RFC 9112, 2.2).
      while (
        this.#start < this.#end && (this.#buf[this.#start] === 13 || this.#buf[this.#start] === 10)
      ) {
        this.#start++;
        scanned = 0;
      }
      const end = this.#headEnd(this.#start + scanned);
      if (end >= 0) {
        if (end - this.#start > max) throw new Refusal(431, "The request head is too large.");
        const text = latin1Text(this.#buf.subarray(this.#start, end));
        this.#start = end;
        return this.#parseHead(text);
      }
      scanned = Math.max(0, this.#end - this.#start - 3);
      if (this.#end - this.#start > max) throw new Refusal(431, "The request head is too large.");
      // The client closed, between requests or in a half-sent head: nothing to answer.
      if (!(await this.#fill())) return null;
    }
  }

  /** Index just past the blank line ending a head, searching from `from`; -1 if none yet. */
  #headEnd(from: number): number {
    const b = this.#buf;
    for (let i = from; i < this.#end; i++) {
      if (b[i] !== 10) continue;
      if (i + 1 < this.#end && b[i + 1] === 10) return i + 2;
      if (i + 2 < this.#end && b[i + 1] === 13 && b[i + 2] === 10) return i + 3;
    }
    return -1;
  }

  #parseHead(text: string): Head {
    const lines = text.split("\n");
    // The last two are the blank line's parts.
    lines.length -= 2;
    for (let i = 0; i < lines.length; i++) {
      const l = lines[i];
      if (l.endsWith("\r")) lines[i] = l.slice(0, -1);
    }
    const parts = lines[0].split(" ");
    if (parts.length !== 3) throw new Refusal(400, "Malformed request line.");
    const [method, target, version] = parts;
    if (!TOKEN.test(method)) throw new Refusal(400, "Malformed request method.");
    if (target === "" || BAD_TARGET.test(target)) {
      throw new Refusal(400, "Malformed request target.");
    }
    let http10: boolean;
    if (version === "HTTP/1.1") http10 = false;
    else if (version === "HTTP/1.0") http10 = true;
    else if (/^HTTP\/\d\.\d$/.test(version)) {
      throw new Refusal(505, `${version} is not supported; use HTTP/1.1.`);
    } else throw new Refusal(400, "Malformed HTTP version.");
    if (lines.length - 1 > this.#limits.maxHeaders) {
      throw new Refusal(431, "Too many request headers.");
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
      if (colon <= 0) throw new Refusal(400, "Malformed request header.");
      const name = line.slice(0, colon);
      if (!TOKEN.test(name)) throw new Refusal(400, "Malformed request header name.");
      const value = line.slice(colon + 1).trim();
      if (BAD_VALUE.test(value)) throw new Refusal(400, "Malformed request header value.");
      const lower = name.toLowerCase();
      switch (lower) {
        case "host":
          if (host !== undefined) throw new Refusal(400, "More than one Host header.");
          host = value;
          break;
        case "content-length":
          if (length !== undefined || !/^\d{1,15}$/.test(value)) {
            throw new Refusal(400, "Bad or repeated Content-Length.");
          }
          length = value;
          break;
        case "transfer-encoding":
          if (te || value.toLowerCase() !== "chunked") {
            throw new Refusal(400, "Only Transfer-Encoding: chunked is supported.");
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
      throw new Refusal(400, "Content-Length and Transfer-Encoding together.");
    }
    if (chunked && http10) throw new Refusal(400, "Transfer-Encoding in an HTTP/1.0 request.");
    if (host === undefined && !http10) throw new Refusal(400, "Missing Host header.");
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
      } else throw new Refusal(400, "Malformed request target.");
    } else if (method.toUpperCase() === "CONNECT") {
      throw new Refusal(400, "CONNECT needs an authority (host:port) as its target.");
    }
    // The head was read as Latin-1; a target's other bytes are UTF-8, as hyper reads them.
    // deno-lint-ignore no-control-regex
    if (/[^\x00-\x7f]/.test(path)) {
      path = UTF8.decode(Uint8Array.from(path, (ch) => ch.charCodeAt(0)));
    }
    const url = `http://${host || "localhost"}${path}`;
    if (!URL.canParse(url)) throw new Refusal(400, "Malformed Host or request target.");
    const body = chunked ? "chunked" as const : length === undefined ? 0 : Number(length);
    return { method, url, headers, http10, keepAlive, body, expectContinue };
  }

  /** Answers a refused request and closes. */
  async #refuse(r: Refusal): Promise<void> {
    const body = JSON.stringify({ detail: r.detail });
    const head = `HTTP/1.1 ${r.status} ${REASONS[r.status]}\r\ncontent-type: application/json\r\n` +
      `connection: close\r\ncontent-length: ${body.length}\r\ndate: ${httpDate()}\r\n\r\n`;
    try {
      await this.#writeAll(ENCODER.encode(head + body));
    } catch { /* the client is gone */ }
  }

  async #writeAll(bytes: Uint8Array): Promise<void> {
    let at = 0;
    while (at < bytes.length) {
      if (this.#closed) throw new Deno.errors.BadResource("The connection is closed.");
      at += await this.#conn.write(at === 0 ? bytes : bytes.subarray(at));
    }
  }

  /** One request and its answer; true when the connection may serve another. */
  async #exchange(head: Head): Promise<boolean> {
    const body = new _RequestBody(this, head);
    const req = this.#request(head, body);
    if (req === null) {
      await this.#refuse(new Refusal(400, "Malformed request header."));
      return false;
    }
    const { promise: completed, resolve, reject } = Promise.withResolvers<void>();
    completed.catch(() => {});
    const info = { remoteAddr: this.#conn.remoteAddr as Deno.NetAddr, completed };
    let res: Response;
    try {
      res = await this.#handler(req, info);
      if (!(res instanceof Response)) throw new TypeError("The handler did not return a Response.");
    } catch (err) {
      res = await this.#errorResponse(err);
    }
    body.answered = true;
    const given = staticBody(res);
    const isHead = head.method === "HEAD";
    let keepAlive = head.keepAlive && !body.failed &&
      !(res.headers.get("connection") ?? "").toLowerCase().includes("close");
    // A client still waiting for a 100 Continue may or may not send its body: not knowable.
    if (body.awaitingContinue) keepAlive = false;
    try {
      if (given !== undefined || hasStaticBody(res) || isHead || noBody(res.status)) {
        // Bytes and strings are taken as given (no stream); a Blob is read whole. A HEAD
        // answer keeps the length of the GET's body (bytes, not a string's length).
        const bytes = typeof given === "string"
          ? ENCODER.encode(given)
          : given !== undefined
          ? given
          : hasStaticBody(res)
          ? await res.bytes()
          : null;
        if (given === undefined && bytes === null) await res.body?.cancel().catch(() => {});
        const send = isHead || noBody(res.status) ? null : bytes;
        await this.#writeAll(
          this.#headBytes(res, head, keepAlive, this.#length(res, bytes, isHead), send),
        );
      } else {
        keepAlive = await this.#writeStream(res, head, keepAlive);
      }
    } catch (err) {
      reject(
        err instanceof Deno.errors.Interrupted ? err : new Deno.errors.Interrupted(String(err)),
      );
      this.close();
      return false;
    }
    resolve();
    if (!keepAlive) return false;
    // An unread body is dropped up to a bound, else the connection closes.
    return await body.finish(this.#limits.maxDrainBytes);
  }

  async #errorResponse(err: unknown): Promise<Response> {
    try {
      const r = await this.#onError(err);
      if (r instanceof Response) return r;
    } catch { /* falls back to a bare 500 */ }
    return new Response(null, { status: 500 });
  }

  /** The handler's Request; null when the headers are not acceptable to `Headers`. */
  #request(head: Head, body: _RequestBody): Request | null {
    const m = head.method.toUpperCase();
    const withBody = head.body !== 0 && head.method !== "GET" && head.method !== "HEAD";
    // `Request` refuses CONNECT, TRACE and TRACK and upper-cases "get", "post", ...: such a
    // request is built as POST and given its method as sent, as hyper passes it on (the
    // application answers them; DRF, case-sensitive, refuses "get" with a 405).
    const keep = m !== head.method && NORMALIZED.has(m) || FORBIDDEN.has(m);
    try {
      const req = new Request(head.url, {
        method: keep ? "POST" : head.method,
        headers: head.headers,
        body: withBody ? body.stream() : null,
      });
      if (keep) Object.defineProperty(req, "method", { value: head.method });
      return req;
    } catch {
      return null;
    }
  }

  /** A response head (and `body` after it, in the same buffer). */
  #headBytes(
    res: Response,
    head: Head,
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
    else if (head.http10) s += "connection: keep-alive\r\n";
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
   */
  #length(res: Response, bytes: Uint8Array | null, isHead: boolean): number | undefined {
    if (bytes !== null) return bytes.length;
    if (!isHead && res.status !== 304) return 0;
    const given = res.headers.get("content-length");
    return given !== null && /^\d{1,15}$/.test(given) ? Number(given) : undefined;
  }

  /** Writes a streamed body; the head leaves with its first chunk. False: close after it. */
  async #writeStream(res: Response, head: Head, keepAlive: boolean): Promise<boolean> {
    // A length the handler gave frames the body; else chunks (HTTP/1.1) or, as HTTP/1.0 has
    // no chunks, the connection's end.
    const given = res.headers.get("content-length");
    const length = given !== null && /^\d{1,15}$/.test(given) ? Number(given) : undefined;
    const chunked = length === undefined && !head.http10;
    if (length === undefined && !chunked) keepAlive = false;
    const reader = res.body!.getReader();
    try {
      let r = await reader.read();
      while (!r.done && r.value.length === 0) r = await reader.read();
      if (r.done) {
        if (length !== undefined && length !== 0) throw new Error("The body ended early.");
        await this.#writeAll(this.#headBytes(res, head, keepAlive, 0, null));
        return keepAlive;
      }
      let sent = r.value.length;
      await this.#writeAll(
        this.#headBytes(res, head, keepAlive, length, frame(r.value, chunked), chunked),
      );
      while (true) {
        r = await reader.read();
        if (r.done) break;
        sent += r.value.length;
        if (r.value.length > 0) await this.#writeAll(frame(r.value, chunked));
      }
      // A body longer or shorter than its length cannot be framed: the connection is cut.
      if (length !== undefined && sent !== length) {
        throw new Error(`The body had ${sent} bytes, not its Content-Length of ${length}.`);
      }
      if (chunked) await this.#writeAll(ENCODER.encode("0\r\n\r\n"));
      return keepAlive;
    } catch (err) {
      reader.cancel(err).catch(() => {});
      throw err;
    }
  }

  // The body reader's access to the buffer and the socket.

  /** Bytes buffered but not yet consumed. */
  get buffered(): number {
    return this.#end - this.#start;
  }

  /** Takes up to `max` buffered bytes (a copy). */
  take(max: number): Uint8Array {
    const n = Math.min(max, this.#end - this.#start);
    const out = this.#buf.slice(this.#start, this.#start + n);
    this.#start += n;
    return out;
  }

  /** Reads up to `max` bytes: buffered ones first, else from the socket; null at its end. */
  async readSome(max: number): Promise<Uint8Array | null> {
    if (this.buffered > 0) return this.take(max);
    if (this.#eof || this.#closed) return null;
    const chunk = new Uint8Array(Math.min(max, READ_SIZE));
    const n = await this.#conn.read(chunk);
    if (n === null || n === 0) {
      this.#eof = true;
      return null;
    }
    return chunk.subarray(0, n);
  }

  /** One line (without CRLF) of at most `max` bytes; null at the stream's end. */
  async readLine(max: number): Promise<string | null> {
    while (true) {
      const nl = this.#buf.subarray(this.#start, this.#end).indexOf(10);
      if (nl >= 0) {
        const line = latin1Text(this.#buf.subarray(this.#start, this.#start + nl));
        this.#start += nl + 1;
        return line.endsWith("\r") ? line.slice(0, -1) : line;
      }
      if (this.#end - this.#start > max) throw new Error("A line of the chunked body is too long.");
      if (!(await this.#fill())) return null;
    }
  }

  /** Writes `bytes` (a 100 Continue) now. */
  send(bytes: Uint8Array): Promise<void> {
    return this.#writeAll(bytes);
  }
}

/** True for statuses that never have a body. */
function noBody(status: number): boolean {
  return status === 204 || status === 304 || (status >= 100 && status < 200);
}

/** `data` as one chunk of a chunked body (or as it is). */
function frame(data: Uint8Array, chunked: boolean): Uint8Array {
  if (!chunked) return data;
  const size = `${data.length.toString(16)}\r\n`;
  const out = new Uint8Array(size.length + data.length + 2);
  ENCODER.encodeInto(size, out);
  out.set(data, size.length);
  out[out.length - 2] = 13;
  out[out.length - 1] = 10;
  return out;
}

/** A request body as a stream read on demand, and its draining after the answer. */
class _RequestBody {
  readonly #conn: _Http1Connection;
  readonly #head: Head;
  /** Bytes of the body (or of the current chunk) still to come. */
  #left: number;
  #chunked: boolean;
  #done: boolean;
  #pending: Promise<Uint8Array | null> | null = null;
  #continueSent = false;
  /** The answer has been handed over. */
  answered = false;
  /** The body was malformed or cut: the connection cannot be reused. */
  failed = false;

  constructor(conn: _Http1Connection, head: Head) {
    this.#conn = conn;
    this.#head = head;
    this.#chunked = head.body === "chunked";
    this.#left = this.#chunked ? 0 : head.body as number;
    this.#done = !this.#chunked && this.#left === 0;
  }

  /** True when the client waits for a 100 Continue it never got, with its body unsent. */
  get awaitingContinue(): boolean {
    return this.#head.expectContinue && !this.#continueSent && !this.#done;
  }

  /** The body as a stream with backpressure (read only when the application pulls). */
  stream(): ReadableStream<Uint8Array> {
    return new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        try {
          const chunk = await this.#next();
          if (chunk === null) controller.close();
          else controller.enqueue(chunk);
        } catch (err) {
          this.failed = true;
          controller.error(err);
        }
      },
    }, { highWaterMark: 0 });
  }

  /** The next piece of the body; null at its end. Serialized: one read at a time. */
  #next(): Promise<Uint8Array | null> {
    const p = (this.#pending ?? Promise.resolve(null)).catch(() => null).then(() => this.#read());
    this.#pending = p;
    return p;
  }

  async #read(): Promise<Uint8Array | null> {
    if (this.#done) return null;
    if (this.#head.expectContinue && !this.#continueSent && !this.answered) {
      this.#continueSent = true;
      await this.#conn.send(ENCODER.encode("HTTP/1.1 100 Continue\r\n\r\n"));
    }
    if (this.#chunked && this.#left === 0) {
      if (!(await this.#nextChunk())) return null;
    }
    const data = await this.#conn.readSome(this.#left);
    if (data === null) throw new Error("The request body was cut short.");
    this.#left -= data.length;
    if (this.#left === 0 && !this.#chunked) this.#done = true;
    if (this.#left === 0 && this.#chunked) {
      const end = await this.#conn.readLine(2);
      if (end !== "") throw new Error("A chunk of the request body lacks its CRLF.");
    }
    return data;
  }

  /** Reads a chunk-size line; false at the last chunk (after its trailers). */
  async #nextChunk(): Promise<boolean> {
    const line = await this.#conn.readLine(MAX_CHUNK_LINE);
    if (line === null) throw new Error("The request body was cut short.");
    const m = /^([0-9a-fA-F]{1,12})[ \t]*(;.*)?$/.exec(line);
    if (!m) throw new Error("Malformed chunk size in the request body.");
    const size = parseInt(m[1], 16);
    if (size > 0) {
      this.#left = size;
      return true;
    }
    // Trailers, up to a blank line; dropped (the application has read the headers long ago).
    let trailers = 0;
    while (true) {
      const t = await this.#conn.readLine(MAX_CHUNK_LINE);
      if (t === null) throw new Error("The request body was cut short.");
      if (t === "") break;
      trailers += t.length;
      if (trailers > MAX_CHUNK_LINE || !/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+:/.test(t)) {
        throw new Error("Malformed trailers in the request body.");
      }
    }
    this.#done = true;
    return false;
  }

  /**
   * After the answer: reads and drops what the application left unread, up
   * to `maxBytes`. True when the body ended so the next request can be read.
   */
  async finish(maxBytes: number): Promise<boolean> {
    try {
      await this.#pending?.catch(() => {});
      if (this.failed) return false;
      let dropped = 0;
      while (!this.#done) {
        const chunk = await this.#next();
        if (chunk === null) break;
        dropped += chunk.length;
        if (dropped > maxBytes) return false;
      }
      return true;
    } catch {
      return false;
    }
  }
}
