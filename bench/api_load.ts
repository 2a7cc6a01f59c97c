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

const port = 18700, basePort = 18701;
const server = await startProcess(
  [main, "serve", "--db", values.db, "--host", "127.0.0.1", "--port", String(port)],
  /Serving/,
  `http://127.0.0.1:${port}`,
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
  ["search", `/api/v1/vacancies/?search=${encodeURIComponent("аналитик")}`],
  ["detail", `/api/v1/vacancies/${detailId}/`],
];

interface Row {
  name: string;
  path: string;
  bytes: number;
  count?: number;
  ours: LoadResult;
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
  const baseline = await startProcess(
    [baselineScript, String(basePort), String(probe.bytes)],
    /ready/,
    `http://127.0.0.1:${basePort}`,
  );
  await load(baseline.url + "/", 2, connections);
  const base = await load(baseline.url + "/", seconds, connections);
  await baseline.stop();
  rows.push({ name, path, bytes: probe.bytes, count, ours, base });
  console.error(`${name}: ${ours.rps.toFixed(0)} req/s vs ${base.rps.toFixed(0)} baseline`);
}
const mem = rssMiB(server.child.pid);
await server.stop();

const p1 = rows[0].ours;
const lines = [
  `API load, ${
    new Date().toISOString().slice(0, 10)
  }, wrk -t1 -c${connections} -d${seconds}s on 127.0.0.1, 2 cores shared by load generator and server.`,
  "",
  "| case | body bytes | count | ours req/s | ours p50 ms | ours p99 ms | baseline req/s | baseline p99 ms | ours/baseline | errors |",
  "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ...rows.map((r) =>
    `| ${r.name} | ${r.bytes} | ${r.count ?? "-"} | ${r.ours.rps.toFixed(0)} | ${
      r.ours.p50Ms.toFixed(2)
    } | ${r.ours.p99Ms.toFixed(2)} | ${r.base.rps.toFixed(0)} | ${r.base.p99Ms.toFixed(2)} | ${
      (r.ours.rps / r.base.rps).toFixed(2)
    }x | ${r.ours.errors} |`
  ),
  "",
  `Page 50,000 p50 / page 1 p50: ${
    (rows[1].ours.p50Ms / p1.p50Ms).toFixed(2)
  }x; search p50 / page 1 p50: ${(rows[3].ours.p50Ms / p1.p50Ms).toFixed(2)}x.`,
  `Server RSS after the run: ${mem.rss.toFixed(0)} MiB (peak ${mem.peak.toFixed(0)} MiB).`,
];
console.log(lines.join("\n"));
