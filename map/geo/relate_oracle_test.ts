/**
 * Checks the predicates against exact answers for axis-aligned shapes on a
 * small integer grid (so shared edges, corners and collinear runs are
 * frequent), and checks the symmetries every relation must have.
 */
import assert from "node:assert/strict";
import type { Geometry } from "../types.ts";
import {
  contains,
  crosses,
  intersects,
  overlaps,
  relateMatrix,
  touches,
  within,
} from "./relate.ts";

let seed = 99;
function rnd(n: number): number {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return Math.floor((seed / 2147483648) * n);
}

interface Rect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

function rect(): Rect {
  const x0 = rnd(6), y0 = rnd(6);
  return { x0, y0, x1: x0 + 1 + rnd(4), y1: y0 + 1 + rnd(4) };
}

function asPolygon(r: Rect): Geometry {
  // Half of them as polygons (clockwise), half as envelopes.
  return rnd(2) === 0 ? { type: "Envelope", xmin: r.x0, ymin: r.y0, xmax: r.x1, ymax: r.y1 } : {
    type: "Polygon",
    rings: [[[r.x0, r.y0], [r.x0, r.y1], [r.x1, r.y1], [r.x1, r.y0], [r.x0, r.y0]]],
  };
}

const closedMeet = (a0: number, a1: number, b0: number, b1: number) => a0 <= b1 && b0 <= a1;
const openMeet = (a0: number, a1: number, b0: number, b1: number) => a0 < b1 && b0 < a1;

Deno.test("rectangles against rectangles match the exact answers", () => {
  for (let i = 0; i < 400; i++) {
    const a = rect(), b = rect();
    const ga = asPolygon(a), gb = asPolygon(b);
    const meet = closedMeet(a.x0, a.x1, b.x0, b.x1) && closedMeet(a.y0, a.y1, b.y0, b.y1);
    const inner = openMeet(a.x0, a.x1, b.x0, b.x1) && openMeet(a.y0, a.y1, b.y0, b.y1);
    const aInB = a.x0 >= b.x0 && a.x1 <= b.x1 && a.y0 >= b.y0 && a.y1 <= b.y1;
    const bInA = b.x0 >= a.x0 && b.x1 <= a.x1 && b.y0 >= a.y0 && b.y1 <= a.y1;
    const what = `${JSON.stringify(a)} ${JSON.stringify(b)} ${relateMatrix(ga, gb)}`;
    assert.equal(intersects(ga, gb), meet, `intersects ${what}`);
    assert.equal(touches(ga, gb), meet && !inner, `touches ${what}`);
    assert.equal(within(ga, gb), aInB, `within ${what}`);
    assert.equal(contains(ga, gb), bInA, `contains ${what}`);
    assert.equal(overlaps(ga, gb), inner && !aInB && !bInA, `overlaps ${what}`);
    assert.equal(crosses(ga, gb), false, `crosses ${what}`);
  }
});

Deno.test("points and horizontal segments against rectangles match the exact answers", () => {
  for (let i = 0; i < 400; i++) {
    const r = rect();
    const gr = asPolygon(r);
    const px = rnd(9), py = rnd(9);
    const p: Geometry = { type: "Point", x: px, y: py };
    const inClosed = px >= r.x0 && px <= r.x1 && py >= r.y0 && py <= r.y1;
    const inOpen = px > r.x0 && px < r.x1 && py > r.y0 && py < r.y1;
    assert.equal(intersects(p, gr), inClosed);
    assert.equal(within(p, gr), inOpen);
    assert.equal(touches(p, gr), inClosed && !inOpen);
    const x0 = rnd(8), x1 = x0 + 1 + rnd(4), y = rnd(9);
    const seg: Geometry = { type: "Polyline", paths: [[[x0, y], [x1, y]]] };
    const meet = y >= r.y0 && y <= r.y1 && closedMeet(x0, x1, r.x0, r.x1);
    const inner = y > r.y0 && y < r.y1 && openMeet(x0, x1, r.x0, r.x1);
    const inside = x0 >= r.x0 && x1 <= r.x1 && y >= r.y0 && y <= r.y1;
    const what = `seg ${x0}-${x1}@${y} rect ${JSON.stringify(r)} ${relateMatrix(seg, gr)}`;
    assert.equal(intersects(seg, gr), meet, `intersects ${what}`);
    assert.equal(touches(seg, gr), meet && !inner, `touches ${what}`);
    assert.equal(within(seg, gr), inside && inner, `within ${what}`);
    assert.equal(crosses(seg, gr), inner && !inside, `crosses ${what}`);
    assert.equal(crosses(gr, seg), inner && !inside, `crosses (swapped) ${what}`);
  }
});

Deno.test("relations are symmetric where they must be", () => {
  const shapes = (): Geometry => {
    const k = rnd(3);
    if (k === 0) return asPolygon(rect());
    if (k === 1) {
      return { type: "Polyline", paths: [[[rnd(8), rnd(8)], [rnd(8), rnd(8)], [rnd(8), rnd(8)]]] };
    }
    return { type: "Multipoint", points: [[rnd(8), rnd(8)], [rnd(8), rnd(8)]] };
  };
  for (let i = 0; i < 300; i++) {
    const a = shapes(), b = shapes();
    assert.equal(intersects(a, b), intersects(b, a));
    assert.equal(touches(a, b), touches(b, a));
    assert.equal(overlaps(a, b), overlaps(b, a));
    assert.equal(within(a, b), contains(b, a));
    // intersects must agree with the full matrix (not disjoint).
    const m = relateMatrix(a, b);
    const disjoint = [0, 1, 3, 4].every((k) => m[k] === "F");
    assert.equal(intersects(a, b), !disjoint, `${JSON.stringify(a)} ${JSON.stringify(b)} ${m}`);
  }
});
