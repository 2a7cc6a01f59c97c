/**
 * A server-wide budget of request-body bytes: requests reserve their
 * body's size before reading it and give it back when answered, so the
 * memory held by bodies being read and parsed at once stays bounded
 * however many arrive together. A request that does not fit waits its
 * turn (first come, first served; the bytes wait in the client's socket,
 * not in our memory) for a bounded time, then is refused as busy.
 *
 * @module
 */

/** Options of a {@link BodyBudget}. */
export interface BodyBudgetOptions {
  /** Bytes of bodies held at once (default 64 MiB). */
  bytes?: number;
  /** How long a request may wait for room before it is refused (default 30 s). */
  waitMs?: number;
}

/** Thrown by {@link BodyBudget.reserve} when no room was found in time. */
export class BudgetBusyError extends Error {
  /** Builds the error; the message says what was full. */
  constructor(readonly capacity: number, readonly waitMs: number) {
    super(
      `The server is busy reading other large requests (${
        Math.round(capacity / 2 ** 20)
      } MiB of request bodies at once); retry in a few seconds.`,
    );
    this.name = "BudgetBusyError";
  }
}

interface Waiter {
  bytes: number;
  grant: () => void;
}

/** Default total of request bodies read at once. */
export const DEFAULT_BODY_BUDGET = 64 * 2 ** 20;

/**
 * The byte budget. One per server, passed to the routes that read bodies.
 *
 * @example
 * ```ts
 * const budget = new BodyBudget({ bytes: 64 * 2 ** 20 });
 * const release = await budget.reserve(1_000_000);
 * try {
 *   // read and handle the body
 * } finally {
 *   release();
 * }
 * ```
 */
export class BodyBudget {
  /** Total bytes that may be reserved at once. */
  readonly capacity: number;
  /** Longest wait for room, in milliseconds. */
  readonly waitMs: number;
  private used = 0;
  private readonly queue: Waiter[] = [];

  constructor(opts: BodyBudgetOptions = {}) {
    this.capacity = opts.bytes ?? DEFAULT_BODY_BUDGET;
    this.waitMs = opts.waitMs ?? 30_000;
    if (!(this.capacity > 0)) throw new RangeError("The body budget must be positive.");
  }

  /** Bytes reserved right now. */
  get inUse(): number {
    return this.used;
  }

  /** Requests waiting for room right now. */
  get waiting(): number {
    return this.queue.length;
  }

  /**
   * Reserves `bytes` (at most the whole budget), waiting for room in
   * arrival order; resolves to the function that gives them back (call it
   * once). Rejects with {@link BudgetBusyError} after `waitMs`.
   */
  reserve(bytes: number): Promise<() => void> {
    const n = Math.min(Math.max(0, bytes), this.capacity);
    const release = () => {
      let once = true;
      return () => {
        if (!once) return;
        once = false;
        this.used -= n;
        this.drain();
      };
    };
    // Only when nobody waits: a stream of small requests must not starve a big one.
    if (this.queue.length === 0 && this.used + n <= this.capacity) {
      this.used += n;
      return Promise.resolve(release());
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        bytes: n,
        grant: () => {
          clearTimeout(timer);
          this.used += n;
          resolve(release());
        },
      };
      const timer = setTimeout(() => {
        const i = this.queue.indexOf(waiter);
        if (i >= 0) this.queue.splice(i, 1);
        reject(new BudgetBusyError(this.capacity, this.waitMs));
        this.drain(); // the one that left may have been blocking smaller ones behind it
      }, this.waitMs);
      this.queue.push(waiter);
    });
  }

  /**
   * Reserves room for `req`'s body: its `Content-Length`, or `limit` (the
   * most a body cut by {@link limitBody} can hold) when it is sent chunked.
   * Resolves to the function that gives it back, or, when no room came in
   * time, to the {@link BudgetBusyError} (the body is then cancelled: the
   * face answers 503 without reading it).
   *
   * @example
   * ```ts
   * const budget = new BodyBudget();
   * const req = new Request("http://x/", { method: "POST", body: "a" });
   * const release = await budget.reserveFor(req, 1024);
   * if (!(release instanceof BudgetBusyError)) release();
   * ```
   */
  async reserveFor(req: Request, limit: number): Promise<(() => void) | BudgetBusyError> {
    const declared = Number(req.headers.get("content-length") ?? "NaN");
    try {
      return await this.reserve(Number.isFinite(declared) ? Math.min(declared, limit) : limit);
    } catch (e) {
      if (!(e instanceof BudgetBusyError)) throw e;
      await req.body?.cancel().catch(() => {});
      return e;
    }
  }

  /**
   * Runs `answer` with room for `req`'s body reserved (see {@link reserveFor})
   * and gives the room back when it settles. With no room in time, answers
   * the face's `busy` response, marked `Retry-After: 5`, without running it.
   *
   * @example
   * ```ts
   * const budget = new BodyBudget();
   * const req = new Request("http://x/", { method: "POST", body: "a" });
   * const res = await budget.whileReserved(req, 1024, (m) => new Response(m, { status: 503 }),
   *   async () => new Response(await req.text()));
   * ```
   */
  async whileReserved(
    req: Request,
    limit: number,
    busy: (message: string) => Response,
    answer: () => Promise<Response>,
  ): Promise<Response> {
    const release = await this.reserveFor(req, limit);
    if (release instanceof BudgetBusyError) {
      const res = busy(release.message);
      res.headers.set("retry-after", "5");
      return res;
    }
    try {
      return await answer();
    } finally {
      release();
    }
  }

  private drain(): void {
    while (this.queue.length > 0 && this.used + this.queue[0].bytes <= this.capacity) {
      this.queue.shift()!.grant();
    }
  }
}

/** What a body cut by {@link limitBody} fails with once it passed its limit. */
export class BodyTooLargeError extends Error {
  /** `limit` is the largest body allowed, in bytes. */
  constructor(readonly limit: number) {
    super(`The request body is larger than the limit of ${limit} bytes.`);
    this.name = "BodyTooLargeError";
  }
}

/**
 * `body` cut at `limit` bytes while it streams in: the returned stream fails
 * with {@link BodyTooLargeError} as soon as more than `limit` bytes arrived
 * (and the source is cancelled), so no reader of it, `formData()` included,
 * ever holds more than `limit` bytes of it. A declared `Content-Length` over
 * the limit is refused before reading by {@link declaredTooLarge}.
 *
 * @example
 * ```ts
 * const req = new Request("http://x/", { method: "POST", body: "a=1" });
 * const form = await new Response(limitBody(req.body, 1024), { headers: req.headers }).formData();
 * ```
 */
export function limitBody(
  body: ReadableStream<Uint8Array> | null,
  limit: number,
): ReadableStream<Uint8Array> {
  if (body === null) return new ReadableStream({ start: (c) => c.close() });
  let size = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        size += chunk.byteLength;
        if (size > limit) controller.error(new BodyTooLargeError(limit));
        else controller.enqueue(chunk);
      },
    }),
  );
}

/**
 * True when `req` declares a `Content-Length` over `limit` (refused before
 * any byte is read).
 *
 * @example
 * ```ts
 * declaredTooLarge(new Request("http://x/", { method: "POST", body: "abc" }), 2); // true
 * ```
 */
export function declaredTooLarge(req: Request, limit: number): boolean {
  const declared = Number(req.headers.get("content-length") ?? "0");
  return Number.isFinite(declared) && declared > limit;
}
