/**
 * The thread that talks to PostgreSQL for {@linkcode PgSyncClient}: one
 * pooled `postgres` (porsager) client per worker; each request arrives on
 * the port, runs as a parameterised statement, and its rows (or its error
 * message) go back on the port before the waiting thread is woken.
 *
 * @module
 */
import { workerData } from "node:worker_threads";
import type { MessagePort } from "node:worker_threads";
import postgres from "postgres";

interface Setup {
  port: MessagePort;
  flag: SharedArrayBuffer;
  url: string;
  max: number;
  statementTimeoutMs: number;
  connectTimeoutSeconds: number;
}

const setup = workerData as Setup;
const flag = new Int32Array(setup.flag);
const sql = postgres(setup.url, {
  max: setup.max,
  idle_timeout: 30,
  connect_timeout: setup.connectTimeoutSeconds,
  connection: { statement_timeout: setup.statementTimeoutMs, application_name: "arcgis-deno" },
  onnotice: () => {},
  // int8 (counts) and numeric arrive as text; the source converts them.
  prepare: true,
});

setup.port.on("message", async (m: { sql: string; params: unknown[] }) => {
  let reply: { rows: unknown[] } | { error: string };
  try {
    // deno-lint-ignore no-explicit-any
    const rows = await sql.unsafe(m.sql, m.params as any[]);
    reply = { rows: rows.map((r: Record<string, unknown>) => ({ ...r })) };
  } catch (e) {
    reply = { error: (e as Error).message || String(e) };
  }
  setup.port.postMessage(reply);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
});
