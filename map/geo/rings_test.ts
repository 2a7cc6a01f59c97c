import assert from "node:assert/strict";
import { isClockwise, ringSignedArea, toArcgisRings } from "./rings.ts";

Deno.test("signed area is positive counter-clockwise", () => {
  assert.equal(ringSignedArea([[0, 0], [1, 0], [1, 1], [0, 1]]), 1);
  assert.equal(ringSignedArea([[0, 0], [0, 1], [1, 1], [1, 0], [0, 0]]), -1);
  assert.equal(isClockwise([[0, 0], [0, 1], [1, 1], [1, 0], [0, 0]]), true);
});

Deno.test("GeoJSON-style polygons become clockwise outers and counter-clockwise holes", () => {
  const outerCcw = [[0, 0], [10, 0], [10, 10], [0, 10], [0, 0]] as [number, number][];
  const holeCw = [[2, 2], [2, 8], [8, 8], [8, 2], [2, 2]] as [number, number][];
  const rings = toArcgisRings([[outerCcw, holeCw], [[[20, 20], [21, 20], [21, 21]]]]);
  assert.equal(rings.length, 3);
  assert.equal(isClockwise(rings[0]), true);
  assert.equal(isClockwise(rings[1]), false);
  assert.equal(isClockwise(rings[2]), true);
  // The open triangle was closed.
  assert.deepEqual(rings[2][0], rings[2][rings[2].length - 1]);
  assert.equal(rings[2].length, 4);
  // Degenerate rings are dropped.
  assert.deepEqual(toArcgisRings([[[[0, 0], [1, 1]]]]), []);
});
