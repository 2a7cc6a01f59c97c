/**
 * Reusable work buffers of one render thread: the read-back of a drawn
 * image, a mosaic's cell, the PNG encoder's bands of scanlines, palette
 * indices and zlib stream, JPEG's flattened copy.
 *
 * Why: one export allocates several arrays the size of its image (12 MiB
 * each at 2048x1536) that are garbage as soon as it is encoded. V8 frees
 * such memory only when the isolate collects garbage, which a render worker
 * (little JavaScript allocation, large buffers) does rarely: in the soak the
 * dead buffers of the two workers came and went by hundreds of MB between
 * samples (bench/README.md history in git, "Soak memory"). Reused buffers make what a job
 * needs a fixed amount per worker; only the part over the limit (a rare
 * huge image) is left to the garbage collector.
 *
 * A buffer handed out is valid until the same role is asked for again:
 * callers use it within one job and never return it.
 *
 * @module
 */
import { BandDeflater } from "./_deflate.ts";
import { PathCmds } from "./_path_cmds.ts";
import { RgbRows, type WasmHeap } from "./_rgb_rows.ts";

/** Bytes of work buffers one thread keeps between jobs (enough for every buffer of a 2048x1536 image). */
export const SCRATCH_LIMIT_BYTES = 64 * 2 ** 20;

/**
 * Points a kept screen path may hold and still be kept for the next job
 * (16 MiB of coordinates): a rare huge path is left to the collector.
 */
export const PATH_KEEP_POINTS = 2 ** 20;

/** Work buffers by role, kept while their total stays within a limit. */
export class Scratch {
  readonly #held = new Map<string, Uint8Array<ArrayBuffer>>();
  readonly #paths = new Map<string, PathCmds>();
  #bytes = 0;
  readonly #limit: number;
  #rgbRows: RgbRows | null = null;
  #deflater: BandDeflater | null = null;

  readonly #heap: WasmHeap | undefined;

  /**
   * Keeps at most `limitBytes` of buffers between calls; `heap` is the wasm
   * memory images are drawn in (CanvasKit's), where PNG24 scanlines are
   * then packed, a band at a time.
   */
  constructor(limitBytes = SCRATCH_LIMIT_BYTES, heap?: WasmHeap) {
    this.#limit = limitBytes;
    this.#heap = heap;
  }

  /**
   * `n` bytes for `role`, with whatever they held before (callers write
   * every byte): the role's kept buffer when it is big enough, else a new
   * one, kept for next time when the total stays within the limit.
   *
   * @example
   * ```ts
   * const rows = new Scratch().bytes("png rows", 1024);
   * ```
   */
  bytes(role: string, n: number): Uint8Array<ArrayBuffer> {
    const have = this.#held.get(role);
    if (have && have.length >= n) return have.subarray(0, n);
    const fresh = new Uint8Array(n);
    const total = this.#bytes - (have?.length ?? 0) + n;
    if (total <= this.#limit) {
      this.#held.set(role, fresh);
      this.#bytes = total;
    }
    return fresh;
  }

  /**
   * An empty screen path for `role`, the role's last one cleared (its
   * arrays kept: a fresh array's first writes fault in every page, 1.7 ms
   * for a world view's 120,000 points against 0.26 ms to refill one), or a
   * new one when that one grew past {@link PATH_KEEP_POINTS}.
   *
   * @example
   * ```ts
   * const path = new Scratch().path("fill 0");
   * path.move(0, 0);
   * ```
   */
  path(role: string): PathCmds {
    const have = this.#paths.get(role);
    if (have && have.capacity <= PATH_KEEP_POINTS) {
      have.clear();
      return have;
    }
    const fresh = new PathCmds();
    this.#paths.set(role, fresh);
    return fresh;
  }

  /**
   * The thread's SIMD packer of PNG24 scanlines (_rgb_rows.ts), made on first use: it packs
   * images that live in the scratch's heap there, a band at a time into a buffer it keeps.
   *
   * @example
   * ```ts
   * new Scratch().rgbRows().bands(new Uint8Array(4), 1, 1, 16, () => {});
   * ```
   */
  rgbRows(): RgbRows {
    return this.#rgbRows ??= new RgbRows(this.#heap);
  }

  /**
   * The thread's zlib stream for PNG data (_deflate.ts), made on first use and kept with its
   * output buffer.
   *
   * @example
   * ```ts
   * const z = new Scratch().deflater();
   * z.begin(4);
   * z.write(new Uint8Array([0, 255]), true);
   * z.bytes(); // a zlib stream
   * ```
   */
  deflater(): BandDeflater {
    return this.#deflater ??= new BandDeflater();
  }

  /**
   * Releases what is not garbage-collected: the zlib streams of the
   * deflater (the kit is being discarded). The scratch stays usable.
   */
  close(): void {
    this.#deflater?.close();
  }

  /** Bytes kept (diagnostics and tests). */
  get heldBytes(): number {
    return this.#bytes;
  }
}
