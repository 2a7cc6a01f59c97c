import assert from "node:assert/strict";
import { dedupeKeepLast, overlapFreeGroups } from "./_markers.ts";
import { Scratch } from "./_scratch.ts";
import { seededRandom } from "../../tests/_random.ts";

/** The Set-based duplicate removal these helpers replaced (the reference). */
function referenceDedupe(xy: number[], ox: number, oy: number): number[] {
  const seen = new Set<number>();
  const keep: number[] = [];
  for (let i = xy.length - 2; i >= 0; i -= 2) {
    const key = (Math.round(xy[i] * 4) + 65536) * 262144 + Math.round(xy[i + 1] * 4) + 65536;
    if (seen.has(key)) continue;
    seen.add(key);
    keep.push(i);
  }
  return keep.reverse().flatMap((i) => [xy[i] + ox, xy[i + 1] + oy]);
}

/** The Map-based grouping these helpers replaced, as boundaries (the reference). */
function referenceGroups(xy: number[], cell: number): number[] {
  const bounds = [0];
  const owner = new Map<number, number>();
  let group = 0;
  for (let i = 0; i < xy.length; i += 2) {
    const cx = Math.floor(xy[i] / cell), cy = Math.floor(xy[i + 1] / cell);
    let clash = false;
    for (let dx = -1; dx <= 1; dx++) {
      for (let dy = -1; dy <= 1; dy++) {
        if (owner.get((cx + dx) * 65536 + (cy + dy)) === group) clash = true;
      }
    }
    if (clash) {
      bounds.push(i);
      group++;
    }
    owner.set(cx * 65536 + cy, group);
  }
  bounds.push(xy.length);
  return bounds;
}

/** `n` points on a w x h image plus margin, many on repeated quarter-pixel spots. */
function points(n: number, w: number, h: number, seed: number): number[] {
  const r = seededRandom(seed);
  const xy: number[] = [];
  for (let i = 0; i < n; i++) {
    if (i > 0 && r() < 0.3) {
      // Near an earlier point: the same quarter-pixel spot or a neighbouring one.
      const j = Math.floor(r() * i);
      xy.push(xy[2 * j] + (r() - 0.5) * 0.3, xy[2 * j + 1] + (r() - 0.5) * 0.3);
    } else xy.push(r() * (w + 40) - 20, r() * (h + 40) - 20);
  }
  return xy;
}

Deno.test("dedupeKeepLast: keeps the last marker of each spot, in drawing order", () => {
  const s = new Scratch();
  assert.deepEqual([...dedupeKeepLast([1, 1, 5, 5, 1.0625, 0.9375, 2, 2], 10, -1, s)], [
    15,
    4,
    11.0625,
    -0.0625,
    12,
    1,
  ]);
  assert.deepEqual([...dedupeKeepLast([], 0, 0, s)], []);
});

Deno.test("dedupeKeepLast: same points as the Set-based reference on random input", () => {
  const s = new Scratch();
  for (const [n, seed] of [[10, 1], [1000, 2], [100_000, 3], [50, 4]]) {
    // Dense images (many duplicates) and sparse ones; the scratch is reused between calls.
    const xy = points(n, n > 1000 ? 400 : 1024, n > 1000 ? 300 : 768, seed);
    assert.deepEqual([...dedupeKeepLast(xy, 0.5, -2, s)], referenceDedupe(xy, 0.5, -2));
  }
});

Deno.test("overlapFreeGroups: splits where a marker could touch one of its own run", () => {
  const s = new Scratch();
  assert.deepEqual([...overlapFreeGroups([0, 0, 100, 0, 1, 1, 50, 50], 10, s)], [0, 4, 8]);
  assert.deepEqual([...overlapFreeGroups([], 10, s)], [0, 0]);
});

Deno.test("overlapFreeGroups: same runs as the Map-based reference on random input", () => {
  const s = new Scratch();
  for (const [n, cell, seed] of [[200, 12, 5], [5000, 7.5, 6], [100_000, 20, 7], [30, 3, 8]]) {
    const xy = points(n, 1024, 768, seed);
    assert.deepEqual([...overlapFreeGroups(xy, cell, s)], referenceGroups(xy, cell));
  }
});
