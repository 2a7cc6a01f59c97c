import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { listGeoPackageLayers, openGeoPackage } from "./geopackage.ts";
import { SOURCE_STATEMENTS_MAX, SqlFeatureSource } from "./_sql_source.ts";
import { writeGeoPackageLayer } from "./geopackage_writer.ts";
import { decodeGpkgBlob, decodeWkb, encodeGpkgBlob, partsToGeometry } from "./_wkb.ts";
import { parseWhere } from "../query/mod.ts";
import { isClockwise } from "../geo/rings.ts";
import type { Geometry } from "../types.ts";

const dir = await Deno.makeTempDir({ prefix: "gpkg_test_" });
const cities = join(dir, "cities.gpkg");
globalThis.addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));

writeGeoPackageLayer(cities, {
  table: "cities",
  geometryType: "Point",
  fields: [
    { name: "name", type: "String" },
    { name: "pop", type: "Integer" },
    { name: "founded", type: "Date" },
  ],
}, [
  {
    attributes: { name: "Москва", pop: 13000000, founded: Date.UTC(1147, 3, 4) },
    geometry: { type: "Point", x: 37.6173, y: 55.7558 },
  },
  {
    attributes: { name: "Санкт-Петербург", pop: 5600000, founded: Date.UTC(1703, 4, 27) },
    geometry: { type: "Point", x: 30.3351, y: 59.9343 },
  },
  {
    attributes: { name: "Kazan", pop: 1300000, founded: null },
    geometry: { type: "Point", x: 49.1221, y: 55.7887 },
  },
  { attributes: { name: "Nowhere", pop: null, founded: null }, geometry: null },
]);
writeGeoPackageLayer(cities, {
  table: "regions",
  geometryType: "Polygon",
  spatialIndex: false,
  fields: [{ name: "label", type: "String" }],
}, [
  {
    attributes: { label: "donut" },
    geometry: {
      type: "Polygon",
      rings: [
        [[0, 0], [0, 10], [10, 10], [10, 0], [0, 0]],
        [[2, 2], [8, 2], [8, 8], [2, 8], [2, 2]],
      ],
    },
  },
  {
    attributes: { label: "far" },
    geometry: { type: "Polygon", rings: [[[50, 50], [50, 51], [51, 51], [51, 50], [50, 50]]] },
  },
]);

Deno.test("layers are listed from gpkg_contents with their spatial references", () => {
  const layers = listGeoPackageLayers(cities);
  assert.deepEqual(layers.map((l) => [l.table, l.geometryTypeName, l.wkid, l.hasSpatialIndex]), [
    ["cities", "POINT", 4326, true],
    ["regions", "MULTIPOLYGON", 4326, false],
  ]);
  assert.deepEqual(layers[1].extent, { xmin: 0, ymin: 0, xmax: 51, ymax: 51 });
});

Deno.test("a point layer answers fields, queries, counts and ids", () => {
  const src = openGeoPackage(cities);
  try {
    assert.equal(src.idField, "fid");
    assert.equal(src.geometryType, "Point");
    assert.equal(src.wkid, 4326);
    assert.deepEqual(src.fields().map((f) => [f.name, f.type]), [
      ["fid", "OID"],
      ["geom", "Geometry"],
      ["name", "String"],
      ["pop", "Integer"],
      ["founded", "Date"],
    ]);
    const all = src.query({});
    assert.deepEqual(all.map((f) => f.id), [1, 2, 3, 4]);
    assert.deepEqual(all[0].geometry, { type: "Point", x: 37.6173, y: 55.7558 });
    assert.equal(all[0].attributes.founded, Date.UTC(1147, 3, 4));
    assert.equal(all[3].geometry, null);
    const bbox = { xmin: 30, ymin: 55, xmax: 40, ymax: 60 };
    assert.deepEqual(src.query({ bbox }).map((f) => f.id), [1, 2]);
    assert.equal(src.count({ bbox }), 2);
    const fields = src.fields();
    const where = parseWhere("pop > 2000000 AND founded < date '1500-01-01'", fields);
    assert.deepEqual(src.query({ where }).map((f) => f.attributes.name), ["Москва"]);
    assert.equal(src.count({ where: parseWhere("UPPER(name) LIKE '%ПЕТЕР%'", fields) }), 1);
    assert.deepEqual(src.query({ objectIds: [3, 1, 99] }).map((f) => f.id), [1, 3]);
    const slim = src.query({ fields: ["name"], returnGeometry: false, limit: 2, offset: 1 });
    assert.deepEqual(slim, [
      { id: 2, attributes: { name: "Санкт-Петербург" }, geometry: null },
      { id: 3, attributes: { name: "Kazan" }, geometry: null },
    ]);
    assert.deepEqual(src.query({ fields: [], returnGeometry: false }).map((f) => f.attributes), [
      {},
      {},
      {},
      {},
    ]);
    assert.equal(src.get(2)?.attributes.pop, 5600000);
    assert.equal(src.get(42), null);
    assert.deepEqual(src.extent(), { xmin: 30.3351, ymin: 55.7558, xmax: 49.1221, ymax: 59.9343 });
    assert.match(src.revision(), /^\d+-\d+$/);
  } finally {
    src.close?.();
  }
});

Deno.test("a source keeps a bounded number of prepared statements, the recent ones", () => {
  const src = openGeoPackage(cities);
  try {
    assert.ok(src instanceof SqlFeatureSource);
    // Each IN list length is another statement; the values are bound parameters.
    for (let n = 1; n <= 2 * SOURCE_STATEMENTS_MAX; n++) {
      const list = Array.from({ length: n }, (_, i) => `'c${i}'`).join(", ");
      assert.equal(src.count({ where: parseWhere(`name IN (${list})`, src.fields()) }), 0);
      assert.equal(src.count({}), 4, "a query asked all along");
      assert.ok(src.statementsKept <= SOURCE_STATEMENTS_MAX, `${src.statementsKept} kept`);
    }
    assert.equal(src.statementsKept, SOURCE_STATEMENTS_MAX, "full, not started over");
  } finally {
    src.close?.();
  }
});

Deno.test("polygons without an index filter by blob envelopes and keep ArcGIS ring order", () => {
  const src = openGeoPackage(cities, { table: "REGIONS" });
  try {
    assert.equal(src.geometryType, "Polygon");
    assert.deepEqual(
      src.query({ bbox: { xmin: 9, ymin: 9, xmax: 20, ymax: 20 } }).map((f) => f.id),
      [1],
    );
    assert.equal(src.count({ bbox: { xmin: 20, ymin: 20, xmax: 30, ymax: 30 } }), 0);
    const donut = src.get(1)!.geometry as Extract<Geometry, { type: "Polygon" }>;
    assert.equal(donut.rings.length, 2);
    assert.equal(isClockwise(donut.rings[0]), true);
    assert.equal(isClockwise(donut.rings[1]), false);
  } finally {
    src.close?.();
  }
});

Deno.test("the R*Tree drives the bbox filter", () => {
  const db = new DatabaseSync(cities, { readOnly: true });
  const plan = db.prepare(
    `EXPLAIN QUERY PLAN SELECT t.fid FROM cities AS t WHERE t.fid IN (SELECT id FROM "rtree_cities_geom" WHERE minx <= 1 AND maxx >= 0 AND miny <= 1 AND maxy >= 0) ORDER BY t.fid`,
  ).all().map((r) => String(r.detail)).join("\n");
  db.close();
  assert.match(plan, /rtree_cities_geom VIRTUAL TABLE INDEX/);
  assert.match(plan, /SEARCH t USING INTEGER PRIMARY KEY/);
});

Deno.test("opening errors name the file and the problem", () => {
  assert.throws(() => openGeoPackage(join(dir, "missing.gpkg")), /missing\.gpkg does not exist/);
  const plain = join(dir, "plain.sqlite");
  new DatabaseSync(plain).exec("CREATE TABLE x (a)");
  assert.throws(() => openGeoPackage(plain), /is not a GeoPackage/);
  assert.throws(
    () => openGeoPackage(cities, { table: "roads" }),
    /no feature table "roads"; tables: cities, regions/,
  );
});

Deno.test("WKB decodes both byte orders, Z/M variants and collections", () => {
  // Big-endian ISO POINT Z (1001).
  const be = new Uint8Array(1 + 4 + 24);
  const v = new DataView(be.buffer);
  v.setUint8(0, 0);
  v.setUint32(1, 1001, false);
  v.setFloat64(5, 1.5, false);
  v.setFloat64(13, -2.5, false);
  v.setFloat64(21, 99, false);
  assert.deepEqual(decodeWkb(be).points, [[1.5, -2.5]]);
  // Little-endian GEOMETRYCOLLECTION(POINT, LINESTRING) shaped into a polyline layer.
  const parts = [
    [1, 7, 0, 0, 0, 2, 0, 0, 0],
    [1, 1, 0, 0, 0, ...f64(3), ...f64(4)],
    [1, 2, 0, 0, 0, 2, 0, 0, 0, ...f64(0), ...f64(0), ...f64(1), ...f64(1)],
  ].flat();
  const decoded = decodeWkb(new Uint8Array(parts));
  assert.deepEqual(decoded.points, [[3, 4]]);
  assert.deepEqual(partsToGeometry(decoded, "Polyline"), {
    type: "Polyline",
    paths: [[[0, 0], [1, 1]]],
  });
  // Round trip through our own blob encoder, all geometry kinds.
  const shapes: Geometry[] = [
    { type: "Multipoint", points: [[1, 2], [3, 4]] },
    { type: "Polyline", paths: [[[0, 0], [1, 1]], [[2, 2], [3, 3]]] },
  ];
  for (const g of shapes) {
    const blob = decodeGpkgBlob(encodeGpkgBlob(g, 4326));
    assert.equal(blob.srsId, 4326);
    assert.deepEqual(partsToGeometry(blob.parts, g.type as "Multipoint" | "Polyline"), g);
  }
  assert.throws(() => decodeGpkgBlob(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8])), /GP magic/);
  assert.throws(
    () => decodeWkb(new Uint8Array([1, 2, 0, 0, 0, 255, 255, 255, 127])),
    /Corrupt point count|Truncated/,
  );
});

function f64(x: number): number[] {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setFloat64(0, x, true);
  return [...b];
}

Deno.test("INTEGER columns are typed so every stored value fits: Integer, SmallInteger or Double", () => {
  const path = join(dir, "wide.gpkg");
  writeGeoPackageLayer(path, {
    table: "counts",
    geometryType: "Point",
    fields: [
      { name: "small", type: "SmallInteger" },
      { name: "fits", type: "Integer" },
      { name: "big", type: "Integer" },
      { name: "negbig", type: "Integer" },
      { name: "wideshort", type: "SmallInteger" },
      { name: "fraction", type: "Integer" },
      { name: "empty", type: "Integer" },
    ],
  }, [
    {
      attributes: {
        small: 7,
        fits: 2147483647,
        big: 1,
        negbig: -5,
        wideshort: 40000,
        fraction: 1,
        empty: null,
      },
      geometry: { type: "Point", x: 0, y: 0 },
    },
    {
      attributes: {
        small: -32768,
        fits: -2147483648,
        big: 2 ** 31,
        negbig: -(2 ** 31) - 1,
        wideshort: 1,
        fraction: 2,
        empty: null,
      },
      geometry: { type: "Point", x: 1, y: 1 },
    },
  ]);
  // SQLite keeps what it is given: an INTEGER column may hold a REAL.
  const db = new DatabaseSync(path);
  db.exec(`UPDATE counts SET fraction = 2.5 WHERE fraction = 2`);
  db.close();
  const src = openGeoPackage(path);
  const types = Object.fromEntries(src.fields().map((f) => [f.name, f.type]));
  assert.deepEqual(types, {
    fid: "OID",
    geom: "Geometry",
    small: "SmallInteger",
    fits: "Integer",
    big: "Double",
    negbig: "Double",
    wideshort: "Integer",
    fraction: "Double",
    empty: "Integer",
  });
  const values = src.query({ fields: ["big", "fraction"] }).map((f) => f.attributes);
  assert.deepEqual(values, [{ big: 1, fraction: 1 }, { big: 2 ** 31, fraction: 2.5 }]);
});
