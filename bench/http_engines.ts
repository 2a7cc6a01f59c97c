/**
 * The two HTTP engines of `serve` (`--http-engine hyper|js`, issue 24) on the
 * same demo database: requests/s and latency of a JSON API page (cached, so
 * the HTTP layer weighs most), a page of the uncached mix's kind (the 16 MiB
 * response cache off) and a REST export PNG, with wrk for a few seconds each,
 * rounds alternated (hyper first, then js first) to even out a busy machine.
 *
 * `deno run -A bench/http_engines.ts [--seconds 5] [--rounds 2] [--connections 32]`
 *
 * @module
 */
import { parseArgs } from "node:util";
import { type BenchProcess, load, type LoadResult, startProcess } from "./_load.ts";
import { createDemoDatabase } from "../data/mod.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    seconds: { type: "string", default: "5" },
    rounds: { type: "string", default: "2" },
    connections: { type: "string", default: "32" },
  },
});
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const engines = ["hyper", "js"] as const;
const here = (p: string) => new URL(p, import.meta.url).pathname;

const dir = await Deno.makeTempDir({ prefix: "http-engines-" });
await createDemoDatabase(`${dir}/catalog.db`);

/** `main.ts serve` on a free port with `engine` and `extra` flags. */
function start(engine: string, extra: string[]): Promise<BenchProcess> {
  return startProcess(
    [
      here("../main.ts"),
      "serve",
      "--host",
      "127.0.0.1",
      "--port",
      "0",
      "--db",
      `${dir}/catalog.db`,
      "--output-dir",
      `${dir}/output`,
      "--http-engine",
      engine,
      ...extra,
    ],
    /Serving .* at (http:\/\/127\.0\.0\.1:\d+)\//,
    (m) => m[1],
  );
}

const REST = "/arcgis/rest/services/Recruitment/MapServer";
const cases: { name: string; path: string; flags: string[] }[] = [
  { name: "API page, cached", path: "/api/v1/vacancies/?page=3", flags: [] },
  {
    name: "API page, cache off",
    path: "/api/v1/vacancies/?page=3",
    flags: ["--response-cache-mb", "0"],
  },
  {
    name: "REST export PNG 256x192",
    path: `${REST}/export?bbox=20,40,60,70&size=256,192&f=image`,
    flags: [],
  },
];

const results = new Map<string, LoadResult[]>();
try {
  for (const c of cases) {
    const servers = await Promise.all(engines.map((e) => start(e, c.flags)));
    try {
      // Warm both (workers started, caches filled).
      for (const s of servers) await load(s.url + c.path, 1, connections);
      for (let round = 0; round < Number(values.rounds); round++) {
        const order = round % 2 === 0 ? [0, 1] : [1, 0];
        for (const i of order) {
          const key = `${c.name}|${engines[i]}`;
          const r = await load(servers[i].url + c.path, seconds, connections);
          results.set(key, [...(results.get(key) ?? []), r]);
        }
      }
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
    }
  }
} finally {
  await Deno.remove(dir, { recursive: true });
}

const best = (key: string) => results.get(key)!.reduce((a, b) => (b.rps > a.rps ? b : a));
console.log(
  `${new Date().toISOString()}, wrk -t1 -c${connections} -d${seconds}s, ` +
    `best of ${values.rounds} rounds`,
);
console.log("| case | engine | req/s | p50 ms | p99 ms | js / hyper | errors |");
console.log("| ---- | ------ | ----: | -----: | -----: | ---------: | -----: |");
for (const c of cases) {
  const base = best(`${c.name}|hyper`).rps;
  for (const e of engines) {
    const r = best(`${c.name}|${e}`);
    console.log(
      `| ${c.name} | ${e} | ${Math.round(r.rps)} | ${r.p50Ms.toFixed(2)} | ${
        r.p99Ms.toFixed(2)
      } | ${(r.rps / base).toFixed(2)}x | ${r.errors} |`,
    );
  }
}
