/**
 * Batching polygon features without changing a pixel. ArcGIS fills and
 * outlines each feature on its own, so overlapping features of one layer
 * never cancel each other (as they would inside one even-odd path), a
 * semi-transparent fill blends over the features below it, and a later
 * fill covers the outline of an earlier feature. Drawing a run of features
 * as one path gives exactly that result only when no two of them can touch
 * a common pixel: this module splits the features, in drawing order, into
 * consecutive runs whose padded screen boxes are pairwise disjoint.
 *
 * @module
 */
import { CLOSE, LINE, MOVE } from "./_geometry.ts";

/** One run: [start, end) into the fill commands and into the outline commands. */
export interface FillRun {
  cmds: [number, number];
  outline: [number, number];
}

/** Longest run checked pairwise; longer runs are split (a few more draws, never a wrong pixel). */
const MAX_RUN = 256;

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
 * Splits features into runs that can each be drawn as one path with the
 * same pixels as drawing the features one by one. `starts` holds, per
 * feature in drawing order, where its fill commands and its outline
 * commands begin; `padPx` is how far a feature's pixels may reach beyond
 * its path (half the outline width plus anti-aliasing).
 */
export function disjointRuns(
  cmds: number[],
  outline: number[],
  starts: { cmds: number; outline: number }[],
  padPx: number,
): FillRun[] {
  const runs: FillRun[] = [];
  let run: [number, number, number, number][] = [];
  let first = 0;
  const close = (end: number) => {
    if (end <= first) return;
    const next = end < starts.length ? starts[end] : { cmds: cmds.length, outline: outline.length };
    runs.push({
      cmds: [starts[first].cmds, next.cmds],
      outline: [starts[first].outline, next.outline],
    });
  };
  for (let i = 0; i < starts.length; i++) {
    const end = i + 1 < starts.length ? starts[i + 1].cmds : cmds.length;
    const [bx0, by0, bx1, by1] = boxOf(cmds, starts[i].cmds, end);
    const b: [number, number, number, number] = [
      bx0 - padPx,
      by0 - padPx,
      bx1 + padPx,
      by1 + padPx,
    ];
    let clash = run.length >= MAX_RUN;
    for (let k = 0; k < run.length && !clash; k++) {
      const r = run[k];
      clash = b[0] <= r[2] && r[0] <= b[2] && b[1] <= r[3] && r[1] <= b[3];
    }
    if (clash) {
      close(i);
      first = i;
      run = [];
    }
    run.push(b);
  }
  close(starts.length);
  return runs;
}
