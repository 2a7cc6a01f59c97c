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
import { constants, crc32, deflateSync } from "node:zlib";
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
  /**
   * The caller has no more use for the pixels: PNG24 scanlines may be laid
   * out over them (when they are in the scratch's heap, see _rgb_rows.ts),
   * which touches no other memory.
   */
  overwrite?: boolean;
}

const SIGNATURE = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]);

/** CRC-32 of the chunk type and data: native zlib's (a JS table loop took 0.3-0.4 ms per image). */
function chunkCrc(typeBytes: Uint8Array, data: Uint8Array): number {
  return crc32(data, crc32(typeBytes));
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, data.length);
  const typeBytes = new TextEncoder().encode(type);
  out.set(typeBytes, 4);
  out.set(data, 8);
  dv.setUint32(8 + data.length, chunkCrc(typeBytes, data));
  return out;
}

/** The scanline buffer: a reused one when a scratch is given (every byte is written). */
function rowBuffer(n: number, scratch?: Scratch): Uint8Array {
  return scratch ? scratch.bytes("png rows", n) : new Uint8Array(n);
}

/**
 * Lays scanlines out with a filter byte each. Every row uses filter None:
 * measured on map images (flat fills, antialiased edges) zlib alone gives
 * smaller files than the per-row adaptive filter (800 KB against 842 KB for
 * a 4096 x 3072 world map) and the filter pass, the slowest part of the
 * encoder in JS, disappears.
 */
function filterRows(
  src: Uint8Array,
  width: number,
  height: number,
  bpp: number,
  scratch?: Scratch,
): Uint8Array {
  const stride = width * bpp;
  const out = rowBuffer(height * (stride + 1), scratch);
  for (let y = 0; y < height; y++) {
    out[y * (stride + 1)] = 0;
    out.set(src.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
  }
  return out;
}

/** RGBA pixels as RGB scanlines, each preceded by filter byte 0. */
function packRgbRows(
  rgba: Uint8Array,
  width: number,
  height: number,
  scratch?: Scratch,
): Uint8Array {
  const stride = width * 3 + 1;
  // A reused buffer holds the last image's bytes: every filter byte is written.
  const out = rowBuffer(height * stride, scratch);
  if ((rgba.byteOffset & 3) !== 0) {
    for (let y = 0; y < height; y++) {
      out[y * stride] = 0;
      let j = y * stride + 1;
      const end = (y + 1) * width * 4;
      for (let i = y * width * 4; i < end; i += 4) {
        out[j++] = rgba[i];
        out[j++] = rgba[i + 1];
        out[j++] = rgba[i + 2];
      }
    }
    return out;
  }
  // Four pixels (four 32-bit loads, red in the low byte) become three 32-bit stores into an
  // aligned row, which is then copied after the row's filter byte: about twice as fast as
  // storing byte by byte (0.65 against 1.16 ms for 1024x768 at best).
  const px = new Uint32Array(rgba.buffer, rgba.byteOffset, width * height);
  const quads = width >> 2;
  const rowWords = new Uint32Array(quads * 3 + 3);
  const row = new Uint8Array(rowWords.buffer, 0, width * 3);
  for (let y = 0; y < height; y++) {
    let i = y * width, k = 0;
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
    out[y * stride] = 0;
    out.set(row, y * stride + 1);
  }
  return out;
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

function assemble(parts: Uint8Array[]): Uint8Array {
  let n = SIGNATURE.length;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  out.set(SIGNATURE, 0);
  let o = SIGNATURE.length;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

function deflate(data: Uint8Array, level: number): Uint8Array {
  return new Uint8Array(deflateSync(data, { level, strategy: constants.Z_DEFAULT_STRATEGY }));
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
  const kind = options.kind ?? "rgba";
  const level = options.level ?? 4;
  if (kind === "palette") {
    const q = quantize(rgba, width * height, options.scratch?.bytes("png indices", width * height));
    const n = q.palette.length / 4;
    const plte = new Uint8Array(n * 3);
    let lastOpaque = -1;
    for (let i = 0; i < n; i++) {
      plte[i * 3] = q.palette[i * 4];
      plte[i * 3 + 1] = q.palette[i * 4 + 1];
      plte[i * 3 + 2] = q.palette[i * 4 + 2];
      if (q.palette[i * 4 + 3] !== 255) lastOpaque = i;
    }
    const parts = [chunk("IHDR", ihdr(width, height, 3)), chunk("PLTE", plte)];
    if (lastOpaque >= 0) {
      const trns = new Uint8Array(lastOpaque + 1);
      for (let i = 0; i <= lastOpaque; i++) trns[i] = q.palette[i * 4 + 3];
      parts.push(chunk("tRNS", trns));
    }
    parts.push(
      chunk("IDAT", deflate(filterRows(q.indices, width, height, 1, options.scratch), level)),
    );
    parts.push(chunk("IEND", new Uint8Array(0)));
    return assemble(parts);
  }
  const bpp = kind === "rgb" ? 3 : 4;
  // RGB rows by the thread's SIMD packer (_rgb_rows.ts) when it takes the image, else packed
  // straight into the scanline buffer (no intermediate copy).
  const rows = kind === "rgb"
    ? options.scratch?.rgbRows().of(rgba, width, height, options.overwrite) ??
      packRgbRows(rgba, width, height, options.scratch)
    : filterRows(rgba, width, height, 4, options.scratch);
  return assemble([
    chunk("IHDR", ihdr(width, height, bpp === 4 ? 6 : 2)),
    chunk("IDAT", deflate(rows, level)),
    chunk("IEND", new Uint8Array(0)),
  ]);
}
