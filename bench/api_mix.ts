/**
 * Mixed, mostly uncached JSON API traffic on a 1,000,000-vacancy database,
 * against a bare `Deno.serve` returning a constant body of a page's size, in
 * the same run (issue 10):
 *
 * | share | request |
 * | ----: | ------- |
 * | 40% | a random page of the vacancy list |
 * | 20% | an agency filter and a random page of it |
 * | 10% | a search and a random page of it (first 1,000 pages) |
 * | 10% | ordering by salary (either direction) and a random page |
 * | 10% | a random published vacancy's detail |
 * | 10% | a random competitions page |
 *
 * The request list is drawn from `--seed` and the database's own counts, so
 * every request is valid (200) and two runs send the same sequence. Each
 * target gets the same wrk script: our server with its response cache, our
 * server without it, and the baseline; then the same at `--wide`
 * connections for the p99 ratio. Prints a Markdown table.
 *
 * `--targets floor` adds `bench/_floor_server.ts`: the same requests answered
 * from the same database file with only the documents' reads (the storage's
 * floor), so our overhead and the storage's cost are told apart in one run.
 *
 * `--workload pages` sends only random default-order pages (1..100,000),
 * `--workload details` only random details. `--root DIR` runs another
 * checkout's `main.ts` (before/after comparisons; its database may need to be
 * another schema version, hence `--db`).
 *
 * ```
 * deno run -A bench/api_mix.ts [--seconds 10] [--seed 1] [--connections 32] [--wide 256]
 *                              [--db var/bench/catalog-1m.db] [--workload mix|pages|details]
 *                              [--root DIR --paths-db NEWER.db] [--targets bare,floor,off,on]
 *                              [--warmup SECONDS] [--v8-flags FLAGS (default: deno task start's)]
 *                              [--env start|none]
 * ```
 *
 * @module
 */
import { parseArgs } from "node:util";
import { existsSync, mkdirSync } from "node:fs";
import { load, type LoadResult, rssMiB, startEnv, startProcess, startV8Flags } from "./_load.ts";
import { mixPaths, type Workload, writeLuaPaths } from "./_api_mix_paths.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    seconds: { type: "string", default: "10" },
    seed: { type: "string", default: "1" },
    db: { type: "string", default: "var/bench/catalog-1m.db" },
    connections: { type: "string", default: "32" },
    wide: { type: "string", default: "256" },
    requests: { type: "string", default: "20000" },
    workload: { type: "string", default: "mix" },
    root: { type: "string" },
    targets: { type: "string", default: "bare,off,on" },
    "paths-db": { type: "string" },
    warmup: { type: "string", default: "2" },
    // As `deno task start` runs the server (its main-thread collection budget needs it).
    "v8-flags": { type: "string", default: startV8Flags().slice("--v8-flags=".length) },
    // "start": deno task start's environment (MALLOC_ARENA_MAX), "none": the inherited one.
    env: { type: "string", default: "start" },
  },
});
if (!["mix", "pages", "details"].includes(values.workload)) {
  throw new Error(`--workload is mix, pages or details, got "${values.workload}".`);
}
const targets = new Set(values.targets.split(","));
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const wide = Number(values.wide);
const main = values.root
  ? `${values.root.replace(/\/$/, "")}/main.ts`
  : new URL("../main.ts", import.meta.url).pathname;
const baselineScript = new URL("./_baseline_server.ts", import.meta.url).pathname;
const floorScript = new URL("./_floor_server.ts", import.meta.url).pathname;
const luaScript = new URL("./_api_mix.lua", import.meta.url).pathname;

if (!existsSync(values.db)) {
  mkdirSync(values.db.replace(/\/[^/]+$/, ""), { recursive: true });
  console.error(`Creating ${values.db} (1,000,000 vacancies, a few minutes)...`);
  const st = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", main, "demo", "--db", values.db, "--scale", "1000000"],
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (!st.success) Deno.exit(1);
}

mkdirSync("var/bench", { recursive: true });
const pathsFile = `${Deno.cwd()}/var/bench/api_mix_paths.lua`;
const paths = mixPaths(
  values["paths-db"] ?? values.db,
  Number(values.requests),
  Number(values.seed),
  values.workload as Workload,
);
await writeLuaPaths(pathsFile, paths);
const wrkOpts = { threads: 2, script: luaScript, env: { API_MIX_PATHS: pathsFile } };

const ports = { cached: 18710, uncached: 18711, baseline: 18712, floor: 18713 };
function serve(port: number, cacheMb: number) {
  const flags = values["v8-flags"] ? [`--v8-flags=${values["v8-flags"]}`] : [];
  return startProcess(
    [
      ...flags,
      main,
      "serve",
      "--db",
      values.db,
      "--host",
      "127.0.0.1",
      "--port",
      String(port),
      "--response-cache-mb",
      String(cacheMb),
    ],
    /Serving/,
    `http://127.0.0.1:${port}`,
    undefined,
    values.env === "start" ? startEnv() : {},
  );
}

// Every path answers 200 before anything is measured (a 404 would flatter us).
const probe = await serve(ports.uncached, 0);
let bodyBytes = 0;
let pageBodies = 0;
let allBytes = 0;
for (const p of paths.slice(0, 300)) {
  const res = await fetch(probe.url + p);
  const body = await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${p} answered ${res.status}`);
  allBytes += body.byteLength;
  if (p.includes("?")) {
    bodyBytes += body.byteLength;
    pageBodies++;
  }
}
await probe.stop();
// A page's size (the issue's reference); details alone: a detail's.
const baselineBytes = pageBodies > 0
  ? Math.round(bodyBytes / pageBodies)
  : Math.round(allBytes / Math.min(300, paths.length));

interface Run {
  target: string;
  connections: number;
  result: LoadResult;
  rss?: number;
}
const runs: Run[] = [];
async function measure(target: string, url: string, conns: number, pid?: number) {
  // Warm-up: with a long one the server's per-revision counts and id lists are built
  // before measuring (steady state); the response cache stays as configured.
  await load(url + "/", Number(values.warmup), conns, wrkOpts);
  const result = await load(url + "/", seconds, conns, wrkOpts);
  runs.push({ target, connections: conns, result, rss: pid ? rssMiB(pid).peak : undefined });
  console.error(`${target} c${conns}: ${result.rps.toFixed(0)} req/s, p99 ${result.p99Ms} ms`);
}
for (const conns of [connections, wide]) {
  const base = await startProcess(
    [baselineScript, String(ports.baseline), String(baselineBytes)],
    /ready/,
    `http://127.0.0.1:${ports.baseline}`,
  );
  await measure("bare Deno.serve", base.url, conns);
  await base.stop();
  if (targets.has("floor")) {
    const floor = await startProcess(
      [floorScript, String(ports.floor), values.db],
      /ready/,
      `http://127.0.0.1:${ports.floor}`,
    );
    await measure("floor (SQLite reads only)", floor.url, conns, floor.child.pid);
    await floor.stop();
  }
  if (targets.has("off")) {
    const uncached = await serve(ports.uncached, 0);
    await measure("ours, cache off", uncached.url, conns, uncached.child.pid);
    await uncached.stop();
  }
  if (targets.has("on")) {
    // deno task start's default size.
    const cached = await serve(ports.cached, 16);
    await measure("ours, cache on", cached.url, conns, cached.child.pid);
    await cached.stop();
  }
}

const lines = [
  `API traffic (${values.workload}), ${new Date().toISOString().slice(0, 16)}Z, ` +
  `load average ${Deno.loadavg().map((n) => n.toFixed(1)).join(" ")}, seed ${values.seed}, ` +
  `${paths.length} distinct requests, wrk -t2 -d${seconds}s after ${values.warmup} s of ` +
  `warm-up on 127.0.0.1; baseline body ` +
  `${baselineBytes} bytes.`,
  "",
  "| target | connections | req/s | p50 ms | p99 ms | ratio req/s | ratio p99 | of floor req/s | peak RSS MiB | errors |",
  "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
  ...runs.map((r) => {
    const of = (target: string) =>
      runs.find((b) => b.target.startsWith(target) && b.connections === r.connections)?.result;
    const base = of("bare")!;
    const floor = of("floor");
    return `| ${r.target} | ${r.connections} | ${r.result.rps.toFixed(0)} | ${
      r.result.p50Ms.toFixed(2)
    } | ${r.result.p99Ms.toFixed(2)} | ${(r.result.rps / base.rps).toFixed(2)}x | ${
      (r.result.p99Ms / base.p99Ms).toFixed(2)
    }x | ${floor ? `${(r.result.rps / floor.rps).toFixed(2)}x` : "-"} | ${
      r.rss?.toFixed(0) ?? "-"
    } | ${r.result.errors} |`;
  }),
];
console.log(lines.join("\n"));
