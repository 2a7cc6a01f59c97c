/**
 * A worst-case search polygon and an event-loop probe, for the liveness
 * test of large search geometries and its benchmark.
 *
 * @module
 */

/**
 * A self-intersecting star of `n` vertices (plus the closing one) around
 * 100E 60N, lon/lat rounded to 4 decimals.
 *
 * @example
 * ```ts
 * import { starRing } from "./_big_polygon.ts";
 * starRing(4).length; // 5
 * ```
 */
export function starRing(n: number): number[][] {
  const ring: number[][] = [];
  for (let i = 0; i < n; i++) {
    const a = (i * 2 * Math.PI * 7 * 3.0001) / n;
    const r = i % 2 ? 10 : 30;
    const round = (v: number) => Math.round(v * 1e4) / 1e4;
    ring.push([round(100 + r * Math.cos(a)), round(60 + r * Math.sin(a) * 0.5)]);
  }
  ring.push(ring[0]);
  return ring;
}

/**
 * The largest gap (ms) between answers to `probeUrl`, fetched every ~20 ms
 * while `work` runs: how long the server's event loop was held.
 *
 * @example
 * ```ts ignore
 * const gap = await largestProbeGap(`${url}/api/v1/`, async () => { await fetch(slowUrl); });
 * ```
 */
export async function largestProbeGap(
  probeUrl: string,
  work: () => Promise<void>,
): Promise<number> {
  let stop = false;
  let largest = 0;
  let last = performance.now();
  const probe = (async () => {
    while (!stop) {
      await (await fetch(probeUrl)).arrayBuffer();
      const now = performance.now();
      largest = Math.max(largest, now - last);
      last = now;
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  try {
    await work();
  } finally {
    stop = true;
    await probe;
  }
  return largest;
}
