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
