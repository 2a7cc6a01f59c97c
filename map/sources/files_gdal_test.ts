/**
 * File sources against GDAL: one data set (a GeoJSON this test writes,
 * with Cyrillic text, NULLs, multi-part lines, polygons with holes,
 * features across 180°, points, integers, reals and dates) converted by
 * ogr2ogr to a GeoPackage and to a CP1251 Shapefile, published by one
 * map document; every Shapefile layer must answer REST queries and draw
 * exports exactly as its GeoPackage twin.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { Buffer } from "node:buffer";
import { PNG } from "pngjs";
import { optionalTest, reference } from "../../tests/_optional.ts";
import { onPath } from "../../tests/_optional.ts";
import { startTestServer } from "../../tests/_api_helpers.ts";
import { rest } from "../../tests/_rest_helpers.ts";

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

function pixels(bytes: Uint8Array): PNG {
  return PNG.sync.read(Buffer.from(bytes));
}

optionalTest(OGR2OGR, {
  name: "Shapefile layers (ogr2ogr, CP1251) answer REST queries and exports as GeoPackage does",
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
      layers.push({
        id: id++,
        name: `${kind} gpkg`,
        source: { type: "geopackage", path: `${kind}.gpkg` },
      }, {
        id: id++,
        name: `${kind} shp`,
        source: { type: "shapefile", path: `${kind}.shp` },
      });
    }
    await Deno.writeTextFile(
      join(maps, "files.json"),
      JSON.stringify({ name: "Files", maps: [{ name: "Layers", wkid: 4326, layers }] }),
    );
    const s = await startTestServer({ mapsDir: maps });
    try {
      const base = "/services/Files/MapServer";
      for (let gpkg = 0; gpkg < layers.length; gpkg += 2) {
        const ask = async (layer: number, extra: Record<string, string> = {}) =>
          (await rest(s.url, `${base}/${layer}/query`, {
            where: "1=1",
            outFields: "*",
            f: "json",
            ...extra,
          })).body;
        const [a, b] = [await ask(gpkg), await ask(gpkg + 1)];
        const what: string = layers[gpkg].name;
        assert.ok(!a.error && !b.error, JSON.stringify([a.error, b.error]));
        assert.equal(a.features.length, 4, what);
        // The id field's name is the file's own (fid in GDAL's GeoPackages, FID in shapefiles).
        const ids = (answer: { objectIdFieldName: string; features: Feature[] }) =>
          answer.features.map((f) => {
            const { [answer.objectIdFieldName]: id, ...rest } = f.attributes;
            return { id, attributes: rest, geometry: f.geometry };
          });
        assert.equal(b.objectIdFieldName, "FID");
        assert.deepEqual(ids(b), ids(a), `${what}: features`);
        assert.deepEqual(b.geometryType, a.geometryType, what);
        assert.deepEqual(b.spatialReference, a.spatialReference, what);
        const shape = (fs: { name: string; type: string }[]) =>
          fs.filter((f) => f.type !== "esriFieldTypeOID").map((f) => ({
            name: f.name,
            type: f.type,
          }));
        assert.deepEqual(shape(b.fields), shape(a.fields), `${what}: fields`);
        assert.ok(
          a.features.some((f: { attributes: { name: string } }) =>
            f.attributes.name === "Ёлки-палки «кавычки»"
          ),
        );
        // A where clause and a box go through the same engine on both.
        const box = { geometry: "160,55,180,75", geometryType: "esriGeometryEnvelope" };
        const where = { where: "kind IS NULL OR ratio > 1" };
        assert.deepEqual(ids(await ask(gpkg + 1, box)), ids(await ask(gpkg, box)));
        assert.deepEqual(ids(await ask(gpkg + 1, where)), ids(await ask(gpkg, where)));
        // Pixels of each layer drawn alone.
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
        const [pa, pb] = [await draw(gpkg), await draw(gpkg + 1)];
        assert.ok(
          pa.data.some((v: number, i: number) => i % 4 !== 3 && v < 200),
          `${what}: something drawn`,
        );
        assert.ok(Buffer.compare(pa.data, pb.data) === 0, `${what}: the same pixels`);
      }
    } finally {
      await s.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
