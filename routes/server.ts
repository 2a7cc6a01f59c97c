/**
 * The HTTP server: our own accept loop on `Deno.listen` handing each
 * connection to Deno's hyper server (see `_hyper_conn.ts` for why) or to our own
 * HTTP/1.1 writer (`_http1_conn.ts`, option `engine: "js"`), so that
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
  type ConnHandler,
  type ConnServer,
  serveConnection,
} from "./_hyper_conn.ts";
import {
  BodyTimeoutError,
  hasBody,
  isForbiddenMethod,
  withBodyDeadline,
} from "./_body_deadline.ts";
import { serveHttp1Connection } from "./_http1_conn.ts";
import { defaultMaxConnections } from "./_conn_limit.ts";
import { EventLog } from "./_event_log.ts";
import { acceptConnections } from "./_accept_loop.ts";
import { CLOSE_GRACE_MS, type Connection, Connections } from "./_connections.ts";

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
  /**
   * Who speaks HTTP/1.1 on each connection (default "hyper"): Deno's hyper,
   * or "js" (`_http1_conn.ts`), which writes each answer given as bytes or a
   * string in one write, so a killed process never leaves half an answer.
   */
  engine?: HttpEngine;
  /** Where log lines go (default `console.error`). */
  log?: (line: string) => void;
  /** Shortest gap between two log lines of one kind (default 10 s). */
  logIntervalMs?: number;
}

/** The HTTP/1.1 implementations {@link serveHttp} can run. */
export const HTTP_ENGINES = ["hyper", "js"] as const;
/** One of {@link HTTP_ENGINES}. */
export type HttpEngine = typeof HTTP_ENGINES[number];

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

/**
 * Unread body bytes (and the time) an answer waits for to arrive and be
 * dropped before it goes out (see `handleWithBodyDeadline`).
 */
const LINGER_BYTES = 16 * 2 ** 20;
const LINGER_MS = 1000;

function jsonBody(detail: string): string {
  return JSON.stringify({ detail });
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

/** What answering a request needs: the application's handler, the body rules, the connections. */
interface Answering {
  handler: ServeHttpOptions["handler"];
  /** The body timeout, ms (0: none), and the same in seconds for messages. */
  bodyMs: number;
  bodySeconds: number;
  timeoutResponse: (req: Request, message: string) => Response;
  events: EventLog;
  conns: Connections;
}

/** The request handler of connection `c`: counts each request in flight and guards its body. */
function connectionHandler(a: Answering, c: Connection): ConnHandler {
  const failed = (err: unknown): never => {
    // onError's answer goes out now.
    a.conns.delivered(c);
    throw err;
  };
  return (req, info) => {
    c.active++;
    c.served++;
    let res: Response | Promise<Response>;
    try {
      res = a.conns.stopping
        ? Promise.resolve(a.handler(req, info)).then(lastResponse)
        : !hasBody(req)
        ? a.handler(req, info)
        : isForbiddenMethod(req.method)
        ? handleUnreadBody(a, c, req, info)
        : a.bodyMs > 0
        ? handleWithBodyDeadline(a, c, req, info)
        : a.handler(req, info);
    } catch (err) {
      return failed(err);
    }
    return res instanceof Response
      ? a.conns.handedOver(c, res, info)
      : res.then((r) => a.conns.handedOver(c, r, info), failed);
  };
}

function handleWithBodyDeadline(
  a: Answering,
  c: Connection,
  req: Request,
  info: Deno.ServeHandlerInfo<Deno.NetAddr>,
): Promise<Response> {
  // Read now: once the request is over, `info.remoteAddr` throws ("Request closed").
  const client = info.remoteAddr.hostname;
  const d = withBodyDeadline(req, a.bodyMs, a.bodySeconds, () => {
    a.events.note(
      "body-timeout",
      `Closed a connection from ${client}: its request body did not ` +
        `arrive within ${a.bodySeconds} s.`,
    );
    c.closeWhenIdle = true;
    if (c.active === 0) a.conns.closeSoon(c, CLOSE_GRACE_MS);
  });
  const message = new BodyTimeoutError(a.bodySeconds).message;
  return Promise.resolve(a.handler(d.request, info)).then(
    async (res) => {
      if (d.expired) return a.timeoutResponse(req, message);
      // An answer given before the body's end (a 405, a 413) waits for the rest of a body of
      // reasonable size to arrive and be dropped: hyper resets a connection whose request is
      // unread, and a client that sends the whole body before reading (fetch) would see the
      // reset, not the answer. The rest of a larger body is not waited for.
      await d.drain(LINGER_BYTES, LINGER_MS);
      return a.conns.stopping ? lastResponse(res) : res;
    },
    (err) => {
      if (d.expired) return a.timeoutResponse(req, message);
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
  a: Answering,
  c: Connection,
  req: Request,
  info: Deno.ServeHandlerInfo<Deno.NetAddr>,
): Promise<Response> {
  c.closeWhenIdle = true;
  req.body?.cancel().catch(() => {});
  return Promise.resolve(a.handler(req, info)).then(lastResponse);
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
  const engine = opts.engine ?? "hyper";
  const onError = opts.onError ?? (() => new Response(null, { status: 500 }));
  const events = new EventLog(
    opts.log ?? ((line) => console.error(line)),
    opts.logIntervalMs ?? 10_000,
  );
  const listener = Deno.listen({ hostname: opts.hostname, port: opts.port });
  const conns = new Connections(events, headerMs, idleMs);
  const answering: Answering = {
    handler: opts.handler,
    bodyMs,
    bodySeconds: +(bodyMs / 1000).toFixed(3),
    timeoutResponse: opts.bodyTimeoutResponse ?? defaultBodyTimeoutResponse,
    events,
    conns,
  };

  function serve(conn: Deno.Conn): void {
    const c = conns.open();
    let server: ConnServer;
    try {
      const handler = connectionHandler(answering, c);
      if (engine === "js") {
        // Answers are written whole: Nagle's algorithm would only hold back a stream's chunks.
        (conn as Partial<Deno.TcpConn>).setNoDelay?.(true);
        server = serveHttp1Connection(conn, handler, onError);
      } else {
        server = serveConnection(conn, handler, onError);
      }
    } catch (err) {
      // The client may already be gone; one bad connection must not stop the loop.
      events.note("serve", `Could not serve a new connection: ${(err as Error).message}`);
      try {
        conn.close();
      } catch { /* closed already */ }
      return;
    }
    conns.add(c, server);
  }

  // One sweep over the connections instead of a timer per connection keeps
  // the per-request cost to two counters and a clock read.
  const tick = Math.max(50, Math.min(1000, Math.min(headerMs, idleMs) / 4));
  const sweeper = setInterval(() => {
    try {
      conns.sweep(performance.now());
    } catch (err) {
      // A timer callback that throws ends the process; the next tick tries again.
      events.note("sweep", `Checking the connections' timeouts failed: ${err}`);
    }
  }, tick);
  Deno.unrefTimer(sweeper);

  const accepting = acceptConnections(listener, {
    max,
    open: () => conns.size,
    stopping: () => conns.stopping,
    serve,
    events,
  });

  const { promise: finished, resolve: resolveFinished } = Promise.withResolvers<void>();
  let stopped: Promise<void> | undefined;
  async function stop(): Promise<void> {
    conns.stopping = true;
    try {
      listener.close();
    } catch { /* closed already */ }
    accepting.wake();
    await accepting.done;
    // Idle connections close now; busy ones after their response, which
    // asks the client to close (hyper would otherwise keep them alive).
    await conns.closeAll(shutdownMs);
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
