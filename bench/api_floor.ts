/**
 * Our JSON API against the storage floor (`bench/_floor_server.ts`) on the
 * uncached mix (`bench/_api_mix_paths.ts`), measured alternately so both see
 * the same machine (issue 22: the goal is 0.8x of the floor's req/s at 32
 * and 256 connections, p99 within 3x of the floor's, cache off).
 *
 * For each connection count the database is read into the page cache, both
 * servers are started (port 0; ours as `deno task start` runs it, response
 * cache off) and warmed with the mix, then measured in turns, `--rounds`
 * times each, each round starting with the next server (floor, ours; ours,
 * floor; ...). Each round's ratio is taken from its own pair, so drift of
 * the shared machine's speed cancels out; each run also reports the MiB the
 * machine read from disk meanwhile.
 * Each run also reads the server's CPU time (all threads, /proc) per request:
 * "floor / ours CPU a request" is the throughput ratio a quiet machine whose
 * server is the bottleneck would show, and moves less than req/s with other
 * processes' load. Prints the Markdown table bench/README.md history in git keeps: runs,
 * load, commit.
 *
 * ```
 * deno run -A bench/api_floor.ts [--db var/bench/catalog-200k.db] [--scale 200000]
 *   [--connections 32,256] [--rounds 3] [--seconds 10] [--warmup 20] [--seed 1]
 *   [--requests 20000] [--root DIR (another checkout's main.ts as "ours")]
 *   [--only page|agency|search|ordering|detail|competitions] [--floor-headers]
 * ```
 *
 * `--only` keeps one kind of request of the mix (`mixKind`): the floor
 * ignores filters, search and ordering, so a kind alone shows what honouring
 * them costs (a filtered page's records are scattered over the table; the
 * floor's are adjacent).
 *
 * `--floor-headers` adds a third server to every round: the floor sending
 * the headers ours sends with each 200 API answer (`_floor_server.ts
 * --headers=ours`), and the columns "floor+headers req/s" and "ours /
 * floor+headers". Deno sends a response whose only header is
 * `content-type` (the floor's) on a fast path that a response with the
 * API's eight headers cannot take; this reference shows how much of the gap
 * that alone is. The goal stays measured against the floor.
 *
 * The database is created with `main.ts demo --scale` when missing (a few
 * minutes for 200,000 vacancies).
 *
 * @module
 */
import { parseArgs } from "node:util";
import { existsSync, mkdirSync } from "node:fs";
import {
  type BenchProcess,
  cpuMs,
  diskReadMiB,
  load,
  type LoadResult,
  readThrough,
  rssMiB,
  startEnv,
  startProcess,
  startV8Flags,
} from "./_load.ts";
import { MIX_KINDS, mixKind, mixPaths, writeLuaPaths } from "./_api_mix_paths.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    db: { type: "string", default: "var/bench/catalog-200k.db" },
    scale: { type: "string", default: "200000" },
    connections: { type: "string", default: "32,256" },
    rounds: { type: "string", default: "3" },
    seconds: { type: "string", default: "10" },
    warmup: { type: "string", default: "20" },
    seed: { type: "string", default: "1" },
    requests: { type: "string", default: "20000" },
    root: { type: "string" },
    only: { type: "string" },
    "floor-headers": { type: "boolean", default: false },
  },
});
const rounds = Number(values.rounds);
const seconds = Number(values.seconds);
const here = new URL("./", import.meta.url).pathname;
const root = values.root
  ? values.root.replace(/\/$/, "") + "/"
  : new URL("../", import.meta.url).pathname;
const main = `${root}main.ts`;

if (!existsSync(values.db)) {
  mkdirSync(values.db.replace(/\/[^/]+$/, ""), { recursive: true });
  console.error(`Creating ${values.db} (${values.scale} vacancies, a few minutes)...`);
  const st = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", main, "demo", "--db", values.db, "--scale", values.scale],
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (!st.success) Deno.exit(1);
}

mkdirSync("var/bench", { recursive: true });
const pathsFile = `${Deno.cwd()}/var/bench/api_floor_paths.lua`;
if (values.only !== undefined && !(MIX_KINDS as readonly string[]).includes(values.only)) {
  throw new Error(`--only takes one of ${MIX_KINDS.join(", ")}, not ${values.only}.`);
}
const paths = mixPaths(values.db, Number(values.requests), Number(values.seed), "mix")
  .filter((p) => values.only === undefined || mixKind(p) === values.only);
await writeLuaPaths(pathsFile, paths);
const wrk = {
  threads: 2,
  script: `${here}_api_mix.lua`,
  env: { API_MIX_PATHS: pathsFile },
};

function startFloor(headers: "json" | "ours" = "json"): Promise<BenchProcess> {
  return startProcess(
    [`${here}_floor_server.ts`, "0", values.db, `--headers=${headers}`],
    /ready (\d+)/,
    (m) => `http://127.0.0.1:${m[1]}`,
  );
}

function startOurs(): Promise<BenchProcess> {
  return startProcess(
    [
      startV8Flags(),
      main,
      "serve",
      "--db",
      values.db,
      "--host",
      "127.0.0.1",
      "--port",
      "0",
      "--response-cache-mb",
      "0",
    ],
    /Serving .* at (http:\/\/[^/\s]+)\//,
    (m) => m[1],
    undefined,
    startEnv(),
  );
}

/** The checkout's commit, marked when its tree has uncommitted changes. */
async function commitOf(dir: string): Promise<string> {
  const git = async (...args: string[]) =>
    new TextDecoder().decode(
      (await new Deno.Command("git", { args: ["-C", dir, ...args], stdout: "piped" }).output())
        .stdout,
    ).trim();
  // A copy inside another checkout (e.g. `git archive` under var/) is not that checkout's HEAD.
  const top = await git("rev-parse", "--show-toplevel");
  if (top !== Deno.realPathSync(dir)) return `the tree at ${dir}`;
  const head = await git("rev-parse", "--short", "HEAD");
  return (await git("status", "--porcelain", "--untracked-files=no")) ? `${head}+changes` : head;
}

/**
 * One run: wrk's figures, the server's CPU time per request (all its
 * threads) and the MiB the machine read from disk meanwhile (any process).
 */
type Run = LoadResult & { cpuUs: number; diskMiB: number };

interface Pair {
  round: number;
  time: string;
  load: number;
  connections: number;
  floor: Run;
  ours: Run;
  /** The floor sending our headers (`--floor-headers`). */
  headers?: Run;
}

async function run(s: BenchProcess, connections: number): Promise<Run> {
  const before = cpuMs(s.child.pid), disk = diskReadMiB();
  const r = await load(s.url + "/", seconds, connections, wrk);
  return {
    ...r,
    cpuUs: (cpuMs(s.child.pid) - before) * 1000 / (r.requests ?? NaN),
    diskMiB: diskReadMiB() - disk,
  };
}
const pairs: Pair[] = [];
const peaks: { connections: number; floor: number; ours: number }[] = [];

// Every path answers 200 from both before anything is measured (a 404 would flatter either).
async function checkPaths(servers: BenchProcess[]): Promise<void> {
  for (const s of servers) {
    for (const p of paths.slice(0, 200)) {
      const res = await fetch(s.url + p);
      await res.body?.cancel();
      if (res.status !== 200) throw new Error(`${s.url}${p} answered ${res.status}`);
    }
  }
}

/** The names of the headers `url` answers with (`date` aside, which every answer carries). */
async function headerNames(url: string): Promise<string> {
  const res = await fetch(url);
  await res.body?.cancel();
  return [...res.headers.keys()].filter((k) => k !== "date").sort().join(", ");
}

// The second reference must send what ours sends, or it shows nothing about ours.
async function checkSameHeaders(ours: BenchProcess, headers: BenchProcess): Promise<void> {
  const [mine, theirs] = await Promise.all([
    headerNames(ours.url + paths[0]),
    headerNames(headers.url + paths[0]),
  ]);
  if (mine !== theirs) {
    throw new Error(`The floor+headers server sends ${theirs}; ours sends ${mine}.`);
  }
}

for (const connections of values.connections.split(",").map(Number)) {
  // The database in the page cache before either server reads it: what this compares is the
  // servers' work on a cached file, not which of them first met pages paged out meanwhile.
  for (const suffix of ["", "-wal"]) await readThrough(values.db + suffix);
  const floor = await startFloor();
  const ours = await startOurs();
  const headers = values["floor-headers"] ? await startFloor("ours") : undefined;
  const servers = headers ? [floor, ours, headers] : [floor, ours];
  try {
    await checkPaths(servers);
    if (headers) await checkSameHeaders(ours, headers);
    for (const s of servers) await load(s.url + "/", Number(values.warmup), connections, wrk);
    for (let round = 1; round <= rounds; round++) {
      const time = new Date().toISOString().slice(11, 16);
      const loadAvg = Deno.loadavg()[0];
      // Each round starts with the next server in turn (floor, ours; ours, floor; ...).
      const order = servers.map((_, i) => servers[(i + round - 1) % servers.length]);
      const results = new Map<BenchProcess, Run>();
      for (const s of order) results.set(s, await run(s, connections));
      const pair: Pair = {
        round,
        time,
        load: loadAvg,
        connections,
        floor: results.get(floor)!,
        ours: results.get(ours)!,
        headers: headers && results.get(headers),
      };
      pairs.push(pair);
      console.error(
        `c${connections} round ${round}: floor ${pair.floor.rps.toFixed(0)}, ours ${
          pair.ours.rps.toFixed(0)
        } req/s (${(pair.ours.rps / pair.floor.rps).toFixed(2)}x); CPU ${
          pair.floor.cpuUs.toFixed(0)
        } / ${pair.ours.cpuUs.toFixed(0)} us a request; ${pair.floor.diskMiB.toFixed(1)} / ${
          pair.ours.diskMiB.toFixed(1)
        } MiB read from disk` +
          (pair.headers
            ? `; floor+headers ${pair.headers.rps.toFixed(0)} req/s (ours ${
              (pair.ours.rps / pair.headers.rps).toFixed(2)
            }x of it)`
            : ""),
      );
    }
    peaks.push({
      connections,
      floor: rssMiB(floor.child.pid).peak,
      ours: rssMiB(ours.child.pid).peak,
    });
  } finally {
    for (const s of servers) await s.stop();
  }
}

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
const ms = (r: LoadResult) => `${r.p50Ms.toFixed(1)} / ${r.p99Ms.toFixed(1)}`;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
// With --floor-headers, two more columns: the floor sending our headers, and ours against it.
const withHeaders = values["floor-headers"];
const headerCells = (p: Pair) =>
  withHeaders && p.headers
    ? ` ${fmt(p.headers.rps)} | ${(p.ours.rps / p.headers.rps).toFixed(2)}x |`
    : "";
const lines = [
  `Commit ${await commitOf(root)}, ${new Date().toISOString().slice(0, 10)}, ${values.db} ` +
  `(seed ${values.seed}, ${paths.length} distinct requests of the mix${
    values.only ? `, ${values.only} only` : ""
  }), response cache off, ` +
  `wrk -t2 -d${seconds}s per run after ${values.warmup} s of warm-up per server; ` +
  `each round starts with the next server in turn.`,
  "",
  "| conns | round | time UTC | load (1 min) | floor req/s | ours req/s | ours / floor | floor p50 / p99 ms | ours p50 / p99 ms | p99 ours / floor | CPU us a request, floor / ours | MiB read from disk, floor / ours | errors |" +
  (withHeaders ? " floor+headers req/s | ours / floor+headers |" : ""),
  "| ----: | ----: | -------- | -----------: | ----------: | ---------: | -----------: | -----------------: | ----------------: | ---------------: | -----------------------------: | -------------------------------: | -----: |" +
  (withHeaders ? " ------------------: | -------------------: |" : ""),
  ...pairs.map((p) =>
    `| ${p.connections} | ${p.round} | ${p.time} | ${p.load.toFixed(1)} | ${fmt(p.floor.rps)} | ${
      fmt(p.ours.rps)
    } | ${(p.ours.rps / p.floor.rps).toFixed(2)}x | ${ms(p.floor)} | ${ms(p.ours)} | ${
      (p.ours.p99Ms / p.floor.p99Ms).toFixed(2)
    }x | ${p.floor.cpuUs.toFixed(0)} / ${p.ours.cpuUs.toFixed(0)} | ${
      p.floor.diskMiB.toFixed(1)
    } / ${p.ours.diskMiB.toFixed(1)} | ${
      p.floor.errors + p.ours.errors + (p.headers?.errors ?? 0)
    } |${headerCells(p)}`
  ),
  "",
  "| conns | median ours / floor req/s | median p99 ours / floor | median floor / ours CPU a request | peak RSS MiB floor / ours |" +
  (withHeaders ? " median floor+headers / floor req/s | median ours / floor+headers req/s |" : ""),
  "| ----: | ------------------------: | ----------------------: | --------------------------------: | ------------------------: |" +
  (withHeaders ? " ---------------------------------: | --------------------------------: |" : ""),
  ...peaks.map((k) => {
    const mine = pairs.filter((p) => p.connections === k.connections);
    const med = (f: (p: Pair) => number) => median(mine.map(f)).toFixed(2);
    const extra = withHeaders
      ? ` ${med((p) => p.headers!.rps / p.floor.rps)}x | ${
        med((p) => p.ours.rps / p.headers!.rps)
      }x |`
      : "";
    return `| ${k.connections} | ${med((p) => p.ours.rps / p.floor.rps)}x | ${
      med((p) => p.ours.p99Ms / p.floor.p99Ms)
    }x | ${med((p) => p.floor.cpuUs / p.ours.cpuUs)}x | ${fmt(k.floor)} / ${fmt(k.ours)} |${extra}`;
  }),
];
console.log(lines.join("\n"));
