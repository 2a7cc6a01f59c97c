/**
 * The output folder of images returned by URL (esriImageReturnURL): files
 * named like ArcGIS's (`_ags_map<32 hex>.png`, `_ags_leg...`, `_ags_sb...`),
 * removed again after a given age by a sweep that runs at most once
 * a minute, piggybacked on writes.
 *
 * @module
 */
import { join } from "node:path";

/** Default age (10 minutes) after which written images are removed. */
export const DEFAULT_OUTPUT_MAX_AGE_MS = 10 * 60 * 1000;

/** Deletes our files in `dir` older than `maxAgeMs`; returns how many. */
export async function sweepOutput(
  dir: string,
  maxAgeMs: number,
  now = Date.now(),
): Promise<number> {
  let removed = 0;
  try {
    for await (const e of Deno.readDir(dir)) {
      if (!e.isFile || !e.name.startsWith("_ags_")) continue;
      const path = join(dir, e.name);
      try {
        const st = await Deno.stat(path);
        if (st.mtime && now - st.mtime.getTime() > maxAgeMs) {
          await Deno.remove(path);
          removed++;
        }
      } catch {
        // Removed concurrently by another sweep: nothing to do.
      }
    }
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  return removed;
}

/**
 * One server's exported images: writes them under fresh names and sweeps
 * those older than `maxAgeMs` now and then (at most once a minute per folder).
 *
 * @example
 * ```ts
 * const output = new OutputFolder({ maxAgeMs: 5 * 60_000 });
 * const name = await output.write("var/output/World_MapServer", "map", "png", new Uint8Array([1]));
 * ```
 */
export class OutputFolder {
  /** How long written images are kept. */
  readonly maxAgeMs: number;
  readonly #lastSweep = new Map<string, number>();

  /** Keeps images for `maxAgeMs` (default 10 minutes). */
  constructor(opts: { maxAgeMs?: number } = {}) {
    const age = opts.maxAgeMs;
    this.maxAgeMs = typeof age === "number" && age >= 0 ? age : DEFAULT_OUTPUT_MAX_AGE_MS;
  }

  /**
   * Writes `bytes` to `dir` under a fresh random name and returns the file
   * name; sweeps expired files now and then. A failed write leaves no file.
   */
  async write(
    dir: string,
    kind: "map" | "leg" | "sb",
    ext: string,
    bytes: Uint8Array,
  ): Promise<string> {
    await Deno.mkdir(dir, { recursive: true });
    const id = crypto.randomUUID().replaceAll("-", "");
    const name = `_ags_${kind}${id}.${ext}`;
    // Written under a temporary name and renamed once complete, so a failed
    // write (full disk) never leaves a truncated image at a URL we hand out.
    // The temporary name does not match the served pattern, and starts with
    // `_ags_` so a sweep removes it if the process dies mid-write.
    const partial = join(dir, `${name}.partial`);
    try {
      await Deno.writeFile(partial, bytes);
      await Deno.rename(partial, join(dir, name));
    } catch (err) {
      await Deno.remove(partial).catch(() => {});
      throw err;
    }
    const now = Date.now();
    if (now - (this.#lastSweep.get(dir) ?? 0) > 60_000) {
      this.#lastSweep.set(dir, now);
      sweepOutput(dir, this.maxAgeMs, now).catch(() => {});
    }
    return name;
  }
}
