import assert from "node:assert/strict";
import { InvalidRequestError } from "../errors.ts";
import { esriGeometryJson, esriSpatialReference } from "../ops/mod.ts";
import {
  frameSpatialReference,
  fromFrame,
  parseGeometry,
  parseGeometryType,
  parseSpatialReferenceValue,
  toFrame,
} from "./_geometry_json.ts";
import { spatialReferenceWkt } from "../geo/projection.ts";

Deno.test("spatial references: a WKID as text or JSON, or WKT; nonsense is refused", () => {
  const wkid = (v: unknown) => parseSpatialReferenceValue("sr", v).wkid;
  assert.equal(wkid("4326"), 4326);
  assert.equal(wkid(" 102100 "), 102100);
  assert.equal(wkid('{"wkid":102100,"latestWkid":3857}'), 3857);
  assert.equal(wkid({ wkid: 4326 }), 4326);
  assert.deepEqual(parseSpatialReferenceValue("sr", { wkt: spatialReferenceWkt(4326) }), {
    wkid: 4326,
    xShift: 0,
    wkt: spatialReferenceWkt(4326),
  });
  assert.equal(wkid(spatialReferenceWkt(3857)), 3857, "bare WKT text");
  for (const bad of ["abc", "{", '{"wkid":-1}', "0", "1.5", '{"wkt":"GEOGCS[...]"}']) {
    assert.throws(() => parseSpatialReferenceValue("sr", bad), InvalidRequestError, bad);
  }
  assert.throws(() => parseSpatialReferenceValue("sr", '{"wkt":"x"}'), /'sr'.*WKT/);
});

Deno.test("frames with a moved central meridian: geometries in and out", () => {
  const frame = { wkid: 4326, xShift: 100 };
  assert.deepEqual(fromFrame({ type: "Point", x: 80, y: 1 }, frame), {
    type: "Point",
    x: 180,
    y: 1,
  });
  assert.deepEqual(toFrame({ type: "Point", x: -170, y: 1 }, frame), {
    type: "Point",
    x: 90,
    y: 1,
  });
  assert.deepEqual(toFrame({ type: "Point", x: 5, y: 1 }, { wkid: 4326, xShift: 0 }), {
    type: "Point",
    x: 5,
    y: 1,
  });
  assert.deepEqual(frameSpatialReference({ wkid: 3857, xShift: 5, wkt: "PROJCS[...]" }), {
    wkt: "PROJCS[...]",
  });
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
