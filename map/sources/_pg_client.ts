/**
 * Synchronous access to PostgreSQL for the synchronous FeatureSource
 * interface: the pooled driver runs in a worker thread
 * (`_pg_worker.ts`); {@linkcode PgSyncClient.query} posts the statement
 * and blocks this thread (`Atomics.wait`) until the worker has answered,
 * then takes the answer with `receiveMessageOnPort`. Every statement is
 * bounded by the connection's `statement_timeout`, so the wait is too.
 *
 * @module
 */
import { MessageChannel, receiveMessageOnPort, Worker } from "node:worker_threads";
import type { MessagePort } from "node:worker_threads";

/** Options of {@linkcode PgSyncClient}. */
export interface PgClientOptions {
  /** Connections in the pool (default 4). */
  max?: number;
  /** `statement_timeout` of every connection, ms (default 15,000). */
  statementTimeoutMs?: number;
  /** Seconds to wait for a connection (default 5). */
  connectTimeoutSeconds?: number;
}

/** An error PostgreSQL (or the way to it) gave; the message is the server's. */
export class PgError extends Error {
  /** Wraps the driver's message. */
  constructor(message: string) {
    super(message);
    this.name = "PgError";
  }
}

/** A pooled PostgreSQL client with a blocking `query`. */
export class PgSyncClient {
  readonly #port: MessagePort;
  readonly #worker: Worker;
  readonly #flag = new Int32Array(new SharedArrayBuffer(4));
  readonly #waitMs: number;

  /**
   * Starts the worker (no connection is made until the first query).
   *
   * @example
   * ```ts
   * const pg = new PgSyncClient("postgresql://gis@127.0.0.1:5432/gis", { max: 2 });
   * pg.query("SELECT 1 AS one", []); // [{ one: 1 }]
   * pg.close();
   * ```
   */
  constructor(url: string, opts: PgClientOptions = {}) {
    const statementTimeoutMs = opts.statementTimeoutMs ?? 15_000;
    const connectTimeoutSeconds = opts.connectTimeoutSeconds ?? 5;
    const { port1, port2 } = new MessageChannel();
    this.#port = port1;
    this.#worker = new Worker(new URL("./_pg_worker.ts", import.meta.url), {
      workerData: {
        port: port2,
        flag: this.#flag.buffer,
        url,
        max: opts.max ?? 4,
        statementTimeoutMs,
        connectTimeoutSeconds,
      },
      transferList: [port2],
    });
    this.#worker.unref();
    this.#port.unref();
    // Connecting, then the statement, then slack for the first module load.
    this.#waitMs = connectTimeoutSeconds * 1000 + statementTimeoutMs + 30_000;
  }

  /** Runs one parameterised statement (`$1`, `$2`…) and returns its rows. Throws PgError. */
  query(sql: string, params: unknown[]): Record<string, unknown>[] {
    Atomics.store(this.#flag, 0, 0);
    this.#port.postMessage({ sql, params });
    const state = Atomics.wait(this.#flag, 0, 0, this.#waitMs);
    const got = receiveMessageOnPort(this.#port);
    if (!got) {
      throw new PgError(
        state === "timed-out" ? "PostgreSQL did not answer in time" : "no answer from PostgreSQL",
      );
    }
    const reply = got.message as { rows: Record<string, unknown>[] } | { error: string };
    if ("error" in reply) throw new PgError(reply.error);
    return reply.rows;
  }

  /** Stops the worker and its connections. */
  close(): void {
    this.#port.close();
    void this.#worker.terminate();
  }
}
