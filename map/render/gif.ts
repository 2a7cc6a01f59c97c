/**
 * GIF89a encoder (esriImageGIF): palette from the PNG8 quantiser, LZW
 * compressed, with one transparent palette entry for pixels under half
 * opacity (GIF transparency is on or off).
 *
 * @module
 */
import { quantize } from "./_quantize.ts";

/** LZW-compresses palette indices into GIF data sub-blocks (min code size byte included). */
function lzw(indices: Uint8Array, minCodeSize: number): Uint8Array {
  const clear = 1 << minCodeSize, eoi = clear + 1;
  const out: number[] = [minCodeSize];
  let block: number[] = [];
  let bitBuf = 0, bitCount = 0;
  let codeSize = minCodeSize + 1;
  const emit = (code: number) => {
    bitBuf |= code << bitCount;
    bitCount += codeSize;
    while (bitCount >= 8) {
      block.push(bitBuf & 0xff);
      bitBuf >>>= 8;
      bitCount -= 8;
      if (block.length === 255) {
        out.push(255, ...block);
        block = [];
      }
    }
  };
  let dict = new Map<number, number>();
  let next = eoi + 1;
  emit(clear);
  let prefix = indices.length ? indices[0] : 0;
  for (let i = 1; i < indices.length; i++) {
    const k = indices[i];
    const key = (prefix << 8) | k;
    const hit = dict.get(key);
    if (hit !== undefined) {
      prefix = hit;
      continue;
    }
    emit(prefix);
    if (next < 4096) {
      dict.set(key, next++);
      // The decoder widens one code later than the encoder adds the entry.
      if (next > (1 << codeSize) && codeSize < 12) codeSize++;
    } else {
      emit(clear);
      dict = new Map();
      next = eoi + 1;
      codeSize = minCodeSize + 1;
    }
    prefix = k;
  }
  if (indices.length) emit(prefix);
  emit(eoi);
  if (bitCount > 0) block.push(bitBuf & 0xff);
  if (block.length) out.push(block.length, ...block);
  out.push(0);
  return Uint8Array.from(out);
}

/**
 * Encodes unpremultiplied RGBA pixels as a GIF89a image.
 *
 * @example
 * ```ts
 * const rgba = new Uint8Array(256 * 256 * 4);
 * const gif = encodeGif(rgba, 256, 256);
 * ```
 */
export function encodeGif(rgba: Uint8Array, w: number, h: number): Uint8Array {
  const { palette, indices } = quantize(rgba, w * h);
  const n = palette.length / 4;
  let transparent = -1;
  for (let i = 0; i < n; i++) {
    if (palette[i * 4 + 3] < 128) {
      transparent = i;
      break;
    }
  }
  if (transparent >= 0) {
    // Every mostly-transparent palette entry becomes the one transparent index.
    const remap = new Uint8Array(n).map((_, i) => palette[i * 4 + 3] < 128 ? transparent : i);
    for (let i = 0; i < indices.length; i++) indices[i] = remap[indices[i]];
  }
  let bits = 1;
  while ((1 << bits) < n) bits++;
  const tableSize = 1 << bits;
  const head = new Uint8Array(13 + tableSize * 3 + (transparent >= 0 ? 8 : 0) + 10);
  const dv = new DataView(head.buffer);
  head.set([0x47, 0x49, 0x46, 0x38, 0x39, 0x61], 0); // GIF89a
  dv.setUint16(6, w, true);
  dv.setUint16(8, h, true);
  head[10] = 0x80 | ((bits - 1) << 4) | (bits - 1); // global colour table
  let o = 13;
  for (let i = 0; i < tableSize; i++) {
    if (i < n) head.set([palette[i * 4], palette[i * 4 + 1], palette[i * 4 + 2]], o);
    o += 3;
  }
  if (transparent >= 0) {
    head.set([0x21, 0xf9, 4, 1, 0, 0, transparent, 0], o);
    o += 8;
  }
  head[o] = 0x2c; // image descriptor
  dv.setUint16(o + 5, w, true);
  dv.setUint16(o + 7, h, true);
  const data = lzw(indices, Math.max(2, bits));
  const out = new Uint8Array(head.length + data.length + 1);
  out.set(head, 0);
  out.set(data, head.length);
  out[out.length - 1] = 0x3b; // trailer
  return out;
}
