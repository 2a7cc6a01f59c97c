/**
 * Distances between geometries in map units, for identify tolerances and
 * buffers: 0 when they intersect, otherwise the smallest vertex-to-segment
 * distance (areas count as filled).
 *
 * @module
 */
import type { Geometry, Position } from "../types.ts";
import { forEachSegmentNear, pointSegmentDistance, type Shape, toShape } from "./_shape.ts";
import { shapesIntersect } from "./_intersects.ts";

/**
 * Smallest distance between two geometries in their (shared) map units;
 * 0 when they intersect. Areas count as filled.
 *
 * @example
 * ```ts
 * geometryDistance({ type: "Point", x: 0, y: 3 }, { type: "Envelope", xmin: -1, ymin: -1, xmax: 1, ymax: 1 }); // 2
 * ```
 */
export function geometryDistance(a: Geometry, b: Geometry): number {
  const sa = toShape(a);
  const sb = toShape(b);
  if (shapesIntersect(sa, sb)) return 0;
  if (!sa.bbox || !sb.bbox) return Infinity;
  // Any vertex pair bounds the answer; the bound then limits the segments looked at.
  let best = Math.hypot(
    sa.parts[0][0][0] - sb.parts[0][0][0],
    sa.parts[0][0][1] - sb.parts[0][0][1],
  );
  const vertexToShape = (p: Position, s: Shape) => {
    if (s.dim === 0) {
      for (const q of s.parts[0]) best = Math.min(best, Math.hypot(p[0] - q[0], p[1] - q[1]));
      return;
    }
    const box = { xmin: p[0] - best, ymin: p[1] - best, xmax: p[0] + best, ymax: p[1] + best };
    forEachSegmentNear(s, box, 0, (q0, q1) => {
      best = Math.min(best, pointSegmentDistance(p, q0, q1));
    });
  };
  // Disjoint segments are nearest at an endpoint of one of them.
  for (const part of sa.parts) for (const p of part) vertexToShape(p, sb);
  for (const part of sb.parts) for (const p of part) vertexToShape(p, sa);
  return best;
}

/**
 * Whether two geometries come within `tol` map units of each other
 * (`geometryDistance(a, b) <= tol`), looking only at the vertices and
 * segments near the other geometry's box: identify asks this once per
 * candidate feature, so it must not cost the size of a large search shape.
 *
 * @example
 * ```ts
 * withinDistance({ type: "Point", x: 0, y: 3 }, { type: "Envelope", xmin: -1, ymin: -1, xmax: 1, ymax: 1 }, 2); // true
 * ```
 */
export function withinDistance(a: Geometry, b: Geometry, tol: number): boolean {
  const sa = toShape(a);
  const sb = toShape(b);
  if (shapesIntersect(sa, sb)) return true;
  if (!sa.bbox || !sb.bbox || !(tol > 0)) return false;
  // Disjoint segments are nearest at an endpoint of one of them.
  return _vertexWithin(sa, sb, tol) || _vertexWithin(sb, sa, tol);
}

/** Whether a vertex of `from` lies within `tol` of `to` (only vertices near `to`'s box are tried). */
function _vertexWithin(from: Shape, to: Shape, tol: number): boolean {
  let hit = false;
  const test = (p: Position) => {
    if (hit) return;
    const box = { xmin: p[0] - tol, ymin: p[1] - tol, xmax: p[0] + tol, ymax: p[1] + tol };
    if (to.dim === 0) {
      hit = to.parts.some((part) => part.some((q) => Math.hypot(p[0] - q[0], p[1] - q[1]) <= tol));
      return;
    }
    forEachSegmentNear(to, box, 0, (q0, q1) => {
      if (!hit && pointSegmentDistance(p, q0, q1) <= tol) hit = true;
    });
  };
  if (from.dim === 0) {
    const near = to.bbox!;
    for (const part of from.parts) {
      for (const p of part) {
        if (
          p[0] >= near.xmin - tol && p[0] <= near.xmax + tol && p[1] >= near.ymin - tol &&
          p[1] <= near.ymax + tol
        ) test(p);
      }
    }
  } else {
    forEachSegmentNear(from, to.bbox!, tol, (p0, p1) => {
      test(p0);
      test(p1);
    });
  }
  return hit;
}

/**
 * Distance from a point to a geometry (0 inside areas), for identify
 * tolerances.
 *
 * @example
 * ```ts
 * distanceToGeometry([0, 3], { type: "Polyline", paths: [[[-1, 0], [1, 0]]] }); // 3
 * ```
 */
export function distanceToGeometry(p: Position, g: Geometry): number {
  return geometryDistance({ type: "Point", x: p[0], y: p[1] }, g);
}
