/**
 * Shared set-up of the HTTP end-to-end tests: a demo database in a temp
 * folder and a real server on a loopback port.
 *
 * @module
 */
import { type StartOptions, startServer } from "../main.ts";
import { createDemoDatabase } from "../data/mod.ts";

/** A running test server. */
export interface TestServer {
  url: string;
  dbPath: string;
  dir: string;
  close(): Promise<void>;
}

const demoCache = new Map<string, Promise<string>>();

/** A demo database built once per test process and copied for each server. */
async function demoDb(): Promise<string> {
  let p = demoCache.get("default");
  if (!p) {
    p = (async () => {
      const dir = await Deno.makeTempDir({ prefix: "demo-db-" });
      const path = `${dir}/catalog.db`;
      await createDemoDatabase(path);
      return path;
    })();
    demoCache.set("default", p);
  }
  return await p;
}

/**
 * Starts the real server on 127.0.0.1 with an ephemeral port on a private
 * copy of the demo database (or the database `dbPath` given).
 */
export async function startTestServer(
  opts: Partial<StartOptions> & { dbPath?: string } = {},
): Promise<TestServer> {
  const dir = await Deno.makeTempDir({ prefix: "api-test-" });
  let dbPath = opts.dbPath;
  if (!dbPath) {
    dbPath = `${dir}/catalog.db`;
    await Deno.copyFile(await demoDb(), dbPath);
  }
  const server = await startServer({
    dbPath,
    port: 0,
    hostname: "127.0.0.1",
    quiet: true,
    renderWorkers: 0,
    outputDir: `${dir}/output`,
    ...opts,
  });
  return {
    url: server.url.replace(/\/$/, ""),
    dbPath,
    dir,
    async close() {
      await server.shutdown();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}

/** GET (or another method) and read the body as text. */
export async function fetchText(
  url: string,
  init: RequestInit = {},
): Promise<{ status: number; headers: Headers; text: string }> {
  const res = await fetch(url, { redirect: "manual", ...init });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text };
}

/** GET and parse JSON. */
export async function fetchJson(
  url: string,
  init: RequestInit = {},
  // deno-lint-ignore no-explicit-any
): Promise<{ status: number; headers: Headers; body: any; text: string }> {
  const r = await fetchText(url, init);
  return { ...r, body: r.text ? JSON.parse(r.text) : undefined };
}
