/**
 * PNG encoder for RGBA pixel buffers: truecolour with alpha (PNG32),
 * truecolour (PNG24) and palette (PNG8, quantised, with tRNS alpha).
 *
 * Why our own: CanvasKit's encoder spent ~100 ms of a 176 ms map export;
 * native zlib from `node:zlib` on unfiltered rows is several times faster on
 * map images (large flat areas, few colours) and compresses them as well.
 *
 * @module
 */
import { crc32 } from "node:zlib";
import { BandDeflater } from "./_deflate.ts";
import { quantize } from "./_quantize.ts";
import type { Scratch } from "./_scratch.ts";

/** Pixel layout of the written PNG. */
export type PngKind = "rgba" | "rgb" | "palette";

/** Options of {@link encodePng}. */
export interface PngOptions {
  /** Output layout (default `rgba`). */
  kind?: PngKind;
  /**
   * zlib level 0-9. Default 4: on 1024x768 map images it deflates 25-40%
   * faster than 6 for files 1-3% larger (issue 9; 1 is faster still but
   * 30-40% larger).
   */
  level?: number;
  /**
   * Work buffers to reuse for the scanlines and palette indices (a render
   * thread's, see _scratch.ts); default: new arrays.
   */
  scratch?: Scratch;
}

const SIGNATURE = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]);

/** Bytes of scanlines deflated at a time: a band stays in the core's cache, and so do its pages. */
const BAND_BYTES = 64 * 1024;

/** Rows of a band of scanlines `stride` bytes long (one at least). */
function bandRows(stride: number): number {
  return Math.max(1, Math.floor(BAND_BYTES / stride));
}

/** The band buffer: a reused one when a scratch is given (every byte of a band is written). */
function bandBuffer(n: number, scratch?: Scratch): Uint8Array {
  return scratch ? scratch.bytes("png band", n) : new Uint8Array(n);
}

/**
 * Deflates `height` scanlines of `stride` bytes a band at a time: `fill`
 * writes rows `y0`..`y0 + n` into `band` (every byte, filter bytes
 * included), then the band goes to the deflater.
 */
function deflateBands(
  z: BandDeflater,
  stride: number,
  height: number,
  scratch: Scratch | undefined,
  fill: (y0: number, n: number, band: Uint8Array) => void,
): void {
  const rows = bandRows(stride);
  const band = bandBuffer(Math.min(rows, height) * stride, scratch);
  for (let y0 = 0; y0 < height; y0 += rows) {
    const n = Math.min(rows, height - y0);
    fill(y0, n, band);
    z.write(band.subarray(0, n * stride), y0 + n >= height);
  }
}

/**
 * Deflates rows of `bpp`-byte pixels as scanlines. Every row uses filter
 * None: measured on map images (flat fills, antialiased edges) zlib alone
 * gives smaller files than the per-row adaptive filter (800 KB against 842
 * KB for a 4096 x 3072 world map), and the filter pass, the slowest part of
 * the encoder in JS, disappears.
 */
function deflateRows(
  z: BandDeflater,
  src: Uint8Array,
  width: number,
  height: number,
  bpp: number,
  scratch?: Scratch,
): void {
  const row = width * bpp, stride = row + 1;
  deflateBands(z, stride, height, scratch, (y0, n, band) => {
    for (let i = 0; i < n; i++) {
      band[i * stride] = 0;
      band.set(src.subarray((y0 + i) * row, (y0 + i + 1) * row), i * stride + 1);
    }
  });
}

/**
 * RGBA pixels as RGB scanlines (filter byte 0 each), packed in JavaScript
 * band by band: the SIMD packer of _rgb_rows.ts does this faster; this is
 * its fallback and its reference. Four pixels (four 32-bit loads, red in
 * the low byte) become three 32-bit stores into an aligned row, which is
 * then copied after the row's filter byte: about twice as fast as storing
 * byte by byte (0.65 against 1.16 ms for 1024x768 at best).
 */
function deflateRgbRows(
  z: BandDeflater,
  rgba: Uint8Array,
  width: number,
  height: number,
): void {
  const stride = width * 3 + 1;
  if ((rgba.byteOffset & 3) !== 0) {
    deflateBands(z, stride, height, undefined, (y0, n, band) => {
      for (let r = 0; r < n; r++) {
        band[r * stride] = 0;
        let j = r * stride + 1;
        const end = (y0 + r + 1) * width * 4;
        for (let i = (y0 + r) * width * 4; i < end; i += 4) {
          band[j++] = rgba[i];
          band[j++] = rgba[i + 1];
          band[j++] = rgba[i + 2];
        }
      }
    });
    return;
  }
  const px = new Uint32Array(rgba.buffer, rgba.byteOffset, width * height);
  const quads = width >> 2;
  const rowWords = new Uint32Array(quads * 3 + 3);
  const row = new Uint8Array(rowWords.buffer, 0, width * 3);
  deflateBands(z, stride, height, undefined, (y0, n, band) => {
    for (let r = 0; r < n; r++) {
      let i = (y0 + r) * width, k = 0;
      for (let q = 0; q < quads; q++, i += 4) {
        const a = px[i], b = px[i + 1], c = px[i + 2], d = px[i + 3];
        rowWords[k++] = (a & 0xffffff) | (b << 24);
        rowWords[k++] = ((b >>> 8) & 0xffff) | (c << 16);
        rowWords[k++] = ((c >>> 16) & 0xff) | (d << 8);
      }
      for (let j = quads * 12; j < width * 3; j += 3, i++) {
        const v = px[i];
        row[j] = v & 0xff;
        row[j + 1] = (v >>> 8) & 0xff;
        row[j + 2] = (v >>> 16) & 0xff;
      }
      band[r * stride] = 0;
      band.set(row, r * stride + 1);
    }
  });
}

function ihdr(width: number, height: number, colourType: number): Uint8Array {
  const d = new Uint8Array(13);
  const dv = new DataView(d.buffer);
  dv.setUint32(0, width);
  dv.setUint32(4, height);
  d[8] = 8; // bit depth
  d[9] = colourType;
  return d;
}

const encoder = new TextEncoder();

/**
 * The PNG file: the signature, `chunks` and an IDAT chunk of `idat`, then
 * IEND, in one new buffer (the deflated data is copied once, from the
 * deflater's buffer). Each chunk's CRC (native zlib's: a JavaScript table
 * loop took 0.3-0.4 ms per image) covers its type and data.
 */
function pngFile(chunks: [string, Uint8Array][], idat: Uint8Array): Uint8Array {
  const all: [string, Uint8Array][] = [...chunks, ["IDAT", idat], ["IEND", new Uint8Array(0)]];
  let n = SIGNATURE.length;
  for (const [, data] of all) n += 12 + data.length;
  const out = new Uint8Array(n);
  const dv = new DataView(out.buffer);
  out.set(SIGNATURE, 0);
  let o = SIGNATURE.length;
  for (const [type, data] of all) {
    dv.setUint32(o, data.length);
    encoder.encodeInto(type, out.subarray(o + 4, o + 8));
    out.set(data, o + 8);
    dv.setUint32(o + 8 + data.length, crc32(out.subarray(o + 4, o + 8 + data.length)));
    o += 12 + data.length;
  }
  return out;
}

/**
 * Encodes unpremultiplied RGBA pixels (row-major, 4 bytes per pixel) as PNG.
 *
 * @example
 * ```ts
 * const png = encodePng(new Uint8Array(4 * 2 * 2).fill(255), 2, 2, { kind: "rgb" });
 * ```
 */
export function encodePng(
  rgba: Uint8Array,
  width: number,
  height: number,
  options: PngOptions = {},
): Uint8Array {
  if (rgba.length !== width * height * 4) {
    throw new Error(`PNG encoder got ${rgba.length} bytes for ${width}x${height} RGBA pixels.`);
  }
  if (!(width >= 1 && height >= 1)) {
    throw new Error(`PNG encoder got a ${width}x${height} image; a PNG has at least one pixel.`);
  }
  const scratch = options.scratch;
  if (scratch) return encodeWith(scratch.deflater(), rgba, width, height, options);
  // A deflater of this call only: its zlib stream is closed with it.
  const z = new BandDeflater({ initialBytes: 64 * 1024 });
  try {
    return encodeWith(z, rgba, width, height, options);
  } finally {
    z.close();
  }
}

/** {@link encodePng} with the deflater `z`. */
function encodeWith(
  z: BandDeflater,
  rgba: Uint8Array,
  width: number,
  height: number,
  options: PngOptions,
): Uint8Array {
  const kind = options.kind ?? "rgba";
  const scratch = options.scratch;
  z.begin(options.level ?? 4);
  if (kind === "palette") {
    const q = quantize(rgba, width * height, scratch?.bytes("png indices", width * height));
    const n = q.palette.length / 4;
    const plte = new Uint8Array(n * 3);
    let lastOpaque = -1;
    for (let i = 0; i < n; i++) {
      plte[i * 3] = q.palette[i * 4];
      plte[i * 3 + 1] = q.palette[i * 4 + 1];
      plte[i * 3 + 2] = q.palette[i * 4 + 2];
      if (q.palette[i * 4 + 3] !== 255) lastOpaque = i;
    }
    const chunks: [string, Uint8Array][] = [["IHDR", ihdr(width, height, 3)], ["PLTE", plte]];
    if (lastOpaque >= 0) {
      const trns = new Uint8Array(lastOpaque + 1);
      for (let i = 0; i <= lastOpaque; i++) trns[i] = q.palette[i * 4 + 3];
      chunks.push(["tRNS", trns]);
    }
    deflateRows(z, q.indices, width, height, 1, scratch);
    return pngFile(chunks, z.bytes());
  }
  if (kind === "rgb") {
    // RGB scanlines by the thread's SIMD packer (_rgb_rows.ts), in the pixels' own heap when
    // they live in one; without a scratch, in JavaScript.
    const simd = scratch?.rgbRows();
    if (simd) {
      simd.bands(rgba, width, height, bandRows(width * 3 + 1), (rows, last) => z.write(rows, last));
    } else deflateRgbRows(z, rgba, width, height);
  } else deflateRows(z, rgba, width, height, 4, scratch);
  return pngFile([["IHDR", ihdr(width, height, kind === "rgb" ? 2 : 6)]], z.bytes());
}
