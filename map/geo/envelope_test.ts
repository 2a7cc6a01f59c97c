import assert from "node:assert/strict";
import { envelopeFromCorners } from "./envelope.ts";

Deno.test("envelopeFromCorners orders the corners as ArcGIS's PutCoords does", () => {
  const box = { type: "Envelope", xmin: 0, ymin: 10, xmax: 20, ymax: 30 };
  assert.deepEqual(envelopeFromCorners(0, 10, 20, 30), box);
  assert.deepEqual(envelopeFromCorners(0, 30, 20, 10), box, "y-down (esri-leaflet)");
  assert.deepEqual(envelopeFromCorners(20, 10, 0, 30), box, "x swapped");
  assert.deepEqual(envelopeFromCorners(20, 30, 0, 10), box, "both swapped");
  assert.deepEqual(envelopeFromCorners(5, 5, 5, 5), {
    type: "Envelope",
    xmin: 5,
    ymin: 5,
    xmax: 5,
    ymax: 5,
  });
});
