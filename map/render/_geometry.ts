/**
 * Geometry preparation for drawing: map coordinates (already in the
 * output spatial reference) to screen paths, with
 * - world copies: in a spatial reference that wraps (geographic, Web
 *   Mercator) a feature is drawn once per world copy that meets the view
 *   (map/geo/wrap.ts, the rule Identify and queries share). Geometry is
 *   drawn exactly as stored: a ring whose edge jumps across the map is
 *   such an edge, as queries see it too. Spherical data is cut at the
 *   antimeridian by its source at load (world-atlas), not here;
 * - simplification to the pixel size (vertices closer than half a pixel to
 *   the last kept one are dropped), so a whole-world view of detailed
 *   polygons stays fast;
 * - clipping to the (padded) image rectangle in screen space, so far-zoomed
 *   views never hand huge coordinates to Skia's float math.
 *
 * Paths come out as CanvasKit path commands (`MOVE`, `LINE`, `CLOSE` verbs
 * with coordinates) so a whole symbol group becomes one `Path.MakeFromCmds`.
 *
 * @module
 */
import type { Extent, Position } from "../types.ts";
import { type MapDisplay, toScreen } from "../geo/display.ts";
import { firstWorldCopy, lastWorldCopy, worldPeriod, worldShifts } from "../geo/wrap.ts";

/** CanvasKit path verbs (values of `CanvasKit.MOVE_VERB` etc.). */
export const MOVE = 0, LINE = 1, CLOSE = 5;

/** Affine map → screen transform: x' = a·x + b·y + c, y' = d·x + e·y + f. */
export interface Affine {
  a: number;
  b: number;
  c: number;
  d: number;
  e: number;
  f: number;
}

/** Everything the per-vertex loops need about the view. */
export interface ScreenView {
  t: Affine;
  /** Clip rectangle in pixels (image plus padding). */
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
  /** Visible map extent (rotation included) in output coordinates. */
  visible: Extent;
  /** Width of one world in output x units, or 0 when the SR does not wrap. */
  period: number;
}

/**
 * The affine transform equal to the display's `toScreen`, sampled at three
 * points so the display math stays in one place (map/geo/display.ts).
 */
export function affineOf(d: MapDisplay): Affine {
  const cx = (d.extent.xmin + d.extent.xmax) / 2;
  const cy = (d.extent.ymin + d.extent.ymax) / 2;
  const r = d.resolution;
  const o = toScreen(d, [cx, cy]);
  const px = toScreen(d, [cx + r, cy]);
  const py = toScreen(d, [cx, cy + r]);
  const a = (px[0] - o[0]) / r, dd = (px[1] - o[1]) / r;
  const b = (py[0] - o[0]) / r, e = (py[1] - o[1]) / r;
  return { a, b, c: o[0] - a * cx - b * cy, d: dd, e, f: o[1] - dd * cx - e * cy };
}

/**
 * Builds the screen view of a display in spatial reference `wkid`, with
 * `padPx` pixels of slack around the image (for stroke widths and markers).
 */
export function screenView(d: MapDisplay, wkid: number, padPx: number): ScreenView {
  return {
    t: affineOf(d),
    minX: -padPx,
    minY: -padPx,
    maxX: d.widthPx + padPx,
    maxY: d.heightPx + padPx,
    visible: d.visibleExtent,
    period: worldPeriod(wkid),
  };
}

/** World shifts (multiples of the period) at which x-range [x0, x1] meets the view. */
function shiftsFor(x0: number, x1: number, v: ScreenView): number[] {
  return worldShifts(x0, x1, v.visible.xmin, v.visible.xmax, v.period);
}

/**
 * Vertices `a` .. `b` of a path or ring (flat map coordinates) transformed
 * and radially simplified (0.5 px) into a flat [x0, y0, x1, y1, ...] list.
 * An open path keeps its last vertex (`keepLast`) so it ends where it
 * should; a closed ring keeps it only when half a pixel from the one before.
 */
function flatToScreen(
  xy: ArrayLike<number>,
  a: number,
  b: number,
  shift: number,
  t: Affine,
  keepLast: boolean,
): number[] {
  const out: number[] = [];
  let lx = NaN, ly = NaN;
  for (let i = a; i <= b; i++) {
    const x0 = xy[2 * i] + shift, y0 = xy[2 * i + 1];
    const x = t.a * x0 + t.b * y0 + t.c;
    const y = t.d * x0 + t.e * y0 + t.f;
    const dx = x - lx, dy = y - ly;
    if (i === a || dx * dx + dy * dy >= 0.25 || (keepLast && i === b)) {
      out.push(x, y);
      lx = x;
      ly = y;
    }
  }
  return out;
}

function bboxOfFlat(f: number[]): [number, number, number, number] {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (let i = 0; i < f.length; i += 2) {
    if (f[i] < x0) x0 = f[i];
    if (f[i] > x1) x1 = f[i];
    if (f[i + 1] < y0) y0 = f[i + 1];
    if (f[i + 1] > y1) y1 = f[i + 1];
  }
  return [x0, y0, x1, y1];
}

/** Sutherland–Hodgman clip of a closed flat ring against one half-plane. */
function clipEdge(f: number[], axis: 0 | 1, limit: number, keepGreater: boolean): number[] {
  const out: number[] = [];
  const n = f.length / 2;
  if (n === 0) return out;
  const inside = (i: number) => keepGreater ? f[i * 2 + axis] >= limit : f[i * 2 + axis] <= limit;
  let prev = n - 1;
  let prevIn = inside(prev);
  for (let i = 0; i < n; i++) {
    const curIn = inside(i);
    if (curIn !== prevIn) {
      const a = f[prev * 2 + axis], b = f[i * 2 + axis];
      const s = (limit - a) / (b - a);
      const o = 1 - axis;
      const other = f[prev * 2 + o] + s * (f[i * 2 + o] - f[prev * 2 + o]);
      if (axis === 0) out.push(limit, other);
      else out.push(other, limit);
    }
    if (curIn) out.push(f[i * 2], f[i * 2 + 1]);
    prev = i;
    prevIn = curIn;
  }
  return out;
}

function clipRing(f: number[], v: ScreenView): number[] {
  const [x0, y0, x1, y1] = bboxOfFlat(f);
  if (x1 < v.minX || x0 > v.maxX || y1 < v.minY || y0 > v.maxY) return [];
  if (x0 >= v.minX && x1 <= v.maxX && y0 >= v.minY && y1 <= v.maxY) return f;
  let r = f;
  r = clipEdge(r, 0, v.minX, true);
  r = clipEdge(r, 0, v.maxX, false);
  r = clipEdge(r, 1, v.minY, true);
  r = clipEdge(r, 1, v.maxY, false);
  return r;
}

/** Appends a closed ring (flat screen coordinates) to path commands. */
function emitRing(f: number[], cmds: number[]): void {
  if (f.length < 6) return;
  cmds.push(MOVE, f[0], f[1]);
  for (let i = 2; i < f.length; i += 2) cmds.push(LINE, f[i], f[i + 1]);
  cmds.push(CLOSE);
}

/** Whether x lies on an antimeridian (x = period/2 + k * period). */
function onMeridian(x: number, period: number): boolean {
  const r = (x - period / 2) / period;
  return Math.abs(r - Math.round(r)) < 1e-9;
}

/**
 * Appends a polygon's rings (output SR coordinates, as stored) as screen
 * path commands, once per visible world copy, simplified and clipped.
 * Returns the number of rings emitted.
 *
 * With `outline`, the commands to stroke are appended there too: the same
 * rings, except edges along the antimeridian (where spherical data was
 * cut at load), which are not part of the shape's boundary on the globe,
 * so no seam is drawn.
 */
export function addPolygon(
  rings: Position[][],
  v: ScreenView,
  cmds: number[],
  outline?: number[],
): number {
  let count = 0;
  for (const ring of rings) {
    if (ring.length < 3) continue;
    count += addRing(flatten(ring), ring.length, v, cmds, outline);
  }
  return count;
}

/** Work array of {@link flatten}: one ring's or path's flat coordinates at a time. */
let flat = new Float64Array(1024);

/** The positions as flat coordinates (x0, y0, x1, y1, ...) in the shared work array. */
function flatten(points: Position[]): Float64Array {
  const n = points.length;
  if (flat.length < 2 * n) flat = new Float64Array(Math.max(2 * n, 2 * flat.length));
  for (let i = 0; i < n; i++) {
    flat[2 * i] = points[i][0];
    flat[2 * i + 1] = points[i][1];
  }
  return flat;
}

/**
 * {@link addPolygon} of one ring given as `n` flat map coordinates
 * (x0, y0, x1, y1, ... in `xy`, which may be longer): the shared geometry
 * store hands its simplified rings this way, without a position array per
 * vertex. Returns the number of rings emitted (one per world copy drawn).
 */
export function addRing(
  xy: ArrayLike<number>,
  n: number,
  v: ScreenView,
  cmds: number[],
  outline?: number[],
): number {
  if (n < 3) return 0;
  let count = 0;
  let x0 = Infinity, x1 = -Infinity;
  for (let i = 0; i < n; i++) {
    const x = xy[2 * i];
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
  }
  const start = cmds.length;
  for (const shift of shiftsFor(x0, x1, v)) {
    const f = clipRing(flatToScreen(xy, 0, n - 1, shift, v.t, false), v);
    if (f.length >= 6) {
      emitRing(f, cmds);
      count++;
    }
  }
  if (!outline) return count;
  // Only a ring that reaches an antimeridian (within onMeridian's tolerance) can have an edge
  // along one.
  const reach = v.period / 2 - v.period * 2e-9;
  let cut = false;
  if (v.period > 0 && (x0 <= -reach || x1 >= reach)) {
    for (let i = 0; i < n - 1 && !cut; i++) cut = artificial(xy, i, v.period);
  }
  if (!cut) {
    for (let i = start; i < cmds.length; i++) outline.push(cmds[i]);
    return count;
  }
  // The outline is the ring's runs of vertices between such edges, as open paths.
  let a = 0;
  for (let i = 0; i < n - 1; i++) {
    if (!artificial(xy, i, v.period)) continue;
    if (i > a) addFlatPath(xy, a, i, v, outline);
    a = i + 1;
  }
  if (n - 1 > a) addFlatPath(xy, a, n - 1, v, outline);
  return count;
}

/** Whether edge i .. i + 1 of flat coordinates `xy` lies along an antimeridian. */
function artificial(xy: ArrayLike<number>, i: number, period: number): boolean {
  return onMeridian(xy[2 * i], period) && onMeridian(xy[2 * i + 2], period);
}

/** Liang–Barsky clip of one segment; returns [t0, t1] or null when outside. */
function clipSegment(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  v: ScreenView,
): [number, number] | null {
  let t0 = 0, t1 = 1;
  const dx = bx - ax, dy = by - ay;
  const p = [-dx, dx, -dy, dy];
  const q = [ax - v.minX, v.maxX - ax, ay - v.minY, v.maxY - ay];
  for (let i = 0; i < 4; i++) {
    if (p[i] === 0) {
      if (q[i] < 0) return null;
    } else {
      const r = q[i] / p[i];
      if (p[i] < 0) {
        if (r > t1) return null;
        if (r > t0) t0 = r;
      } else {
        if (r < t0) return null;
        if (r < t1) t1 = r;
      }
    }
  }
  return [t0, t1];
}

/** Appends a polyline path as clipped, simplified screen sub-paths. */
export function addPath(path: Position[], v: ScreenView, cmds: number[]): void {
  if (path.length < 2) return;
  addFlatPath(flatten(path), 0, path.length - 1, v, cmds);
}

/** {@link addPath} of vertices `a` .. `b` (inclusive) of flat map coordinates `xy`. */
function addFlatPath(xy: ArrayLike<number>, a: number, b: number, v: ScreenView, cmds: number[]) {
  let x0 = Infinity, x1 = -Infinity;
  for (let i = a; i <= b; i++) {
    const x = xy[2 * i];
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
  }
  for (const shift of shiftsFor(x0, x1, v)) {
    const f = flatToScreen(xy, a, b, shift, v.t, true);
    let open = false;
    for (let i = 0; i + 3 < f.length; i += 2) {
      const ax = f[i], ay = f[i + 1], bx = f[i + 2], by = f[i + 3];
      const c = clipSegment(ax, ay, bx, by, v);
      if (!c) {
        open = false;
        continue;
      }
      const sx = ax + c[0] * (bx - ax), sy = ay + c[0] * (by - ay);
      const ex = ax + c[1] * (bx - ax), ey = ay + c[1] * (by - ay);
      if (!open || c[0] > 0) cmds.push(MOVE, sx, sy);
      cmds.push(LINE, ex, ey);
      open = c[1] === 1;
    }
  }
}

/**
 * Screen positions of a point (one per visible world copy) that fall
 * inside the padded image; appended as x, y pairs.
 */
export function addPoint(p: Position, v: ScreenView, out: number[]): void {
  addPointAt(p[0], p[1], v, out);
}

/**
 * {@link addPoint} for a point given as two numbers: no array per point
 * (the point-store loop walks up to 100,000 of them per view).
 */
export function addPointAt(px: number, py: number, v: ScreenView, out: number[]): void {
  const period = v.period;
  const kMin = period > 0 ? firstWorldCopy(px, v.visible.xmin, period) : 0;
  const kMax = period > 0 ? lastWorldCopy(px, v.visible.xmax, period) : 0;
  for (let k = kMin; k <= kMax; k++) {
    const x0 = px + (k === 0 ? 0 : k * period); // never -0, as worldShifts
    const x = v.t.a * x0 + v.t.b * py + v.t.c;
    const y = v.t.d * x0 + v.t.e * py + v.t.f;
    if (x >= v.minX && x <= v.maxX && y >= v.minY && y <= v.maxY) out.push(x, y);
  }
}
