/**
 * PostGIS against GeoPackage: REST query and export on the same
 * 100,000-point layer (`bench/soap_load.ts`'s seeded GeoPackage, copied
 * into a PostgreSQL 15 + PostGIS 3 started for the run by
 * `tests/_postgres.ts`, with ogr2ogr). Each source gets a fresh server
 * (in process, renders on the main thread); per case the first request
 * (cold: connections, statements, caches) is reported apart from the
 * median and p90 of the warm repetitions that follow.
 *
 * ```
 * deno run --allow-all bench/postgis.ts [--repeat 20]
 * ```
 *
 * @module
 */
import { parseArgs } from "node:util";
import { join } from "node:path";
import { DIR, ensureGeoPackage } from "./soap_load.ts";
import { startPostgis } from "../tests/_postgres.ts";
import { startTestServer } from "../tests/_api_helpers.ts";

const { values } = parseArgs({ options: { repeat: { type: "string", default: "20" } } });
const repeat = Number(values.repeat);
const FEATURES = 100_000;

const CASES: { name: string; path: string; params: Record<string, string> }[] = [
  {
    name: "count, attribute filter",
    path: "0/query",
    params: { where: "CATEGORY = 3 AND VALUE > 500", returnCountOnly: "true", f: "json" },
  },
  {
    name: "query 10°×5° box, all fields",
    path: "0/query",
    params: {
      where: "1=1",
      geometry: "100,50,110,55",
      geometryType: "esriGeometryEnvelope",
      outFields: "*",
      f: "json",
    },
  },
  {
    name: "page 1,000 rows at offset 50,000",
    path: "0/query",
    params: {
      where: "1=1",
      outFields: "*",
      resultOffset: "50000",
      resultRecordCount: "1000",
      f: "json",
    },
  },
  {
    name: "statistics by CATEGORY",
    path: "0/query",
    params: {
      where: "1=1",
      groupByFieldsForStatistics: "CATEGORY",
      outStatistics: JSON.stringify([
        { statisticType: "avg", onStatisticField: "VALUE", outStatisticFieldName: "v" },
      ]),
      f: "json",
    },
  },
  {
    name: "export 800×600, 30°×20° (~10k points)",
    path: "export",
    params: { bbox: "60,45,90,65", size: "800,600", format: "png", f: "image" },
  },
  {
    name: "export 800×600, whole layer",
    path: "export",
    params: { bbox: "20,40,180,75", size: "800,600", format: "png", f: "image" },
  },
];

async function timed(url: string): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(url);
  const body = await res.arrayBuffer();
  const ms = performance.now() - t0;
  const text = res.headers.get("content-type")?.includes("json")
    ? new TextDecoder().decode(body)
    : "";
  if (res.status !== 200 || text.includes('"error"')) {
    throw new Error(`${url}: ${res.status} ${text.slice(0, 300)}`);
  }
  return ms;
}

const gpkg = `${DIR}/bench.gpkg`;
ensureGeoPackage(gpkg, FEATURES);
const pg = await startPostgis();
const root = await Deno.makeTempDir({ prefix: "bench-postgis-" });
try {
  const t0 = performance.now();
  const load = await new Deno.Command("ogr2ogr", {
    args: [
      "-f",
      "PostgreSQL",
      `PG:host=127.0.0.1 port=${pg.port} dbname=gis user=postgres`,
      gpkg,
      "points",
      "-nln",
      "public.points",
      "-preserve_fid",
      "-lco",
      "FID=fid",
      "-lco",
      "GEOMETRY_NAME=geom",
      "-lco",
      "LAUNDER=NO",
    ],
    stderr: "piped",
  }).output();
  if (!load.success) throw new Error(new TextDecoder().decode(load.stderr));
  // The GeoPackage has the same index (bench/soap_load.ts); ogr2ogr made the GiST one.
  await pg.psql('CREATE INDEX ON public.points ("CATEGORY", "VALUE"); ANALYZE public.points;');
  console.log(
    `Loaded ${FEATURES} rows into PostGIS in ${((performance.now() - t0) / 1000).toFixed(1)} s.`,
  );
  const sources = {
    GeoPackage: { type: "geopackage", path: join(Deno.cwd(), gpkg), table: "points" },
    PostGIS: { type: "postgis", url: pg.url, table: "public.points" },
  };
  const rows: string[] = [];
  const results: Record<string, Record<string, { cold: number; p50: number; p90: number }>> = {};
  for (const [label, source] of Object.entries(sources)) {
    const maps = join(root, label);
    await Deno.mkdir(maps);
    await Deno.writeTextFile(
      join(maps, "bench.json"),
      JSON.stringify({
        name: "Bench",
        maps: [{ name: "Layers", wkid: 4326, layers: [{ id: 0, name: "Points", source }] }],
      }),
    );
    const s = await startTestServer({ mapsDir: maps, allowMapPathsOutside: true });
    try {
      for (const c of CASES) {
        const url = `${s.url}/arcgis/rest/services/Bench/MapServer/${c.path}?${new URLSearchParams(
          c.params,
        )}`;
        const cold = await timed(url);
        const warm: number[] = [];
        for (let i = 0; i < repeat; i++) warm.push(await timed(url));
        warm.sort((a, b) => a - b);
        (results[c.name] ??= {})[label] = {
          cold,
          p50: warm[Math.floor(warm.length / 2)],
          p90: warm[Math.floor(warm.length * 0.9)],
        };
      }
    } finally {
      await s.close();
    }
  }
  const f = (v: number) => v.toFixed(1);
  for (const c of CASES) {
    const g = results[c.name].GeoPackage, p = results[c.name].PostGIS;
    rows.push(
      `| ${c.name} | ${f(g.cold)} | ${f(g.p50)} | ${f(g.p90)} | ${f(p.cold)} | ${f(p.p50)} | ${
        f(p.p90)
      } | ${(p.p50 / g.p50).toFixed(2)}x |`,
    );
  }
  console.log(
    "| case | GeoPackage cold ms | GeoPackage p50 ms | GeoPackage p90 ms | PostGIS cold ms | PostGIS p50 ms | PostGIS p90 ms | PostGIS/GeoPackage p50 |",
  );
  console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const r of rows) console.log(r);
} finally {
  await pg.close();
  await Deno.remove(root, { recursive: true });
}
