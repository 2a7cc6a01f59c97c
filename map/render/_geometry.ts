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
 * Paths come out as verbs and coordinates in a {@link PathCmds}, so a whole
 * symbol group becomes one CanvasKit path.
 *
 * @module
 */
import type { Extent, Position } from "../types.ts";
import { type MapDisplay, toScreen } from "../geo/display.ts";
import { firstWorldCopy, lastWorldCopy, worldPeriod, worldShifts } from "../geo/wrap.ts";
import type { PathCmds } from "./_path_cmds.ts";

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
 * Work arrays of the ring and path pipeline (module-level, as {@link flatten}
 * does): screen coordinates from {@link flatToScreen} in `scrA`, then the
 * clip passes ping-pong between `scrA` and `scrB`. Typed arrays filled by
 * index, so the loops stay monomorphic and make no garbage.
 */
let scrA = new Float64Array(2048), scrB = new Float64Array(2048);
/** Which work array holds {@link clipRing}'s result. */
let clipped = scrA;

/** A Float64Array at least `n` long: `a` itself or a larger fresh one. */
function atLeast(a: Float64Array<ArrayBuffer>, n: number): Float64Array<ArrayBuffer> {
  return a.length >= n ? a : new Float64Array(Math.max(n, 2 * a.length));
}

/**
 * Vertices `a` .. `b` of a path or ring (flat map coordinates) transformed
 * and radially simplified (0.5 px) into `scrA` as x0, y0, x1, y1, ...;
 * returns the number of points. An open path keeps its last vertex
 * (`keepLast`) so it ends where it should; a closed ring keeps it only when
 * half a pixel from the one before.
 *
 * With `chunkOf` (each vertex's chunk) and `runOf` (each chunk's run, 0
 * for none; see {@link runsOfChunks}), of each stretch of kept points of
 * one run only the first and the last are written. Which points are kept
 * does not change: the simplification walks every vertex as without runs,
 * so the points outside runs are exactly those of the plain path.
 */
function flatToScreen(
  xy: ArrayLike<number>,
  a: number,
  b: number,
  shift: number,
  t: Affine,
  keepLast: boolean,
  chunkOf: Int32Array | null,
  runOf: Int32Array,
): number {
  scrA = atLeast(scrA, 2 * (b - a + 1));
  const out = scrA;
  let m = 0, lx = NaN, ly = NaN, lastRun = 0, inRun = 0;
  for (let i = a; i <= b; i++) {
    const x0 = xy[2 * i] + shift, y0 = xy[2 * i + 1];
    const x = t.a * x0 + t.b * y0 + t.c;
    const y = t.d * x0 + t.e * y0 + t.f;
    const dx = x - lx, dy = y - ly;
    if (i === a || dx * dx + dy * dy >= 0.25 || (keepLast && i === b)) {
      lx = x;
      ly = y;
      const run = chunkOf === null ? 0 : runOf[chunkOf[i]];
      if (run !== 0 && run === lastRun) {
        // The run's third and later points replace its previous last one.
        if (++inRun > 2) m -= 2;
      } else {
        lastRun = run;
        inRun = 1;
      }
      out[m++] = x;
      out[m++] = y;
    }
  }
  return m / 2;
}

/**
 * Chunks of a large ring (see the geometry store, _geomstore.ts): boxes
 * in map coordinates that each hold a stretch of consecutive vertices.
 */
export interface RingChunks {
  /** The chunk (0 .. count - 1) of each vertex handed to {@link addRing}. */
  of: Int32Array;
  /** xmin, ymin, xmax, ymax of each chunk, chunk k at 4 * (first + k). */
  box: Float64Array;
  first: number;
  count: number;
}

/** Run of each chunk from {@link runsOfChunks} (0: none). */
let chunkRun = new Int32Array(256);

/**
 * Runs of consecutive chunks that lie wholly beyond one side of the view's
 * clip rectangle in the world copy at `shift`, numbered from 1 in
 * `chunkRun` (null when there is none). Only sides whose Sutherland–Hodgman
 * pass ({@link clipRing}: left, right, top, bottom in turn) drops the run's
 * points without the earlier passes having cut them: beyond the left or
 * right side, or beyond the top or bottom side and between the left and
 * right ones. Then every pass sees the run as one stretch that it keeps
 * whole or drops whole, crossing only the edges into and out of it, so
 * clipping the run's first and last point alone gives exactly the points
 * the whole run gives. A screen box is taken from the chunk box's corners,
 * with a margin far above the rounding of the per-vertex transform.
 */
function runsOfChunks(ch: RingChunks, shift: number, v: ScreenView): Int32Array | null {
  if (chunkRun.length < ch.count) chunkRun = new Int32Array(2 * ch.count);
  const t = v.t, box = ch.box;
  let run = 0, last = 0;
  for (let k = 0; k < ch.count; k++) {
    const j = 4 * (ch.first + k);
    const x0 = box[j] + shift, y0 = box[j + 1], x1 = box[j + 2] + shift, y1 = box[j + 3];
    // An affine map takes a box's extremes at its corners, each coordinate separately.
    const ax0 = t.a * x0, ax1 = t.a * x1, by0 = t.b * y0, by1 = t.b * y1;
    const dx0 = t.d * x0, dx1 = t.d * x1, ey0 = t.e * y0, ey1 = t.e * y1;
    const sx0 = Math.min(ax0, ax1) + Math.min(by0, by1) + t.c;
    const sx1 = Math.max(ax0, ax1) + Math.max(by0, by1) + t.c;
    const sy0 = Math.min(dx0, dx1) + Math.min(ey0, ey1) + t.f;
    const sy1 = Math.max(dx0, dx1) + Math.max(ey0, ey1) + t.f;
    const mx = 1e-9 * (1 + Math.abs(ax0) + Math.abs(ax1) + Math.abs(by0) + Math.abs(by1) +
      Math.abs(t.c));
    const my = 1e-9 * (1 + Math.abs(dx0) + Math.abs(dx1) + Math.abs(ey0) + Math.abs(ey1) +
      Math.abs(t.f));
    const between = sx0 > v.minX + mx && sx1 < v.maxX - mx;
    const side = sx1 < v.minX - mx
      ? 1
      : sx0 > v.maxX + mx
      ? 2
      : between && sy1 < v.minY - my
      ? 3
      : between && sy0 > v.maxY + my
      ? 4
      : 0;
    if (side !== 0 && side !== last) run++;
    last = side;
    chunkRun[k] = side === 0 ? 0 : run;
  }
  return run > 0 ? chunkRun : null;
}

/**
 * How many of a ring's chunks lie in runs beyond the clip rectangle in the
 * world copy at `shift` (what {@link addRing} clips only the ends of).
 *
 * @example
 * ```ts
 * import { createDisplay } from "../geo/display.ts";
 * const v = screenView(createDisplay({ xmin: 0, ymin: 0, xmax: 4, ymax: 3 },
 *   { widthPx: 40, heightPx: 30, wkid: 4326 }), 4326, 2);
 * const box = new Float64Array([-9, 0, -8, 1, 0, 0, 1, 1]);
 * chunksBeyond({ of: new Int32Array(0), box, first: 0, count: 2 }, 0, v); // 1
 * ```
 */
export function chunksBeyond(ch: RingChunks, shift: number, v: ScreenView): number {
  const runs = runsOfChunks(ch, shift, v);
  let n = 0;
  for (let k = 0; runs !== null && k < ch.count; k++) if (runs[k] !== 0) n++;
  return n;
}

/**
 * Sutherland–Hodgman clip of the closed ring of `n` points in `f` against
 * one half-plane into `out` (at least 4n long); returns the points written.
 */
function clipEdge(
  f: Float64Array,
  n: number,
  out: Float64Array,
  axis: 0 | 1,
  limit: number,
  keepGreater: boolean,
): number {
  if (n === 0) return 0;
  const o = 1 - axis;
  let m = 0;
  let prev = n - 1;
  let pv = f[prev * 2 + axis];
  let prevIn = keepGreater ? pv >= limit : pv <= limit;
  for (let i = 0; i < n; i++) {
    const cv = f[i * 2 + axis];
    const curIn = keepGreater ? cv >= limit : cv <= limit;
    if (curIn !== prevIn) {
      const s = (limit - pv) / (cv - pv);
      const other = f[prev * 2 + o] + s * (f[i * 2 + o] - f[prev * 2 + o]);
      if (axis === 0) {
        out[m++] = limit;
        out[m++] = other;
      } else {
        out[m++] = other;
        out[m++] = limit;
      }
    }
    if (curIn) {
      out[m++] = f[i * 2];
      out[m++] = f[i * 2 + 1];
    }
    prev = i;
    pv = cv;
    prevIn = curIn;
  }
  return m / 2;
}

/**
 * Clips the ring of `n` points in `scrA` (from {@link flatToScreen}) to the
 * view's rectangle; returns the points left, which are in `clipped`.
 */
function clipRing(n: number, v: ScreenView): number {
  clipped = scrA;
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  const f = scrA;
  for (let i = 0; i < 2 * n; i += 2) {
    const x = f[i], y = f[i + 1];
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
  }
  if (x1 < v.minX || x0 > v.maxX || y1 < v.minY || y0 > v.maxY) return 0;
  if (x0 >= v.minX && x1 <= v.maxX && y0 >= v.minY && y1 <= v.maxY) return n;
  // A pass at most doubles the points; its target's old content is no longer needed.
  scrB = atLeast(scrB, 4 * n);
  let m = clipEdge(scrA, n, scrB, 0, v.minX, true);
  scrA = atLeast(scrA, 4 * m);
  m = clipEdge(scrB, m, scrA, 0, v.maxX, false);
  scrB = atLeast(scrB, 4 * m);
  m = clipEdge(scrA, m, scrB, 1, v.minY, true);
  scrA = atLeast(scrA, 4 * m);
  m = clipEdge(scrB, m, scrA, 1, v.maxY, false);
  clipped = scrA;
  return m;
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
  cmds: PathCmds,
  outline?: PathCmds,
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
 *
 * With `chunks`, of each run of chunks that lies beyond one side of the
 * clip rectangle (see {@link runsOfChunks}) only the first and the last
 * point kept are clipped: a small view of a continent clips a few hundred
 * points, not its whole coastline, and gets exactly the same path (and so
 * the same pixels) as without chunks.
 */
export function addRing(
  xy: ArrayLike<number>,
  n: number,
  v: ScreenView,
  cmds: PathCmds,
  outline?: PathCmds,
  chunks: RingChunks | null = null,
): number {
  if (n < 3) return 0;
  let count = 0;
  let x0 = Infinity, x1 = -Infinity;
  for (let i = 0; i < n; i++) {
    const x = xy[2 * i];
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
  }
  const start = cmds.mark();
  for (const shift of shiftsFor(x0, x1, v)) {
    const runs = chunks === null ? null : runsOfChunks(chunks, shift, v);
    const of = runs === null ? null : chunks!.of;
    const m = clipRing(flatToScreen(xy, 0, n - 1, shift, v.t, false, of, chunkRun), v);
    if (m >= 3) {
      cmds.ring(clipped, m);
      count++;
    }
  }
  if (!outline) return count;
  let cut = false;
  if (reachesMeridian(x0, x1, v.period)) {
    for (let i = 0; i < n - 1 && !cut; i++) cut = artificial(xy, i, v.period);
  }
  if (!cut) {
    outline.append(cmds, start);
    return count;
  }
  // The outline is the ring's runs of vertices between such edges, as open paths.
  let a = 0;
  for (let i = 0; i < n - 1; i++) {
    if (!artificial(xy, i, v.period)) continue;
    if (i > a) addFlatPath(xy, a, i, v, outline, chunks);
    a = i + 1;
  }
  if (n - 1 > a) addFlatPath(xy, a, n - 1, v, outline, chunks);
  return count;
}

/**
 * Whether x-range [x0, x1] reaches an antimeridian of a world `period` wide
 * (within onMeridian's tolerance): only a ring that does can have an edge
 * along one, so only its outline can differ from its fill commands.
 *
 * @example
 * ```ts
 * reachesMeridian(170, 180, 360); // true
 * reachesMeridian(-10, 10, 360); // false
 * ```
 */
export function reachesMeridian(x0: number, x1: number, period: number): boolean {
  const reach = period / 2 - period * 2e-9;
  return period > 0 && (x0 <= -reach || x1 >= reach);
}

/** Whether edge i .. i + 1 of flat coordinates `xy` lies along an antimeridian. */
function artificial(xy: ArrayLike<number>, i: number, period: number): boolean {
  return onMeridian(xy[2 * i], period) && onMeridian(xy[2 * i + 2], period);
}

/** The parameters {@link clipSegment} leaves: the part of the segment inside. */
let segT0 = 0, segT1 = 1;

/** One boundary of {@link clipSegment}; false when the segment lies wholly outside it. */
function clipAgainst(p: number, q: number): boolean {
  if (p === 0) return !(q < 0);
  const r = q / p;
  if (p < 0) {
    if (r > segT1) return false;
    if (r > segT0) segT0 = r;
  } else {
    if (r < segT0) return false;
    if (r < segT1) segT1 = r;
  }
  return true;
}

/**
 * Liang–Barsky clip of one segment; false when outside, else the part
 * inside is `segT0` .. `segT1`.
 */
function clipSegment(ax: number, ay: number, bx: number, by: number, v: ScreenView): boolean {
  segT0 = 0;
  segT1 = 1;
  const dx = bx - ax, dy = by - ay;
  return clipAgainst(-dx, ax - v.minX) && clipAgainst(dx, v.maxX - ax) &&
    clipAgainst(-dy, ay - v.minY) && clipAgainst(dy, v.maxY - ay);
}

/** Appends a polyline path as clipped, simplified screen sub-paths. */
export function addPath(path: Position[], v: ScreenView, cmds: PathCmds): void {
  if (path.length < 2) return;
  addFlatPath(flatten(path), 0, path.length - 1, v, cmds, null);
}

/**
 * {@link addPath} of vertices `a` .. `b` (inclusive) of flat map coordinates
 * `xy`; `chunks` as {@link addRing}'s: each segment of a run lies wholly
 * beyond one side, so clipSegment drops it as it drops the one segment
 * between the run's ends, and the sub-paths are the same.
 */
function addFlatPath(
  xy: ArrayLike<number>,
  a: number,
  b: number,
  v: ScreenView,
  cmds: PathCmds,
  chunks: RingChunks | null,
) {
  let x0 = Infinity, x1 = -Infinity;
  for (let i = a; i <= b; i++) {
    const x = xy[2 * i];
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
  }
  for (const shift of shiftsFor(x0, x1, v)) {
    const runs = chunks === null ? null : runsOfChunks(chunks, shift, v);
    const of = runs === null ? null : chunks!.of;
    const n = flatToScreen(xy, a, b, shift, v.t, true, of, chunkRun);
    const f = scrA;
    let open = false;
    for (let i = 0; i + 1 < n; i++) {
      const ax = f[2 * i], ay = f[2 * i + 1], bx = f[2 * i + 2], by = f[2 * i + 3];
      if (!clipSegment(ax, ay, bx, by, v)) {
        open = false;
        continue;
      }
      const t0 = segT0, t1 = segT1;
      const sx = ax + t0 * (bx - ax), sy = ay + t0 * (by - ay);
      const ex = ax + t1 * (bx - ax), ey = ay + t1 * (by - ay);
      if (!open || t0 > 0) cmds.move(sx, sy);
      cmds.line(ex, ey);
      open = t1 === 1;
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
