/**
 * The body timeout: a request body must have arrived completely within a
 * deadline from the request's head, however the handler reads it.
 *
 * @module
 */

/** The error a handler's body read fails with when the body timeout passes. */
export class BodyTimeoutError extends Error {
  /** `seconds` is the timeout that passed. */
  constructor(readonly seconds: number) {
    super(
      `The request body did not arrive within ${seconds} seconds; send it without long pauses.`,
    );
    this.name = "BodyTimeoutError";
  }
}

/** A request whose body is read under a deadline. */
export interface DeadlineRequest {
  /** The request to hand to the application (same head, guarded body). */
  request: Request;
  /** True once the deadline passed before the body's end. */
  readonly expired: boolean;
  /** Resolves true when the body ended in time, false when the deadline passed first. */
  ended: Promise<boolean>;
  /**
   * Reads and drops whatever the application left unread (so `ended`
   * settles). Resolves true once the body has ended, false as soon as more
   * than `maxBytes` were dropped or `maxMs` passed (the drain goes on).
   */
  drain(maxBytes?: number, maxMs?: number): Promise<boolean>;
}

/**
 * True when a request carries a body: not GET/HEAD, and a non-zero
 * `Content-Length` or any `Transfer-Encoding`. Cheap enough for every request.
 *
 * @example
 * ```ts
 * hasBody(new Request("http://x/", { method: "POST", body: "a" })); // true
 * ```
 */
export function hasBody(req: Request): boolean {
  const m = req.method;
  if (m === "GET" || m === "HEAD") return false;
  const len = req.headers.get("content-length");
  if (len !== null) return len !== "0";
  return req.headers.has("transfer-encoding");
}

/**
 * True for the methods the Fetch standard forbids in a `Request` (CONNECT,
 * TRACE, TRACK, in any letter case): `new Request` throws for them, so such a
 * request cannot be re-wrapped with a guarded body and must be answered
 * without reading its body.
 *
 * @example
 * ```ts
 * isForbiddenMethod("trace"); // true
 * isForbiddenMethod("POST"); // false
 * ```
 */
export function isForbiddenMethod(method: string): boolean {
  return FORBIDDEN_METHODS.has(method.toUpperCase());
}

const FORBIDDEN_METHODS = new Set(["CONNECT", "TRACE", "TRACK"]);

/**
 * Wraps `req` so that its body fails with {@link BodyTimeoutError} when it
 * has not ended `ms` milliseconds from now; `onExpire` is called then (an
 * error it throws is logged, never left to end the process). `req` must not
 * have a method {@link isForbiddenMethod} refuses (this throws, arming
 * nothing).
 *
 * @example
 * ```ts
 * declare const req: Request, app: (req: Request) => Promise<Response>;
 * const d = withBodyDeadline(req, 60_000, 60, () => {});
 * const res = await app(d.request);
 * ```
 */
export function withBodyDeadline(
  req: Request,
  ms: number,
  seconds: number,
  onExpire: () => void,
): DeadlineRequest {
  if (isForbiddenMethod(req.method)) {
    throw new TypeError(`A ${req.method} request cannot be given a guarded body.`);
  }
  const source = req.body!.getReader();
  const { promise: ended, resolve } = Promise.withResolvers<boolean>();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let settled = false;
  let expired = false;
  let draining = false;
  const finish = (inTime: boolean) => {
    if (settled) return false;
    settled = true;
    clearTimeout(timer);
    resolve(inTime);
    return true;
  };
  const read = async (): Promise<ReadableStreamReadResult<Uint8Array>> => {
    try {
      const r = await source.read();
      if (r.done) finish(true);
      return r;
    } catch (err) {
      finish(false);
      throw err;
    }
  };
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
    async pull(c) {
      const r = await read();
      if (expired) return;
      try {
        if (r.done) c.close();
        else c.enqueue(r.value);
      } catch { /* errored by the deadline meanwhile */ }
    },
    cancel() {
      // The application gave up on the body: drain it so the deadline still
      // tells whether the client finished sending it.
      if (draining) return;
      draining = true;
      void drainAll();
    },
  }, { highWaterMark: 0 });
  let dropped = 0;
  let onDropped: (() => void) | undefined;
  const drainAll = async () => {
    try {
      while (!settled) {
        const r = await read();
        if (r.done) break;
        dropped += r.value.byteLength;
        onDropped?.();
      }
    } catch { /* the connection went away */ }
  };
  // Built before the timer is armed: a Request that cannot be built leaves nothing behind.
  const request = new Request(req.url, {
    method: req.method,
    headers: req.headers,
    body,
    duplex: "half",
  } as RequestInit);
  const timer = setTimeout(() => {
    if (!finish(false)) return;
    expired = true;
    try {
      controller.error(new BodyTimeoutError(seconds));
    } catch { /* the stream was already closed or cancelled */ }
    source.cancel().catch(() => {});
    try {
      onExpire();
    } catch (err) {
      // A timer callback that throws ends the process: log it instead.
      console.error("The body-timeout callback failed:", err);
    }
  }, ms);
  return {
    request,
    get expired() {
      return expired;
    },
    ended,
    drain(maxBytes = Infinity, maxMs = Infinity) {
      if (settled) return ended;
      if (!draining) {
        draining = true;
        void drainAll();
      }
      const limit = dropped + maxBytes;
      return new Promise<boolean>((resolve) => {
        const done = (inTime: boolean) => {
          clearTimeout(late);
          onDropped = undefined;
          resolve(inTime);
        };
        const late = Number.isFinite(maxMs) ? setTimeout(() => done(false), maxMs) : undefined;
        onDropped = () => {
          if (dropped > limit) done(false);
        };
        ended.then(done);
      });
    },
  };
}
