/**
 * Cost of the server's own accept loop and connection bookkeeping
 * (`routes/server.ts`) against a bare `Deno.serve`: the same constant body
 * through both, and the JSON API's `/api/v1/vacancies/?page=3` for scale,
 * each for a few seconds with wrk, rounds alternated to even out a busy
 * machine.
 *
 * `deno run -A bench/http_server_load.ts [--seconds 5] [--rounds 2]`
 *
 * @module
 */
import { parseArgs } from "node:util";
import { load, type LoadResult, startProcess } from "./_load.ts";
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
const here = (p: string) => new URL(p, import.meta.url).pathname;

const dir = await Deno.makeTempDir({ prefix: "http-server-load-" });
await createDemoDatabase(`${dir}/catalog.db`);
const app = await startProcess(
  [
    here("../main.ts"),
    "serve",
    "--host",
    "127.0.0.1",
    "--port",
    "18781",
    "--db",
    `${dir}/catalog.db`,
    "--output-dir",
    `${dir}/output`,
  ],
  /Serving/,
  "http://127.0.0.1:18781",
);
const path = "/api/v1/vacancies/?page=3";
const bytes = (await (await fetch(app.url + path)).arrayBuffer()).byteLength;
const bare = await startProcess(
  [here("./_serve_http_baseline.ts"), "18782", String(bytes), "deno"],
  /ready/,
  "http://127.0.0.1:18782",
);
const ours = await startProcess(
  [here("./_serve_http_baseline.ts"), "18783", String(bytes), "ours"],
  /ready/,
  "http://127.0.0.1:18783",
);

const cases: [string, string][] = [
  ["bare Deno.serve, constant body", `${bare.url}/`],
  ["routes/server.ts, constant body", `${ours.url}/`],
  ["the app, /api/v1/vacancies/?page=3", app.url + path],
];
const results = new Map<string, LoadResult[]>();
try {
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const [name, url] of cases) {
      const r = await load(url, seconds, connections);
      results.set(name, [...(results.get(name) ?? []), r]);
    }
  }
} finally {
  await Promise.all([app.stop(), bare.stop(), ours.stop()]);
  await Deno.remove(dir, { recursive: true });
}
const best = (name: string) => results.get(name)!.reduce((a, b) => (b.rps > a.rps ? b : a));
const base = best(cases[0][0]).rps;
console.log(
  `${new Date().toISOString()}, body ${bytes} bytes, wrk -t1 -c${connections} -d${seconds}s, ` +
    `best of ${values.rounds} rounds`,
);
console.log("| case | req/s | p50 ms | p99 ms | vs bare | errors |");
console.log("| ---- | ----: | -----: | -----: | ------: | -----: |");
for (const [name] of cases) {
  const r = best(name);
  console.log(
    `| ${name} | ${Math.round(r.rps)} | ${r.p50Ms.toFixed(2)} | ${r.p99Ms.toFixed(2)} | ${
      (r.rps / base).toFixed(2)
    }x | ${r.errors} |`,
  );
}
