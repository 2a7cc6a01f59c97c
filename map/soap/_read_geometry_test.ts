import assert from "node:assert/strict";
import { InvalidRequestError } from "../errors.ts";
import {
  envelopeFromSoap,
  geometryFromSoap,
  pointFromSoap,
  wkidOfSpatialReference,
} from "./_read_geometry.ts";
import { spatialReferenceWkt } from "../geo/projection.ts";

function pt(X: number, Y: number) {
  return { $type: "PointN", X, Y };
}

function assertClientFault(fn: () => unknown, pattern: RegExp): void {
  assert.throws(fn, (e) => e instanceof InvalidRequestError && pattern.test(e.message));
}

Deno.test("geometryFromSoap reads PointN with its spatial reference", () => {
  const d = geometryFromSoap({
    $type: "PointN",
    X: 37.6,
    Y: 55.7,
    SpatialReference: { $type: "GeographicCoordinateSystem", WKID: 4326 },
  });
  assert.deepEqual(d, { geometry: { type: "Point", x: 37.6, y: 55.7 }, wkid: 4326 });
});

Deno.test("geometryFromSoap reads MultipointN, PolylineN, PolygonN (closing rings), EnvelopeN", () => {
  assert.deepEqual(
    geometryFromSoap({ $type: "MultipointN", PointArray: [pt(1, 2), pt(3, 4)] }).geometry,
    { type: "Multipoint", points: [[1, 2], [3, 4]] },
  );
  assert.deepEqual(
    geometryFromSoap({
      $type: "PolylineN",
      PathArray: [{ $type: "Path", PointArray: [pt(0, 0), pt(1, 1)] }],
    }).geometry,
    { type: "Polyline", paths: [[[0, 0], [1, 1]]] },
  );
  assert.deepEqual(
    geometryFromSoap({
      $type: "PolygonN",
      RingArray: [{ $type: "Ring", PointArray: [pt(0, 0), pt(0, 1), pt(1, 1), pt(1, 0)] }],
    }).geometry,
    { type: "Polygon", rings: [[[0, 0], [0, 1], [1, 1], [1, 0], [0, 0]]] },
  );
  assert.deepEqual(
    geometryFromSoap({ $type: "EnvelopeN", XMin: -1, YMin: -2, XMax: 3, YMax: 4 }).geometry,
    { type: "Envelope", xmin: -1, ymin: -2, xmax: 3, ymax: 4 },
  );
});

Deno.test("geometryFromSoap densifies a half-circle CircularArc onto the circle", () => {
  const g = geometryFromSoap({
    $type: "PolylineN",
    PathArray: [{
      $type: "Path",
      SegmentArray: [{
        $type: "CircularArc",
        FromPoint: pt(1, 0),
        ToPoint: pt(-1, 0),
        CenterPoint: pt(0, 0),
        IsCounterClockwise: true,
        IsMinor: false,
        IsLine: false,
      }],
    }],
  }).geometry;
  assert.equal(g.type, "Polyline");
  if (g.type !== "Polyline") return;
  const path = g.paths[0];
  assert.deepEqual(path[0], [1, 0]);
  assert.deepEqual(path[path.length - 1], [-1, 0]);
  for (const [x, y] of path) {
    assert.ok(Math.abs(Math.hypot(x, y) - 1) < 1e-12);
    assert.ok(y >= -1e-12, "counter-clockwise from (1,0) to (-1,0) passes through the upper half");
  }
});

Deno.test("geometryFromSoap faults on binary forms, missing type and bad numbers", () => {
  assertClientFault(
    () => geometryFromSoap({ $type: "PointB", Bytes: new Uint8Array(4) }),
    /PointB/,
  );
  assertClientFault(() => geometryFromSoap({ $type: "Geometry" }, "SearchShape"), /SearchShape/);
  assertClientFault(
    () => geometryFromSoap(undefined, "FilterGeometry"),
    /FilterGeometry is required/,
  );
  assertClientFault(
    () => geometryFromSoap({ $type: "PointN", X: "abc", Y: 1 }),
    /X must be a finite/,
  );
});

Deno.test("geometryFromSoap swaps the corners of an inverted envelope, as ArcGIS's PutCoords does", () => {
  assert.deepEqual(
    geometryFromSoap({ $type: "EnvelopeN", XMin: 5, YMin: 1, XMax: 1, YMax: 0 }).geometry,
    { type: "Envelope", xmin: 1, ymin: 0, xmax: 5, ymax: 1 },
  );
});

Deno.test("geometryFromSoap reads cubic Bézier segments and refuses absurd degrees", () => {
  const bezier = (n: number) => ({
    $type: "PolylineN",
    PathArray: [{
      $type: "Path",
      SegmentArray: [{
        $type: "BezierCurve",
        FromPoint: pt(0, 0),
        ToPoint: pt(3, 0),
        Degree: n - 1,
        ControlPointArray: Array.from(
          { length: n },
          (_, i) => pt(i, i === 0 || i === n - 1 ? 0 : 3),
        ),
      }],
    }],
  });
  const g = geometryFromSoap(bezier(4)).geometry;
  assert.equal(g.type, "Polyline");
  if (g.type !== "Polyline") return;
  const mid = g.paths[0][16];
  // Cubic (0,0),(1,3),(2,3),(3,0) at t = 1/2: (1.5, 2.25).
  assert.ok(Math.abs(mid[0] - 1.5) < 1e-12 && Math.abs(mid[1] - 2.25) < 1e-12, String(mid));
  assertClientFault(() => geometryFromSoap(bezier(5000)), /at most 16 control points/);
});

Deno.test("wkidOfSpatialReference prefers WKID, then LatestWKID, then WKT it can resolve", () => {
  assert.equal(wkidOfSpatialReference({ WKID: 102100, LatestWKID: 3857 }), 102100);
  assert.equal(wkidOfSpatialReference({ LatestWKID: 3857 }), 3857);
  assert.equal(wkidOfSpatialReference({ WKT: spatialReferenceWkt(4326) }), 4326);
  const mercator = spatialReferenceWkt(3857)!;
  assert.equal(wkidOfSpatialReference({ WKT: mercator }), 3857);
  assert.equal(wkidOfSpatialReference(undefined), null);
  // A moved central meridian is not plain Web Mercator (the name alone used to pass it as 3857).
  assertClientFault(
    () =>
      wkidOfSpatialReference({
        WKT: mercator.replace('"Central_Meridian",0.0', '"Central_Meridian",100.0'),
      }),
    /central meridian is moved/,
  );
  assertClientFault(() => wkidOfSpatialReference({ WKT: 'PROJCS["Lambert"]' }), /WKT/);
});

Deno.test("pointFromSoap and envelopeFromSoap read their one kind, with the spatial reference", () => {
  assert.deepEqual(pointFromSoap(pt(3, 4), "FromPoint"), {
    geometry: { type: "Point", x: 3, y: 4 },
    wkid: null,
  });
  assertClientFault(() => pointFromSoap(null, "ToPoint"), /ToPoint is required/);
  assert.deepEqual(
    envelopeFromSoap({
      $type: "EnvelopeN",
      XMin: 1,
      YMin: 2,
      XMax: 3,
      YMax: 4,
      SpatialReference: { $type: "ProjectedCoordinateSystem", WKID: 102100 },
    }, "MapArea/Extent"),
    { geometry: { type: "Envelope", xmin: 1, ymin: 2, xmax: 3, ymax: 4 }, wkid: 102100 },
  );
  assertClientFault(
    () => envelopeFromSoap(pt(1, 2), "MapArea/Extent"),
    /MapArea\/Extent must be an EnvelopeN/,
  );
});

Deno.test("a polygon ring with a non-number coordinate is a client error naming the point", () => {
  assertClientFault(
    () =>
      geometryFromSoap({
        $type: "PolygonN",
        RingArray: [{
          $type: "Ring",
          PointArray: [pt(0, 0), { $type: "PointN", X: "east", Y: 1 }],
        }],
      }, "SearchShape"),
    /SearchShape\/RingArray\[0\]\/PointArray\[1\]\/X must be a finite number/,
  );
});
