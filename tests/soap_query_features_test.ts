/**
 * QueryFeatureCount and QueryFeatureIDs (where clauses, FIDSet, spatial
 * filters with every relation and geometry type) through a real node-soap
 * client built from our WSDL, against a GeoPackage fixture built in a temp
 * dir; every response validated against our WSDL's schema.
 */
import assert from "node:assert/strict";
import {
  call,
  CITIES,
  envelopeArg,
  items,
  pointArg,
  type QueryServer,
  typed,
  withFixture,
} from "./_soap_query_fixtures.ts";

function where(clause: string): Record<string, unknown> {
  return { WhereClause: clause };
}

function spatial(geometry: Record<string, unknown>, rel = "esriSpatialRelIntersects", extra = {}) {
  return typed("SpatialFilter", {
    WhereClause: "",
    SearchOrder: "esriSearchOrderSpatial",
    SpatialRel: rel,
    FilterGeometry: geometry,
    ...extra,
  });
}

function polygonArg(rings: [number, number][][]): Record<string, unknown> {
  return typed("PolygonN", {
    HasID: false,
    HasZ: false,
    HasM: false,
    RingArray: {
      Ring: rings.map((r) => ({ PointArray: { Point: r.map(([x, y]) => pointArg(x, y)) } })),
    },
  });
}

function polylineArg(paths: [number, number][][]): Record<string, unknown> {
  return typed("PolylineN", {
    HasID: false,
    HasZ: false,
    HasM: false,
    PathArray: {
      Path: paths.map((p) => ({ PointArray: { Point: p.map(([x, y]) => pointArg(x, y)) } })),
    },
  });
}

function multipointArg(points: [number, number][]): Record<string, unknown> {
  return typed("MultipointN", {
    HasID: false,
    HasZ: false,
    HasM: false,
    PointArray: { Point: points.map(([x, y]) => pointArg(x, y)) },
  });
}

async function count(
  s: QueryServer,
  layer: number,
  filter?: Record<string, unknown>,
  map = "Layers",
) {
  const c = await s.client("Fixture");
  const r = await call(c, "QueryFeatureCount", {
    MapName: map,
    LayerID: layer,
    ...(filter ? { QueryFilter: filter } : {}),
  });
  return Number(r.Result);
}

async function ids(
  s: QueryServer,
  layer: number,
  filter?: Record<string, unknown>,
  map = "Layers",
) {
  const c = await s.client("Fixture");
  const r = await call(c, "QueryFeatureIDs", {
    MapName: map,
    LayerID: layer,
    ...(filter ? { QueryFilter: filter } : {}),
  });
  assert.equal(r.Result.attributes["xsi:type"], "tns:FIDSet");
  return items(r.Result.FIDArray?.Int).map(Number);
}

const cityIds = (pred: (row: typeof CITIES[number]) => boolean) =>
  CITIES.filter(pred).map((r) => r[0]);

Deno.test("QueryFeatureCount / QueryFeatureIDs with where clauses", async () => {
  await withFixture(async (s) => {
    assert.equal(await count(s, 0), CITIES.length);
    assert.equal(await count(s, 0, where("")), CITIES.length);
    assert.deepEqual(await ids(s, 0), CITIES.map((r) => r[0]));
    const big = cityIds((r) => (r[4] ?? 0) > 1500000);
    assert.deepEqual(big, [1, 3, 4, 5]);
    assert.equal(await count(s, 0, where("POP > 1500000")), 4);
    assert.deepEqual(await ids(s, 0, where("POP > 1500000")), big);
    assert.deepEqual(await ids(s, 0, where("UPPER(NAME) LIKE '%SK%'")), [4, 8]);
    // Unicode case mapping, Cyrillic data.
    assert.deepEqual(await ids(s, 0, where("UPPER(NAME) = 'ТВЕРЬ'")), [11]);
    assert.deepEqual(await ids(s, 0, where("POP IS NULL")), [10]);
    assert.deepEqual(await ids(s, 0, where("FOUNDED < date '1500-01-01'")), [1, 2, 6, 11]);
    assert.deepEqual(await ids(s, 0, where("AREA BETWEEN 400 AND 500")), [2, 5, 6]);
    assert.deepEqual(await ids(s, 0, where("objectid IN (1, 2, 99)")), [1, 2]);
    assert.deepEqual(await ids(s, 0, where("NOT (POP >= 1200000) AND name <> 'Omsk'")), [7, 9, 11]);
    // A quote inside a literal is data, not SQL.
    assert.equal(await count(s, 0, where("NAME = 'x'' OR ''1''=''1'")), 0);
    // FIDSet restricts (AND) the result.
    assert.deepEqual(
      await ids(s, 0, { WhereClause: "POP > 1500000", FIDSet: { FIDArray: { Int: [1, 2, 3] } } }),
      [1, 3],
    );
    assert.equal(
      await count(s, 0, { WhereClause: "", FIDSet: { FIDArray: { Int: [2, 7, 400] } } }),
      2,
    );
  });
});

Deno.test("spatial filters: every relation and geometry type, with the R*Tree prefilter", async () => {
  await withFixture(async (s) => {
    // Envelope around Moscow, Saint Petersburg and Tver.
    assert.deepEqual(await ids(s, 0, spatial(envelopeArg(29, 54, 41, 61))), [1, 3, 11]);
    // ... combined with a where clause.
    assert.deepEqual(
      await ids(
        s,
        0,
        spatial(envelopeArg(29, 54, 41, 61), "esriSpatialRelIntersects", {
          WhereClause: "POP > 1000000",
        }),
      ),
      [1, 3],
    );
    // The same envelope given in Web Mercator.
    const m = (lon: number, lat: number) => [
      6378137 * lon * Math.PI / 180,
      6378137 * Math.log(Math.tan(Math.PI / 4 + lat * Math.PI / 360)),
    ];
    const [x0, y0] = m(29, 54), [x1, y1] = m(41, 61);
    assert.deepEqual(await ids(s, 0, spatial(envelopeArg(x0, y0, x1, y1, 102100))), [1, 3, 11]);

    // Exact at the edges although the R*Tree stores 32-bit float boxes (ulp ≈ 4e-6 here).
    assert.deepEqual(await ids(s, 0, spatial(envelopeArg(37, 55, 37.6173, 56))), [1]);
    assert.deepEqual(await ids(s, 0, spatial(envelopeArg(37, 55, 37.6172999, 56))), []);
    assert.equal(await count(s, 0, spatial(envelopeArg(37, 55, 37.6172999, 56))), 0);
    assert.equal(await count(s, 0, spatial(envelopeArg(37.6173001, 55, 38, 56))), 0);
    assert.equal(await count(s, 0, spatial(envelopeArg(37.6173, 55.7558, 38, 56))), 1);
    assert.equal(
      await count(
        s,
        1,
        spatial(envelopeArg(20, 55, 29.9999999, 56), "esriSpatialRelEnvelopeIntersects"),
      ),
      0,
    );
    assert.equal(
      await count(s, 1, spatial(envelopeArg(20, 55, 30, 56), "esriSpatialRelEnvelopeIntersects")),
      1,
    );
    // Regions: point in A's hole hits nothing; on the shared edge hits A and B.
    assert.deepEqual(await ids(s, 1, spatial(pointArg(35, 55))), []);
    assert.deepEqual(await ids(s, 1, spatial(pointArg(32, 52))), [1]);
    assert.deepEqual(await ids(s, 1, spatial(pointArg(40, 55))), [1, 2]);
    assert.deepEqual(await ids(s, 1, spatial(pointArg(40, 55), "esriSpatialRelTouches")), [1, 2]);
    assert.deepEqual(await ids(s, 1, spatial(pointArg(32, 52), "esriSpatialRelTouches")), []);
    // Within: the query point lies within the feature.
    assert.deepEqual(await ids(s, 1, spatial(pointArg(47, 51), "esriSpatialRelWithin")), [2, 3]);
    // Contains: the query envelope contains A and B, not C.
    assert.deepEqual(
      await ids(s, 1, spatial(envelopeArg(29, 49, 51, 61), "esriSpatialRelContains")),
      [1, 2],
    );
    // Overlaps: a polygon straddling B and C.
    assert.deepEqual(
      await ids(
        s,
        1,
        spatial(
          polygonArg([[[48, 48], [48, 58], [52, 58], [52, 48], [48, 48]]]),
          "esriSpatialRelOverlaps",
        ),
      ),
      [2, 3],
    );
    // Crosses: a line through A and B.
    assert.deepEqual(
      await ids(s, 1, spatial(polylineArg([[[25, 55], [60, 55]]]), "esriSpatialRelCrosses")),
      [1, 2],
    );
    // Multipoint.
    assert.deepEqual(await ids(s, 1, spatial(multipointArg([[32, 52], [47, 47]]))), [1, 3]);
    // EnvelopeIntersects compares bounding boxes: the hole point is inside A's envelope.
    assert.deepEqual(
      await ids(s, 1, spatial(pointArg(35, 55), "esriSpatialRelEnvelopeIntersects")),
      [1],
    );
    assert.deepEqual(await ids(s, 1, spatial(pointArg(35, 55), "esriSpatialRelIndexIntersects")), [
      1,
    ]);
    // Relation with a DE-9IM pattern: interiors meet.
    assert.deepEqual(
      await ids(
        s,
        1,
        spatial(envelopeArg(39, 55, 41, 56), "esriSpatialRelRelation", {
          SpatialRelDescription: "T********",
        }),
      ),
      [1, 2],
    );
    // Roads are stored in Web Mercator; the filter line is in the map's WGS 84.
    assert.deepEqual(
      await ids(s, 2, spatial(polylineArg([[[55, 50], [65, 50]]]), "esriSpatialRelCrosses")),
      [2],
    );
    assert.equal(await count(s, 2, spatial(envelopeArg(29, 54, 31, 56))), 1);
    // On the Web Mercator map, the default filter SR is the map's.
    const [mx, my] = m(37.6173, 55.7558);
    assert.deepEqual(
      await ids(s, 0, spatial(envelopeArg(mx - 1000, my - 1000, mx + 1000, my + 1000)), "Mercator"),
      [1],
    );
  });
});
