/**
 * Run as a separate process by render_gc_test.ts (with or without
 * `--v8-flags=--expose-gc`): a pool of two workers with a 50 ms idle trim
 * draws a map, waits until both workers gave their memory back (bounded),
 * draws it again, waits as long again, and prints what it saw as JSON: the
 * trims after the first wait and after the second, whether both images'
 * decoded pixels are equal, and the second image's RGBA at Moscow (a red marker).
 */
import { RenderPool } from "../map/render/pool.ts";
import { decode, pixel, poolMapJob } from "./_render_helpers.ts";

const pool = new RenderPool({
  size: 2,
  idleTrimMs: 50,
  loader: {
    module: new URL("./_render_helpers.ts", import.meta.url).href,
    export: "loadTestServices",
  },
});
const job = poolMapJob();
const trimmed = async (n: number) => {
  // Bounded wait for `n` trims in all (none come without --expose-gc); no speed is asserted.
  for (let i = 0; i < 100 && pool.stats().trims < n; i++) {
    await new Promise((r) => setTimeout(r, 50));
  }
  return pool.stats().trims;
};
try {
  for (let i = 0; i < 600 && pool.stats().warmedWorkers < 2; i++) {
    await new Promise((r) => setTimeout(r, 50));
  }
  const first = decode((await pool.run(job)).bytes);
  const trimsAfterFirst = await trimmed(2);
  const second = decode((await pool.run(job)).bytes);
  const trimsAfterSecond = await trimmed(3);
  // Idle as long again: a worker trims once per idle spell, not on every tick.
  await new Promise((r) => setTimeout(r, 500));
  console.log(JSON.stringify({
    trimsAfterFirst,
    trimsAfterSecond,
    trimsLater: pool.stats().trims,
    samePixels: first.width === second.width &&
      first.data.length === second.data.length &&
      first.data.every((v, i) => v === second.data[i]),
    pixel: pixel(second, (37.62 + 180) / (360 / 512), (90 - 55.75) / (360 / 512)),
    jobs: pool.stats().jobs,
  }));
} finally {
  pool.close();
}
