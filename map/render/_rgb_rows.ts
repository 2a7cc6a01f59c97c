/**
 * PNG24 scanlines from RGBA pixels in WebAssembly SIMD: each row's filter
 * byte (0), then its pixels without alpha, four at a time by one byte
 * shuffle. With the copy of the pixels into the module's memory it takes
 * 0.4 ms for a 1024x768 image against 0.65 ms for the JavaScript packer
 * (packRgbRows in png.ts), which is most of the encoding of a view with
 * little to compress. Given the memory the pixels already live in (a
 * {@link WasmHeap}: CanvasKit's, where a map is drawn), a second instance
 * of the module packs them there, without that copy (a 3 MB pass, as long
 * as the packing itself).
 *
 * The module (240 bytes) is the text below, assembled with wabt's
 * `wat2wasm`. Each 16-byte store writes 4 bytes past the 12 it means,
 * which the next store, the next row or the slack after the last row
 * takes.
 *
 * ```wat
 * (module
 *   (import "env" "memory" (memory 1))
 *   ;; rgbRows(src, dst, width, height): RGBA pixels at src as PNG scanlines at dst, each row
 *   ;; filter byte 0 then RGB. Writes up to 4 bytes past the last row's end.
 *   (func (export "rgbRows") (param $src i32) (param $dst i32) (param $width i32) (param $height i32)
 *     (local $y i32) (local $x i32) (local $quads i32)
 *     (local.set $quads (i32.shr_u (local.get $width) (i32.const 2)))
 *     (block $rowsDone
 *       (loop $rows
 *         (br_if $rowsDone (i32.ge_u (local.get $y) (local.get $height)))
 *         (i32.store8 (local.get $dst) (i32.const 0))
 *         (local.set $dst (i32.add (local.get $dst) (i32.const 1)))
 *         (local.set $x (i32.const 0))
 *         (block $quadsDone
 *           (loop $quad
 *             (br_if $quadsDone (i32.ge_u (local.get $x) (local.get $quads)))
 *             (v128.store (local.get $dst)
 *               (i8x16.swizzle (v128.load (local.get $src))
 *                 (v128.const i8x16 0 1 2 4 5 6 8 9 10 12 13 14 128 128 128 128)))
 *             (local.set $src (i32.add (local.get $src) (i32.const 16)))
 *             (local.set $dst (i32.add (local.get $dst) (i32.const 12)))
 *             (local.set $x (i32.add (local.get $x) (i32.const 1)))
 *             (br $quad)))
 *         (local.set $x (i32.shl (local.get $quads) (i32.const 2)))
 *         (block $tailDone
 *           (loop $tail
 *             (br_if $tailDone (i32.ge_u (local.get $x) (local.get $width)))
 *             (i32.store16 (local.get $dst) (i32.load16_u (local.get $src)))
 *             (i32.store8 offset=2 (local.get $dst) (i32.load8_u offset=2 (local.get $src)))
 *             (local.set $src (i32.add (local.get $src) (i32.const 4)))
 *             (local.set $dst (i32.add (local.get $dst) (i32.const 3)))
 *             (local.set $x (i32.add (local.get $x) (i32.const 1)))
 *             (br $tail)))
 *         (local.set $y (i32.add (local.get $y) (i32.const 1)))
 *         (br $rows)))))
 * ```
 *
 * @module
 */

const WASM_BASE64 =
  "AGFzbQEAAAABCAFgBH9/f38AAg8BA2VudgZtZW1vcnkCAAEDAgEABwsBB3JnYlJvd3MAAAq5AQG2AQEDfyACQQJ2IQYCQANAIAQgA08NASABQQA6AAAgAUEBaiEBQQAhBQJAA0AgBSAGTw0BIAEgAP0ABAD9DAABAgQFBggJCgwNDoCAgID9Dv0LBAAgAEEQaiEAIAFBDGohASAFQQFqIQUMAAsLIAZBAnQhBQJAA0AgBSACTw0BIAEgAC8BADsBACABIAAtAAI6AAIgAEEEaiEAIAFBA2ohASAFQQFqIQUMAAsLIARBAWohBAwACwsL";
const PAGE = 65536;

/** Another module's wasm memory, where the packer can work in place. */
export interface WasmHeap {
  memory: WebAssembly.Memory;
  /**
   * The address of a kept buffer of at least `n` bytes in that memory
   * (valid until the next call), or 0 when there is no room for one.
   */
  buffer(n: number): number;
}

type RgbRowsFn = (src: number, dst: number, width: number, height: number) => void;

/** The packer's module, compiled once per thread. */
let compiled: WebAssembly.Module | null = null;

/** The packer's module instantiated on `memory`. */
function packerOn(memory: WebAssembly.Memory): RgbRowsFn {
  compiled ??= new WebAssembly.Module(Uint8Array.from(atob(WASM_BASE64), (c) => c.charCodeAt(0)));
  const instance = new WebAssembly.Instance(compiled, { env: { memory } });
  return instance.exports.rgbRows as RgbRowsFn;
}

/**
 * Lays RGBA pixels out as PNG24 scanlines in its own wasm memory, which
 * grows to the largest image it was given within a limit.
 *
 * @example
 * ```ts
 * const rows = new RgbRows().of(new Uint8Array([1, 2, 3, 255]), 1, 1); // [0, 1, 2, 3]
 * ```
 */
export class RgbRows {
  readonly #memory = new WebAssembly.Memory({ initial: 1 });
  readonly #rgbRows: RgbRowsFn;
  readonly #limitBytes: number;
  readonly #heap: { heap: WasmHeap; rgbRows: RgbRowsFn } | null;

  /**
   * A packer whose memory holds at most `limitBytes` (default 32 MiB: a
   * 2048x1536 image); with a `heap`, images in that heap are packed there.
   */
  constructor(limitBytes = 32 * 2 ** 20, heap?: WasmHeap) {
    this.#limitBytes = limitBytes;
    this.#rgbRows = packerOn(this.#memory);
    this.#heap = heap ? { heap, rgbRows: packerOn(heap.memory) } : null;
  }

  /**
   * The scanlines of `rgba` (`width` x `height`), valid until the next call
   * (or until the heap they are in grows); null when the image is over the
   * limit (the caller packs it). With `overwrite` (the caller has no more
   * use for the pixels), an image in the heap becomes its own scanlines.
   */
  of(rgba: Uint8Array, width: number, height: number, overwrite = false): Uint8Array | null {
    const px = width * height * 4, n = height * (width * 3 + 1);
    const h = this.#heap;
    if (h && overwrite && width >= 8 && rgba.buffer === h.heap.memory.buffer) {
      const rows = this.#inPlace(h, rgba.byteOffset, width, height);
      if (rows) return rows;
    }
    if (h && rgba.buffer === h.heap.memory.buffer && n + 16 <= this.#limitBytes) {
      // The pixels' address first: finding room may grow the heap, which detaches `rgba`.
      const src = rgba.byteOffset;
      const dst = h.heap.buffer(n + 16);
      if (dst !== 0) {
        h.rgbRows(src, dst, width, height);
        return new Uint8Array(h.heap.memory.buffer, dst, n);
      }
    }
    const need = px + n + 16;
    if (need > this.#limitBytes) return null;
    const have = this.#memory.buffer.byteLength;
    if (need > have) this.#memory.grow(Math.ceil((need - have) / PAGE));
    new Uint8Array(this.#memory.buffer, 0, px).set(rgba.subarray(0, px));
    this.#rgbRows(0, px, width, height);
    return new Uint8Array(this.#memory.buffer, px, n);
  }

  /**
   * Packs the image at `src` over itself: a scanline is shorter than its
   * pixels and starts no later than they do, so row by row, four pixels at
   * a time, every store lands on bytes already read (from the second row
   * on, for images at least 8 wide, the shuffle's 4 bytes of slack
   * included). Only the first row's scanline starts where its pixels do:
   * that row is packed from a copy. Null when there is no room for it.
   */
  #inPlace(
    h: { heap: WasmHeap; rgbRows: RgbRowsFn },
    src: number,
    width: number,
    height: number,
  ): Uint8Array | null {
    const rowBytes = 4 * width;
    const first = h.heap.buffer(rowBytes + 16);
    if (first === 0) return null;
    new Uint8Array(h.heap.memory.buffer).copyWithin(first, src, src + rowBytes);
    h.rgbRows(first, src, width, 1);
    if (height > 1) h.rgbRows(src + rowBytes, src + 3 * width + 1, width, height - 1);
    return new Uint8Array(h.heap.memory.buffer, src, height * (3 * width + 1));
  }
}
