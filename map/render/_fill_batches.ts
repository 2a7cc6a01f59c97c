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
import { CLOSE, LINE, MOVE } from "./_geometry.ts";

/** Where one feature's fill and outline commands begin. */
export interface FeatureStart {
  cmds: number;
  outline: number;
  /**
   * The feature's outline is its fill commands, which the outline list
   * does not repeat (it holds only what was appended there after them);
   * the common case: only rings along an antimeridian outline otherwise.
   */
  outlineIsFill?: boolean;
}

/**
 * One batch: the fill and outline commands of features that cannot share a
 * pixel, as the 32-bit floats CanvasKit's paths take (copied into its heap
 * as they are, instead of converted element by element from a JS array).
 * `outline` is `cmds` itself when the two are the same commands (one path
 * serves both draws).
 */
export interface FillBatch {
  cmds: Float32Array;
  outline: Float32Array;
}

/** Grid cells per axis at most (cells grow for big images). */
const MAX_CELLS = 128;

/** Screen box of path commands in `cmds[from, to)` (MOVE/LINE with x, y; CLOSE alone). */
function boxOf(cmds: number[], from: number, to: number): [number, number, number, number] {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (let i = from; i < to;) {
    const verb = cmds[i++];
    if (verb === MOVE || verb === LINE) {
      const x = cmds[i++], y = cmds[i++];
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    } else if (verb !== CLOSE) {
      throw new Error(`Polygon commands hold an unexpected verb ${verb}.`);
    }
  }
  return [x0, y0, x1, y1];
}

/**
 * Groups features (given in drawing order by where their commands start)
 * into batches, drawn in order, each with the same pixels as drawing its
 * features one by one. `padPx` is how far a feature's pixels may reach
 * beyond its path (half the outline width plus anti-aliasing).
 */
export function fillBatches(
  cmds: number[],
  outline: number[],
  starts: FeatureStart[],
  padPx: number,
): FillBatch[] {
  const n = starts.length;
  if (n === 0) return [];
  const boxes = new Float64Array(n * 4);
  let gx0 = Infinity, gy0 = Infinity, gx1 = -Infinity, gy1 = -Infinity;
  for (let i = 0; i < n; i++) {
    const end = i + 1 < n ? starts[i + 1].cmds : cmds.length;
    const [x0, y0, x1, y1] = boxOf(cmds, starts[i].cmds, end);
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
  // One conversion of each command list to floats, then native slice copies per level (pushing
  // numbers one by one into growing arrays was a tenth of a 50m world map's time).
  const cmds32 = new Float32Array(cmds), outline32 = new Float32Array(outline);
  const endOf = (i: number) =>
    i + 1 < n ? starts[i + 1] : { cmds: cmds.length, outline: outline.length };
  if (levels.length === 1 && !starts.some((s) => s.outlineIsFill)) {
    return [{
      cmds: cmds32.subarray(starts[0].cmds),
      outline: outline32.subarray(starts[0].outline),
    }];
  }
  return levels.map((members) => {
    let nc = 0, no = 0, shared = true;
    for (const i of members) {
      const start = starts[i], end = endOf(i);
      nc += end.cmds - start.cmds;
      no += end.outline - start.outline;
      if (start.outlineIsFill) no += end.cmds - start.cmds;
      shared &&= start.outlineIsFill === true && end.outline === start.outline;
    }
    const batch: FillBatch = { cmds: new Float32Array(nc), outline: new Float32Array(0) };
    batch.outline = shared ? batch.cmds : new Float32Array(no);
    let oc = 0, oo = 0;
    for (const i of members) {
      const start = starts[i], end = endOf(i);
      const fill = cmds32.subarray(start.cmds, end.cmds);
      batch.cmds.set(fill, oc);
      oc += fill.length;
      if (shared) continue;
      // As drawn feature by feature: its own outline, then what follows it in the outline list.
      if (start.outlineIsFill) {
        batch.outline.set(fill, oo);
        oo += fill.length;
      }
      batch.outline.set(outline32.subarray(start.outline, end.outline), oo);
      oo += end.outline - start.outline;
    }
    return batch;
  });
}
