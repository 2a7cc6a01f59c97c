/**
 * Gives memory that glibc's malloc holds free back to the system
 * (`malloc_trim(0)`), when a spike of allocations has ended.
 *
 * Why: every thread of the process (main, reader and render workers) takes
 * its buffers from malloc, and malloc keeps what they free: the arena only
 * grows. Under 256 connections its main arena took ~179 MB from the system
 * with 92-102 MB in use; the rest was left by short spikes (id lists built
 * in the reader worker, dead response bodies before a scavenge, the cold
 * start) and stayed resident (bench/README.md history in git, "Resident memory: returning
 * freed memory"). A trim walks the arena under its lock and took 11 ms
 * to 2 s there, so it runs off the event loop, only once memory was made
 * resident and freed again since the last trim, and no more often than a
 * multiple of what the last one cost.
 *
 * The C library is reached through FFI (`Deno.dlopen`), so this needs glibc
 * and `--allow-ffi` (`deno task start` runs with `--allow-all`); elsewhere
 * (musl, macOS, Windows, permission denied) {@linkcode openGlibcMalloc}
 * returns null and nothing is trimmed.
 *
 * @module
 */

/** What malloc holds, summed over its arenas (`mallinfo2`), and the process's resident memory. */
export interface MallocStats {
  /** Bytes handed out and not yet freed (`uordblks` + `hblkhd`). */
  usedBytes: number;
  /** Bytes free inside the arenas, resident or not (`fordblks`). */
  freeBytes: number;
  /**
   * The process's resident set less the calling isolate's V8 heap
   * (`Deno.memoryUsage()`): a heap that grows between two major
   * collections is not malloc's, and a trim cannot return it.
   */
  residentBytes: number;
}

/** The two calls of the C library the trimmer needs. */
export interface MallocControl {
  /**
   * Malloc's current totals, read off the calling thread: `mallinfo2` walks
   * every arena's free lists under the arena's lock, 0.1 ms at rest and up to
   * 4 ms while render workers allocate (measured in a serving process), a
   * stall the event loop would otherwise take once or twice a second.
   */
  stats(): Promise<MallocStats>;
  /** Returns free pages to the system; may take long, so it runs off the calling thread. */
  trim(): Promise<void>;
}

const MALLINFO2_FIELDS = 10;
const UORDBLKS = 7;
const FORDBLKS = 8;
const HBLKHD = 4;

function residentBytes(): number {
  const m = Deno.memoryUsage();
  return m.rss - m.heapTotal;
}

/**
 * glibc's `mallinfo2` and `malloc_trim` through FFI, or null where they
 * cannot be had (not Linux, not glibc 2.33 or later, FFI not permitted).
 *
 * @example
 * ```ts
 * import { openGlibcMalloc } from "./_malloc_trim.ts";
 * const malloc = openGlibcMalloc();
 * if (malloc) console.log((await malloc.stats()).freeBytes);
 * ```
 */
export function openGlibcMalloc(): MallocControl | null {
  if (Deno.build.os !== "linux") return null;
  try {
    const lib = Deno.dlopen("libc.so.6", {
      mallinfo2: {
        parameters: [],
        result: { struct: new Array(MALLINFO2_FIELDS).fill("usize") },
        nonblocking: true,
      },
      malloc_trim: { parameters: ["usize"], result: "i32", nonblocking: true },
    });
    return {
      async stats() {
        const raw = await lib.symbols.mallinfo2() as Uint8Array<ArrayBuffer>;
        const f = new BigUint64Array(raw.buffer, raw.byteOffset, MALLINFO2_FIELDS);
        return {
          usedBytes: Number(f[UORDBLKS] + f[HBLKHD]),
          freeBytes: Number(f[FORDBLKS]),
          residentBytes: residentBytes(),
        };
      },
      async trim() {
        await lib.symbols.malloc_trim(0n);
      },
    };
  } catch {
    // No libc.so.6 (musl), no mallinfo2 (glibc < 2.33), or --allow-ffi denied.
    return null;
  }
}

/** Options of {@linkcode MallocTrimmer}. */
export interface MallocTrimmerOptions {
  /** Free bytes below which no trim runs (default 32 MiB). */
  minFreeBytes?: number;
  /**
   * Resident memory grown since the last trim, less the growth of what is
   * in use, that makes a trim worth it (default 16 MiB): free memory made
   * resident again. Malloc's free bytes alone cannot tell, since what a trim
   * returned still counts as free, and traffic that allocates and frees as
   * much touches returned pages again one by one.
   */
  regrowthBytes?: number;
  /** Shortest time between two trims, ms (default 1,000). */
  minIntervalMs?: number;
  /** Shortest time between two looks at malloc's totals, ms (default 250). */
  minCheckIntervalMs?: number;
  /** The time to the next trim is at least this many times the last one's duration (default 20). */
  costFactor?: number;
  /** The clock, ms (tests). */
  now?: () => number;
  /**
   * Told when a look at malloc's totals fails (default: a line on stderr);
   * the trimmer goes on with the next check.
   */
  onError?: (err: unknown) => void;
}

/** Trims malloc when a check finds a spike's worth of freed memory, rate-limited. */
export class MallocTrimmer {
  readonly #malloc: MallocControl;
  readonly #minFree: number;
  readonly #regrowth: number;
  readonly #minInterval: number;
  readonly #costFactor: number;
  readonly #minCheckInterval: number;
  readonly #now: () => number;
  readonly #onError: (err: unknown) => void;
  #lastCheck = -Infinity;
  /** Stats right after the last trim. */
  #base: MallocStats | null = null;
  #notBefore = -Infinity;
  #running: Promise<void> | null = null;
  /** Trims run (tests and diagnostics). */
  trims = 0;
  /** Milliseconds spent in trims, summed. */
  trimMs = 0;

  /** `malloc` is the C library's control (see {@linkcode openGlibcMalloc}). */
  constructor(malloc: MallocControl, opts: MallocTrimmerOptions = {}) {
    this.#malloc = malloc;
    this.#minFree = opts.minFreeBytes ?? 32 * 2 ** 20;
    this.#regrowth = opts.regrowthBytes ?? 16 * 2 ** 20;
    this.#minInterval = opts.minIntervalMs ?? 1000;
    this.#costFactor = opts.costFactor ?? 20;
    this.#minCheckInterval = opts.minCheckIntervalMs ?? 250;
    this.#now = opts.now ?? (() => performance.now());
    this.#onError = opts.onError ??
      ((err) =>
        console.error(`${new Date().toISOString()} Looking at malloc's totals failed:`, err));
  }

  /**
   * Starts a look at malloc's totals (off the event loop), followed by a
   * trim when one is due; returns whether it started the look. Cheap when a look
   * ran recently, a trim is due later, or a look or trim is running (no call
   * into the C library), so it can follow every known spike (a list built, a
   * collection run) as well as a timer.
   *
   * @example
   * ```ts
   * import { MallocTrimmer } from "./_malloc_trim.ts";
   * const trimmer = new MallocTrimmer({
   *   stats: () =>
   *     Promise.resolve({ usedBytes: 2 ** 20, freeBytes: 64 * 2 ** 20, residentBytes: 2 ** 28 }),
   *   trim: () => Promise.resolve(),
   * });
   * trimmer.check(); // true: it looks; 64 MiB free and nothing trimmed yet, so it trims
   * await trimmer.settled();
   * ```
   */
  check(): boolean {
    const t = this.#now();
    if (this.#running || t < this.#notBefore || t - this.#lastCheck < this.#minCheckInterval) {
      return false;
    }
    this.#lastCheck = t;
    this.#running = this.#lookAndTrim().catch(this.#onError).finally(() => {
      this.#running = null;
    });
    return true;
  }

  async #lookAndTrim(): Promise<void> {
    const now = await this.#malloc.stats();
    if (now.freeBytes < this.#minFree) return;
    const base = this.#base;
    if (base) {
      const regrown = now.residentBytes - base.residentBytes - (now.usedBytes - base.usedBytes);
      if (regrown < this.#regrowth) return;
    }
    const start = this.#now();
    try {
      await this.#malloc.trim();
    } catch {
      // A trim that failed still counts: the next one waits as long.
    }
    const ms = this.#now() - start;
    this.trims++;
    this.trimMs += ms;
    this.#notBefore = this.#now() + Math.max(this.#minInterval, ms * this.#costFactor);
    this.#base = await this.#malloc.stats();
  }

  /** Resolves when the look or trim in progress, if any, is over (tests, shutdown). */
  async settled(): Promise<void> {
    await this.#running;
  }
}
