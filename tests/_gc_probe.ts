/**
 * Run as a separate process by render_gc_test.ts (with or without
 * `--v8-flags=--expose-gc`): a pool (one worker, or as many as the first
 * argument says, warmed up first) with a 1 MiB collection budget draws
 * four maps one after another; prints the pool's stats as JSON.
 */
import { RenderPool } from "../map/render/pool.ts";

const size = Number(Deno.args[0] ?? 1);
const pool = new RenderPool({
  size,
  gcBudgetMb: 1,
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
  for (let i = 0; i < 4; i++) {
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
  console.log(JSON.stringify(pool.stats()));
} finally {
  pool.close();
}
