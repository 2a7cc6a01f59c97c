/**
 * Cold tile throughput with the render worker pool: seeds levels of the
 * default service's cached map into a temporary MBTiles folder.
 *
 * ```
 * deno run --allow-all bench/render_seed.ts [--db var/catalog.db] [--levels 0-5]
 * ```
 *
 * @module
 */
import { parseArgs } from "node:util";
import { existsSync } from "node:fs";
import { COMPETITION_CATALOG_MODULE, createDemoDatabase, openCatalog } from "../data/mod.ts";
import { loadServices } from "../map/document/mod.ts";
import { documentRenderPool } from "../map/render/mod.ts";
import { parseLevels, progressPrinter, TileCaches } from "../map/tiles/mod.ts";
import { progressBar } from "../data/progress.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    db: { type: "string", default: "var/bench-seed.db" },
    levels: { type: "string", default: "0-5" },
  },
});
if (!existsSync(values.db)) createDemoDatabase(values.db, { competitions: 2000 });
const catalog = openCatalog(values.db, { readonly: true });
const services = await loadServices({
  catalog,
  catalogPath: values.db,
  catalogModule: COMPETITION_CATALOG_MODULE,
});
const dir = await Deno.makeTempDir({ prefix: "seed-bench-" });
const pool = documentRenderPool({
  catalogPath: values.db,
  catalogModule: COMPETITION_CATALOG_MODULE,
});
const tiles = new TileCaches({ dir, renderer: pool, changes: catalog });
try {
  // Workers load CanvasKit and the services at start; do not count that.
  await new Promise((r) => setTimeout(r, 3000));
  const t = performance.now();
  const p = await tiles.seed({
    service: services[0],
    levels: parseLevels(values.levels),
    onProgress: progressPrinter(progressBar("tiles")),
  });
  const s = (performance.now() - t) / 1000;
  console.log(
    `${p.total} tiles (${p.rendered} rendered) in ${s.toFixed(1)} s: ${
      (p.total / s).toFixed(0)
    } tiles/s ` +
      `with ${navigator.hardwareConcurrency} cores`,
  );
} finally {
  tiles.close();
  pool.close();
  catalog.close();
  await Deno.remove(dir, { recursive: true });
}
