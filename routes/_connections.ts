/**
 * The server's open connections and their timeouts: what each one is doing
 * (requests in flight, when it went idle, when it must close), one sweep
 * that closes those past their header or idle timeout, and the closing at
 * shutdown. It knows nothing of requests' contents or of accepting.
 *
 * @module
 */
import { type ConnServer, responseBodySize } from "./_hyper_conn.ts";
import type { EventLog } from "./_event_log.ts";

/** One open connection. */
export interface Connection {
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
export const CLOSE_GRACE_MS = 1000;

/**
 * The open connections with their header and idle timeouts.
 *
 * @example
 * ```ts
 * import { EventLog } from "./_event_log.ts";
 * const conns = new Connections(new EventLog(console.error, 10_000), 15_000, 30_000);
 * const c = conns.open();
 * c.active++; // a request arrived
 * conns.handedOver(c, new Response("hi"), { completed: Promise.resolve() }); // answered
 * conns.sweep(performance.now()); // closes the connections past their timeouts
 * ```
 */
export class Connections {
  readonly #open = new Set<Connection>();
  readonly #events: EventLog;
  readonly #headerMs: number;
  readonly #idleMs: number;
  #allClosed?: () => void;
  /** Set by shutdown: every answer from now on is its connection's last. */
  stopping = false;

  /** Connections get `headerMs` to send their first request and `idleMs` between requests. */
  constructor(events: EventLog, headerMs: number, idleMs: number) {
    this.#events = events;
    this.#headerMs = headerMs;
    this.#idleMs = idleMs;
  }

  /** Connections open now. */
  get size(): number {
    return this.#open.size;
  }

  /** A new connection's state, not yet counted (see {@link add}). */
  open(): Connection {
    return {
      active: 0,
      served: 0,
      since: performance.now(),
      sending: 0,
      closeBy: 0,
      closeWhenIdle: false,
    };
  }

  /** Counts `c` as open until its hyper server finishes. */
  add(c: Connection, server: ConnServer): void {
    c.server = server;
    this.#open.add(c);
    server.finished.catch(() => {}).finally(() => {
      this.#open.delete(c);
      if (this.#open.size === 0) this.#allClosed?.();
    });
  }

  /** Drops `c` after `graceMs` (time for a response just handed over to reach the client). */
  closeSoon(c: Connection, graceMs: number): void {
    if (c.closeBy === 0) c.closeBy = performance.now() + graceMs;
  }

  /** Closes `c` at once (hyper's graceful close is not used: it could not be forced later). */
  drop(c: Connection): void {
    c.server?.abort();
  }

  /**
   * Notes a response handed to hyper. Bytes and strings count as delivered
   * now (Deno's `completed` says no more for them), with time for their
   * bytes to leave; a stream is delivered when `info.completed` says so.
   */
  handedOver(
    c: Connection,
    res: Response,
    info: Pick<Deno.ServeHandlerInfo, "completed">,
  ): Response {
    const size = responseBodySize(res);
    if (size === undefined) {
      const done = () => this.delivered(c);
      info.completed.then(done, done);
    } else {
      c.sending = size / MIN_SEND_BYTES_PER_MS;
      this.delivered(c);
    }
    return res;
  }

  /** A response of `c` has left (or failed): the connection may go idle, or close. */
  delivered(c: Connection): void {
    c.active--;
    c.since = performance.now();
    if ((c.closeWhenIdle || this.stopping) && c.active === 0) this.closeSoon(c, CLOSE_GRACE_MS);
  }

  /** Closes the connections due to close, and those past their header or idle timeout. */
  sweep(now: number): void {
    for (const c of this.#open) {
      if (c.closeBy !== 0) {
        if (now >= c.closeBy) this.drop(c);
        continue;
      }
      if (c.active > 0) continue;
      const first = c.served === 0;
      if (now - c.since < (first ? this.#headerMs : this.#idleMs + c.sending)) continue;
      if (first) {
        this.#events.note(
          "header-timeout",
          `Closed a connection that sent no complete request within ${this.#headerMs / 1000} s.`,
        );
      }
      this.drop(c);
    }
  }

  /**
   * Shutdown: idle connections close now, busy ones after their answer, and
   * whatever is still open after `ms` is closed; resolves when all are.
   */
  async closeAll(ms: number): Promise<void> {
    const closed = new Promise<void>((resolve) => {
      this.#allClosed = resolve;
      if (this.#open.size === 0) resolve();
    });
    for (const c of this.#open) if (c.active === 0) this.drop(c);
    await within(closed, ms);
    if (this.#open.size > 0) {
      this.#events.note(
        "shutdown",
        `Closed ${this.#open.size} connection(s) still busy after the ${ms / 1000} s ` +
          `shutdown timeout.`,
      );
      for (const c of this.#open) this.drop(c);
      await within(closed, 250);
    }
  }
}

/** Waits for `p`, but no longer than `ms`. */
async function within(p: Promise<void>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<void>((resolve) => timer = setTimeout(resolve, ms));
  await Promise.race([p, late]);
  clearTimeout(timer);
}
