/**
 * HTTP/1.x request bodies for the js engine (`_http1_conn.ts`): of a length
 * or chunked (with trailers), read only as the application pulls them (a 100
 * Continue goes out at the first pull when the client expects one), and
 * drained up to a bound after the answer so the connection can serve the next
 * request.
 *
 * @module
 */
import type { RequestHead } from "./_http1_head.ts";

/** A chunk-size line or a trailer section longer than this is a bad request. */
const MAX_CHUNK_LINE = 4 * 1024;
const ENCODER = new TextEncoder();

/** Where a body is read from: the connection's buffer and socket. */
export interface BodySource {
  /** Reads up to `max` bytes (buffered ones first); null at the stream's end. */
  readSome(max: number): Promise<Uint8Array | null>;
  /** One line (without CRLF) of at most `max` bytes; null at the stream's end. */
  readLine(max: number): Promise<string | null>;
  /** Writes `bytes` (a 100 Continue) now. */
  send(bytes: Uint8Array): Promise<void>;
}

/**
 * A request body as a stream read on demand, and its draining after the answer.
 *
 * @example
 * ```ts
 * import { parseRequestHead } from "./_http1_head.ts";
 * declare const source: BodySource;
 * const head = parseRequestHead("POST / HTTP/1.1\r\nhost: x\r\ncontent-length: 2\r\n\r\n", 128);
 * const body = new RequestBody(source, head);
 * await new Response(body.stream()).text();
 * ```
 */
export class RequestBody {
  readonly #conn: BodySource;
  readonly #head: RequestHead;
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

  constructor(conn: BodySource, head: RequestHead) {
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
