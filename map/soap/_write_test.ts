import assert from "node:assert/strict";
import { geometryExtent } from "../ops/mod.ts";
import { envelopeToSoap, geometryToSoap } from "./_write_geometry.ts";
import { valueToSoap } from "./_write_fields.ts";

Deno.test("geometryToSoap writes the *N forms with extents and spatial reference", () => {
  const polygon = {
    type: "Polygon" as const,
    rings: [[[0, 0], [0, 2], [3, 2], [3, 0], [0, 0]] as [number, number][]],
  };
  const soap = geometryToSoap(polygon, 4326);
  assert.equal(soap.$type, "PolygonN");
  assert.equal(soap.HasZ, false);
  assert.deepEqual(soap.Extent, { $type: "EnvelopeN", XMin: 0, YMin: 0, XMax: 3, YMax: 2 });
  assert.equal((soap.SpatialReference as { WKID: number }).WKID, 4326);
  assert.deepEqual((soap.RingArray as { PointArray: unknown[] }[])[0].PointArray[1], {
    $type: "PointN",
    X: 0,
    Y: 2,
  });
  assert.deepEqual(geometryToSoap({ type: "Point", x: 1, y: 2 }), { $type: "PointN", X: 1, Y: 2 });
  assert.deepEqual(envelopeToSoap({ xmin: 1, ymin: 2, xmax: 3, ymax: 4 }).XMax, 3);
});

Deno.test("geometryExtent", () => {
  assert.deepEqual(
    geometryExtent({ type: "Polyline", paths: [[[1, 5], [-2, 3]], [[4, 0]]] }),
    { xmin: -2, ymin: 0, xmax: 4, ymax: 5 },
  );
  assert.equal(geometryExtent({ type: "Multipoint", points: [] }), null);
});

Deno.test("valueToSoap types values by field as ArcGIS writes them", () => {
  assert.deepEqual(valueToSoap(5, "Double"), { $xsd: "double", value: 5 });
  assert.deepEqual(valueToSoap("12", "Integer"), { $xsd: "int", value: 12 });
  assert.deepEqual(valueToSoap(2 ** 40, "Integer"), { $xsd: "long", value: 2 ** 40 });
  assert.deepEqual(valueToSoap(3.9, "SmallInteger"), { $xsd: "short", value: 3 });
  assert.deepEqual(valueToSoap(40000, "SmallInteger"), { $xsd: "int", value: 40000 });
  assert.deepEqual(valueToSoap(1.5, "Single"), { $xsd: "float", value: 1.5 });
  assert.deepEqual(valueToSoap("2024-02-29", "Date"), new Date(Date.UTC(2024, 1, 29)));
  assert.equal(valueToSoap(12, "String"), "12");
  assert.equal(valueToSoap(null, "Integer"), null);
  assert.equal(valueToSoap("abc", "Double"), null);
});
