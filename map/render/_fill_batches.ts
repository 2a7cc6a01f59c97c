/**
 * Batching polygon features without changing a pixel. ArcGIS fills and
 * outlines each feature on its own, so overlapping features of one layer
 * never cancel each other (as they would inside one even-odd path), a
 * semi-transparent fill blends over the features below it, and a later
 * fill covers the outline of an earlier feature.
 *
 * Drawing a set of features as one path (fill, then outline) gives that
 * same result when no two of them can touch a common pixel. So features
 * are sorted into levels: a feature's level is one more than the highest
 * level of the earlier features it may touch. Features that may touch are
 * then drawn in their order, and the features of one level never touch:
 * one fill and one outline draw per level, identical to drawing feature by
 * feature. "May touch" is decided on a coarse grid of screen cells holding
 * padded bounding boxes: it can only over-separate, never merge.
 *
 * @module
 */
import type { PathCmds, PathData, PathMark } from "./_path_cmds.ts";
import type { Scratch } from "./_scratch.ts";

/** Where one feature's fill and outline commands begin. */
export interface FeatureStart {
  fill: PathMark;
  outline: PathMark;
  /**
   * The feature's outline is its fill commands, which the outline path
   * does not repeat (it holds only what was appended there after them);
   * the common case: only rings along an antimeridian outline otherwise.
   */
  outlineIsFill?: boolean;
}

/**
 * One batch: the fill and outline paths of features that cannot share a
 * pixel. `outline` is `fill` itself when the two are the same commands
 * (one path serves both draws).
 */
export interface FillBatch {
  fill: PathData;
  outline: PathData;
}

/** Grid cells per axis at most (cells grow for big images). */
const MAX_CELLS = 128;

/** Screen box of the points in `coords[from, to)` (x, y pairs). */
function boxOf(coords: Float64Array, from: number, to: number): [number, number, number, number] {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (let i = from; i < to; i += 2) {
    const x = coords[i], y = coords[i + 1];
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
  }
  return [x0, y0, x1, y1];
}

/** Sizes of a batch's paths while it is laid out. */
interface Sizes {
  verbs: number;
  coords: number;
}

/** Copies `from`'s commands between two marks to `to` at `at` (advanced). */
function copyInto(
  to: PathData,
  at: Sizes,
  from: PathCmds,
  points: Float32Array,
  a: PathMark,
  b: PathMark,
): void {
  to.verbs.set(from.verbs.subarray(a.verbs, b.verbs), at.verbs);
  to.points.set(points.subarray(a.coords, b.coords), at.coords);
  at.verbs += b.verbs - a.verbs;
  at.coords += b.coords - a.coords;
}

/** `n` 32-bit floats of the thread's kept work buffer for `role` (see _scratch.ts). */
function floats(scratch: Scratch, role: string, n: number): Float32Array {
  const b = scratch.bytes(role, 4 * n);
  return new Float32Array(b.buffer, b.byteOffset, n);
}

/** The coordinates of `path` up to `end` as 32-bit floats, in the kept buffer for `role`. */
function points32(scratch: Scratch, role: string, path: PathCmds, end: PathMark): Float32Array {
  const out = floats(scratch, role, end.coords);
  out.set(path.coords.subarray(0, end.coords));
  return out;
}

/**
 * Groups features (given in drawing order by where their commands start)
 * into batches, drawn in order, each with the same pixels as drawing its
 * features one by one. `padPx` is how far a feature's pixels may reach
 * beyond its path (half the outline width plus anti-aliasing). The batches'
 * arrays are `scratch`'s: valid until the next call.
 */
export function fillBatches(
  fill: PathCmds,
  outline: PathCmds,
  starts: FeatureStart[],
  padPx: number,
  scratch: Scratch,
): FillBatch[] {
  const n = starts.length;
  if (n === 0) return [];
  const fillEnd = fill.mark(), outlineEnd = outline.mark();
  const endOf = (i: number) => i + 1 < n ? starts[i + 1] : { fill: fillEnd, outline: outlineEnd };
  const boxes = new Float64Array(n * 4);
  let gx0 = Infinity, gy0 = Infinity, gx1 = -Infinity, gy1 = -Infinity;
  for (let i = 0; i < n; i++) {
    const [x0, y0, x1, y1] = boxOf(fill.coords, starts[i].fill.coords, endOf(i).fill.coords);
    boxes.set([x0 - padPx, y0 - padPx, x1 + padPx, y1 + padPx], i * 4);
    if (x0 > x1) continue; // no fill commands: touches nothing
    gx0 = Math.min(gx0, x0 - padPx);
    gy0 = Math.min(gy0, y0 - padPx);
    gx1 = Math.max(gx1, x1 + padPx);
    gy1 = Math.max(gy1, y1 + padPx);
  }
  const cell = Math.max(16, (gx1 - gx0) / MAX_CELLS, (gy1 - gy0) / MAX_CELLS);
  const cols = Math.max(1, Math.ceil((gx1 - gx0) / cell) + 1);
  const rows = Math.max(1, Math.ceil((gy1 - gy0) / cell) + 1);
  // Highest level drawn so far in each cell (-1: none).
  const top = new Int32Array(cols * rows).fill(-1);
  const levels: number[][] = [];
  for (let i = 0; i < n; i++) {
    let level = 0;
    const x0 = boxes[i * 4], y0 = boxes[i * 4 + 1], x1 = boxes[i * 4 + 2], y1 = boxes[i * 4 + 3];
    if (x0 <= x1) {
      const c0 = Math.floor((x0 - gx0) / cell), c1 = Math.floor((x1 - gx0) / cell);
      const r0 = Math.floor((y0 - gy0) / cell), r1 = Math.floor((y1 - gy0) / cell);
      for (let r = r0; r <= r1; r++) {
        for (let c = c0; c <= c1; c++) level = Math.max(level, top[r * cols + c] + 1);
      }
      for (let r = r0; r <= r1; r++) top.fill(level, r * cols + c0, r * cols + c1 + 1);
    }
    (levels[level] ??= []).push(i);
  }
  // One conversion of each path's coordinates to 32-bit floats, then native slice copies per
  // level (pushing numbers one by one into growing arrays was a tenth of a 50m world map's time).
  const fill32 = points32(scratch, "batch fill points", fill, fillEnd);
  const outline32 = points32(scratch, "batch outline points", outline, outlineEnd);
  if (levels.length === 1 && !starts.some((s) => s.outlineIsFill)) {
    const { fill: f, outline: o } = starts[0];
    return [{
      fill: {
        verbs: fill.verbs.subarray(f.verbs, fillEnd.verbs),
        points: fill32.subarray(f.coords),
      },
      outline: {
        verbs: outline.verbs.subarray(o.verbs, outlineEnd.verbs),
        points: outline32.subarray(o.coords),
      },
    }];
  }
  // Each level's sizes, then one array of verbs and one of points that all of them share.
  const laid = levels.map((members) => {
    const nf: Sizes = { verbs: 0, coords: 0 }, no: Sizes = { verbs: 0, coords: 0 };
    let shared = true;
    for (const i of members) {
      const start = starts[i], end = endOf(i);
      const fv = end.fill.verbs - start.fill.verbs, fc = end.fill.coords - start.fill.coords;
      nf.verbs += fv;
      nf.coords += fc;
      no.verbs += end.outline.verbs - start.outline.verbs;
      no.coords += end.outline.coords - start.outline.coords;
      if (start.outlineIsFill) {
        no.verbs += fv;
        no.coords += fc;
      }
      shared &&= start.outlineIsFill === true && end.outline.verbs === start.outline.verbs;
    }
    return { members, nf, no: shared ? null : no };
  });
  const total: Sizes = { verbs: 0, coords: 0 };
  for (const { nf, no } of laid) {
    total.verbs += nf.verbs + (no?.verbs ?? 0);
    total.coords += nf.coords + (no?.coords ?? 0);
  }
  const verbs = scratch.bytes("batch verbs", total.verbs);
  const points = floats(scratch, "batch points", total.coords);
  const taken: Sizes = { verbs: 0, coords: 0 };
  const take = (size: Sizes): PathData => {
    const d = {
      verbs: verbs.subarray(taken.verbs, taken.verbs + size.verbs),
      points: points.subarray(taken.coords, taken.coords + size.coords),
    };
    taken.verbs += size.verbs;
    taken.coords += size.coords;
    return d;
  };
  return laid.map(({ members, nf, no }) => {
    const own = take(nf);
    const batch: FillBatch = { fill: own, outline: no ? take(no) : own };
    const atFill: Sizes = { verbs: 0, coords: 0 }, atOutline: Sizes = { verbs: 0, coords: 0 };
    for (const i of members) {
      const start = starts[i], end = endOf(i);
      copyInto(batch.fill, atFill, fill, fill32, start.fill, end.fill);
      if (!no) continue;
      // As drawn feature by feature: its own outline, then what follows it in the outline path.
      if (start.outlineIsFill) {
        copyInto(batch.outline, atOutline, fill, fill32, start.fill, end.fill);
      }
      copyInto(batch.outline, atOutline, outline, outline32, start.outline, end.outline);
    }
    return batch;
  });
}
