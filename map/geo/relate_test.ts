import assert from "node:assert/strict";
import type { Geometry, Position } from "../types.ts";
import {
  bboxOf,
  contains,
  crosses,
  distanceToGeometry,
  envelopeIntersects,
  geometryDistance,
  intersects,
  overlaps,
  pointInPolygon,
  relateMatrix,
  relatePattern,
  segmentIntersection,
  spatialRelation,
  touches,
  within,
  withinDistance,
} from "./relate.ts";
import { seededRandom } from "../../tests/_random.ts";

const env = (xmin: number, ymin: number, xmax: number, ymax: number): Geometry => ({
  type: "Envelope",
  xmin,
  ymin,
  xmax,
  ymax,
});
const pt = (x: number, y: number): Geometry => ({ type: "Point", x, y });
const line = (...pts: Position[]): Geometry => ({ type: "Polyline", paths: [pts] });
const square = env(0, 0, 2, 2);
/** A 10×10 square (clockwise) with a 2..8 hole (counter-clockwise). */
const donut: Geometry = {
  type: "Polygon",
  rings: [
    [[0, 0], [0, 10], [10, 10], [10, 0], [0, 0]],
    [[2, 2], [8, 2], [8, 8], [2, 8], [2, 2]],
  ],
};

Deno.test("segment intersection: crossing, touching, collinear, apart", () => {
  assert.deepEqual(segmentIntersection([0, 0], [2, 2], [0, 2], [2, 0]), [[1, 1]]);
  assert.deepEqual(segmentIntersection([0, 0], [1, 0], [1, 0], [1, 1]), [[1, 0]]);
  assert.deepEqual(segmentIntersection([0, 0], [4, 0], [2, 0], [6, 0]), [[2, 0], [4, 0]]);
  assert.deepEqual(segmentIntersection([0, 0], [1, 0], [2, 0], [3, 0]), []);
  assert.deepEqual(segmentIntersection([0, 0], [1, 1], [0, 1], [0.4, 0.6]), []);
  assert.deepEqual(segmentIntersection([0, 0], [0, 4], [0, 1], [0, 2]), [[0, 1], [0, 2]]);
});

Deno.test("point in polygon honours holes and boundaries", () => {
  const rings = (donut as { rings: Position[][] }).rings;
  assert.equal(pointInPolygon([1, 1], rings), "interior");
  assert.equal(pointInPolygon([5, 5], rings), "exterior");
  assert.equal(pointInPolygon([2, 5], rings), "boundary");
  assert.equal(pointInPolygon([10, 3], rings), "boundary");
  assert.equal(pointInPolygon([11, 3], rings), "exterior");
});

Deno.test("a point inside, on the edge and outside a square", () => {
  assert.equal(relateMatrix(pt(1, 1), square), "0FFFFF212");
  assert.ok(intersects(pt(1, 1), square) && within(pt(1, 1), square) && contains(square, pt(1, 1)));
  assert.ok(!touches(pt(1, 1), square));
  assert.ok(intersects(pt(2, 1), square) && touches(pt(2, 1), square) && !within(pt(2, 1), square));
  assert.ok(!intersects(pt(3, 1), square) && !touches(pt(3, 1), square));
  assert.ok(!intersects(pt(5, 5), donut) && intersects(pt(1, 5), donut));
});

Deno.test("squares that share an edge touch; shifted squares overlap", () => {
  const right = env(2, 0, 4, 2);
  assert.equal(relateMatrix(square, right), "FF2F11212");
  assert.ok(touches(square, right) && !overlaps(square, right) && intersects(square, right));
  const corner = env(2, 2, 3, 3);
  assert.equal(relateMatrix(square, corner), "FF2F01212");
  const shifted = env(1, 1, 3, 3);
  assert.equal(relateMatrix(square, shifted), "212101212");
  assert.ok(overlaps(square, shifted) && !touches(square, shifted) && !within(square, shifted));
});

Deno.test("containment of areas, identical areas and holes", () => {
  const inner = env(0.5, 0.5, 1.5, 1.5);
  assert.ok(within(inner, square) && contains(square, inner) && !overlaps(inner, square));
  assert.ok(!within(square, inner));
  assert.equal(relateMatrix(square, square), "2FFF1FFF2");
  assert.ok(within(square, square) && contains(square, square) && !touches(square, square));
  // A square inside the donut's hole is disjoint from it, one on the hole's edge touches it.
  assert.ok(!intersects(env(3, 3, 4, 4), donut));
  assert.ok(touches(env(2, 3, 4, 4), donut));
  // The donut is not within its own outline without the hole… but the other way round holds.
  const outline = env(0, 0, 10, 10);
  assert.ok(within(donut, outline) && !within(outline, donut) && contains(outline, donut));
  // A square spanning the hole's edge overlaps the donut.
  assert.ok(overlaps(env(1, 1, 3, 3), donut));
});

Deno.test("lines against areas: inside, crossing, along the boundary", () => {
  const inside = line([0.5, 0.5], [1.5, 1.5]);
  assert.ok(within(inside, square) && !crosses(inside, square));
  const through = line([-1, 1], [3, 1]);
  assert.ok(crosses(through, square) && crosses(square, through) && !within(through, square));
  const along = line([0, 0], [2, 0]);
  assert.ok(touches(along, square) && !crosses(along, square) && intersects(along, square));
  assert.equal(relateMatrix(along, square), "F1FF0F212");
  // A line through the donut's hole crosses it.
  assert.ok(crosses(line([1, 5], [9, 5]), donut));
  assert.ok(!intersects(line([3, 5], [7, 5]), donut));
});

Deno.test("lines against lines: crossing, overlapping, touching", () => {
  const a = line([0, 0], [2, 2]);
  const b = line([0, 2], [2, 0]);
  assert.equal(relateMatrix(a, b), "0F1FF0102");
  assert.ok(crosses(a, b) && !overlaps(a, b) && !touches(a, b));
  const c = line([1, 1], [3, 3]);
  assert.ok(overlaps(a, c) && !crosses(a, c));
  const d = line([2, 2], [3, 0]);
  assert.ok(touches(a, d) && !crosses(a, d));
  const e = line([0.5, 0.5], [1.5, 1.5]);
  assert.ok(within(e, a) && contains(a, e) && !overlaps(a, e));
  // A closed path has no boundary, so a point on it is in its interior.
  const loop: Geometry = { type: "Polyline", paths: [[[0, 0], [0, 1], [1, 1], [0, 0]]] };
  assert.equal(relateMatrix(pt(0, 0), loop)[0], "0");
  assert.equal(relateMatrix(pt(0, 0), a), "F0FFFF102");
});

Deno.test("multipoints: partly inside crosses, shared points overlap", () => {
  const mp: Geometry = { type: "Multipoint", points: [[1, 1], [5, 5]] };
  assert.ok(crosses(mp, square) && !within(mp, square) && intersects(mp, square));
  const mp2: Geometry = { type: "Multipoint", points: [[1, 1], [7, 7]] };
  assert.ok(overlaps(mp, mp2));
  assert.ok(within({ type: "Multipoint", points: [[1, 1]] }, mp));
  assert.ok(!touches(pt(1, 1), pt(1, 1)));
});

Deno.test("esriSpatialRel names map to the query-first predicates", () => {
  const p = pt(1, 1);
  assert.equal(spatialRelation("esriSpatialRelContains", square, p), true);
  assert.equal(spatialRelation("esriSpatialRelWithin", square, p), false);
  assert.equal(spatialRelation("esriSpatialRelWithin", p, square), true);
  assert.equal(spatialRelation("esriSpatialRelIntersects", square, p), true);
  assert.equal(spatialRelation("esriSpatialRelUndefined", square, pt(9, 9)), false);
  const diagonal = line([0, 0], [3, 3]);
  assert.equal(spatialRelation("esriSpatialRelEnvelopeIntersects", diagonal, pt(3, 0)), true);
  assert.equal(spatialRelation("esriSpatialRelIntersects", diagonal, pt(3, 0)), false);
  assert.equal(spatialRelation("esriSpatialRelRelation", p, square, "T*F**F***"), true);
  assert.equal(spatialRelation("esriSpatialRelRelation", p, square, "FF*FF****"), false);
  assert.throws(
    () => spatialRelation("esriSpatialRelRelation", p, square),
    /needs a SpatialRelDescription/,
  );
  assert.throws(() => relatePattern(p, square, "TT"), /must be 9 characters/);
});

Deno.test("distances for identify tolerances", () => {
  assert.equal(distanceToGeometry([0, 3], line([-1, 0], [1, 0])), 3);
  assert.equal(distanceToGeometry([1, 1], square), 0);
  assert.equal(distanceToGeometry([5, 5], donut), 3);
  assert.equal(geometryDistance(pt(0, 3), env(-1, -1, 1, 1)), 2);
  assert.equal(geometryDistance(line([3, 0], [3, 2]), square), 1);
  assert.equal(geometryDistance({ type: "Multipoint", points: [[5, 0], [0, 6]] }, pt(0, 0)), 5);
  assert.equal(geometryDistance(env(0, 0, 1, 1), env(3, 0, 4, 1)), 2);
  assert.equal(geometryDistance(env(3, 4, 5, 6), donut), 1); // inside the hole
  assert.equal(geometryDistance(line([20, 0], [20, 10]), line([12, 5], [14, 5], [14, 9])), 6);
});

Deno.test("withinDistance answers geometryDistance <= tol, for every kind and random shapes", () => {
  const r = seededRandom(20);
  const xy = (): Position => [Math.round(r() * 40), Math.round(r() * 40)];
  const shapes: (() => Geometry)[] = [
    () => pt(...xy()),
    () => ({ type: "Multipoint", points: [xy(), xy(), xy()] }),
    () => line(xy(), xy(), xy()),
    () => ({ type: "Polygon", rings: [[xy(), xy(), xy(), xy(), xy()]] }), // often self-crossing
    () => {
      const [x, y] = xy();
      return env(x, y, x + 1 + r() * 9, y + 1 + r() * 9);
    },
  ];
  for (let i = 0; i < 3000; i++) {
    const a = shapes[i % shapes.length]();
    const b = shapes[Math.floor(i / shapes.length) % shapes.length]();
    const tol = [0, 0.5, 2, 5, 15][i % 5];
    const d = geometryDistance(a, b);
    const what = `${JSON.stringify(a)} ${JSON.stringify(b)} tol ${tol} distance ${d}`;
    assert.equal(withinDistance(a, b, tol), d <= tol, what);
  }
  assert.equal(withinDistance(env(3, 4, 5, 6), donut, 1), true); // inside the hole, 1 from it
  assert.equal(withinDistance(env(3, 4, 5, 6), donut, 0.99), false);
});

Deno.test("bounding boxes and degenerate envelopes", () => {
  assert.deepEqual(bboxOf({ type: "Multipoint", points: [[1, 2], [3, 0]] }), {
    xmin: 1,
    ymin: 0,
    xmax: 3,
    ymax: 2,
  });
  assert.equal(bboxOf({ type: "Polygon", rings: [] }), null);
  assert.ok(envelopeIntersects(square, env(2, 2, 3, 3)));
  // A zero-size envelope behaves as a point, a zero-height one as a line.
  assert.ok(within(env(1, 1, 1, 1), square));
  assert.ok(crosses(env(-1, 1, 3, 1), square));
  assert.ok(!intersects({ type: "Polygon", rings: [] }, square));
});

Deno.test("real outlines: Natural Earth Russia and Kazakhstan", async () => {
  const { openWorldAtlas } = await import("../sources/world_atlas.ts");
  const countries = await openWorldAtlas({ scale: "50m" });
  const byName = (name: string) =>
    countries.query({}).find((f) => f.attributes.name === name)!.geometry!;
  const russia = byName("Russia");
  const kazakhstan = byName("Kazakhstan");
  assert.ok(touches(russia, kazakhstan) && !overlaps(russia, kazakhstan));
  assert.equal(relateMatrix(russia, kazakhstan), "FF2F11212");
  assert.ok(within(pt(37.6173, 55.7558), russia) && !intersects(pt(37.6173, 55.7558), kazakhstan));
  const box = env(30, 50, 40, 60);
  assert.ok(overlaps(box, russia) && !contains(box, russia) && !within(box, russia));
  assert.ok(within(env(37, 55, 38, 56), russia));
});

Deno.test("unionExtent and bboxOfParts: one home for extent arithmetic", async () => {
  const { unionExtent, bboxOfParts } = await import("./relate.ts");
  const a = { xmin: 0, ymin: 1, xmax: 2, ymax: 3 };
  const first = unionExtent(null, a);
  assert.deepEqual(first, a);
  assert.notEqual(first, a, "a new object: growing it never changes the caller's extent");
  assert.deepEqual(unionExtent(a, { xmin: -1, ymin: 2, xmax: 1, ymax: 5 }), {
    xmin: -1,
    ymin: 1,
    xmax: 2,
    ymax: 5,
  });
  assert.deepEqual(bboxOfParts([[[3, 4], [-1, 7]], [[2, -2]]]), {
    xmin: -1,
    ymin: -2,
    xmax: 3,
    ymax: 7,
  });
  assert.equal(bboxOfParts([[], []]), null);
});
