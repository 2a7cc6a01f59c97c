/**
 * The output folder of images returned by URL (esriImageReturnURL): files
 * named like ArcGIS's (`_ags_map<32 hex>.png`, `_ags_leg...`, `_ags_sb...`),
 * removed again after a configurable age by a sweep that runs at most once
 * a minute, piggybacked on writes.
 *
 * @module
 */
import { join } from "node:path";

let maxAgeMs = 10 * 60 * 1000;
const lastSweep = new Map<string, number>();

/**
 * Sets how long written images are kept (default 10 minutes).
 *
 * @example
 * ```ts
 * configureOutput({ maxAgeMs: 5 * 60_000 });
 * ```
 */
export function configureOutput(opts: { maxAgeMs?: number }): void {
  if (typeof opts.maxAgeMs === "number" && opts.maxAgeMs >= 0) maxAgeMs = opts.maxAgeMs;
}

/** Deletes files in `dir` older than the configured age; returns how many. */
export async function sweepOutput(dir: string, now = Date.now()): Promise<number> {
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
 * Writes `bytes` to `dir` under a fresh random name and returns the file
 * name; sweeps expired files now and then. A failed write leaves no file.
 *
 * @example
 * ```ts
 * const name = await writeOutput(ctx.outputDir, "map", "png", bytes);
 * const url = `${ctx.outputUrl}/${name}`;
 * ```
 */
export async function writeOutput(
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
  if (now - (lastSweep.get(dir) ?? 0) > 60_000) {
    lastSweep.set(dir, now);
    sweepOutput(dir, now).catch(() => {});
  }
  return name;
}
