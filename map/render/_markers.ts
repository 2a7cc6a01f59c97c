/**
 * Marker batching helpers: duplicate removal and overlap-free runs (so a
 * run can be one fill and one outline draw with the same result as drawing
 * each marker in turn), and the sink that takes sprites to stamp.
 *
 * Both helpers work on typed arrays carved from the thread's reusable
 * scratch (_scratch.ts) with an open-addressing hash over integer pairs:
 * a world view of 100,000 points used to build a `Set` of 100,000 heap
 * numbers and several arrays of plain numbers per draw, garbage that ended
 * in V8's full collections (bench/README.md history in git, issue 9 seventh step).
 *
 * @module
 */
import type { Scratch } from "./_scratch.ts";
import type { Sprite } from "./_stamp.ts";

/** Receives marker sprites to stamp into the image's pixels (see draw_map.ts). */
export interface MarkerSink {
  /** Pixels of the image (the cost of one read and composite pass). */
  readonly pixelCount: number;
  stamp(sprite: Sprite, corners: Int32Array): void;
}

/** `n` 32-bit integers of a scratch role (contents left over from earlier use). */
function ints(scratch: Scratch, role: string, n: number): Int32Array {
  return new Int32Array(scratch.bytes(role, n * 4).buffer, 0, n);
}

/** `n` doubles of a scratch role (contents left over from earlier use). */
function doubles(scratch: Scratch, role: string, n: number): Float64Array {
  return new Float64Array(scratch.bytes(role, n * 8).buffer, 0, n);
}

/**
 * An open-addressing hash table from integer pairs to non-negative
 * integers over scratch arrays, sized for `n` entries (load at most 1/2).
 */
class PairTable {
  readonly #slots: Int32Array;
  readonly #a: Int32Array;
  readonly #b: Int32Array;
  readonly #v: Int32Array;
  readonly #mask: number;
  #used = 0;

  constructor(scratch: Scratch, n: number) {
    let size = 64;
    while (size < 2 * n) size *= 2;
    this.#mask = size - 1;
    // Slot k holds 1 + the entry it points to (0: empty).
    this.#slots = ints(scratch, "marker hash", size).fill(0);
    this.#a = ints(scratch, "marker hash a", n);
    this.#b = ints(scratch, "marker hash b", n);
    this.#v = ints(scratch, "marker hash v", n);
  }

  /** The slot of (a, b): its entry's, or the empty one where it would go. */
  #slot(a: number, b: number): number {
    let h = Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca77);
    h ^= h >>> 15;
    for (let k = h & this.#mask;; k = (k + 1) & this.#mask) {
      const e = this.#slots[k] - 1;
      if (e < 0 || (this.#a[e] === a && this.#b[e] === b)) return k;
    }
  }

  /** The value of (a, b), or -1 when absent (both wrap to 32 bits, as they are stored). */
  get(a: number, b: number): number {
    a |= 0;
    b |= 0;
    const e = this.#slots[this.#slot(a, b)] - 1;
    return e < 0 ? -1 : this.#v[e];
  }

  /** Sets (a, b) to `v` (at most `n` distinct pairs in all). */
  set(a: number, b: number, v: number): void {
    a |= 0;
    b |= 0;
    const k = this.#slot(a, b);
    let e = this.#slots[k] - 1;
    if (e < 0) {
      e = this.#used++;
      this.#slots[k] = e + 1;
      this.#a[e] = a;
      this.#b[e] = b;
    }
    this.#v[e] = v;
  }
}

/**
 * Offset positions with exact duplicates removed, keeping the last: a
 * marker drawn later at the same spot covers every pixel of the earlier
 * one, so the image is the same. The result is a scratch array, valid
 * until the next call with the same scratch.
 *
 * @example
 * ```ts
 * import { Scratch } from "./_scratch.ts";
 * dedupeKeepLast([1, 1, 5, 5, 1, 1], 0, 0, new Scratch()); // [5, 5, 1, 1]
 * ```
 */
export function dedupeKeepLast(
  xy: ArrayLike<number>,
  ox: number,
  oy: number,
  scratch: Scratch,
): Float64Array {
  const n = xy.length >> 1;
  const seen = new PairTable(scratch, n);
  // 1 for a kept point; the count of kept points is known after the walk.
  const keep = scratch.bytes("marker keep", n);
  let kept = 0;
  for (let i = n - 1; i >= 0; i--) {
    // Quarter-pixel grid: closer than that is the same spot for a raster.
    // Points are clipped to the view (pixels), far inside 32-bit integers.
    const qx = Math.round(xy[2 * i] * 4), qy = Math.round(xy[2 * i + 1] * 4);
    if (seen.get(qx, qy) >= 0) {
      keep[i] = 0;
      continue;
    }
    seen.set(qx, qy, 1);
    keep[i] = 1;
    kept++;
  }
  const out = doubles(scratch, "marker points", kept * 2);
  for (let i = 0, k = 0; i < n; i++) {
    if (keep[i] === 0) continue;
    out[k++] = xy[2 * i] + ox;
    out[k++] = xy[2 * i + 1] + oy;
  }
  return out;
}

/**
 * Splits markers (in drawing order) into consecutive runs in which no two
 * can overlap (grid cells of `cell` pixels, neighbours included), so each
 * run is one fill and one outline draw with the same result as drawing
 * them one by one. Returns the runs' boundaries as indexes into `xy`
 * (0, ..., xy.length: run k is [b[k], b[k + 1])), a scratch array valid
 * until the next call with the same scratch.
 *
 * @example
 * ```ts
 * import { Scratch } from "./_scratch.ts";
 * overlapFreeGroups([0, 0, 100, 0, 1, 1], 10, new Scratch()); // [0, 4, 6]
 * ```
 */
export function overlapFreeGroups(
  xy: ArrayLike<number>,
  cell: number,
  scratch: Scratch,
): Int32Array {
  const n = xy.length >> 1;
  const owner = new PairTable(scratch, n);
  const bounds = ints(scratch, "marker groups", n + 2); // at most n runs, one more end
  let groups = 0;
  bounds[0] = 0;
  for (let i = 0; i < xy.length; i += 2) {
    const cx = Math.floor(xy[i] / cell), cy = Math.floor(xy[i + 1] / cell);
    let clash = false;
    for (let dx = -1; dx <= 1 && !clash; dx++) {
      for (let dy = -1; dy <= 1; dy++) {
        if (owner.get(cx + dx, cy + dy) === groups) {
          clash = true;
          break;
        }
      }
    }
    if (clash) bounds[++groups] = i;
    owner.set(cx, cy, groups);
  }
  bounds[++groups] = xy.length;
  return bounds.subarray(0, groups + 1);
}
