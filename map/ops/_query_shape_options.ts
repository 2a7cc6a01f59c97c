/**
 * `LayerResultOptions/GeometryResultOptions` (§3-A, §5.7): generalise
 * (Douglas–Peucker, MaximumAllowableOffset) or densify
 * (MaximumSegmentLength) the geometries Find, Identify and
 * QueryFeatureData2 return. Distances are in the output's map units.
 *
 * @module
 */
import type { Geometry, Position } from "../types.ts";
import type { LayerResultOptions } from "./values.ts";
import { InvalidRequestError } from "../errors.ts";

/** What to do to returned shapes. */
export interface ShapeOptions {
  /** Douglas–Peucker tolerance, map units; 0 = off. */
  maxAllowableOffset: number;
  /** Longest segment after densifying, map units; 0 = off. */
  maxSegmentLength: number;
}

/** No change. */
export const NO_SHAPE_OPTIONS: ShapeOptions = Object.freeze({
  maxAllowableOffset: 0,
  maxSegmentLength: 0,
});

function positive(v: number | undefined): number {
  return v !== undefined && Number.isFinite(v) && v > 0 ? v : 0;
}

/**
 * Reads GeometryResultOptions from a LayerResultOptions object (either may be missing).
 *
 * @example
 * shapeOptionsOf({ GeometryResultOptions: { GeneralizeGeometries: true, MaximumAllowableOffset: 0.1 } });
 */
export function shapeOptionsOf(layerResultOptions: LayerResultOptions | undefined): ShapeOptions {
  const g = layerResultOptions?.GeometryResultOptions;
  if (!g) return NO_SHAPE_OPTIONS;
  return {
    maxAllowableOffset: g.GeneralizeGeometries === true ? positive(g.MaximumAllowableOffset) : 0,
    maxSegmentLength: g.DensifyGeometries === true ? positive(g.MaximumSegmentLength) : 0,
  };
}

function segmentDistance(p: Position, a: Position, b: Position): number {
  const dx = b[0] - a[0], dy = b[1] - a[1];
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0
    ? 0
    : Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2));
  return Math.hypot(p[0] - (a[0] + t * dx), p[1] - (a[1] + t * dy));
}

/** Douglas–Peucker over one path, iteratively (no recursion depth limit on long paths). */
function simplify(points: Position[], tol: number, minPoints: number): Position[] {
  if (points.length <= minPoints) return points;
  const keep = new Uint8Array(points.length);
  keep[0] = keep[points.length - 1] = 1;
  const stack: [number, number][] = [[0, points.length - 1]];
  while (stack.length > 0) {
    const [i, j] = stack.pop()!;
    let best = -1, at = -1;
    for (let k = i + 1; k < j; k++) {
      const d = segmentDistance(points[k], points[i], points[j]);
      if (d > best) [best, at] = [d, k];
    }
    if (at >= 0 && best > tol) {
      keep[at] = 1;
      stack.push([i, at], [at, j]);
    }
  }
  const out = points.filter((_, i) => keep[i] === 1);
  // A ring must stay a ring: fall back to the original when it collapses.
  return out.length >= minPoints ? out : points;
}

/** Most vertices densifying may produce for one part; more is a request error, not a job. */
export const MAX_DENSIFIED_VERTICES = 100_000;

function densify(points: Position[], maxLen: number): Position[] {
  if (points.length < 2) return points;
  let total = points.length;
  for (let i = 1; i < points.length; i++) {
    const [a, b] = [points[i - 1], points[i]];
    total += Math.ceil(Math.hypot(b[0] - a[0], b[1] - a[1]) / maxLen);
    if (!(total <= MAX_DENSIFIED_VERTICES)) {
      throw new InvalidRequestError(
        `GeometryResultOptions/MaximumSegmentLength ${maxLen} is too small for these shapes: ` +
          `a part would get more than ${MAX_DENSIFIED_VERTICES} vertices.`,
      );
    }
  }
  const out: Position[] = [points[0]];
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1], b = points[i];
    const n = Math.ceil(Math.hypot(b[0] - a[0], b[1] - a[1]) / maxLen);
    for (let k = 1; k < n; k++) {
      out.push([a[0] + (b[0] - a[0]) * k / n, a[1] + (b[1] - a[1]) * k / n]);
    }
    out.push(b);
  }
  return out;
}

function part(points: Position[], o: ShapeOptions, minPoints: number): Position[] {
  let p = points;
  if (o.maxAllowableOffset > 0) p = simplify(p, o.maxAllowableOffset, minPoints);
  if (o.maxSegmentLength > 0) p = densify(p, o.maxSegmentLength);
  return p;
}

/**
 * Applies the options to a geometry (points and envelopes are unchanged).
 *
 * @example
 * applyShapeOptions(line, { maxAllowableOffset: 0.01, maxSegmentLength: 0 });
 */
export function applyShapeOptions(g: Geometry, o: ShapeOptions): Geometry {
  if (o.maxAllowableOffset === 0 && o.maxSegmentLength === 0) return g;
  if (g.type === "Polyline") return { type: "Polyline", paths: g.paths.map((p) => part(p, o, 2)) };
  if (g.type === "Polygon") return { type: "Polygon", rings: g.rings.map((r) => part(r, o, 4)) };
  return g;
}
