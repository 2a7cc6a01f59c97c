/**
 * File sources against GDAL: one data set (a GeoJSON this test writes,
 * with Cyrillic text, NULLs, multi-part lines, polygons with holes,
 * features across 180°, points, integers, reals and dates) converted by
 * ogr2ogr to a GeoPackage, a CP1251 Shapefile and two FlatGeobuf files
 * (with and without the spatial index), published by one map document;
 * every file layer must answer REST queries and draw exports exactly as
 * its GeoPackage twin.
 *
 * GDAL (3.6) leaves features without geometry out of FlatGeobuf files
 * and writes an indexed one in Hilbert order, so the FlatGeobuf twins are
 * compared on the features with geometry: in order when unindexed, as a
 * set when indexed. (flatgeobuf_test.ts reads features without geometry
 * from files written by our own test writer.)
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { Buffer } from "node:buffer";
import { PNG } from "pngjs";
import { optionalTest, reference } from "../../tests/_optional.ts";
import { onPath } from "../../tests/_optional.ts";
import { startTestServer } from "../../tests/_api_helpers.ts";
import { rest } from "../../tests/_rest_helpers.ts";
import { seededRandom } from "../../tests/_random.ts";
import { openFlatGeobuf } from "./flatgeobuf.ts";
import { openGeoPackage } from "./geopackage.ts";

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
];

/** Three feature collections (one per geometry kind) sharing the attributes. */
function collections(): Record<string, unknown> {
  const feature = (i: number, geometry: unknown) => ({
    type: "Feature",
    properties: props[i],
    geometry,
  });
  return {
    points: [
      { type: "Point", coordinates: [37.62, 55.75] },
      null,
      { type: "Point", coordinates: [179.5, 66.1] },
      { type: "Point", coordinates: [-179.5, 65.2] },
    ],
    lines: [
      { type: "LineString", coordinates: [[30, 50], [40, 55], [45, 52]] },
      { type: "MultiLineString", coordinates: [[[0, 0], [10, 10]], [[20, 0], [25, 5], [30, 0]]] },
      {
        type: "MultiLineString",
        coordinates: [[[170, 60], [180, 65]], [[-180, 65], [-170, 70]]],
      },
      { type: "LineString", coordinates: [[-10, -10], [-5, -20]] },
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
          [[[20, 0], [30, 0], [30, 10], [20, 10], [20, 0]], [[22, 2], [22, 8], [28, 8], [28, 2], [
            22,
            2,
          ]]],
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
    ].map((g, i) => feature(i, g)),
  } as Record<string, unknown>;
}

async function ogr2ogr(args: string[]): Promise<void> {
  const out = await new Deno.Command("ogr2ogr", { args, stderr: "piped" }).output();
  assert.ok(out.success, `ogr2ogr ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
}

interface Feature {
  attributes: Record<string, unknown>;
  geometry?: unknown;
}

/** Layers per data set: the GeoPackage, then its twins (Shapefile, FlatGeobuf, indexed FlatGeobuf). */
const TWINS = 4;

type Answer = { objectIdFieldName: string; features: Feature[] };

/** Features without their ids (whose field is named by the file), in answer order. */
function ids(answer: Answer) {
  return answer.features.map((f) => {
    const { [answer.objectIdFieldName]: id, ...rest } = f.attributes;
    return { id, attributes: rest, geometry: f.geometry };
  });
}

/** The features with geometry, without ids, in answer order. */
function withGeometry(answer: Answer) {
  return ids(answer).filter((f) => f.geometry).map(({ attributes, geometry }) => ({
    attributes,
    geometry,
  }));
}

/** The features with geometry, without ids, in a fixed order. */
function asSet(answer: Answer) {
  return withGeometry(answer).sort((x, y) => JSON.stringify(x) < JSON.stringify(y) ? -1 : 1);
}

/** Field names and types, without the object id. */
function shape(fs: { name: string; type: string }[]) {
  return fs.filter((f) => f.type !== "esriFieldTypeOID").map((f) => ({
    name: f.name,
    type: f.type,
  }));
}

function pixels(bytes: Uint8Array): PNG {
  return PNG.sync.read(Buffer.from(bytes));
}

optionalTest(OGR2OGR, {
  name:
    "Shapefile and FlatGeobuf layers (ogr2ogr) answer REST queries and exports as GeoPackage does",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "files_gdal_" });
    const maps = join(dir, "maps");
    await Deno.mkdir(maps);
    const all = collections();
    const layers: { id: number; name: string; source: Record<string, string> }[] = [];
    let id = 0;
    for (const [kind, value] of Object.entries(all)) {
      const features = kind === "polygons" ? value : (value as unknown[]).map((g, i) => ({
        type: "Feature",
        properties: props[i],
        geometry: g,
      }));
      const src = join(dir, `${kind}.geojson`);
      await Deno.writeTextFile(src, JSON.stringify({ type: "FeatureCollection", features }));
      await ogr2ogr(["-f", "GPKG", join(maps, `${kind}.gpkg`), src, "-nln", kind]);
      await ogr2ogr([
        "-f",
        "ESRI Shapefile",
        "-lco",
        "ENCODING=CP1251",
        join(maps, `${kind}.shp`),
        src,
        "-nln",
        kind,
      ]);
      await ogr2ogr(["-f", "FlatGeobuf", join(maps, `${kind}.fgb`), src, "-nln", kind]);
      await ogr2ogr([
        "-f",
        "FlatGeobuf",
        "-lco",
        "SPATIAL_INDEX=NO",
        join(maps, `${kind}_noindex.fgb`),
        src,
        "-nln",
        kind,
      ]);
      layers.push(
        { id: id++, name: `${kind} gpkg`, source: { type: "geopackage", path: `${kind}.gpkg` } },
        { id: id++, name: `${kind} shp`, source: { type: "shapefile", path: `${kind}.shp` } },
        {
          id: id++,
          name: `${kind} fgb`,
          source: { type: "flatgeobuf", path: `${kind}_noindex.fgb` },
        },
        {
          id: id++,
          name: `${kind} fgb indexed`,
          source: { type: "flatgeobuf", path: `${kind}.fgb` },
        },
      );
    }
    await Deno.writeTextFile(
      join(maps, "files.json"),
      JSON.stringify({ name: "Files", maps: [{ name: "Layers", wkid: 4326, layers }] }),
    );
    const s = await startTestServer({ mapsDir: maps });
    const base = "/services/Files/MapServer";
    const draw = async (layer: number) => {
      const res = await fetch(
        `${s.url}/arcgis/rest${base}/export?${new URLSearchParams({
          bbox: "-180,-30,180,80",
          size: "360,110",
          layers: `show:${layer}`,
          format: "png",
          f: "image",
        })}`,
      );
      assert.equal(res.status, 200);
      return pixels(new Uint8Array(await res.arrayBuffer()));
    };
    try {
      for (let gpkg = 0; gpkg < layers.length; gpkg += TWINS) {
        const ask = async (layer: number, extra: Record<string, string> = {}) =>
          (await rest(s.url, `${base}/${layer}/query`, {
            where: "1=1",
            outFields: "*",
            f: "json",
            ...extra,
          })).body;
        const a = await ask(gpkg);
        assert.ok(!a.error, JSON.stringify(a.error));
        assert.equal(a.features.length, 4, layers[gpkg].name);
        assert.ok(
          a.features.some((f: { attributes: { name: string } }) =>
            f.attributes.name === "Ёлки-палки «кавычки»"
          ),
        );
        const pa = await draw(gpkg);
        assert.ok(
          pa.data.some((v: number, i: number) => i % 4 !== 3 && v < 200),
          `${layers[gpkg].name}: something drawn`,
        );
        for (let twin = gpkg + 1; twin < gpkg + TWINS; twin++) {
          const what: string = layers[twin].name;
          const view = what.endsWith("indexed") ? asSet : what.endsWith("fgb") ? withGeometry : ids;
          const b = await ask(twin);
          assert.ok(!b.error, JSON.stringify(b.error));
          assert.equal(b.objectIdFieldName, "FID", what);
          assert.deepEqual(view(b), view(a), `${what}: features`);
          assert.deepEqual(b.geometryType, a.geometryType, what);
          assert.deepEqual(b.spatialReference, a.spatialReference, what);
          assert.deepEqual(shape(b.fields), shape(a.fields), `${what}: fields`);
          // A where clause and a box go through the same engine on both.
          const box = { geometry: "160,55,180,75", geometryType: "esriGeometryEnvelope" };
          const where = { where: "kind IS NULL OR ratio > 1" };
          assert.deepEqual(view(await ask(twin, box)), view(await ask(gpkg, box)), what);
          assert.deepEqual(view(await ask(twin, where)), view(await ask(gpkg, where)), what);
          // Pixels of each layer drawn alone.
          const pb = await draw(twin);
          assert.ok(Buffer.compare(pa.data, pb.data) === 0, `${what}: the same pixels`);
        }
      }
    } finally {
      await s.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

optionalTest(OGR2OGR, {
  name: "FlatGeobuf: GDAL's packed R-tree answers boxes as the GeoPackage's R*Tree does",
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "fgb_rtree_" });
    try {
      // 3,000 small squares: three levels of 16-entry nodes.
      const random = seededRandom(24);
      const features = Array.from({ length: 3000 }, (_, n) => {
        const x = random() * 350 - 175, y = random() * 160 - 80, r = random() * 2;
        return {
          type: "Feature",
          properties: { n },
          geometry: {
            type: "Polygon",
            coordinates: [[[x, y], [x + r, y], [x + r, y + r], [x, y + r], [x, y]]],
          },
        };
      });
      const src = join(dir, "squares.geojson");
      await Deno.writeTextFile(src, JSON.stringify({ type: "FeatureCollection", features }));
      await ogr2ogr(["-f", "GPKG", join(dir, "squares.gpkg"), src]);
      await ogr2ogr(["-f", "FlatGeobuf", join(dir, "squares.fgb"), src]);
      const gpkg = openGeoPackage(join(dir, "squares.gpkg"));
      const fgb = openFlatGeobuf(join(dir, "squares.fgb"));
      try {
        assert.equal(fgb.count({}), 3000);
        const numbers = (fs: { attributes: Record<string, unknown> }[]) =>
          fs.map((f) => f.attributes.n as number).sort((a, b) => a - b);
        for (let i = 0; i < 200; i++) {
          const x = random() * 360 - 180, y = random() * 180 - 90, w = random() ** 3 * 120;
          const bbox = { xmin: x, ymin: y, xmax: x + w, ymax: y + w / 2 };
          const want = numbers(gpkg.query({ bbox, fields: ["n"], returnGeometry: false }));
          const got = numbers(fgb.query({ bbox, fields: ["n"], returnGeometry: false }));
          assert.deepEqual(got, want, JSON.stringify(bbox));
          assert.equal(fgb.count({ bbox }), want.length);
        }
      } finally {
        gpkg.close?.();
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
