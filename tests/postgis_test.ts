/**
 * The PostGIS source against a real PostgreSQL 15 + PostGIS 3 started by
 * the test (tests/_postgres.ts): one data set with Cyrillic text, NULLs,
 * multi-parts, holes and features across 180°, written to a GeoPackage by
 * ogr2ogr and from it into PostGIS by ogr2ogr, must answer every REST query
 * (counts, ids, values, geometries, statistics, ordering, paging, where
 * clauses with the standardized functions) and draw the same pixels as the
 * GeoPackage; a row changed in PostgreSQL shows in the next query and
 * drawing; start-up errors name the document and layer; PostgreSQL stopped
 * while serving gives clear errors there and nowhere else, and the layer
 * recovers when it is back.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { Buffer } from "node:buffer";
import { PNG } from "pngjs";
import { onPath, optionalTest, reference } from "./_optional.ts";
import { startTestServer, type TestServer } from "./_api_helpers.ts";
import { rest } from "./_rest_helpers.ts";
import { faultOf, operationEnvelope, postSoap } from "./_soap_helpers.ts";
import { POSTGIS, startPostgis, type TestPostgis } from "./_postgres.ts";

const OGR2OGR = reference(
  "gdal-bin",
  "apt-get install gdal-bin",
  () => (onPath("ogr2ogr") ? null : "gdal-bin is not installed (no ogr2ogr)"),
);

const props = [
  { name: "Москва", kind: 1, ratio: 0.5, opened: "2020-01-31" },
  { name: null, kind: null, ratio: null, opened: null },
  { name: "Чукотка (через 180°)", kind: -7, ratio: 1234.25, opened: "1999-12-31" },
  { name: "Ёлки-палки «кавычки»", kind: 2147483, ratio: -3.125, opened: "2024-02-29" },
  { name: "мОсКвА-река", kind: 0, ratio: 2.5, opened: "2020-06-15" },
];

const GEOMETRIES: Record<string, unknown[]> = {
  points: [
    { type: "Point", coordinates: [37.62, 55.75] },
    null,
    { type: "Point", coordinates: [179.5, 66.1] },
    { type: "Point", coordinates: [-179.5, 65.2] },
    { type: "MultiPoint", coordinates: [[10, 10], [12, 14]] },
  ],
  lines: [
    { type: "LineString", coordinates: [[30, 50], [40, 55], [45, 52]] },
    { type: "MultiLineString", coordinates: [[[0, 0], [10, 10]], [[20, 0], [25, 5], [30, 0]]] },
    { type: "MultiLineString", coordinates: [[[170, 60], [180, 65]], [[-180, 65], [-170, 70]]] },
    { type: "LineString", coordinates: [[-10, -10], [-5, -20]] },
    null,
  ],
  polygons: [
    {
      type: "Polygon",
      coordinates: [
        [[30, 40], [50, 40], [50, 60], [30, 60], [30, 40]],
        [[35, 45], [35, 55], [45, 55], [45, 45], [35, 45]],
      ],
    },
    {
      type: "MultiPolygon",
      coordinates: [
        [[[0, 0], [10, 0], [10, 10], [0, 10], [0, 0]]],
        [
          [[20, 0], [30, 0], [30, 10], [20, 10], [20, 0]],
          [[22, 2], [22, 8], [28, 8], [28, 2], [22, 2]],
        ],
      ],
    },
    {
      type: "MultiPolygon",
      coordinates: [
        [[[170, 60], [180, 60], [180, 70], [170, 70], [170, 60]]],
        [[[-180, 60], [-170, 60], [-170, 70], [-180, 70], [-180, 60]]],
      ],
    },
    null,
    { type: "Polygon", coordinates: [[[-60, -30], [-40, -30], [-50, -10], [-60, -30]]] },
  ],
};

/** Where clauses (each standardized function at least once) both sources must agree on. */
const WHERES = [
  "1=1",
  "kind IS NULL OR ratio > 1",
  "kind IN (1, 2147483) AND NOT kind = 1",
  "kind BETWEEN -10 AND 1",
  "kind * 2 + 1 > 2",
  "-ratio < 0",
  "name > 'М'",
  "name = 'Москва'",
  "name <> 'Москва'",
  "opened > DATE '2000-01-01'",
  "opened BETWEEN TIMESTAMP '2020-01-01 00:00:00' AND TIMESTAMP '2020-12-31 00:00:00'",
  "UPPER(name) LIKE '%МОСКВА%'",
  "LOWER(name) = 'москва'",
  "name LIKE 'Ч%'",
  "name NOT LIKE '%а'",
  "EXTRACT(YEAR FROM opened) = 2020",
  "EXTRACT(MONTH FROM opened) = 12 OR EXTRACT(DAY FROM opened) = 29",
  "ABS(ratio) > 1 AND CHAR_LENGTH(name) < 15",
  "ratio > 0 AND name LIKE '%а%' AND kind < 100",
  "ABS(kind) = 7",
  "CEILING(ratio) = 1",
  "FLOOR(ratio) = -4",
  "MOD(kind, 2) = 1",
  "POWER(kind, 2) = 49",
  "ROUND(ratio, 0) = 3",
  "TRUNCATE(ratio, 0) = -3",
  "CHAR_LENGTH(name) > 10",
  "CONCAT(name, 'x') = 'Москваx'",
  "POSITION('ква' IN name) > 0",
  "SUBSTRING(name FROM 1 FOR 3) = 'Ёлк'",
  "TRIM(BOTH ' ' FROM name) = name",
  "CAST(kind AS VARCHAR(20)) = '1'",
  "ratio / 0 > 1 OR kind / 2 = 0.5",
  "fid IN (2, 4) OR fid > 4",
];

async function ogr2ogr(args: string[]): Promise<void> {
  const out = await new Deno.Command("ogr2ogr", { args, stderr: "piped" }).output();
  assert.ok(out.success, `ogr2ogr ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
}

interface Fixture {
  pg: TestPostgis;
  dir: string;
  maps: string;
  kinds: string[];
}

/** Writes the data set as GeoPackages in `maps/` and loads them into PostGIS with ogr2ogr. */
async function fixture(): Promise<Fixture> {
  const pg = await startPostgis();
  const dir = await Deno.makeTempDir({ prefix: "postgis_test_" });
  const maps = join(dir, "maps");
  await Deno.mkdir(maps);
  const kinds = Object.keys(GEOMETRIES);
  for (const kind of kinds) {
    const features = GEOMETRIES[kind].map((g, i) => ({
      type: "Feature",
      properties: props[i],
      geometry: g,
    }));
    const src = join(dir, `${kind}.geojson`);
    await Deno.writeTextFile(src, JSON.stringify({ type: "FeatureCollection", features }));
    const gpkg = join(maps, `${kind}.gpkg`);
    await ogr2ogr(["-f", "GPKG", gpkg, src, "-nln", kind]);
    await ogr2ogr([
      "-f",
      "PostgreSQL",
      `PG:host=127.0.0.1 port=${pg.port} dbname=gis user=postgres`,
      gpkg,
      "-nln",
      `public.${kind}`,
      "-preserve_fid",
      "-lco",
      "FID=fid",
      "-lco",
      "GEOMETRY_NAME=geom",
    ]);
  }
  return { pg, dir, maps, kinds };
}

/** A document with each kind twice: GeoPackage (even ids), PostGIS (odd ids). */
async function writeDocuments(f: Fixture): Promise<void> {
  const layers = f.kinds.flatMap((kind, i) => [
    { id: 2 * i, name: `${kind} gpkg`, source: { type: "geopackage", path: `${kind}.gpkg` } },
    {
      id: 2 * i + 1,
      name: `${kind} pg`,
      source: { type: "postgis", url: f.pg.url, table: `public.${kind}` },
    },
  ]);
  await Deno.writeTextFile(
    join(f.maps, "live.json"),
    JSON.stringify({ name: "Live", maps: [{ name: "Layers", wkid: 4326, layers }] }),
  );
  await Deno.writeTextFile(
    join(f.maps, "files.json"),
    JSON.stringify({
      name: "Files",
      maps: [{
        name: "Files",
        wkid: 4326,
        layers: [{ id: 0, name: "points", source: { type: "geopackage", path: "points.gpkg" } }],
      }],
    }),
  );
}

const BASE = "/services/Live/MapServer";

// deno-lint-ignore no-explicit-any
async function ask(s: TestServer, layer: number, params: Record<string, string>): Promise<any> {
  return (await rest(s.url, `${BASE}/${layer}/query`, { f: "json", ...params })).body;
}

async function draw(s: TestServer, layer: number, bbox = "-180,-40,180,80"): Promise<PNG> {
  const res = await fetch(
    `${s.url}/arcgis/rest${BASE}/export?${new URLSearchParams({
      bbox,
      size: "360,120",
      layers: `show:${layer}`,
      format: "png",
      f: "image",
    })}`,
  );
  assert.equal(res.status, 200);
  return PNG.sync.read(Buffer.from(new Uint8Array(await res.arrayBuffer())));
}

function drawn(p: PNG): boolean {
  return p.data.some((v: number, i: number) => i % 4 !== 3 && v < 200);
}

async function cleanup(f: Fixture, s?: TestServer): Promise<void> {
  await s?.close();
  await f.pg.close();
  await Deno.remove(f.dir, { recursive: true });
}

optionalTest([POSTGIS, OGR2OGR], {
  name: "PostGIS layers answer every REST query and export exactly as their GeoPackage twins",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const f = await fixture();
    await writeDocuments(f);
    const s = await startTestServer({ mapsDir: f.maps });
    try {
      for (let i = 0; i < f.kinds.length; i++) {
        const [g, p] = [2 * i, 2 * i + 1];
        const what = f.kinds[i];
        const meta = async (layer: number) =>
          (await rest(s.url, `${BASE}/${layer}`, { f: "json" })).body;
        const [mg, mp] = [await meta(g), await meta(p)];
        const shape = (m: { fields: { name: string; type: string }[] }) =>
          m.fields.map((x) => [x.name, x.type]);
        assert.deepEqual(shape(mp), shape(mg), `${what}: fields`);
        assert.equal(mp.geometryType, mg.geometryType, what);
        assert.deepEqual(mp.extent, mg.extent, `${what}: extent`);
        const cases: Record<string, string>[] = [
          ...WHERES.map((where) => ({ where, outFields: "*" })),
          ...WHERES.map((where) => ({ where, returnCountOnly: "true" })),
          ...WHERES.map((where) => ({ where, returnIdsOnly: "true" })),
          { where: "1=1", geometry: "160,55,180,75", geometryType: "esriGeometryEnvelope" },
          { where: "1=1", geometry: "-180,55,-175,75", geometryType: "esriGeometryEnvelope" },
          { where: "kind > -100", geometry: "25,35,55,65", geometryType: "esriGeometryEnvelope" },
          { where: "1=1", outFields: "name,kind", orderByFields: "name DESC, fid" },
          { where: "1=1", outFields: "*", orderByFields: "ratio", resultOffset: "1" },
          {
            where: "1=1",
            outFields: "*",
            orderByFields: "fid",
            resultOffset: "1",
            resultRecordCount: "2",
          },
          { where: "1=1", outFields: "*", resultOffset: "2", resultRecordCount: "2" },
          { where: "UPPER(name) LIKE '%А%'", resultOffset: "1", resultRecordCount: "1" },
          { objectIds: "1,3,5,99", outFields: "*" },
          {
            where: "1=1",
            outStatistics: JSON.stringify([
              { statisticType: "count", onStatisticField: "name", outStatisticFieldName: "n" },
              { statisticType: "sum", onStatisticField: "ratio", outStatisticFieldName: "s" },
              { statisticType: "min", onStatisticField: "opened", outStatisticFieldName: "lo" },
              { statisticType: "max", onStatisticField: "name", outStatisticFieldName: "hi" },
              { statisticType: "avg", onStatisticField: "kind", outStatisticFieldName: "a" },
              { statisticType: "stddev", onStatisticField: "ratio", outStatisticFieldName: "d" },
            ]),
          },
          {
            where: "kind IS NOT NULL",
            groupByFieldsForStatistics: "opened",
            outStatistics: JSON.stringify([
              { statisticType: "count", onStatisticField: "fid", outStatisticFieldName: "n" },
            ]),
          },
        ];
        const counts: number[] = [];
        for (const c of cases) {
          const [a, b] = [await ask(s, g, c), await ask(s, p, c)];
          assert.deepEqual(b, a, `${what}: ${JSON.stringify(c)}`);
          if (c.returnCountOnly) counts.push(b.count);
        }
        // Every clause but 1=1 picks some features and leaves others: none is vacuous.
        assert.ok(counts.slice(1).every((n) => n >= 1 && n < 5), `${what}: ${counts}`);
        const all = await ask(s, p, { where: "1=1", outFields: "*" });
        assert.equal(all.features.length, 5, what);
        const [pa, pb] = [await draw(s, g), await draw(s, p)];
        assert.ok(drawn(pa), `${what}: something drawn`);
        assert.ok(Buffer.compare(pa.data, pb.data) === 0, `${what}: the same pixels`);
      }
    } finally {
      await cleanup(f, s);
    }
  },
});

function countEnvelope(layer: number): string {
  return operationEnvelope(
    "QueryFeatureCount",
    `<MapName>Layers</MapName><LayerID>${layer}</LayerID>` +
      `<QueryFilter><WhereClause>1=1</WhereClause></QueryFilter>`,
  );
}

optionalTest([POSTGIS, OGR2OGR], {
  name: "PostGIS is live: changed rows show at once; down while serving fails locally and recovers",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const f = await fixture();
    await writeDocuments(f);
    // Drawings come from a render worker, which opens the document's sources itself.
    const s = await startTestServer({ mapsDir: f.maps, renderWorkers: 1 });
    try {
      const one = async () =>
        (await ask(s, 1, { objectIds: "1", outFields: "name", returnGeometry: "true" }))
          .features[0];
      assert.equal((await one()).attributes.name, "Москва");
      const before = await draw(s, 1);
      await f.pg.psql(
        "UPDATE public.points SET name = 'Тверь', geom = ST_SetSRID(ST_MakePoint(-100, 0), 4326) WHERE fid = 1;",
      );
      const after = await one();
      assert.equal(after.attributes.name, "Тверь");
      assert.deepEqual(after.geometry, { x: -100, y: 0 });
      assert.equal(
        (await ask(s, 1, { where: "name = 'Тверь'", returnCountOnly: "true" })).count,
        1,
      );
      const redrawn = await draw(s, 1);
      assert.ok(Buffer.compare(before.data, redrawn.data) !== 0, "the drawing shows the change");
      // The moved point is drawn at (-100, 0): x = 80 px, y = 80 px in the 360×120 image.
      const dark = (p: PNG, cx: number, cy: number) => {
        for (let y = cy - 2; y <= cy + 2; y++) {
          for (let x = cx - 2; x <= cx + 2; x++) {
            const i = (y * p.width + x) * 4;
            if (p.data[i] < 200 || p.data[i + 1] < 200 || p.data[i + 2] < 200) return true;
          }
        }
        return false;
      };
      assert.ok(!dark(before, 80, 80) && dark(redrawn, 80, 80), "the point is drawn where it went");

      // PostgreSQL goes away: the PostGIS layers fail clearly, everything else still answers.
      await f.pg.stopServer();
      const down = await ask(s, 1, { where: "1=1", returnCountOnly: "true" });
      assert.equal(down.error?.code, 500, JSON.stringify(down));
      assert.match(down.error.message, /PostgreSQL data cannot be read now: .*ECONNREFUSED/);
      const soapUrl = `${s.url}/arcgis/services/Live/MapServer`;
      const fault = await postSoap(soapUrl, countEnvelope(1), '""');
      assert.equal(faultOf(fault.text)?.code, "soap:Server", fault.text);
      assert.match(faultOf(fault.text)!.message, /PostgreSQL/);
      const gpkgCount = await postSoap(soapUrl, countEnvelope(0), '""');
      assert.match(gpkgCount.text, /<Result>5<\/Result>/);
      assert.equal((await ask(s, 0, { where: "1=1", returnCountOnly: "true" })).count, 5);
      assert.ok(drawn(await draw(s, 0)), "the GeoPackage layer of the same map still draws");
      // A drawing that needs rows fails (the polygons were never drawn, so nothing is held)…
      const exportDown = await rest(s.url, `${BASE}/export`, {
        bbox: "-170,-40,170,80",
        size: "360,120",
        layers: "show:5",
        f: "json",
      });
      assert.equal(exportDown.body.error?.code, 500, exportDown.text);
      assert.match(exportDown.body.error.message, /PostgreSQL data cannot be read now/);
      // …while the points the render worker already holds for the last revision still draw:
      // nothing can change while PostgreSQL is down.
      assert.ok(Buffer.compare((await draw(s, 1)).data, redrawn.data) === 0);
      const files = await rest(s.url, "/services/Files/MapServer/0/query", {
        where: "1=1",
        returnCountOnly: "true",
        f: "json",
      });
      assert.equal(files.body.count, 5);

      // Back: the pool reconnects by itself.
      await f.pg.startServer();
      assert.equal((await ask(s, 1, { where: "1=1", returnCountOnly: "true" })).count, 5);
      assert.equal((await one()).attributes.name, "Тверь");
      const back = await postSoap(soapUrl, countEnvelope(1), '""');
      assert.match(back.text, /<Result>5<\/Result>/);
      assert.ok(drawn(await draw(s, 5)), "the polygons draw again");
    } finally {
      await cleanup(f, s);
    }
  },
});

optionalTest([POSTGIS, OGR2OGR], {
  name: "PostGIS start-up errors are one line naming the document and the layer",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const f = await fixture();
    try {
      const start = async (source: Record<string, unknown>) => {
        await Deno.writeTextFile(
          join(f.maps, "live.json"),
          JSON.stringify({
            name: "Live",
            maps: [{
              name: "Layers",
              wkid: 4326,
              layers: [
                { id: 0, name: "ok", source: { type: "geopackage", path: "points.gpkg" } },
                { id: 1, name: "pg", source: { type: "postgis", ...source } },
              ],
            }],
          }),
        );
        const err = await startTestServer({ mapsDir: f.maps }).then(
          async (s) => {
            await s.close();
            return null;
          },
          (e: Error) => e,
        );
        assert.ok(err, `${JSON.stringify(source)} must stop the start`);
        assert.doesNotMatch(err.message, /\n/, "one line");
        assert.match(err.message, /live\.json: maps\[0\]\.layers\[1\]\.source/);
        return err.message;
      };
      const url = f.pg.url;
      assert.match(
        await start({ url, table: "public.nope" }),
        /no table "public\.nope" with a geometry column/,
      );
      assert.match(
        await start({ url, table: "public.points", geometryColumn: "shape" }),
        /no geometry column "shape"; it has geom/,
      );
      assert.match(
        await start({ url: "postgresql://postgres:secret@127.0.0.1/gis", table: "points" }),
        /must not hold a password/,
      );
      assert.match(
        await start({ url: "postgresql://postgres@127.0.0.1/${NO_SUCH_VARIABLE_X}", table: "a" }),
        /environment variable NO_SUCH_VARIABLE_X/,
      );
      await f.pg.stopServer();
      const down = await start({ url, table: "public.points" });
      assert.match(down, /PostgreSQL 127\.0\.0\.1:\d+\/gis: .*(ECONNREFUSED|refused)/i);
      assert.doesNotMatch(down, /secret/);
    } finally {
      await cleanup(f);
    }
  },
});

optionalTest([POSTGIS, OGR2OGR], {
  name: "PostGIS tile cache: a committed change redraws the tile (data revision = WAL position)",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const f = await fixture();
    await Deno.writeTextFile(
      join(f.maps, "tiled.json"),
      JSON.stringify({
        name: "Tiled",
        maps: [{
          name: "Layers",
          wkid: 3857,
          tiling: { maxLevel: 4 },
          layers: [{
            id: 0,
            name: "points",
            source: { type: "postgis", url: f.pg.url, table: "public.points" },
            renderer: {
              type: "simple",
              symbol: { type: "simple-marker", color: [200, 0, 0], size: 12 },
            },
          }],
        }],
      }),
    );
    const s = await startTestServer({ mapsDir: f.maps });
    // Moscow (37.62°E, 55.75°N) at level 3: column 4, row 2.
    const tile = async () => {
      const res = await fetch(`${s.url}/arcgis/rest/services/Tiled/MapServer/tile/3/2/4`);
      assert.equal(res.status, 200);
      const png = PNG.sync.read(Buffer.from(new Uint8Array(await res.arrayBuffer())));
      return { etag: res.headers.get("etag"), red: redPixels(png) };
    };
    const redPixels = (p: PNG) => {
      let n = 0;
      for (let i = 0; i < p.data.length; i += 4) {
        if (p.data[i] > 150 && p.data[i + 1] < 80 && p.data[i + 3] > 0) n++;
      }
      return n;
    };
    try {
      const before = await tile();
      assert.ok(before.red > 0, "Moscow's marker is on the tile");
      assert.equal((await tile()).etag, before.etag, "the cached tile is served again");
      await f.pg.psql(
        "UPDATE public.points SET geom = ST_SetSRID(ST_MakePoint(-100, 0), 4326) WHERE fid = 1;",
      );
      // The tile cache re-reads revisions at most once a second.
      await new Promise((r) => setTimeout(r, 1200));
      const after = await tile();
      assert.notEqual(after.etag, before.etag);
      assert.equal(after.red, 0, "the marker moved away from the tile");
    } finally {
      await cleanup(f, s);
    }
  },
});
