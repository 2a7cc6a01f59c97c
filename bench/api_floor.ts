/**
 * Our JSON API against the storage floor (`bench/_floor_server.ts`) on the
 * uncached mix (`bench/_api_mix_paths.ts`), measured alternately so both see
 * the same machine (issue 22: the goal is 0.8x of the floor's req/s at 32
 * and 256 connections, p99 within 3x of the floor's, cache off).
 *
 * For each connection count both servers are started (port 0; ours as
 * `deno task start` runs it, response cache off) and warmed with the mix,
 * then measured in turns, `--rounds` times each, the first of each pair
 * alternating (floor, ours; ours, floor; ...). Each round's ratio is taken
 * from its own pair, so drift of the shared machine's speed cancels out.
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
 *   [--only page|agency|search|ordering|detail|competitions]
 * ```
 *
 * `--only` keeps one kind of request of the mix (`mixKind`): the floor
 * ignores filters, search and ordering, so a kind alone shows what honouring
 * them costs (a filtered page's records are scattered over the table; the
 * floor's are adjacent).
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
  load,
  type LoadResult,
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

function startFloor(): Promise<BenchProcess> {
  return startProcess(
    [`${here}_floor_server.ts`, "0", values.db],
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

/** One run: wrk's figures and the server's CPU time per request (all its threads). */
type Run = LoadResult & { cpuUs: number };

interface Pair {
  round: number;
  time: string;
  load: number;
  connections: number;
  floor: Run;
  ours: Run;
}

async function run(s: BenchProcess, connections: number): Promise<Run> {
  const before = cpuMs(s.child.pid);
  const r = await load(s.url + "/", seconds, connections, wrk);
  return { ...r, cpuUs: (cpuMs(s.child.pid) - before) * 1000 / (r.requests ?? NaN) };
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

for (const connections of values.connections.split(",").map(Number)) {
  const floor = await startFloor();
  const ours = await startOurs();
  try {
    await checkPaths([floor, ours]);
    await load(floor.url + "/", Number(values.warmup), connections, wrk);
    await load(ours.url + "/", Number(values.warmup), connections, wrk);
    for (let round = 1; round <= rounds; round++) {
      const time = new Date().toISOString().slice(11, 16);
      const loadAvg = Deno.loadavg()[0];
      const order = round % 2 === 1 ? [floor, ours] : [ours, floor];
      const results = new Map<BenchProcess, Run>();
      for (const s of order) results.set(s, await run(s, connections));
      const pair = {
        round,
        time,
        load: loadAvg,
        connections,
        floor: results.get(floor)!,
        ours: results.get(ours)!,
      };
      pairs.push(pair);
      console.error(
        `c${connections} round ${round}: floor ${pair.floor.rps.toFixed(0)}, ours ${
          pair.ours.rps.toFixed(0)
        } req/s (${(pair.ours.rps / pair.floor.rps).toFixed(2)}x); CPU ${
          pair.floor.cpuUs.toFixed(0)
        } / ${pair.ours.cpuUs.toFixed(0)} us a request`,
      );
    }
    peaks.push({
      connections,
      floor: rssMiB(floor.child.pid).peak,
      ours: rssMiB(ours.child.pid).peak,
    });
  } finally {
    await floor.stop();
    await ours.stop();
  }
}

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
const ms = (r: LoadResult) => `${r.p50Ms.toFixed(1)} / ${r.p99Ms.toFixed(1)}`;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const lines = [
  `Commit ${await commitOf(root)}, ${new Date().toISOString().slice(0, 10)}, ${values.db} ` +
  `(seed ${values.seed}, ${paths.length} distinct requests of the mix${
    values.only ? `, ${values.only} only` : ""
  }), response cache off, ` +
  `wrk -t2 -d${seconds}s per run after ${values.warmup} s of warm-up per server; ` +
  `rounds alternate which server goes first.`,
  "",
  "| conns | round | time UTC | load (1 min) | floor req/s | ours req/s | ours / floor | floor p50 / p99 ms | ours p50 / p99 ms | p99 ours / floor | CPU us a request, floor / ours | errors |",
  "| ----: | ----: | -------- | -----------: | ----------: | ---------: | -----------: | -----------------: | ----------------: | ---------------: | -----------------------------: | -----: |",
  ...pairs.map((p) =>
    `| ${p.connections} | ${p.round} | ${p.time} | ${p.load.toFixed(1)} | ${fmt(p.floor.rps)} | ${
      fmt(p.ours.rps)
    } | ${(p.ours.rps / p.floor.rps).toFixed(2)}x | ${ms(p.floor)} | ${ms(p.ours)} | ${
      (p.ours.p99Ms / p.floor.p99Ms).toFixed(2)
    }x | ${p.floor.cpuUs.toFixed(0)} / ${p.ours.cpuUs.toFixed(0)} | ${
      p.floor.errors + p.ours.errors
    } |`
  ),
  "",
  "| conns | median ours / floor req/s | median p99 ours / floor | median floor / ours CPU a request | peak RSS MiB floor / ours |",
  "| ----: | ------------------------: | ----------------------: | --------------------------------: | ------------------------: |",
  ...peaks.map((k) => {
    const mine = pairs.filter((p) => p.connections === k.connections);
    const med = (f: (p: Pair) => number) => median(mine.map(f)).toFixed(2);
    return `| ${k.connections} | ${med((p) => p.ours.rps / p.floor.rps)}x | ${
      med((p) => p.ours.p99Ms / p.floor.p99Ms)
    }x | ${med((p) => p.floor.cpuUs / p.ours.cpuUs)}x | ${fmt(k.floor)} / ${fmt(k.ours)} |`;
  }),
];
console.log(lines.join("\n"));
