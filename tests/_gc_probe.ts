/**
 * Run as a separate process by render_gc_test.ts (with or without
 * `--v8-flags=--expose-gc`): a pool (one worker, or as many as the first
 * argument says, warmed up first) with a 1 MiB collection budget draws
 * four maps one after another; prints the pool's stats as JSON. A second
 * argument, JSON, sets the pool's `gcBudgetMb`, `gcLimitMb` and `gcIdleMs`
 * (default: a 1 MiB budget and limit, so every job is followed by a
 * collection at once), `waitIdleMs`: how long to wait after the jobs
 * for an idle collection, printing the stats right after the jobs too,
 * and `jobs`, how many maps to draw.
 */
import { RenderPool } from "../map/render/pool.ts";

const size = Number(Deno.args[0] ?? 1);
const opts = JSON.parse(Deno.args[1] ?? "{}") as {
  gcBudgetMb?: number;
  gcLimitMb?: number;
  gcIdleMs?: number;
  waitIdleMs?: number;
  /** Jobs to draw (default 4). */
  jobs?: number;
};
const pool = new RenderPool({
  size,
  gcBudgetMb: opts.gcBudgetMb ?? 1,
  gcLimitMb: opts.gcLimitMb ?? 1,
  gcIdleMs: opts.gcIdleMs,
  loader: {
    module: new URL("./_render_helpers.ts", import.meta.url).href,
    export: "loadTestServices",
  },
});
try {
  // Bounded wait; no speed is asserted.
  for (let i = 0; i < 600 && pool.stats().warmedWorkers < size; i++) {
    await new Promise((r) => setTimeout(r, 50));
  }
  for (let i = 0; i < (opts.jobs ?? 4); i++) {
    await pool.run({
      kind: "map",
      service: "Pool",
      map: "Layers",
      request: {
        extent: { xmin: -180 + i, ymin: -90, xmax: 180 - i, ymax: 90 },
        wkid: 4326,
        widthPx: 1024,
        heightPx: 512,
        format: "png32",
      },
    });
  }
  if (opts.waitIdleMs !== undefined) {
    const afterJobs = pool.stats().collections;
    console.log(JSON.stringify(pool.stats()));
    // Bounded wait for the idle collection; no speed is asserted.
    for (let t = 0; t < opts.waitIdleMs && pool.stats().collections === afterJobs; t += 50) {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  console.log(JSON.stringify(pool.stats()));
} finally {
  pool.close();
}
