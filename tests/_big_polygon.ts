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

/** The largest gap between two answers of the probe, in wall time and in process CPU time. */
export interface ProbeGap {
  /** Milliseconds of wall-clock time. */
  wallMs: number;
  /**
   * Milliseconds of CPU the event loop's own thread spent in that gap (from
   * `/proc/thread-self/stat`, 10 ms steps; the wall time where there is no
   * `/proc`). Unlike wall time it does not stretch when the machine is busy,
   * and unlike the process's CPU it leaves out other threads (test files run
   * in parallel in one process).
   */
  cpuMs: number;
}

/**
 * The largest gaps between answers to `probeUrl`, fetched every ~20 ms
 * while `work` runs: how long the server's event loop was held.
 *
 * @example
 * ```ts ignore
 * const { cpuMs } = await largestProbeGap(`${url}/api/v1/`, async () => { await fetch(slowUrl); });
 * ```
 */
export async function largestProbeGap(
  probeUrl: string,
  work: () => Promise<void>,
): Promise<ProbeGap> {
  let stop = false;
  const largest: ProbeGap = { wallMs: 0, cpuMs: 0 };
  const cpuNow = () => {
    try {
      const stat = Deno.readTextFileSync("/proc/thread-self/stat");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      return (Number(fields[11]) + Number(fields[12])) * 10; // utime + stime, 100 ticks a second
    } catch {
      return performance.now();
    }
  };
  let last = performance.now(), lastCpu = cpuNow();
  const probe = (async () => {
    while (!stop) {
      await (await fetch(probeUrl)).arrayBuffer();
      const now = performance.now(), cpu = cpuNow();
      largest.wallMs = Math.max(largest.wallMs, now - last);
      largest.cpuMs = Math.max(largest.cpuMs, cpu - lastCpu);
      last = now;
      lastCpu = cpu;
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
