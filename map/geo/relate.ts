/**
 * Spatial predicates between our Geometry values, with the meaning of
 * ArcGIS's `esriSpatialRel*` (the query geometry is the first argument,
 * the feature the second), plus distances for identify tolerances.
 *
 * The predicates follow the OGC/DE-9IM definitions. The intersection
 * matrix is computed by classifying sample points of each geometry
 * against the other: vertices, segment crossings, the midpoints of every
 * segment piece between crossings, and (for areas) points just either
 * side of each boundary piece. For simple (valid) geometries that set
 * meets every cell of the matrix that is not empty. Point-on-line tests
 * use a tolerance of 1e-10 of the pair's combined extent, so coordinates
 * that went through a float midpoint still count as on the line.
 *
 * Cost is O(n·m) in vertex counts, with bounding-box short cuts;
 * `intersects` has its own early-exit path because it is by far the most
 * common filter.
 *
 * @module
 */
import { InvalidRequestError } from "../errors.ts";
import type { Extent, Geometry, Position } from "../types.ts";
import {
  extentsIntersect,
  forEachSegment,
  forEachSegmentNear,
  locate,
  type Location,
  pointSegmentDistance,
  segmentIntersection,
  type Shape,
  toShape,
} from "./_shape.ts";
import { segmentBox, segmentBoxHits, shapesIntersect, tolerance } from "./_intersects.ts";

export {
  bboxOf,
  bboxOfParts,
  extentsIntersect,
  type Location,
  pointInPolygon,
  pointSegmentDistance,
  segmentIntersection,
  segmentsIntersect,
  unionExtent,
} from "./_shape.ts";

/** The `esriSpatialRelEnum` values. */
export const SPATIAL_RELATIONS = [
  "esriSpatialRelUndefined",
  "esriSpatialRelIntersects",
  "esriSpatialRelEnvelopeIntersects",
  "esriSpatialRelIndexIntersects",
  "esriSpatialRelTouches",
  "esriSpatialRelOverlaps",
  "esriSpatialRelCrosses",
  "esriSpatialRelWithin",
  "esriSpatialRelContains",
  "esriSpatialRelRelation",
] as const;

/** One `esriSpatialRelEnum` value. */
export type SpatialRelation = typeof SPATIAL_RELATIONS[number];

const LOC_INDEX: Record<Location, number> = { interior: 0, boundary: 1, exterior: 2 };

/** Highest dimension a cell involving this part of the shape can have. */
function partDim(loc: Location, s: Shape): number {
  if (loc === "exterior") return 2;
  return loc === "interior" ? s.dim : s.dim - 1;
}

/** The DE-9IM matrix as 9 numbers (-1 = empty), rows I/B/E of `a`, columns I/B/E of `b`. */
function matrixOf(a: Shape, b: Shape): number[] {
  const m = [-1, -1, -1, -1, -1, -1, -1, -1, 2];
  const eps = tolerance(a, b);
  const mark = (la: Location, lb: Location, dim: number) => {
    const i = LOC_INDEX[la] * 3 + LOC_INDEX[lb];
    const d = Math.min(dim, partDim(la, a), partDim(lb, b));
    if (d > m[i]) m[i] = d;
  };
  sample(a, b, eps, (p, l, dim) => mark(l, locate(p, b, eps), dim));
  sample(b, a, eps, (p, l, dim) => mark(locate(p, a, eps), l, dim));
  return m;
}

/**
 * Feeds `emit` sample points of `x` with their location in `x` and the
 * dimension of the evidence they carry (0 point, 1 along a line, 2 area).
 */
function sample(
  x: Shape,
  y: Shape,
  eps: number,
  emit: (p: Position, loc: Location, dim: number) => void,
): void {
  if (!x.bbox) return;
  if (x.dim === 0) {
    for (const p of x.parts[0]) emit(p, "interior", 0);
    return;
  }
  const yb = y.bbox;
  const near = (v: Position) =>
    yb !== null && v[0] >= yb.xmin - eps && v[0] <= yb.xmax + eps && v[1] >= yb.ymin - eps &&
    v[1] <= yb.ymax + eps;
  for (const part of x.parts) {
    for (const v of part) {
      // Far vertices of an area add nothing its far edges (below) do not already say.
      if (x.dim === 2 && !near(v)) continue;
      emit(v, x.dim === 2 ? "boundary" : locate(v, x, eps), 0);
    }
  }
  forEachSegment(x, (s0, s1) => {
    const ts = [0, 1];
    const dx = s1[0] - s0[0];
    const dy = s1[1] - s0[1];
    const len2 = dx * dx + dy * dy;
    if (len2 === 0) return;
    if (!yb || !segmentBoxHits(s0, s1, yb, eps)) {
      // An edge away from y: it and the interior beside it lie in y's exterior. Saying so
      // with its midpoint spares locating offset points in x itself.
      const mid: Position = [s0[0] + dx / 2, s0[1] + dy / 2];
      emit(mid, x.dim === 2 ? "boundary" : "interior", 1);
      if (x.dim === 2) emit(mid, "interior", 2);
      return;
    }
    const param = (p: Position) => ((p[0] - s0[0]) * dx + (p[1] - s0[1]) * dy) / len2;
    {
      if (y.dim === 0) {
        for (const p of y.parts[0]) {
          if (pointSegmentDistance(p, s0, s1) <= eps) ts.push(param(p));
        }
      }
      forEachSegmentNear(y, segmentBox(s0, s1), eps, (q0, q1) => {
        for (const p of segmentIntersection(s0, s1, q0, q1)) {
          ts.push(param(p));
          emit(p, locate(p, x, eps), 0);
        }
        // Vertices of y lying on this segment within tolerance split it too.
        for (const q of [q0, q1]) {
          if (pointSegmentDistance(q, s0, s1) <= eps) ts.push(param(q));
        }
      });
    }
    ts.sort((p, q) => p - q);
    const len = Math.sqrt(len2);
    for (let i = 1; i < ts.length; i++) {
      const t0 = Math.max(0, ts[i - 1]);
      const t1 = Math.min(1, ts[i]);
      if (t1 - t0 <= 1e-12) continue;
      const t = (t0 + t1) / 2;
      const mid: Position = [s0[0] + t * dx, s0[1] + t * dy];
      emit(mid, x.dim === 2 ? "boundary" : "interior", 1);
      if (x.dim === 2) {
        // Step off the boundary to both sides to learn what the areas do there.
        const delta = Math.max(len * (t1 - t0) * 1e-6, eps * 1000);
        const nx = (-dy / len) * delta;
        const ny = (dx / len) * delta;
        for (const p of [[mid[0] + nx, mid[1] + ny], [mid[0] - nx, mid[1] - ny]] as Position[]) {
          emit(p, locate(p, x, eps), 2);
        }
      }
    }
  });
}

/**
 * The DE-9IM intersection matrix of two geometries as the usual
 * 9-character string (`F`, `0`, `1`, `2`), rows interior/boundary/exterior
 * of `a`, columns those of `b`.
 *
 * @example
 * ```ts
 * relateMatrix({ type: "Point", x: 1, y: 1 }, { type: "Envelope", xmin: 0, ymin: 0, xmax: 2, ymax: 2 });
 * // "0FFFFF212"
 * ```
 */
export function relateMatrix(a: Geometry, b: Geometry): string {
  return matrixOf(toShape(a), toShape(b)).map((d) => (d < 0 ? "F" : String(d))).join("");
}

/**
 * Whether the matrix of `a` and `b` matches a DE-9IM pattern of 9
 * characters from `T F * 0 1 2` (esriSpatialRelRelation's
 * SpatialRelDescription). Throws an InvalidRequestError for a malformed pattern.
 *
 * @example
 * ```ts
 * import type { Geometry } from "../types.ts";
 * const point: Geometry = { type: "Point", x: 1, y: 1 };
 * const polygon: Geometry = { type: "Polygon", rings: [[[0, 0], [0, 2], [2, 2], [2, 0], [0, 0]]] };
 * relatePattern(point, polygon, "T*F**F***"); // point within polygon
 * ```
 */
export function relatePattern(a: Geometry, b: Geometry, pattern: string): boolean {
  const p = pattern.trim().toUpperCase();
  if (!/^[TF*012]{9}$/.test(p)) {
    throw new InvalidRequestError(
      `The spatial relation description "${pattern}" must be 9 characters of T, F, *, 0, 1 or 2 (e.g. "T*F**F***").`,
    );
  }
  const m = matrixOf(toShape(a), toShape(b));
  return [...p].every((c, i) =>
    c === "*" || (c === "T" ? m[i] >= 0 : c === "F" ? m[i] < 0 : m[i] === Number(c))
  );
}

/**
 * Whether the two geometries share at least one point.
 *
 * @example
 * ```ts
 * intersects({ type: "Point", x: 0, y: 0 }, { type: "Envelope", xmin: 0, ymin: 0, xmax: 1, ymax: 1 }); // true
 * ```
 */
export function intersects(a: Geometry, b: Geometry): boolean {
  return shapesIntersect(toShape(a), toShape(b));
}

/**
 * Whether the bounding boxes of the two geometries share a point.
 *
 * @example
 * ```ts
 * import type { Geometry } from "../types.ts";
 * const lineA: Geometry = { type: "Polyline", paths: [[[0, 0], [2, 2]]] };
 * const lineB: Geometry = { type: "Polyline", paths: [[[0, 2], [2, 0]]] };
 * envelopeIntersects(lineA, lineB);
 * ```
 */
export function envelopeIntersects(a: Geometry, b: Geometry): boolean {
  const ea = toShape(a).bbox;
  const eb = toShape(b).bbox;
  return ea !== null && eb !== null && extentsIntersect(ea, eb);
}

function boxInside(inner: Extent, outer: Extent): boolean {
  return inner.xmin >= outer.xmin && inner.xmax <= outer.xmax && inner.ymin >= outer.ymin &&
    inner.ymax <= outer.ymax;
}

/** Matrix-based predicate with the bounding-box short cut. */
function byMatrix(
  a: Geometry,
  b: Geometry,
  test: (m: number[], da: number, db: number) => boolean,
) {
  const sa = toShape(a);
  const sb = toShape(b);
  if (!sa.bbox || !sb.bbox || !extentsIntersect(sa.bbox, sb.bbox)) return false;
  return test(matrixOf(sa, sb), sa.dim, sb.dim);
}

/**
 * Whether `a` lies inside `b` (no part of `a` outside `b`, interiors meet).
 *
 * @example
 * ```ts
 * import type { Geometry } from "../types.ts";
 * const square: Geometry = { type: "Polygon", rings: [[[0, 0], [0, 2], [2, 2], [2, 0], [0, 0]]] };
 * within({ type: "Point", x: 1, y: 1 }, square); // true
 * ```
 */
export function within(a: Geometry, b: Geometry): boolean {
  const ea = toShape(a).bbox;
  const eb = toShape(b).bbox;
  if (!ea || !eb || !boxInside(ea, eb)) return false;
  return byMatrix(a, b, (m) => m[0] >= 0 && m[2] < 0 && m[5] < 0);
}

/**
 * Whether `a` contains `b` (that is, `b` is within `a`).
 *
 * @example
 * ```ts
 * import type { Geometry } from "../types.ts";
 * const square: Geometry = { type: "Polygon", rings: [[[0, 0], [0, 2], [2, 2], [2, 0], [0, 0]]] };
 * contains(square, { type: "Point", x: 1, y: 1 }); // true
 * ```
 */
export function contains(a: Geometry, b: Geometry): boolean {
  const ea = toShape(a).bbox;
  const eb = toShape(b).bbox;
  if (!ea || !eb || !boxInside(eb, ea)) return false;
  return byMatrix(a, b, (m) => m[0] >= 0 && m[6] < 0 && m[7] < 0);
}

/**
 * Whether the geometries meet only on their boundaries.
 *
 * @example
 * ```ts
 * import type { Geometry } from "../types.ts";
 * const squareA: Geometry = { type: "Polygon", rings: [[[0, 0], [0, 2], [2, 2], [2, 0], [0, 0]]] };
 * const squareSharingAnEdge: Geometry = { type: "Polygon", rings: [[[2, 0], [2, 2], [4, 2], [4, 0], [2, 0]]] };
 * touches(squareA, squareSharingAnEdge); // true
 * ```
 */
export function touches(a: Geometry, b: Geometry): boolean {
  return byMatrix(
    a,
    b,
    (m, da, db) => !(da === 0 && db === 0) && m[0] < 0 && (m[1] >= 0 || m[3] >= 0 || m[4] >= 0),
  );
}

/**
 * Whether the geometries cross: a line through an area (partly in, partly
 * out), lines meeting at points only, points partly inside a line or area.
 *
 * @example
 * ```ts
 * import type { Geometry } from "../types.ts";
 * const square: Geometry = { type: "Polygon", rings: [[[0, 0], [0, 2], [2, 2], [2, 0], [0, 0]]] };
 * const lineThroughSquare: Geometry = { type: "Polyline", paths: [[[-1, 1], [3, 1]]] };
 * crosses(lineThroughSquare, square); // true
 * ```
 */
export function crosses(a: Geometry, b: Geometry): boolean {
  return byMatrix(a, b, (m, da, db) => {
    if (da < db) return m[0] >= 0 && m[2] >= 0;
    if (da > db) return m[0] >= 0 && m[6] >= 0;
    return da === 1 && m[0] === 0;
  });
}

/**
 * Whether two geometries of the same dimension share part of their
 * interiors while each has a part outside the other.
 *
 * @example
 * ```ts
 * import type { Geometry } from "../types.ts";
 * const squareA: Geometry = { type: "Polygon", rings: [[[0, 0], [0, 2], [2, 2], [2, 0], [0, 0]]] };
 * const squareShiftedByHalf: Geometry = { type: "Polygon", rings: [[[1, 0], [1, 2], [3, 2], [3, 0], [1, 0]]] };
 * overlaps(squareA, squareShiftedByHalf); // true
 * ```
 */
export function overlaps(a: Geometry, b: Geometry): boolean {
  return byMatrix(
    a,
    b,
    (m, da, db) => da === db && (da === 1 ? m[0] === 1 : m[0] >= 0) && m[2] >= 0 && m[6] >= 0,
  );
}

/**
 * Evaluates an `esriSpatialRel*` relation between the query geometry and a
 * feature's geometry, as SpatialFilter does. Undefined counts as
 * intersects; IndexIntersects and EnvelopeIntersects compare bounding
 * boxes; Relation needs a DE-9IM `description`.
 *
 * @example
 * ```ts
 * import type { Geometry } from "../types.ts";
 * const filterPolygon: Geometry = { type: "Polygon", rings: [[[0, 0], [0, 2], [2, 2], [2, 0], [0, 0]]] };
 * const featurePoint: Geometry = { type: "Point", x: 1, y: 1 };
 * spatialRelation("esriSpatialRelContains", filterPolygon, featurePoint);
 * ```
 */
export function spatialRelation(
  rel: SpatialRelation,
  query: Geometry,
  target: Geometry,
  description?: string,
): boolean {
  switch (rel) {
    case "esriSpatialRelUndefined":
    case "esriSpatialRelIntersects":
      return intersects(query, target);
    case "esriSpatialRelEnvelopeIntersects":
    case "esriSpatialRelIndexIntersects":
      return envelopeIntersects(query, target);
    case "esriSpatialRelTouches":
      return touches(query, target);
    case "esriSpatialRelOverlaps":
      return overlaps(query, target);
    case "esriSpatialRelCrosses":
      return crosses(query, target);
    case "esriSpatialRelWithin":
      return within(query, target);
    case "esriSpatialRelContains":
      return contains(query, target);
    case "esriSpatialRelRelation":
      if (!description) {
        throw new InvalidRequestError(
          'esriSpatialRelRelation needs a SpatialRelDescription such as "T*F**F***".',
        );
      }
      return relatePattern(query, target, description);
  }
}

export { distanceToGeometry, geometryDistance, withinDistance } from "./distance.ts";
