import assert from "node:assert/strict";
import { InvalidRequestError } from "../errors.ts";
import { esriGeometryJson, esriSpatialReference } from "../ops/mod.ts";
import { parseGeometry, parseGeometryType, parseSpatialReference } from "./_geometry_json.ts";

Deno.test("spatial references: a WKID as text or JSON; WKT and nonsense are refused", () => {
  assert.equal(parseSpatialReference("sr", "4326"), 4326);
  assert.equal(parseSpatialReference("sr", " 102100 "), 102100);
  assert.equal(parseSpatialReference("sr", '{"wkid":102100,"latestWkid":3857}'), 3857);
  assert.equal(parseSpatialReference("sr", { wkid: 4326 }), 4326);
  for (const bad of ["abc", "{", '{"wkid":-1}', "0", "1.5", '{"wkt":"GEOGCS[...]"}']) {
    assert.throws(() => parseSpatialReference("sr", bad), InvalidRequestError, bad);
  }
  assert.throws(() => parseSpatialReference("sr", '{"wkt":"x"}'), /WKID/);
});

Deno.test("geometries: Esri JSON of every type and the short x,y / xmin,ymin,xmax,ymax forms", () => {
  assert.deepEqual(parseGeometry("g", "37.5, 55.5"), {
    geometry: { type: "Point", x: 37.5, y: 55.5 },
    wkid: null,
  });
  assert.deepEqual(parseGeometry("g", "0,1,2,3").geometry, {
    type: "Envelope",
    xmin: 0,
    ymin: 1,
    xmax: 2,
    ymax: 3,
  });
  assert.deepEqual(parseGeometry("g", '{"x":1,"y":2,"spatialReference":{"wkid":3857}}'), {
    geometry: { type: "Point", x: 1, y: 2 },
    wkid: 3857,
  });
  // Rings are closed.
  assert.deepEqual(parseGeometry("g", '{"rings":[[[0,0],[0,1],[1,1]]]}').geometry, {
    type: "Polygon",
    rings: [[[0, 0], [0, 1], [1, 1], [0, 0]]],
  });
  assert.deepEqual(parseGeometry("g", '{"paths":[[[0,0],[1,1,5]]]}').geometry, {
    type: "Polyline",
    paths: [[[0, 0], [1, 1]]],
  });
  assert.deepEqual(parseGeometry("g", '{"points":[[3,4]]}').geometry, {
    type: "Multipoint",
    points: [[3, 4]],
  });
  // geometryType must agree with the geometry.
  assert.equal(parseGeometry("g", "1,2", "Point").geometry.type, "Point");
  assert.throws(() => parseGeometry("g", "1,2", "Polygon"), /esriGeometryPolygon/);
  for (
    const bad of [
      "1",
      "1,2,3",
      "a,b",
      "1,,2",
      "{",
      "[1,2]",
      '{"x":1}',
      '{"rings":[[[0,"a"]]]}',
      '{"paths":5}',
      '{"paths":[]}',
      '{"points":[]}',
      '{"rings":[[[0,0],[1,1]]]}',
      '{"xmin":0,"ymin":0,"xmax":1}',
      '{"x":1,"y":2,"spatialReference":{"wkid":"a"}}',
    ]
  ) assert.throws(() => parseGeometry("g", bad), InvalidRequestError, bad);
  // An envelope's corners may come in any order, as ArcGIS reads them.
  assert.deepEqual(parseGeometry("g", '{"xmin":2,"ymin":1,"xmax":1,"ymax":0}').geometry, {
    type: "Envelope",
    xmin: 1,
    ymin: 0,
    xmax: 2,
    ymax: 1,
  });
});

Deno.test("geometry types by their Esri names, any case", () => {
  assert.equal(parseGeometryType("t", "esriGeometryEnvelope"), "Envelope");
  assert.equal(parseGeometryType("t", "ESRIGEOMETRYPOLYLINE"), "Polyline");
  assert.throws(() => parseGeometryType("t", "circle"), /esriGeometryPoint/);
});

Deno.test("geometries written as Esri JSON, Web Mercator as 102100 / 3857", () => {
  assert.deepEqual(esriGeometryJson({ type: "Point", x: 1, y: 2 }), { x: 1, y: 2 });
  assert.deepEqual(esriSpatialReference(3857), { wkid: 102100, latestWkid: 3857 });
  assert.deepEqual(esriGeometryJson({ type: "Polygon", rings: [[[0, 0], [1, 0], [0, 0]]] }), {
    rings: [[[0, 0], [1, 0], [0, 0]]],
  });
});
