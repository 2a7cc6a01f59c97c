/**
 * The server's accept loop: takes connections off the listener until told
 * to stop, never ends on an accept error (EMFILE at the open-file limit is
 * logged and retried after a back-off of 50 ms doubling to 1 s), and
 * answers a connection beyond the cap with a raw `503` and closes it.
 *
 * @module
 */
import type { EventLog } from "./_event_log.ts";
import { COMMON_HEADERS } from "./_common_headers.ts";

/** How long a refused connection may keep sending before it is dropped. */
const REFUSAL_LINGER_MS = 1000;

/** What the accept loop needs from the server. */
export interface AcceptOptions {
  /** The connection cap; connections past it are refused. */
  max: number;
  /** Connections open now. */
  open(): number;
  /** True once the server is shutting down. */
  stopping(): boolean;
  /** Serves an accepted connection. */
  serve(conn: Deno.Conn): void;
  events: EventLog;
}

/** A running accept loop. */
export interface AcceptLoop {
  /** Settles when the loop has ended (after the listener closed and `stopping()`). */
  done: Promise<void>;
  /** Ends a back-off wait at once (at shutdown). */
  wake(): void;
}

/**
 * Accepts connections from `listener` until `opts.stopping()`.
 *
 * @example
 * ```ts
 * import { EventLog } from "./_event_log.ts";
 * const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
 * let stopping = false;
 * const loop = acceptConnections(listener, {
 *   max: 100,
 *   open: () => 0,
 *   stopping: () => stopping,
 *   serve: (conn) => conn.close(),
 *   events: new EventLog(console.error, 10_000),
 * });
 * stopping = true;
 * listener.close();
 * loop.wake();
 * await loop.done;
 * ```
 */
export function acceptConnections(listener: Deno.Listener, opts: AcceptOptions): AcceptLoop {
  const { max, events } = opts;
  const refusal = refusalBytes(max);
  let wake: (() => void) | undefined;
  const done = (async () => {
    let backoff = 0;
    while (!opts.stopping()) {
      let conn: Deno.Conn;
      try {
        conn = await listener.accept();
        backoff = 0;
      } catch (err) {
        if (opts.stopping()) break;
        backoff = backoff === 0 ? 50 : Math.min(1000, backoff * 2);
        events.note(
          "accept",
          `Accepting a connection failed (${(err as Error).message}); retrying in ${backoff} ms. ` +
            `If this is the open-file limit, raise "ulimit -n" or lower --max-connections ` +
            `(now ${max}).`,
        );
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, backoff);
          wake = () => {
            clearTimeout(t);
            resolve();
          };
        });
        continue;
      }
      if (opts.open() >= max) {
        events.note(
          "refused",
          `Refused a connection with 503: ${max} connections are open (--max-connections).`,
        );
        void refuse(conn, refusal);
        continue;
      }
      opts.serve(conn);
    }
  })().catch((err) => {
    // Nothing above should throw; if something does, say so rather than end the process.
    events.note("accept", `The accept loop stopped: ${err}`);
  });
  return { done, wake: () => wake?.() };
}

function refusalBytes(max: number): Uint8Array {
  const body = JSON.stringify({
    detail: `The server is at its limit of ${max} open connections; retry in a few seconds.`,
  });
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
