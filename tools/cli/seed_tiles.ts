/**
 * `main.ts seed-tiles`: draws a service's tiles ahead of requests into its
 * tile store.
 *
 * @module
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { parseLevels, progressPrinter, TileCaches } from "../../map/tiles/mod.ts";
import { documentRenderPool } from "../../map/render/mod.ts";
import { loadServices } from "../../map/document/mod.ts";
import { COMPETITION_CATALOG_MODULE, openCatalog, progressBar } from "../../data/mod.ts";
import { defineCommand } from "./command.ts";
import { DB_FLAG, type Flag, switchFlag, textFlag, UsageError } from "./flags.ts";

/** `--levels 0-6`: the zoom levels, a range or a list. */
const LEVELS_FLAG: Flag<number[]> = {
  arg: "0-6",
  help: "Levels to draw: a range (0-6) or a list (0,2,4).",
  default: "0-6",
  read(text) {
    try {
      return parseLevels(text ?? "0-6");
    } catch (err) {
      throw new UsageError(`--levels: ${(err as Error).message}`);
    }
  },
};

/** `main.ts seed-tiles`. */
export const seedTilesCommand = defineCommand({
  name: "seed-tiles",
  summary: "Draws a service's tiles into its tile store ahead of requests.",
  flags: {
    levels: LEVELS_FLAG,
    service: textFlag("NAME", "The service (default: the first one)."),
    map: textFlag("NAME", "The map of the service (default: its default map)."),
    db: DB_FLAG,
    maps: textFlag("DIR", "Folder of map documents, as for serve."),
    "tiles-dir": textFlag("DIR", "MBTiles folder (default: tiles/ beside the database)."),
    "allow-map-paths-outside": switchFlag("Let map documents name data outside --maps."),
  },
  docs: "docs/operations.md and docs/map-documents.md",
  async run(values) {
    if (!existsSync(values.db)) {
      throw new UsageError(`${values.db} does not exist; run the server or 'demo' first.`);
    }
    const catalog = openCatalog(values.db, { readonly: true });
    const allowPathsOutside = values["allow-map-paths-outside"];
    const services = await loadServices({
      mapsDir: values.maps,
      catalog,
      catalogPath: values.db,
      catalogModule: COMPETITION_CATALOG_MODULE,
      allowPathsOutside,
    }).catch((err) => {
      catalog.close();
      throw err;
    });
    const service = values.service === undefined
      ? services[0]
      : services.find((s) => s.name.toLowerCase() === values.service!.toLowerCase());
    if (!service) {
      for (const s of services) s.close?.();
      catalog.close();
      throw new UsageError(
        `No service "${values.service}"; there are: ${services.map((s) => s.name).join(", ")}.`,
      );
    }
    const pool = documentRenderPool({
      mapsDir: values.maps,
      catalogPath: values.db,
      catalogModule: COMPETITION_CATALOG_MODULE,
      allowPathsOutside,
    });
    const tiles = new TileCaches({
      dir: values["tiles-dir"] ?? join(dirname(values.db), "tiles"),
      renderer: pool,
      changes: catalog,
    });
    const t0 = performance.now();
    try {
      const p = await tiles.seed({
        service,
        map: values.map,
        levels: values.levels,
        onProgress: progressPrinter(progressBar("tiles")),
      });
      const s = (performance.now() - t0) / 1000;
      console.log(
        `${p.total} tiles of ${service.name} (${p.rendered} rendered, the rest already stored) in ${
          s.toFixed(1)
        } s.`,
      );
      return 0;
    } catch (err) {
      console.error(`Seeding failed: ${(err as Error).message}`);
      return 1;
    } finally {
      tiles.close();
      pool.close();
      for (const s of services) s.close?.();
      catalog.close();
    }
  },
});
