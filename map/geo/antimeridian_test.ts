import assert from "node:assert/strict";
import { cutPolygonAtAntimeridian } from "./antimeridian.ts";
import { intersects } from "./relate.ts";
import type { Geometry, Position } from "../types.ts";

const poly = (rings: Position[][]): Geometry => ({ type: "Polygon", rings });

Deno.test("a ring that jumps the antimeridian is cut into one piece per side", () => {
  const pieces = cutPolygonAtAntimeridian([
    [[170, 0], [-170, 0], [-170, 10], [170, 10], [170, 0]],
  ]);
  assert.equal(pieces.length, 2);
  const boxes = pieces.map(([ring]) => {
    const xs = ring.map((p) => p[0]);
    return [Math.min(...xs), Math.max(...xs)];
  }).sort((a, b) => a[0] - b[0]);
  assert.deepEqual(boxes, [[-180, -170], [170, 180]]);
  const all = pieces.flat();
  // The band between the pieces (lon 0) is no longer "inside".
  assert.equal(intersects({ type: "Point", x: 0, y: 5 }, poly(all)), false);
  assert.equal(intersects({ type: "Point", x: 175, y: 5 }, poly(all)), true);
  assert.equal(intersects({ type: "Point", x: -175, y: 5 }, poly(all)), true);
});

Deno.test("rings without jumps and their holes are left alone", () => {
  const donut: Position[][] = [
    [[0, 0], [0, 10], [10, 10], [10, 0], [0, 0]],
    [[2, 2], [8, 2], [8, 8], [2, 8], [2, 2]],
  ];
  assert.deepEqual(cutPolygonAtAntimeridian(donut), [donut]);
});

Deno.test("a ring around the south pole is closed along the pole", () => {
  // A coastline at -70° all the way round, as spherical data stores Antarctica.
  const coast: Position[] = [];
  for (let x = -180; x <= 180; x += 30) coast.push([x === 180 ? 179.9 : x, -70]);
  coast.push([-180, -70]);
  const pieces = cutPolygonAtAntimeridian([coast]);
  const all = poly(pieces.flat());
  assert.equal(intersects({ type: "Point", x: 0, y: -85 }, all), true);
  assert.equal(intersects({ type: "Point", x: 100, y: -89 }, all), true);
  assert.equal(intersects({ type: "Point", x: 0, y: -60 }, all), false);
});
