/**
 * Geometry primitives behind `relate.ts`: a normalised shape (points,
 * paths or rings with its dimension), bounding boxes, segment
 * intersection and point location.
 *
 * @module
 */
import type { Extent, Geometry, Position } from "../types.ts";
import { closeRing } from "./rings.ts";

/** Where a point lies relative to a geometry. */
export type Location = "interior" | "boundary" | "exterior";

/** A geometry reduced to its topological dimension and its parts. */
export interface Shape {
  /** 0 = points, 1 = paths, 2 = rings. */
  dim: 0 | 1 | 2;
  /** Points (dim 0), paths (dim 1) or closed rings (dim 2). */
  parts: Position[][];
  /** Bounding box, or null when empty. */
  bbox: Extent | null;
  /** Path endpoints that form the boundary (mod-2 rule), dim 1 only. */
  ends: Position[];
}

/**
 * Bounding box of a geometry, or null when it has no coordinates.
 *
 * @example
 * ```ts
 * bboxOf({ type: "Multipoint", points: [[1, 2], [3, 0]] }); // { xmin: 1, ymin: 0, xmax: 3, ymax: 2 }
 * ```
 */
export function bboxOf(g: Geometry): Extent | null {
  switch (g.type) {
    case "Point":
      return { xmin: g.x, ymin: g.y, xmax: g.x, ymax: g.y };
    case "Envelope":
      return { xmin: g.xmin, ymin: g.ymin, xmax: g.xmax, ymax: g.ymax };
    case "Multipoint":
      return bboxOfParts([g.points]);
    case "Polyline":
      return bboxOfParts(g.paths);
    case "Polygon":
      return bboxOfParts(g.rings);
  }
}

/**
 * The smallest extent holding `a` (none: nothing) and `b`, as a new object.
 *
 * @example
 * ```ts
 * unionExtent(null, { xmin: 0, ymin: 0, xmax: 1, ymax: 1 }); // a copy of the second
 * ```
 */
export function unionExtent(a: Extent | null, b: Extent): Extent {
  return a
    ? {
      xmin: Math.min(a.xmin, b.xmin),
      ymin: Math.min(a.ymin, b.ymin),
      xmax: Math.max(a.xmax, b.xmax),
      ymax: Math.max(a.ymax, b.ymax),
    }
    : { xmin: b.xmin, ymin: b.ymin, xmax: b.xmax, ymax: b.ymax };
}

/** Bounding box of lists of positions, or null when there are none. */
export function bboxOfParts(parts: Position[][]): Extent | null {
  let xmin = Infinity, ymin = Infinity, xmax = -Infinity, ymax = -Infinity;
  for (const part of parts) {
    for (const [x, y] of part) {
      if (x < xmin) xmin = x;
      if (x > xmax) xmax = x;
      if (y < ymin) ymin = y;
      if (y > ymax) ymax = y;
    }
  }
  return xmin === Infinity ? null : { xmin, ymin, xmax, ymax };
}

/**
 * Whether two extents share at least one point (touching counts).
 *
 * @example
 * ```ts
 * extentsIntersect({ xmin: 0, ymin: 0, xmax: 1, ymax: 1 }, { xmin: 1, ymin: 1, xmax: 2, ymax: 2 }); // true
 * ```
 */
export function extentsIntersect(a: Extent, b: Extent): boolean {
  return a.xmin <= b.xmax && b.xmin <= a.xmax && a.ymin <= b.ymax && b.ymin <= a.ymax;
}

function endsOf(paths: Position[][]): Position[] {
  const count = new Map<string, { p: Position; n: number }>();
  for (const path of paths) {
    if (path.length < 2) continue;
    for (const p of [path[0], path[path.length - 1]]) {
      const key = `${p[0]},${p[1]}`;
      const hit = count.get(key);
      if (hit) hit.n++;
      else count.set(key, { p, n: 1 });
    }
  }
  return [...count.values()].filter((e) => e.n % 2 === 1).map((e) => e.p);
}

/**
 * Normalises a geometry: envelopes become rings (or a line/point when
 * degenerate), rings are closed, one-vertex paths count as points.
 */
export function toShape(g: Geometry): Shape {
  // Features keep their geometry objects between queries (memory sources), so the
  // shape and its segment index are built once per geometry, not once per test.
  let s = shapes.get(g);
  if (!s) {
    s = buildShape(g);
    shapes.set(g, s);
  }
  return s;
}

const shapes = new WeakMap<Geometry, Shape>();

function buildShape(g: Geometry): Shape {
  switch (g.type) {
    case "Point":
      return { dim: 0, parts: [[[g.x, g.y]]], bbox: bboxOf(g), ends: [] };
    case "Multipoint":
      return { dim: 0, parts: [g.points], bbox: bboxOf(g), ends: [] };
    case "Polyline": {
      const paths = g.paths.filter((p) => p.length >= 2);
      return { dim: 1, parts: paths, bbox: bboxOfParts(paths), ends: endsOf(paths) };
    }
    case "Polygon": {
      const rings = g.rings.filter((r) => r.length >= 3).map(closeRing);
      return { dim: 2, parts: rings, bbox: bboxOfParts(rings), ends: [] };
    }
    case "Envelope": {
      const { xmin, ymin, xmax, ymax } = g;
      if (xmin === xmax && ymin === ymax) return buildShape({ type: "Point", x: xmin, y: ymin });
      if (xmin === xmax || ymin === ymax) {
        return buildShape({ type: "Polyline", paths: [[[xmin, ymin], [xmax, ymax]]] });
      }
      return buildShape({
        type: "Polygon",
        rings: [[[xmin, ymin], [xmin, ymax], [xmax, ymax], [xmax, ymin], [xmin, ymin]]],
      });
    }
  }
}

/** Twice the signed area of triangle (a, b, c): > 0 when counter-clockwise. */
export function orient(a: Position, b: Position, c: Position): number {
  return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
}

/**
 * Distance from point `p` to segment `a`–`b`.
 *
 * @example
 * ```ts
 * pointSegmentDistance([0, 1], [-1, 0], [1, 0]); // 1
 * ```
 */
export function pointSegmentDistance(p: Position, a: Position, b: Position): number {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const len2 = dx * dx + dy * dy;
  let t = len2 === 0 ? 0 : ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2;
  t = Math.max(0, Math.min(1, t));
  return Math.hypot(p[0] - (a[0] + t * dx), p[1] - (a[1] + t * dy));
}

function onSegment(p: Position, a: Position, b: Position): boolean {
  return Math.min(a[0], b[0]) <= p[0] && p[0] <= Math.max(a[0], b[0]) &&
    Math.min(a[1], b[1]) <= p[1] && p[1] <= Math.max(a[1], b[1]);
}

/**
 * Intersection of segments a1–a2 and b1–b2: no point, the crossing or
 * touching point, or the two ends of a collinear overlap.
 *
 * @example
 * ```ts
 * segmentIntersection([0, 0], [2, 2], [0, 2], [2, 0]); // [[1, 1]]
 * ```
 */
export function segmentIntersection(
  a1: Position,
  a2: Position,
  b1: Position,
  b2: Position,
): Position[] {
  const d1 = orient(b1, b2, a1);
  const d2 = orient(b1, b2, a2);
  const d3 = orient(a1, a2, b1);
  const d4 = orient(a1, a2, b2);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) {
    const t = d1 / (d1 - d2);
    return [[a1[0] + t * (a2[0] - a1[0]), a1[1] + t * (a2[1] - a1[1])]];
  }
  if (d1 === 0 && d2 === 0 && d3 === 0 && d4 === 0) {
    // Collinear: the overlap is bounded by the inner two of the four endpoints.
    const useX = Math.abs(a2[0] - a1[0]) + Math.abs(b2[0] - b1[0]) >=
      Math.abs(a2[1] - a1[1]) + Math.abs(b2[1] - b1[1]);
    const key = (p: Position) => (useX ? p[0] : p[1]);
    const [alo, ahi] = key(a1) <= key(a2) ? [a1, a2] : [a2, a1];
    const [blo, bhi] = key(b1) <= key(b2) ? [b1, b2] : [b2, b1];
    const lo = key(alo) >= key(blo) ? alo : blo;
    const hi = key(ahi) <= key(bhi) ? ahi : bhi;
    if (key(lo) > key(hi)) return [];
    return key(lo) === key(hi) ? [lo] : [lo, hi];
  }
  const out: Position[] = [];
  if (d1 === 0 && onSegment(a1, b1, b2)) out.push(a1);
  if (d2 === 0 && onSegment(a2, b1, b2)) out.push(a2);
  if (d3 === 0 && onSegment(b1, a1, a2)) out.push(b1);
  if (d4 === 0 && onSegment(b2, a1, a2)) out.push(b2);
  // A shared endpoint shows up twice; keep one.
  return out.filter((p, i) => out.findIndex((q) => q[0] === p[0] && q[1] === p[1]) === i);
}

/**
 * Whether segments a1–a2 and b1–b2 share a point.
 *
 * @example
 * ```ts
 * segmentsIntersect([0, 0], [1, 0], [1, 0], [1, 1]); // true
 * ```
 */
export function segmentsIntersect(a1: Position, a2: Position, b1: Position, b2: Position): boolean {
  return segmentIntersection(a1, a2, b1, b2).length > 0;
}

/**
 * Location of a point against polygon rings (even-odd rule, so holes and
 * several outer rings work whatever their orientation). Points within
 * `eps` of a ring are on the boundary.
 *
 * @example
 * ```ts
 * pointInPolygon([1, 1], [[[0, 0], [0, 2], [2, 2], [2, 0], [0, 0]]]); // "interior"
 * ```
 */
export function pointInPolygon(p: Position, rings: Position[][], eps = 0): Location {
  let inside = false;
  const [x, y] = p;
  for (const ring of rings) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const a = ring[j];
      const b = ring[i];
      if (
        eps > 0 ? pointSegmentDistance(p, a, b) <= eps : orient(a, b, p) === 0 && onSegment(p, a, b)
      ) {
        return "boundary";
      }
      if ((b[1] > y) !== (a[1] > y) && x < ((a[0] - b[0]) * (y - b[1])) / (a[1] - b[1]) + b[0]) {
        inside = !inside;
      }
    }
  }
  return inside ? "interior" : "exterior";
}

/**
 * Segments of a shape bucketed into horizontal bands, so that locating a
 * point or finding the segments near another one looks at a band instead
 * of every segment (O(√n) instead of O(n) for typical outlines).
 */
interface SegmentIndex {
  ax: Float64Array;
  ay: Float64Array;
  bx: Float64Array;
  by: Float64Array;
  ymin: number;
  bandHeight: number;
  bands: Int32Array[];
  /** Visit stamps for de-duplicating segments that span several bands. */
  seen: Uint32Array;
  tick: number;
}

const indexes = new WeakMap<Shape, SegmentIndex>();

function segmentIndex(s: Shape): SegmentIndex {
  const hit = indexes.get(s);
  if (hit) return hit;
  let n = 0;
  for (const part of s.parts) n += Math.max(0, part.length - 1);
  const ax = new Float64Array(n), ay = new Float64Array(n);
  const bx = new Float64Array(n), by = new Float64Array(n);
  let k = 0;
  for (const part of s.parts) {
    for (let i = 1; i < part.length; i++, k++) {
      ax[k] = part[i - 1][0];
      ay[k] = part[i - 1][1];
      bx[k] = part[i][0];
      by[k] = part[i][1];
    }
  }
  const ymin = s.bbox?.ymin ?? 0;
  const height = (s.bbox?.ymax ?? 0) - ymin;
  const count = height > 0 ? Math.max(1, Math.min(1024, Math.ceil(Math.sqrt(n)))) : 1;
  const bandHeight = height > 0 ? height / count : 1;
  const lists: number[][] = Array.from({ length: count }, () => []);
  const band = (y: number) => Math.max(0, Math.min(count - 1, Math.floor((y - ymin) / bandHeight)));
  for (let i = 0; i < n; i++) {
    const b1 = band(Math.max(ay[i], by[i]));
    for (let b = band(Math.min(ay[i], by[i])); b <= b1; b++) lists[b].push(i);
  }
  const idx = {
    ax,
    ay,
    bx,
    by,
    ymin,
    bandHeight,
    bands: lists.map((l) => Int32Array.from(l)),
    seen: new Uint32Array(n),
    tick: 0,
  };
  indexes.set(s, idx);
  return idx;
}

function bandOf(idx: SegmentIndex, y: number): number {
  return Math.max(0, Math.min(idx.bands.length - 1, Math.floor((y - idx.ymin) / idx.bandHeight)));
}

/**
 * Calls `fn` once for every segment of `s` whose bounding box comes within
 * `eps` of `box`.
 */
export function forEachSegmentNear(
  s: Shape,
  box: Extent,
  eps: number,
  fn: (a: Position, b: Position) => void,
): void {
  if (s.dim === 0 || !s.bbox) return;
  const idx = segmentIndex(s);
  if (++idx.tick === 0xffffffff) {
    idx.seen.fill(0);
    idx.tick = 1;
  }
  const tick = idx.tick;
  const b1 = bandOf(idx, box.ymax + eps);
  for (let b = bandOf(idx, box.ymin - eps); b <= b1; b++) {
    for (const i of idx.bands[b]) {
      if (idx.seen[i] === tick) continue;
      idx.seen[i] = tick;
      if (
        Math.max(idx.ax[i], idx.bx[i]) < box.xmin - eps ||
        Math.min(idx.ax[i], idx.bx[i]) > box.xmax + eps ||
        Math.max(idx.ay[i], idx.by[i]) < box.ymin - eps ||
        Math.min(idx.ay[i], idx.by[i]) > box.ymax + eps
      ) continue;
      fn([idx.ax[i], idx.ay[i]], [idx.bx[i], idx.by[i]]);
    }
  }
}

function onSegmentNear(p: Position, idx: SegmentIndex, eps: number): boolean {
  const b1 = bandOf(idx, p[1] + eps);
  for (let b = bandOf(idx, p[1] - eps); b <= b1; b++) {
    for (const i of idx.bands[b]) {
      if (
        p[0] < Math.min(idx.ax[i], idx.bx[i]) - eps ||
        p[0] > Math.max(idx.ax[i], idx.bx[i]) + eps ||
        p[1] < Math.min(idx.ay[i], idx.by[i]) - eps || p[1] > Math.max(idx.ay[i], idx.by[i]) + eps
      ) continue;
      if (pointSegmentDistance(p, [idx.ax[i], idx.ay[i]], [idx.bx[i], idx.by[i]]) <= eps) {
        return true;
      }
    }
  }
  return false;
}

/** Location of a point against a shape, with `eps` as the on-line tolerance. */
export function locate(p: Position, s: Shape, eps: number): Location {
  if (!s.bbox) return "exterior";
  const b = s.bbox;
  if (p[0] < b.xmin - eps || p[0] > b.xmax + eps || p[1] < b.ymin - eps || p[1] > b.ymax + eps) {
    return "exterior";
  }
  if (s.dim === 0) {
    return s.parts[0].some((q) => Math.hypot(p[0] - q[0], p[1] - q[1]) <= eps)
      ? "interior"
      : "exterior";
  }
  const idx = segmentIndex(s);
  if (s.dim === 1 || eps > 0) {
    if (onSegmentNear(p, idx, eps)) {
      if (s.dim === 2) return "boundary";
      return s.ends.some((q) => Math.hypot(p[0] - q[0], p[1] - q[1]) <= eps)
        ? "boundary"
        : "interior";
    }
    if (s.dim === 1) return "exterior";
  }
  // Even-odd ray casting to +x over the segments of the point's band only.
  const [x, y] = p;
  let inside = false;
  for (const i of idx.bands[bandOf(idx, y)]) {
    const ay = idx.ay[i], by = idx.by[i];
    if ((by > y) !== (ay > y)) {
      const ax = idx.ax[i], bx = idx.bx[i];
      const cross = ((ax - bx) * (y - by)) / (ay - by) + bx;
      if (x < cross) inside = !inside;
      else if (eps === 0 && x === cross) return "boundary";
    }
  }
  if (eps === 0 && onSegmentNear(p, idx, 0)) return "boundary";
  return inside ? "interior" : "exterior";
}

/** Calls `fn` for every segment of a shape of dimension 1 or 2. */
export function forEachSegment(s: Shape, fn: (a: Position, b: Position) => void): void {
  if (s.dim === 0) return;
  for (const part of s.parts) {
    for (let i = 1; i < part.length; i++) fn(part[i - 1], part[i]);
  }
}
