/**
 * Fill batches (_fill_batches.ts): features whose outline is their fill
 * commands are appended once, and their batch's outline is its fill.
 */
import assert from "node:assert/strict";
import { fillBatches } from "./_fill_batches.ts";
import { CLOSE, LINE, MOVE, PathCmds, type PathData } from "./_path_cmds.ts";
import { Scratch } from "./_scratch.ts";

/** A closed square of side 10 at (x, y), as flat path commands. */
function square(x: number, y: number): number[] {
  return [MOVE, x, y, LINE, x + 10, y, LINE, x + 10, y + 10, LINE, x, y + 10, CLOSE];
}

/** Flat path commands (verb, then x, y for MOVE and LINE) as a path. */
function pathOf(cmds: number[]): PathCmds {
  const p = new PathCmds(1);
  for (let i = 0; i < cmds.length;) {
    const verb = cmds[i++];
    if (verb === CLOSE) p.close();
    else if (verb === MOVE) p.move(cmds[i++], cmds[i++]);
    else p.line(cmds[i++], cmds[i++]);
  }
  return p;
}

/** A batch path back as flat commands. */
function flat(d: PathData): number[] {
  const out: number[] = [];
  for (let i = 0, p = 0; i < d.verbs.length; i++) {
    out.push(d.verbs[i]);
    if (d.verbs[i] !== CLOSE) out.push(d.points[p++], d.points[p++]);
  }
  return out;
}

/** The marks of a path after `verbs` verbs of `cmds`. */
function at(cmds: number[], verbs: number) {
  let v = 0, coords = 0;
  for (let i = 0; v < verbs; v++) {
    const verb = cmds[i++];
    if (verb !== CLOSE) (i += 2), (coords += 2);
  }
  return { verbs, coords };
}

Deno.test("features outlined by their own fill share one path with their outline", () => {
  // Two far-apart squares: one batch, drawn with one path for the fill and the outline.
  const cmds = [...square(0, 0), ...square(100, 100)];
  const batches = fillBatches(
    pathOf(cmds),
    new PathCmds(),
    [
      { fill: at(cmds, 0), outline: at([], 0), outlineIsFill: true },
      { fill: at(cmds, 5), outline: at([], 0), outlineIsFill: true },
    ],
    2,
    new Scratch(),
  );
  assert.equal(batches.length, 1);
  assert.deepEqual(flat(batches[0].fill), cmds);
  assert.equal(batches[0].outline, batches[0].fill);
});

Deno.test("a batch mixing both kinds outlines each feature as drawn one by one", () => {
  // Overlapping squares go to two batches; the second feature's outline is its own (an open
  // path), the third's its fill.
  const cmds = [...square(0, 0), ...square(5, 5), ...square(100, 0)];
  const own = [MOVE, 5, 5, LINE, 15, 5];
  const batches = fillBatches(
    pathOf(cmds),
    pathOf(own),
    [
      { fill: at(cmds, 0), outline: at(own, 0), outlineIsFill: true },
      { fill: at(cmds, 5), outline: at(own, 0) },
      { fill: at(cmds, 10), outline: at(own, 2), outlineIsFill: true },
    ],
    2,
    new Scratch(),
  );
  assert.equal(batches.length, 2);
  assert.deepEqual(flat(batches[0].fill), [...square(0, 0), ...square(100, 0)]);
  assert.equal(batches[0].outline, batches[0].fill);
  assert.deepEqual(flat(batches[1].fill), square(5, 5));
  assert.deepEqual(flat(batches[1].outline), own);
  // In one batch: the first feature's fill as its outline, then the second's own.
  const one = fillBatches(
    pathOf(cmds.slice(0, 26)),
    pathOf(own),
    [
      { fill: at(cmds, 0), outline: at(own, 0), outlineIsFill: true },
      { fill: at(cmds, 5), outline: at(own, 0) },
    ],
    -100,
    new Scratch(),
  );
  assert.equal(one.length, 1);
  assert.deepEqual(flat(one[0].outline), [...square(0, 0), ...own]);
});

Deno.test("features that may touch go to separate batches, in their drawing order", () => {
  // Three overlapping squares, no outline of their own: three levels, one feature each.
  const cmds = [...square(0, 0), ...square(5, 5), ...square(8, 8)];
  const batches = fillBatches(
    pathOf(cmds),
    new PathCmds(),
    [
      { fill: at(cmds, 0), outline: at([], 0), outlineIsFill: true },
      { fill: at(cmds, 5), outline: at([], 0), outlineIsFill: true },
      { fill: at(cmds, 10), outline: at([], 0), outlineIsFill: true },
    ],
    2,
    new Scratch(),
  );
  assert.deepEqual(batches.map((b) => flat(b.fill)), [square(0, 0), square(5, 5), square(8, 8)]);
});

Deno.test("a path grows past its first room and keeps every command", () => {
  const p = new PathCmds(1);
  const want: number[] = [];
  for (let r = 0; r < 50; r++) {
    want.push(...square(r * 20, r));
    p.ring(Float64Array.from([r * 20, r, r * 20 + 10, r, r * 20 + 10, r + 10, r * 20, r + 10]), 4);
  }
  const copy = new PathCmds(1);
  copy.append(p, at(want, 5));
  assert.deepEqual(flat(p.data()), want);
  assert.deepEqual(flat(copy.data()), want.slice(13));
});
