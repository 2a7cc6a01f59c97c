/**
 * The memory rules every place that runs render jobs applies (a pool
 * worker, or the main thread): a job whose image alone would pass the
 * heap limit is refused before drawing, and after a job the kit is
 * replaced when its wasm heap passed the limit or an allocation failed.
 *
 * Why: CanvasKit's wasm heap only grows (up to 2 GiB), so a heap that
 * once held a huge image, or fragmented under mixed sizes, stays that big
 * for the life of its instance; a fresh instance is the only way back.
 *
 * @module
 */
import { heapBytes, isKitFailure, type Kit, RenderMemoryError } from "./_canvaskit.ts";
import { legendImageSize, patchPixels } from "./legend.ts";
import type { RenderJob } from "./jobs.ts";

/** Default wasm heap limit of one render worker (or the main thread's kit), in MiB. */
export const DEFAULT_HEAP_LIMIT_MB = 512;

/** Width and height of the largest raster a job allocates. */
function jobSize(job: RenderJob): { w: number; h: number } {
  switch (job.kind) {
    case "map":
    case "mosaic":
      return { w: job.request.widthPx, h: job.request.heightPx };
    case "scalebar":
      return { w: job.opts.widthPx, h: job.opts.heightPx };
    case "swatches":
      return patchPixels(job.patch);
    case "legendImage":
      return legendImageSize(job.rows.map((r) => r.label), job.patch);
    case "message":
      return { w: job.spec.widthPx, h: job.spec.heightPx };
  }
}

/**
 * Throws {@link RenderMemoryError} when the job's image alone (4 bytes a
 * pixel, before the copies reading it back needs) is more than `limitBytes`.
 */
export function checkJobFits(job: RenderJob, limitBytes: number): void {
  const { w, h } = jobSize(job);
  if (w * h * 4 > limitBytes) throw new RenderMemoryError(`a ${w}x${h} image`);
}

/**
 * Whether the kit must be replaced after a job: its heap passed
 * `limitBytes`, or `error` (the job's failure, if any) was an allocation
 * failure or a CanvasKit abort.
 */
export function kitNeedsReplacing(kit: Kit, limitBytes: number, error?: unknown): boolean {
  return (error !== undefined && isKitFailure(error)) || heapBytes(kit) > limitBytes;
}
