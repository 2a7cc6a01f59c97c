import assert from "node:assert/strict";
import { envelopeToSoap, geometryExtent, geometryToSoap } from "./_geometry_xml.ts";

Deno.test("geometryToSoap writes the *N forms with extents and spatial reference", () => {
  const polygon = {
    type: "Polygon" as const,
    rings: [[[0, 0], [0, 2], [3, 2], [3, 0], [0, 0]] as [number, number][]],
  };
  const soap = geometryToSoap(polygon, { $type: "GeographicCoordinateSystem", WKID: 4326 });
  assert.equal(soap.$type, "PolygonN");
  assert.equal(soap.HasZ, false);
  assert.deepEqual(soap.Extent, { $type: "EnvelopeN", XMin: 0, YMin: 0, XMax: 3, YMax: 2 });
  assert.deepEqual(soap.SpatialReference, { $type: "GeographicCoordinateSystem", WKID: 4326 });
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
