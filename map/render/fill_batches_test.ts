/**
 * Fill batches (_fill_batches.ts): features whose outline is their fill
 * commands are appended once, and their batch's outline is its fill.
 */
import assert from "node:assert/strict";
import { fillBatches } from "./_fill_batches.ts";
import { CLOSE, LINE, MOVE } from "./_geometry.ts";

/** A closed square of side 10 at (x, y), as path commands. */
function square(x: number, y: number): number[] {
  return [MOVE, x, y, LINE, x + 10, y, LINE, x + 10, y + 10, LINE, x, y + 10, CLOSE];
}

Deno.test("features outlined by their own fill share one command array with their outline", () => {
  // Two far-apart squares: one batch, drawn with one path for the fill and the outline.
  const cmds = [...square(0, 0), ...square(100, 100)];
  const batches = fillBatches(cmds, [], [
    { cmds: 0, outline: 0, outlineIsFill: true },
    { cmds: 13, outline: 0, outlineIsFill: true },
  ], 2);
  assert.equal(batches.length, 1);
  assert.deepEqual([...batches[0].cmds], cmds);
  assert.equal(batches[0].outline, batches[0].cmds);
});

Deno.test("a batch mixing both kinds outlines each feature as drawn one by one", () => {
  // Overlapping squares go to two batches; the second feature's outline is its own (an open
  // path), the third's its fill.
  const cmds = [...square(0, 0), ...square(5, 5), ...square(100, 0)];
  const own = [MOVE, 5, 5, LINE, 15, 5];
  const batches = fillBatches(cmds, own, [
    { cmds: 0, outline: 0, outlineIsFill: true },
    { cmds: 13, outline: 0 },
    { cmds: 26, outline: 6, outlineIsFill: true },
  ], 2);
  assert.equal(batches.length, 2);
  assert.deepEqual([...batches[0].cmds], [...square(0, 0), ...square(100, 0)]);
  assert.equal(batches[0].outline, batches[0].cmds);
  assert.deepEqual([...batches[1].cmds], square(5, 5));
  assert.deepEqual([...batches[1].outline], own);
  // In one batch: the first feature's fill as its outline, then the second's own.
  const one = fillBatches(cmds.slice(0, 26), own, [
    { cmds: 0, outline: 0, outlineIsFill: true },
    { cmds: 13, outline: 0 },
  ], -100);
  assert.equal(one.length, 1);
  assert.deepEqual([...one[0].outline], [...square(0, 0), ...own]);
});
