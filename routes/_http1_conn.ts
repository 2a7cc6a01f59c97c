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
import { HeadRefusal, latin1Text, parseRequestHead, type RequestHead } from "./_http1_head.ts";
import { type BodySource, RequestBody } from "./_http1_body.ts";
import {
  contentLength,
  frame,
  httpDate,
  noBody,
  REASONS,
  responseBytes,
} from "./_http1_response.ts";

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

const ENCODER = new TextEncoder();

/** Methods `new Request` refuses, and those it upper-cases. */
const FORBIDDEN = new Set(["CONNECT", "TRACE", "TRACK"]);
const NORMALIZED = new Set(["DELETE", "GET", "HEAD", "OPTIONS", "POST", "PUT"]);

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

class _Http1Connection implements BodySource {
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
        let head: RequestHead | null;
        try {
          head = await this.#readHead();
        } catch (err) {
          if (err instanceof HeadRefusal) await this.#refuse(err);
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
  async #readHead(): Promise<RequestHead | null> {
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
        if (end - this.#start > max) throw new HeadRefusal(431, "The request head is too large.");
        const text = latin1Text(this.#buf.subarray(this.#start, end));
        this.#start = end;
        return parseRequestHead(text, this.#limits.maxHeaders);
      }
      scanned = Math.max(0, this.#end - this.#start - 3);
      if (this.#end - this.#start > max) {
        throw new HeadRefusal(431, "The request head is too large.");
      }
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

  /** Answers a refused request and closes. */
  async #refuse(r: HeadRefusal): Promise<void> {
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
  async #exchange(head: RequestHead): Promise<boolean> {
    const body = new RequestBody(this, head);
    const req = this.#request(head, body);
    if (req === null) {
      await this.#refuse(new HeadRefusal(400, "Malformed request header."));
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
          responseBytes(res, head.http10, keepAlive, contentLength(res, bytes, isHead), send),
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
  #request(head: RequestHead, body: RequestBody): Request | null {
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

  /** Writes a streamed body; the head leaves with its first chunk. False: close after it. */
  async #writeStream(res: Response, head: RequestHead, keepAlive: boolean): Promise<boolean> {
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
        await this.#writeAll(responseBytes(res, head.http10, keepAlive, 0, null));
        return keepAlive;
      }
      let sent = r.value.length;
      await this.#writeAll(
        responseBytes(res, head.http10, keepAlive, length, frame(r.value, chunked), chunked),
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
