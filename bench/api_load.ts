/**
 * Load benchmark of the JSON API on a 1,000,000-vacancy database.
 *
 * For each case it measures our server, then a bare `Deno.serve` returning a
 * constant body of the same size (the baseline), in the same run, and prints
 * requests/s, p50/p99 and the ratio, plus the server's RSS. Targets: list
 * and detail at >= 0.7x the baseline; page 50,000 and search within 2x of
 * page 1's latency; RSS under 300 MB.
 *
 * `deno run -A bench/api_load.ts [--seconds 10] [--db var/bench/catalog-1m.db]`
 * (creates the database on first use: a few minutes.)
 *
 * @module
 */
import { parseArgs } from "node:util";
import { existsSync, mkdirSync } from "node:fs";
import { load, type LoadResult, rssMiB, startProcess } from "./_load.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    seconds: { type: "string", default: "10" },
    db: { type: "string", default: "var/bench/catalog-1m.db" },
    connections: { type: "string", default: "32" },
  },
});
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const main = new URL("../main.ts", import.meta.url).pathname;
const baselineScript = new URL("./_baseline_server.ts", import.meta.url).pathname;

if (!existsSync(values.db)) {
  mkdirSync(values.db.replace(/\/[^/]+$/, ""), { recursive: true });
  console.error(`Creating ${values.db} (1,000,000 vacancies)...`);
  const st = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", main, "demo", "--db", values.db, "--scale", "1000000"],
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (!st.success) Deno.exit(1);
}

const port = 18700, uncachedPort = 18702, basePort = 18701;
const server = await startProcess(
  [main, "serve", "--db", values.db, "--host", "127.0.0.1", "--port", String(port)],
  /Serving/,
  `http://127.0.0.1:${port}`,
);
// The same server with its response cache off: every request queries SQLite.
const uncached = await startProcess(
  [
    main,
    "serve",
    "--db",
    values.db,
    "--host",
    "127.0.0.1",
    "--port",
    String(uncachedPort),
    "--response-cache-mb",
    "0",
  ],
  /Serving/,
  `http://127.0.0.1:${uncachedPort}`,
);

async function get(path: string): Promise<{ status: number; bytes: number; body: string }> {
  const res = await fetch(server.url + path);
  const body = await res.text();
  return { status: res.status, bytes: new TextEncoder().encode(body).byteLength, body };
}

const page50k = JSON.parse((await get("/api/v1/vacancies/?page=50000")).body);
const detailId = page50k.results[0].id;
const cases: [string, string][] = [
  ["list page 1", "/api/v1/vacancies/"],
  ["list page 50,000", "/api/v1/vacancies/?page=50000"],
  ["filtered list", "/api/v1/vacancies/?group=2&salary_min=80000&ordering=-publish_date"],
  ["search", `/api/v1/vacancies/?search=${encodeURIComponent("аудит")}`],
  ["detail", `/api/v1/vacancies/${detailId}/`],
];

interface Row {
  name: string;
  path: string;
  bytes: number;
  count?: number;
  ours: LoadResult;
  raw: LoadResult;
  base: LoadResult;
}
const rows: Row[] = [];
for (const [name, path] of cases) {
  const probe = await get(path);
  if (probe.status !== 200) {
    throw new Error(`${path} answered ${probe.status}: ${probe.body.slice(0, 200)}`);
  }
  const count = JSON.parse(probe.body).count as number | undefined;
  await load(server.url + path, 2, connections); // warm-up
  const ours = await load(server.url + path, seconds, connections);
  await load(uncached.url + path, 2, connections);
  const raw = await load(uncached.url + path, seconds, connections);
  const baseline = await startProcess(
    [baselineScript, String(basePort), String(probe.bytes)],
    /ready/,
    `http://127.0.0.1:${basePort}`,
  );
  await load(baseline.url + "/", 2, connections);
  const base = await load(baseline.url + "/", seconds, connections);
  await baseline.stop();
  rows.push({ name, path, bytes: probe.bytes, count, ours, raw, base });
  console.error(`${name}: ${ours.rps.toFixed(0)} req/s vs ${base.rps.toFixed(0)} baseline`);
}
const mem = rssMiB(server.child.pid);
const memRaw = rssMiB(uncached.child.pid);
await server.stop();
await uncached.stop();

const f0 = (n: number) => n.toFixed(0);
const f2 = (n: number) => n.toFixed(2);
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
const table = rows.map((r) =>
  [
    r.name,
    r.bytes,
    r.count ?? "-",
    f0(r.ours.rps),
    f2(r.ours.p50Ms),
    f2(r.ours.p99Ms),
    f0(r.raw.rps),
    f2(r.raw.p50Ms),
    f2(r.raw.p99Ms),
    f0(r.base.rps),
    f2(r.base.p99Ms),
    ratio(r.ours.rps, r.base.rps),
    ratio(r.raw.rps, r.base.rps),
    r.ours.errors + r.raw.errors,
  ].join(" | ")
);
const [page1, deep, , search] = rows;
const lines = [
  `API load, ${new Date().toISOString().slice(0, 16)}Z, wrk -t1 -c${connections} -d${seconds}s ` +
  "on 127.0.0.1; load generator, servers and baseline share the 2 cores.",
  "",
  "| case | body bytes | count | req/s | p50 ms | p99 ms | no-cache req/s | no-cache p50 ms | " +
  "no-cache p99 ms | baseline req/s | baseline p99 ms | ours/baseline | no-cache/baseline | errors |",
  "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ...table.map((t) => `| ${t} |`),
  "",
  `Latency vs page 1 (p99, cache / no cache): page 50,000 ${
    ratio(deep.ours.p99Ms, page1.ours.p99Ms)
  } / ` +
  `${ratio(deep.raw.p99Ms, page1.raw.p99Ms)}; search ${
    ratio(search.ours.p99Ms, page1.ours.p99Ms)
  } / ` +
  `${ratio(search.raw.p99Ms, page1.raw.p99Ms)}.`,
  `Server RSS after the run: ${f0(mem.rss)} MiB (peak ${f0(mem.peak)} MiB); without the cache ` +
  `${f0(memRaw.rss)} MiB (peak ${f0(memRaw.peak)} MiB).`,
];
console.log(lines.join("\n"));
