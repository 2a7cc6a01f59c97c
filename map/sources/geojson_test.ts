import assert from "node:assert/strict";
import { join } from "node:path";
import { geoJsonSource, openGeoJsonFile } from "./geojson.ts";
import { openWorldAtlas } from "./world_atlas.ts";
import { parseWhere } from "../query/mod.ts";
import { isClockwise } from "../geo/rings.ts";
import { intersects } from "../geo/relate.ts";
import type { Geometry } from "../types.ts";

const COLLECTION = {
  type: "FeatureCollection",
  features: [
    {
      type: "Feature",
      id: 10,
      properties: { name: "square", rank: 1, score: 0.5, open: true, tags: ["a"] },
      // RFC 7946 order: outer counter-clockwise, hole clockwise.
      geometry: {
        type: "Polygon",
        coordinates: [
          [[0, 0], [10, 0], [10, 10], [0, 10], [0, 0]],
          [[2, 2], [2, 8], [8, 8], [8, 2], [2, 2]],
        ],
      },
    },
    {
      type: "Feature",
      id: 20,
      properties: { name: "two squares", rank: 2, score: 1, open: false },
      geometry: {
        type: "MultiPolygon",
        coordinates: [
          [[[20, 20], [21, 20], [21, 21], [20, 21], [20, 20]]],
          [[[30, 30], [31, 30], [31, 31], [30, 31], [30, 30]]],
        ],
      },
    },
    { type: "Feature", id: 30, properties: { name: null, rank: 3 }, geometry: null },
  ],
};

Deno.test("GeoJSON polygons become ArcGIS polygons with inferred fields", () => {
  const src = geoJsonSource(COLLECTION);
  assert.equal(src.geometryType, "Polygon");
  assert.equal(src.idField, "OBJECTID");
  assert.deepEqual(src.fields().map((f) => [f.name, f.type]), [
    ["OBJECTID", "OID"],
    ["Shape", "Geometry"],
    ["name", "String"],
    ["rank", "Integer"],
    ["score", "Double"],
    ["open", "SmallInteger"],
    ["tags", "String"],
  ]);
  const square = src.get(10)!;
  const rings = (square.geometry as Extract<Geometry, { type: "Polygon" }>).rings;
  assert.equal(isClockwise(rings[0]), true);
  assert.equal(isClockwise(rings[1]), false);
  assert.deepEqual(square.attributes, {
    name: "square",
    rank: 1,
    score: 0.5,
    open: 1,
    tags: '["a"]',
  });
  assert.equal((src.get(20)!.geometry as { rings: unknown[] }).rings.length, 2);
  assert.equal(src.get(30)!.geometry, null);
  assert.deepEqual(src.extent(), { xmin: 0, ymin: 0, xmax: 31, ymax: 31 });
});

Deno.test("GeoJSON queries: bbox from the grid, where, ids, paging", () => {
  const src = geoJsonSource(COLLECTION);
  const fields = src.fields();
  assert.deepEqual(
    src.query({ bbox: { xmin: 29, ymin: 29, xmax: 40, ymax: 40 } }).map((f) => f.id),
    [20],
  );
  assert.deepEqual(src.query({ bbox: { xmin: 11, ymin: 11, xmax: 19, ymax: 19 } }), []);
  assert.deepEqual(src.query({ where: parseWhere("rank >= 2", fields) }).map((f) => f.id), [
    20,
    30,
  ]);
  assert.equal(src.count({ where: parseWhere("name IS NULL", fields) }), 1);
  assert.deepEqual(src.query({ where: parseWhere("OBJECTID >= 20", fields) }).map((f) => f.id), [
    20,
    30,
  ]);
  assert.deepEqual(src.query({ objectIds: [30, 10, 5] }).map((f) => f.id), [10, 30]);
  assert.deepEqual(
    src.query({ fields: ["rank"], returnGeometry: false, offset: 1, limit: 1 }),
    [{ id: 20, attributes: { rank: 2 }, geometry: null }],
  );
});

Deno.test("ids come from feature.id, a property, or the position", () => {
  const noIds = {
    type: "FeatureCollection",
    features: [
      {
        type: "Feature",
        id: "a",
        properties: { code: 7 },
        geometry: { type: "Point", coordinates: [1, 2] },
      },
      {
        type: "Feature",
        properties: { code: 9 },
        geometry: { type: "Point", coordinates: [3, 4] },
      },
    ],
  };
  assert.deepEqual(geoJsonSource(noIds).query({}).map((f) => f.id), [1, 2]);
  const byCode = geoJsonSource(noIds, { idProperty: "code" });
  assert.deepEqual(byCode.query({}).map((f) => f.id), [7, 9]);
  assert.deepEqual(byCode.fields().map((f) => f.name), ["OBJECTID", "Shape"]);
  assert.deepEqual(byCode.get(9)!.geometry, { type: "Point", x: 3, y: 4 });
});

Deno.test("bad GeoJSON is refused with the place of the problem", async () => {
  assert.throws(
    () => geoJsonSource({ type: "Feature" }),
    /not a GeoJSON FeatureCollection: at type/,
  );
  assert.throws(
    () =>
      geoJsonSource({
        type: "FeatureCollection",
        features: [{
          type: "Feature",
          properties: {},
          geometry: { type: "Point", coordinates: ["x", 1] },
        }],
      }),
    /features\[0\]\.geometry\.coordinates: a position must be/,
  );
  const dir = await Deno.makeTempDir();
  try {
    const bad = join(dir, "bad.geojson");
    await Deno.writeTextFile(bad, "{ nope");
    assert.throws(() => openGeoJsonFile(bad), /bad\.geojson is not valid JSON/);
    assert.throws(() => openGeoJsonFile(join(dir, "none.geojson")), /does not exist/);
    const good = join(dir, "good.geojson");
    await Deno.writeTextFile(good, JSON.stringify(COLLECTION));
    const src = openGeoJsonFile(good);
    assert.equal(src.count({}), 3);
    assert.match(src.revision(), /^\d+$/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("world-atlas countries: 241 at 50m, Moscow lies in Russia", async () => {
  const countries = await openWorldAtlas({ scale: "50m" });
  assert.equal(countries.count({}), 241);
  assert.equal(countries.idField, "id");
  assert.deepEqual(countries.fields().map((f) => f.name), ["id", "Shape", "name", "iso_n3"]);
  const moscow: Geometry = { type: "Point", x: 37.6173, y: 55.7558 };
  const near = countries.query({ bbox: { xmin: 37.6, ymin: 55.7, xmax: 37.7, ymax: 55.8 } });
  const hits = near.filter((f) => f.geometry && intersects(moscow, f.geometry));
  assert.deepEqual(hits.map((f) => [f.attributes.name, f.attributes.iso_n3]), [["Russia", "643"]]);
  const e = countries.extent()!;
  assert.ok(e.xmin >= -180 && e.xmax <= 180 && e.ymin >= -90 && e.ymax <= 90);
  assert.ok(e.xmax - e.xmin > 359);
  const russia = countries.query({ where: parseWhere("name = 'Russia'", countries.fields()) })[0];
  assert.equal(russia.geometry?.type, "Polygon");
  const small = await openWorldAtlas({ scale: "110m" });
  assert.equal(small.count({}), 177);
});

Deno.test("world-atlas rings are cut at the antimeridian: no country swallows a band", async () => {
  for (const scale of ["110m", "50m"] as const) {
    const countries = await openWorldAtlas({ scale });
    const all = countries.query({});
    const at = (x: number, y: number) =>
      all.filter((f) => f.geometry && intersects({ type: "Point", x, y }, f.geometry))
        .map((f) => f.attributes.name);
    assert.deepEqual(at(25.7, 66.5), ["Finland"], `Rovaniemi at ${scale}`);
    assert.deepEqual(at(-150, 66.5), ["United States of America"], `Alaska at ${scale}`);
    assert.deepEqual(at(-175, 66), ["Russia"], `Chukotka west of 180° at ${scale}`);
    assert.deepEqual(at(179, 67), ["Russia"], `Chukotka east of 180° at ${scale}`);
    assert.deepEqual(at(0, -85), ["Antarctica"], `the South Pole plateau at ${scale}`);
    for (const f of all) {
      for (const ring of (f.geometry as { rings: [number, number][][] }).rings) {
        for (let i = 1; i < ring.length; i++) {
          // An edge along a pole is the map's bottom (or top) border, not a jump.
          const alongPole = Math.abs(ring[i][1]) === 90 && ring[i][1] === ring[i - 1][1];
          assert.ok(
            alongPole || Math.abs(ring[i][0] - ring[i - 1][0]) <= 180,
            `${f.attributes.name} jumps`,
          );
        }
      }
    }
  }
});
