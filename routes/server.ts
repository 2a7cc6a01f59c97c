/**
 * The HTTP server: our own accept loop on `Deno.listen` handing each
 * connection to Deno's hyper server (see `_hyper_conn.ts` for why), so that
 *
 * - an accept error (EMFILE at the open-file limit, ...) is logged and
 *   retried after a back-off (50 ms doubling to 1 s), never fatal;
 * - connections beyond a cap get a raw `503` with a JSON `detail` and close;
 * - a connection with no request in flight closes after the header timeout
 *   (from accept to its first request) or the idle timeout (between
 *   requests; a half-sent request head counts as idle);
 * - a request body must arrive within the body timeout, else `408` and the
 *   connection closes;
 * - a body sent with a method `Request` refuses (TRACE, TRACK, CONNECT) is
 *   never read: the handler answers the request as it is, and the
 *   connection closes after the answer;
 * - `shutdown()` stops accepting, lets requests in flight finish up to a
 *   deadline, then closes what is left.
 *
 * Connection events are logged rate-limited (one line per kind and interval
 * with a count).
 *
 * @module
 */
import {
  assertHyperAvailable,
  type ConnServer,
  responseBodySize,
  serveConnection,
} from "./_hyper_conn.ts";
import {
  BodyTimeoutError,
  hasBody,
  isForbiddenMethod,
  withBodyDeadline,
} from "./_body_deadline.ts";
import { defaultMaxConnections } from "./_conn_limit.ts";
import { EventLog } from "./_event_log.ts";
import { COMMON_HEADERS } from "./_common_headers.ts";

export { BodyTimeoutError } from "./_body_deadline.ts";
export { defaultMaxConnections, maxConnectionsFor, openFileLimit } from "./_conn_limit.ts";

/** Defaults of the timeouts, in milliseconds (close to nginx's and Node's). */
export const SERVER_DEFAULTS = {
  headerTimeoutMs: 15_000,
  bodyTimeoutMs: 60_000,
  idleTimeoutMs: 30_000,
  shutdownTimeoutMs: 10_000,
} as const;

/** Options of {@link serveHttp}. */
export interface ServeHttpOptions {
  hostname: string;
  port: number;
  handler: (
    req: Request,
    info: Deno.ServeHandlerInfo<Deno.NetAddr>,
  ) => Response | Promise<Response>;
  /** Answer for a handler that throws (default: a bare 500). */
  onError?: (err: unknown) => Response | Promise<Response>;
  /** From accept to the first request's complete head (default 15 s). */
  headerTimeoutMs?: number;
  /** From a request's head to the end of its body (default 60 s). */
  bodyTimeoutMs?: number;
  /** From a response to the next request's complete head (default 30 s). */
  idleTimeoutMs?: number;
  /** How long `shutdown()` lets requests in flight finish (default 10 s). */
  shutdownTimeoutMs?: number;
  /** Open connections allowed (default: from the open-file limit, see `defaultMaxConnections`). */
  maxConnections?: number;
  /** The 408 sent when a body timed out (default: JSON `{"detail": ...}`). */
  bodyTimeoutResponse?: (req: Request, message: string) => Response;
  /** Where log lines go (default `console.error`). */
  log?: (line: string) => void;
  /** Shortest gap between two log lines of one kind (default 10 s). */
  logIntervalMs?: number;
}

/** A listening server. */
export interface HttpServer {
  addr: Deno.NetAddr;
  /** The connection cap in force (given or derived). */
  maxConnections: number;
  /** Open connections now. */
  readonly connections: number;
  /** Settles once the server has shut down. */
  finished: Promise<void>;
  /** Graceful shutdown bounded by `shutdownTimeoutMs`; safe to call twice. */
  shutdown(): Promise<void>;
}

interface Connection {
  server?: ConnServer;
  /** Requests whose response is not yet delivered. */
  active: number;
  /** Requests seen; 0 means the header timeout applies, else the idle one. */
  served: number;
  /** When `active` last became 0 (or the accept), `performance.now()` ms. */
  since: number;
  /** Extra idle time for the last response's bytes to reach a slow client, ms. */
  sending: number;
  /** 0 while open; else when to close it (a response just handed over gets time to leave). */
  closeBy: number;
  /** Close once no request is in flight (its body timed out). */
  closeWhenIdle: boolean;
}

/**
 * Slowest transfer a response given as bytes is allowed before the idle
 * timeout closes its connection (64 KiB/s, in bytes per ms): Deno reports
 * such a response delivered when hyper takes it, not when it has left.
 */
const MIN_SEND_BYTES_PER_MS = 65.536;
/** Time a response just handed over gets to reach the client before its connection is closed. */
const CLOSE_GRACE_MS = 1000;
/**
 * Unread body bytes (and the time) an answer waits for to arrive and be
 * dropped before it goes out (see `handleWithBodyDeadline`).
 */
const LINGER_BYTES = 16 * 2 ** 20;
const LINGER_MS = 1000;
/** How long a refused connection may keep sending before it is dropped. */
const REFUSAL_LINGER_MS = 1000;

function jsonBody(detail: string): string {
  return JSON.stringify({ detail });
}

function refusalBytes(max: number): Uint8Array {
  const body = jsonBody(
    `The server is at its limit of ${max} open connections; retry in a few seconds.`,
  );
  return new TextEncoder().encode(
    "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n" +
      Object.entries(COMMON_HEADERS).map(([k, v]) => `${k}: ${v}\r\n`).join("") +
      `connection: close\r\nretry-after: 5\r\ncontent-length: ${
        new TextEncoder().encode(body).byteLength
      }\r\n\r\n${body}`,
  );
}

/** Answers an over-cap connection and closes it without a reset that could eat the answer. */
async function refuse(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  const timer = setTimeout(() => {
    try {
      conn.close();
    } catch { /* already closed */ }
  }, REFUSAL_LINGER_MS);
  try {
    await conn.write(bytes);
    await conn.closeWrite();
    // Read what the client already sent: closing with unread bytes sends a
    // TCP reset, which may destroy the 503 before the client reads it.
    const sink = new Uint8Array(4096);
    while ((await conn.read(sink)) !== null) { /* drop */ }
  } catch { /* the client went away, or the linger timer closed it */ }
  clearTimeout(timer);
  try {
    conn.close();
  } catch { /* closed by the timer */ }
}

/** Marks a response sent during shutdown as the connection's last. */
function lastResponse(res: Response): Response {
  try {
    res.headers.set("connection", "close");
  } catch { /* immutable headers (Response.redirect): the server closes it anyway */ }
  return res;
}

function defaultBodyTimeoutResponse(_req: Request, message: string): Response {
  return new Response(jsonBody(message), {
    status: 408,
    headers: { "content-type": "application/json", "connection": "close" },
  });
}

/**
 * Listens and serves `handler` with timeouts, a connection cap and a bounded
 * graceful shutdown. Throws at once when the port cannot be bound or this
 * Deno lacks the per-connection hyper server.
 *
 * @example
 * ```ts
 * const server = serveHttp({
 *   hostname: "127.0.0.1",
 *   port: 0,
 *   handler: () => new Response("hello"),
 * });
 * await server.shutdown();
 * ```
 */
export function serveHttp(opts: ServeHttpOptions): HttpServer {
  assertHyperAvailable();
  const headerMs = opts.headerTimeoutMs ?? SERVER_DEFAULTS.headerTimeoutMs;
  const bodyMs = opts.bodyTimeoutMs ?? SERVER_DEFAULTS.bodyTimeoutMs;
  const idleMs = opts.idleTimeoutMs ?? SERVER_DEFAULTS.idleTimeoutMs;
  const shutdownMs = opts.shutdownTimeoutMs ?? SERVER_DEFAULTS.shutdownTimeoutMs;
  const max = opts.maxConnections ?? defaultMaxConnections();
  const bodySeconds = +(bodyMs / 1000).toFixed(3);
  const timeoutResponse = opts.bodyTimeoutResponse ?? defaultBodyTimeoutResponse;
  const onError = opts.onError ?? (() => new Response(null, { status: 500 }));
  const handler = opts.handler;
  const events = new EventLog(
    opts.log ?? ((line) => console.error(line)),
    opts.logIntervalMs ?? 10_000,
  );
  const refusal = refusalBytes(max);
  const listener = Deno.listen({ hostname: opts.hostname, port: opts.port });
  const conns = new Set<Connection>();
  let stopping = false;
  let wakeAcceptLoop: (() => void) | undefined;
  let allClosed: (() => void) | undefined;

  /** Drops `c` after `graceMs` (time for a response just handed over to reach the client). */
  function closeSoon(c: Connection, graceMs: number): void {
    if (c.closeBy === 0) c.closeBy = performance.now() + graceMs;
  }

  /** Closes `c` at once (hyper's graceful close is not used: it could not be forced later). */
  function drop(c: Connection): void {
    c.server?.abort();
  }

  /**
   * Notes a response handed to hyper. Bytes and strings count as delivered
   * now (Deno's `completed` says no more for them), with time for their
   * bytes to leave; a stream is delivered when `completed` says so.
   */
  function handedOver(
    c: Connection,
    res: Response,
    info: Deno.ServeHandlerInfo<Deno.NetAddr>,
  ): Response {
    const size = responseBodySize(res);
    if (size === undefined) {
      const done = () => delivered(c);
      info.completed.then(done, done);
    } else {
      c.sending = size / MIN_SEND_BYTES_PER_MS;
      delivered(c);
    }
    return res;
  }

  function delivered(c: Connection): void {
    c.active--;
    c.since = performance.now();
    if ((c.closeWhenIdle || stopping) && c.active === 0) closeSoon(c, CLOSE_GRACE_MS);
  }

  function handleWithBodyDeadline(
    c: Connection,
    req: Request,
    info: Deno.ServeHandlerInfo<Deno.NetAddr>,
  ): Promise<Response> {
    // Read now: once the request is over, `info.remoteAddr` throws ("Request closed").
    const client = info.remoteAddr.hostname;
    const d = withBodyDeadline(req, bodyMs, bodySeconds, () => {
      events.note(
        "body-timeout",
        `Closed a connection from ${client}: its request body did not ` +
          `arrive within ${bodySeconds} s.`,
      );
      c.closeWhenIdle = true;
      if (c.active === 0) closeSoon(c, CLOSE_GRACE_MS);
    });
    const message = new BodyTimeoutError(bodySeconds).message;
    return Promise.resolve(handler(d.request, info)).then(
      async (res) => {
        if (d.expired) return timeoutResponse(req, message);
        // An answer given before the body's end (a 405, a 413) waits for the rest of a body of
        // reasonable size to arrive and be dropped: hyper resets a connection whose request is
        // unread, and a client that sends the whole body before reading (fetch) would see the
        // reset, not the answer. The rest of a larger body is not waited for.
        await d.drain(LINGER_BYTES, LINGER_MS);
        return stopping ? lastResponse(res) : res;
      },
      (err) => {
        if (d.expired) return timeoutResponse(req, message);
        throw err;
      },
    );
  }

  /**
   * A request with a body and a method `Request` refuses (TRACE, TRACK,
   * CONNECT): its body cannot be guarded by the deadline, so it is not read
   * at all. The handler answers the request as it came (every face answers
   * such a method 405 or 501 without reading a body), and the connection
   * closes after the answer, since the rest of the body is still on it.
   */
  function handleUnreadBody(
    c: Connection,
    req: Request,
    info: Deno.ServeHandlerInfo<Deno.NetAddr>,
  ): Promise<Response> {
    c.closeWhenIdle = true;
    req.body?.cancel().catch(() => {});
    return Promise.resolve(handler(req, info)).then(lastResponse);
  }

  function track(conn: Deno.Conn): void {
    const c: Connection = {
      active: 0,
      served: 0,
      since: performance.now(),
      sending: 0,
      closeBy: 0,
      closeWhenIdle: false,
    };
    const failed = (err: unknown): never => {
      // onError's answer goes out now.
      delivered(c);
      throw err;
    };
    const handle = (req: Request, info: Deno.ServeHandlerInfo<Deno.NetAddr>) => {
      c.active++;
      c.served++;
      let res: Response | Promise<Response>;
      try {
        res = stopping
          ? Promise.resolve(handler(req, info)).then(lastResponse)
          : !hasBody(req)
          ? handler(req, info)
          : isForbiddenMethod(req.method)
          ? handleUnreadBody(c, req, info)
          : bodyMs > 0
          ? handleWithBodyDeadline(c, req, info)
          : handler(req, info);
      } catch (err) {
        return failed(err);
      }
      return res instanceof Response
        ? handedOver(c, res, info)
        : res.then((r) => handedOver(c, r, info), failed);
    };
    try {
      c.server = serveConnection(conn, handle, onError);
    } catch (err) {
      // The client may already be gone; one bad connection must not stop the loop.
      events.note("serve", `Could not serve a new connection: ${(err as Error).message}`);
      try {
        conn.close();
      } catch { /* closed already */ }
      return;
    }
    conns.add(c);
    c.server.finished.catch(() => {}).finally(() => {
      conns.delete(c);
      if (conns.size === 0) allClosed?.();
    });
  }

  // One sweep over the connections instead of a timer per connection keeps
  // the per-request cost to two counters and a clock read.
  const tick = Math.max(50, Math.min(1000, Math.min(headerMs, idleMs) / 4));
  const sweeper = setInterval(() => {
    try {
      sweep();
    } catch (err) {
      // A timer callback that throws ends the process; the next tick tries again.
      events.note("sweep", `Checking the connections' timeouts failed: ${err}`);
    }
  }, tick);
  Deno.unrefTimer(sweeper);

  function sweep(): void {
    const now = performance.now();
    for (const c of conns) {
      if (c.closeBy !== 0) {
        if (now >= c.closeBy) drop(c);
        continue;
      }
      if (c.active > 0) continue;
      const first = c.served === 0;
      if (now - c.since < (first ? headerMs : idleMs + c.sending)) continue;
      if (first) {
        events.note(
          "header-timeout",
          `Closed a connection that sent no complete request within ${headerMs / 1000} s.`,
        );
      }
      drop(c);
    }
  }

  const acceptLoop = (async () => {
    let backoff = 0;
    while (!stopping) {
      let conn: Deno.Conn;
      try {
        conn = await listener.accept();
        backoff = 0;
      } catch (err) {
        if (stopping) break;
        backoff = backoff === 0 ? 50 : Math.min(1000, backoff * 2);
        events.note(
          "accept",
          `Accepting a connection failed (${(err as Error).message}); retrying in ${backoff} ms. ` +
            `If this is the open-file limit, raise "ulimit -n" or lower --max-connections ` +
            `(now ${max}).`,
        );
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, backoff);
          wakeAcceptLoop = () => {
            clearTimeout(t);
            resolve();
          };
        });
        continue;
      }
      if (conns.size >= max) {
        events.note(
          "refused",
          `Refused a connection with 503: ${max} connections are open (--max-connections).`,
        );
        void refuse(conn, refusal);
        continue;
      }
      track(conn);
    }
  })().catch((err) => {
    // Nothing above should throw; if something does, say so rather than end the process.
    events.note("accept", `The accept loop stopped: ${err}`);
  });

  const { promise: finished, resolve: resolveFinished } = Promise.withResolvers<void>();
  let stopped: Promise<void> | undefined;
  async function stop(): Promise<void> {
    stopping = true;
    try {
      listener.close();
    } catch { /* closed already */ }
    wakeAcceptLoop?.();
    await acceptLoop;
    const closed = new Promise<void>((resolve) => {
      allClosed = resolve;
      if (conns.size === 0) resolve();
    });
    // Idle connections close now; busy ones after their response, which
    // asks the client to close (hyper would otherwise keep them alive).
    for (const c of conns) if (c.active === 0) drop(c);
    await within(closed, shutdownMs);
    if (conns.size > 0) {
      events.note(
        "shutdown",
        `Closed ${conns.size} connection(s) still busy after the ${
          shutdownMs / 1000
        } s shutdown timeout.`,
      );
      for (const c of conns) drop(c);
      await within(closed, 250);
    }
    clearInterval(sweeper);
    events.close();
  }

  return {
    addr: listener.addr as Deno.NetAddr,
    maxConnections: max,
    get connections() {
      return conns.size;
    },
    finished,
    shutdown() {
      stopped ??= stop().finally(resolveFinished);
      return stopped;
    },
  };
}

/** Waits for `p`, but no longer than `ms`. */
async function within(p: Promise<void>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<void>((resolve) => timer = setTimeout(resolve, ms));
  await Promise.race([p, late]);
  clearTimeout(timer);
}
