/**
 * Run as a separate process by render_gc_test.ts (with or without
 * `--v8-flags=--expose-gc`): a one-worker pool with a 1 MiB collection
 * budget draws four maps; prints the pool's stats as JSON.
 */
import { RenderPool } from "../map/render/pool.ts";

const pool = new RenderPool({
  size: 1,
  gcBudgetMb: 1,
  loader: {
    module: new URL("./_render_helpers.ts", import.meta.url).href,
    export: "loadTestServices",
  },
});
try {
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
