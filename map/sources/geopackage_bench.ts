/**
 * GeoPackage source speed on a 100,000-point layer (R*Tree indexed):
 * small and large bbox queries, attribute filters and counts.
 * Run: deno bench --allow-all map/sources/geopackage_bench.ts
 *
 * @module
 */
import { join } from "node:path";
import { openGeoPackage } from "./geopackage.ts";
import { writeGeoPackageLayer } from "./geopackage_writer.ts";
import { parseWhere } from "../query/mod.ts";

const dir = await Deno.makeTempDir({ prefix: "gpkg_bench_" });
const path = join(dir, "points.gpkg");
const N = 100_000;
// A deterministic scatter over Russia's bounding box (LCG, no Math.random).
let seed = 42;
const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
writeGeoPackageLayer(
  path,
  {
    table: "points",
    geometryType: "Point",
    fields: [{ name: "name", type: "String" }, { name: "kind", type: "Integer" }],
  },
  (function* () {
    for (let i = 1; i <= N; i++) {
      yield {
        attributes: { name: `point ${i}`, kind: i % 10 },
        geometry: { type: "Point" as const, x: 20 + rnd() * 160, y: 40 + rnd() * 38 },
      };
    }
  })(),
);
const src = openGeoPackage(path);
const fields = src.fields();
const small = { xmin: 37, ymin: 55, xmax: 38, ymax: 56 };
const large = { xmin: 20, ymin: 40, xmax: 100, ymax: 78 };
const where = parseWhere("kind = 3 AND name LIKE 'point 1%'", fields);

Deno.bench("bbox query, 1°×1° (~16 features)", () => {
  src.query({ bbox: small });
});
Deno.bench("bbox query, half the layer, first 1000", () => {
  src.query({ bbox: large, limit: 1000 });
});
Deno.bench("bbox count, half the layer", () => {
  src.count({ bbox: large });
});
Deno.bench("where query (kind = 3 AND name LIKE), first 1000", () => {
  src.query({ where, limit: 1000 });
});
Deno.bench("where count over 100k", () => {
  src.count({ where });
});
Deno.bench("get by id", () => {
  src.get(54321);
});

globalThis.addEventListener("unload", () => {
  src.close?.();
  Deno.removeSync(dir, { recursive: true });
});

Deno.bench("bbox around the whole layer, first 1000", () => {
  src.query({ bbox: { xmin: -180, ymin: -90, xmax: 180, ymax: 90 }, limit: 1000 });
});
