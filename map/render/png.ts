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
import { constants, deflateSync } from "node:zlib";
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

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(parts: Uint8Array[]): number {
  let c = 0xffffffff;
  for (const p of parts) {
    for (let i = 0; i < p.length; i++) c = CRC_TABLE[(c ^ p[i]) & 0xff] ^ (c >>> 8);
  }
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, data.length);
  const typeBytes = new TextEncoder().encode(type);
  out.set(typeBytes, 4);
  out.set(data, 8);
  dv.setUint32(8 + data.length, crc32([typeBytes, data]));
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
  const out = rowBuffer(height * stride, scratch);
  // 32-bit reads: one load per pixel instead of three (little-endian: red in the low byte).
  const aligned = (rgba.byteOffset & 3) === 0;
  const px = aligned ? new Uint32Array(rgba.buffer, rgba.byteOffset, width * height) : null;
  for (let y = 0; y < height; y++) {
    out[y * stride] = 0;
    let j = y * stride + 1;
    if (px) {
      const end = (y + 1) * width;
      for (let i = y * width; i < end; i++) {
        const v = px[i];
        out[j] = v & 0xff;
        out[j + 1] = (v >>> 8) & 0xff;
        out[j + 2] = (v >>> 16) & 0xff;
        j += 3;
      }
    } else {
      const end = (y + 1) * width * 4;
      for (let i = y * width * 4; i < end; i += 4) {
        out[j++] = rgba[i];
        out[j++] = rgba[i + 1];
        out[j++] = rgba[i + 2];
      }
    }
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
  // RGB rows are packed straight into the scanline buffer (no intermediate copy).
  const rows = kind === "rgb"
    ? packRgbRows(rgba, width, height, options.scratch)
    : filterRows(rgba, width, height, 4, options.scratch);
  return assemble([
    chunk("IHDR", ihdr(width, height, bpp === 4 ? 6 : 2)),
    chunk("IDAT", deflate(rows, level)),
    chunk("IEND", new Uint8Array(0)),
  ]);
}
