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
 * Lays RGBA pixels out as PNG24 scanlines a band of rows at a time, into a
 * band buffer it keeps: in the pixels' own wasm heap when they live in one
 * (CanvasKit's, where a map is drawn), else in its own memory, where each
 * band's pixels are copied first. The same few pages are written band after
 * band, never a whole image's scanlines (see _deflate.ts for why that
 * matters).
 *
 * @example
 * ```ts
 * const seen: number[][] = [];
 * new RgbRows().bands(new Uint8Array([1, 2, 3, 255]), 1, 1, 8, (rows) => seen.push([...rows]));
 * // seen: [[0, 1, 2, 3]]
 * ```
 */
export class RgbRows {
  readonly #memory = new WebAssembly.Memory({ initial: 1 });
  readonly #rgbRows: RgbRowsFn;
  readonly #heap: { heap: WasmHeap; rgbRows: RgbRowsFn } | null;

  /** A packer with its own memory; with a `heap`, images in that heap are packed there. */
  constructor(heap?: WasmHeap) {
    this.#rgbRows = packerOn(this.#memory);
    this.#heap = heap ? { heap, rgbRows: packerOn(heap.memory) } : null;
  }

  /**
   * Calls `each` with the scanlines of `rows` rows at a time (fewer in the
   * last band) of `rgba` (`width` x `height`), top to bottom; `last` is
   * true for the last band. A band is valid only during its call, and
   * `each` must not call into the heap's owner (CanvasKit could grow the
   * heap and move it). `rgba` itself may be detached after the first band.
   */
  bands(
    rgba: Uint8Array,
    width: number,
    height: number,
    rows: number,
    each: (scanlines: Uint8Array, last: boolean) => void,
  ): void {
    rows = Math.max(1, Math.min(rows, height));
    const stride = width * 3 + 1, pxRow = width * 4;
    const h = this.#heap;
    if (h && rgba.buffer === h.heap.memory.buffer) {
      // The pixels' address first: finding room may grow the heap, which detaches `rgba`.
      const src = rgba.byteOffset;
      const dst = h.heap.buffer(rows * stride + 16);
      if (dst !== 0) {
        for (let y = 0; y < height; y += rows) {
          const n = Math.min(rows, height - y);
          h.rgbRows(src + y * pxRow, dst, width, n);
          each(new Uint8Array(h.heap.memory.buffer, dst, n * stride), y + n >= height);
        }
        return;
      }
      // No room there: the pixels are copied out band by band, from where they still are.
      rgba = new Uint8Array(h.heap.memory.buffer, src, width * height * 4);
    }
    const px = rows * pxRow, need = px + rows * stride + 16;
    const have = this.#memory.buffer.byteLength;
    if (need > have) this.#memory.grow(Math.ceil((need - have) / PAGE));
    for (let y = 0; y < height; y += rows) {
      const n = Math.min(rows, height - y);
      new Uint8Array(this.#memory.buffer, 0, n * pxRow).set(
        rgba.subarray(y * pxRow, (y + n) * pxRow),
      );
      this.#rgbRows(0, px, width, n);
      each(new Uint8Array(this.#memory.buffer, px, n * stride), y + n >= height);
    }
  }
}
