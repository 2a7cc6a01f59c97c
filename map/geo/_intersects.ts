/**
 * The intersection test shared by the predicates and the distances, with
 * its tolerance and segment-box helpers.
 *
 * @module
 */
import type { Extent, Position } from "../types.ts";
import {
  extentsIntersect,
  forEachSegment,
  forEachSegmentNear,
  locate,
  segmentIntersection,
  type Shape,
} from "./_shape.ts";

/** On-line tolerance for a pair: 1e-10 of their combined extent's diagonal. */
export function tolerance(a: Shape, b: Shape): number {
  if (!a.bbox || !b.bbox) return 0;
  const w = Math.max(a.bbox.xmax, b.bbox.xmax) - Math.min(a.bbox.xmin, b.bbox.xmin);
  const h = Math.max(a.bbox.ymax, b.bbox.ymax) - Math.min(a.bbox.ymin, b.bbox.ymin);
  return 1e-10 * Math.hypot(w, h);
}

/** Whether a segment's bounding box comes within `eps` of `box`. */
export function segmentBoxHits(a: Position, b: Position, box: Extent, eps: number): boolean {
  return Math.max(a[0], b[0]) >= box.xmin - eps && Math.min(a[0], b[0]) <= box.xmax + eps &&
    Math.max(a[1], b[1]) >= box.ymin - eps && Math.min(a[1], b[1]) <= box.ymax + eps;
}

/** Bounding box of a segment. */
export function segmentBox(a: Position, b: Position): Extent {
  return {
    xmin: Math.min(a[0], b[0]),
    ymin: Math.min(a[1], b[1]),
    xmax: Math.max(a[0], b[0]),
    ymax: Math.max(a[1], b[1]),
  };
}

/** Whether two shapes share a point (early exit on the first contact). */
export function shapesIntersect(sa: Shape, sb: Shape): boolean {
  if (!sa.bbox || !sb.bbox || !extentsIntersect(sa.bbox, sb.bbox)) return false;
  const eps = tolerance(sa, sb);
  if (sa.dim === 0) return sa.parts[0].some((p) => locate(p, sb, eps) !== "exterior");
  if (sb.dim === 0) return sb.parts[0].some((p) => locate(p, sa, eps) !== "exterior");
  let hit = false;
  forEachSegment(sa, (a0, a1) => {
    if (hit || !segmentBoxHits(a0, a1, sb.bbox!, eps)) return;
    forEachSegmentNear(sb, segmentBox(a0, a1), 0, (b0, b1) => {
      if (!hit && segmentIntersection(a0, a1, b0, b1).length > 0) hit = true;
    });
  });
  if (hit) return true;
  // No boundaries meet: a part is wholly inside the other area or wholly outside it.
  if (sb.dim === 2 && sa.parts.some((part) => locate(part[0], sb, eps) !== "exterior")) return true;
  return sa.dim === 2 && sb.parts.some((part) => locate(part[0], sa, eps) !== "exterior");
}
