/**
 * Deno's hyper HTTP server, one accepted connection at a time.
 *
 * Why an internal: `Deno.serve` runs its accept loop in Rust and that loop
 * dies for good on the first accept error (EMFILE at the open-file limit
 * rejects `finished` and nothing is accepted after), and it has no header,
 * idle or body timeouts and no connection cap. Owning the accept loop
 * (`Deno.listen`) fixes all of that, but Deno 2.9.6 offers its fast hyper
 * server for a single connection only through `Deno[Deno.internal]
 * .serveHttpOnConnection` (the function `Deno.serve` itself is built on).
 * `node:http` is no alternative (its timeouts are not enforced and it stops
 * accepting at the fd limit too). Everything that touches the internal is in
 * this file; {@link assertHyperAvailable} fails loudly at start-up when a
 * Deno upgrade removes or changes it, so the tests catch that, not users.
 *
 * @module
 */

/** Request handler in `Deno.serve`'s shape. */
export type ConnHandler = (
  req: Request,
  info: Deno.ServeHandlerInfo<Deno.NetAddr>,
) => Response | Promise<Response>;

/**
 * Hyper serving one connection. Hyper's graceful `shutdown()` is left out on
 * purpose: once it has begun, the connection could no longer be forced shut.
 */
export interface ConnServer {
  /** Settles when the connection is closed; rejects on I/O errors (e.g. BrokenPipe). */
  finished: Promise<void>;
  /** Closes the connection at once; does nothing when it is already closing or closed. */
  abort(): void;
}

type ServeOnConnection = (
  conn: Deno.Conn,
  signal: AbortSignal,
  handler: ConnHandler,
  onError: (err: unknown) => Response | Promise<Response>,
  onListen: (scheme: string) => void,
) => ConnServer;

// Where a Response keeps a body given as bytes or a string (found by the
// symbols' descriptions: they are not exported). The server needs the size
// because Deno reports such a response delivered when it hands it to hyper,
// not when the last byte has left.
const probe = Object.getOwnPropertySymbols(new Response(""));
const FAST_BODY = probe.find((s) => s.description === "serve fast body");
const INNER = probe.find((s) => s.description === "response");

/**
 * Bytes of a response body given as bytes or a string (0 without a body);
 * undefined for a streamed body, whose delivery only `info.completed` tells.
 * Cheap: a few property reads.
 *
 * @example
 * ```ts
 * responseBodySize(new Response(new Uint8Array(10))); // 10
 * ```
 */
export function responseBodySize(res: Response): number | undefined {
  // deno-lint-ignore no-explicit-any
  const r = res as any;
  const fast = r[FAST_BODY!];
  if (typeof fast === "string") return fast.length;
  if (fast instanceof Uint8Array) return fast.byteLength;
  const body = r[INNER!]?.body;
  if (body === null) return 0;
  return typeof body?.length === "number" ? body.length : undefined;
}

/**
 * True when the response's body is bytes, a string or a Blob (or absent), so
 * that `res.bytes()` reads it at once; false for a stream. Unlike
 * {@link responseBodySize} it stays true once the headers were touched (that
 * moves a string body out of the fast slot).
 *
 * @example
 * ```ts
 * const res = new Response("hi");
 * res.headers.set("x-a", "1");
 * hasStaticBody(res); // true
 * ```
 */
export function hasStaticBody(res: Response): boolean {
  return staticBody(res) !== undefined || responseBodySize(res) !== undefined;
}

/**
 * The body of a response given as bytes or a string, as it was given (not
 * consumed: for a server that writes it out itself, without the stream
 * `res.bytes()` would build); null without a body; undefined otherwise (a
 * stream, a Blob, a body already read).
 *
 * @example
 * ```ts
 * staticBody(new Response("hi")); // "hi"
 * ```
 */
export function staticBody(res: Response): Uint8Array | string | null | undefined {
  // deno-lint-ignore no-explicit-any
  const r = res as any;
  const fast = r[FAST_BODY!];
  if (typeof fast === "string" || fast instanceof Uint8Array) return fast;
  const body = r[INNER!]?.body;
  if (body === null) return null;
  if (body?.streamOrStatic?.consumed !== false) return undefined;
  const source = body.source;
  return typeof source === "string" || source instanceof Uint8Array ? source : undefined;
}

function lookup(): ServeOnConnection | undefined {
  // deno-lint-ignore no-explicit-any
  const d = Deno as any;
  const internal = d.internal === undefined ? undefined : d[d.internal];
  const fn = internal?.serveHttpOnConnection;
  return typeof fn === "function" && fn.length === 5 ? fn as ServeOnConnection : undefined;
}

/**
 * Throws a clear error when this Deno has no per-connection hyper server
 * (the project pins Deno 2.9.6; a newer Deno may have moved it).
 *
 * @example
 * ```ts
 * assertHyperAvailable(); // at start-up, before listening
 * ```
 */
export function assertHyperAvailable(): void {
  if (FAST_BODY === undefined || INNER === undefined) {
    throw new Error(
      `This Deno (${Deno.version.deno}) keeps Response bodies differently from Deno 2.9.6: ` +
        `the "serve fast body" / "response" symbols are gone. Run the pinned Deno 2.9.6, or ` +
        `port responseBodySize in routes/_hyper_conn.ts to this version.`,
    );
  }
  if (lookup() === undefined) {
    throw new Error(
      `This Deno (${Deno.version.deno}) has no Deno[Deno.internal].serveHttpOnConnection(conn, ` +
        `signal, handler, onError, onListen), which the HTTP server needs to run its own ` +
        `accept loop. Run the pinned Deno 2.9.6, or port routes/_hyper_conn.ts to this version.`,
    );
  }
}

/**
 * Serves HTTP on one accepted connection with Deno's hyper server.
 *
 * @example
 * ```ts
 * const conn = await Deno.connect({ hostname: "127.0.0.1", port: 8000 });
 * const s = serveConnection(conn, () => new Response("hi"), () => new Response(null, { status: 500 }));
 * s.finished.catch(() => {});
 * s.abort();
 * ```
 */
export function serveConnection(
  conn: Deno.Conn,
  handler: ConnHandler,
  onError: (err: unknown) => Response | Promise<Response>,
): ConnServer {
  const fn = lookup();
  if (fn === undefined) assertHyperAvailable();
  // Deno only calls `signal.addEventListener("abort", cancel)`, and `cancel`
  // throws BadResource once the connection has begun closing on its own. A
  // real AbortSignal would report that throw as an uncaught error (the
  // process exits), so the listener is kept here and called under try.
  let cancel: (() => void) | undefined;
  const signal = {
    aborted: false,
    addEventListener(type: string, listener: () => void) {
      if (type === "abort") cancel = listener;
    },
    removeEventListener() {},
  } as unknown as AbortSignal;
  const server = fn!(conn, signal, handler, onError, () => {});
  return {
    finished: server.finished,
    abort() {
      const c = cancel;
      cancel = undefined;
      try {
        c?.();
      } catch { /* already closing or closed */ }
    },
  };
}
