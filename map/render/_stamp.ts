/**
 * Pixel work done in plain JS on premultiplied RGBA buffers: stamping a
 * pre-drawn marker sprite at many positions (source-over, in order),
 * compositing one buffer over another, and un-premultiplying for the
 * encoders.
 *
 * Why: Skia compiled to WebAssembly rasterises small antialiased shapes at
 * tens of microseconds each (100,000 markers took over a second), while a
 * sprite blit is a few nanoseconds per pixel. Markers are snapped to whole
 * pixels, as a sprite drawn without resampling must be.
 *
 * @module
 */

/** A sprite reduced to its visible pixels. */
export interface Sprite {
  size: number;
  /** Column and row of each covered pixel. */
  xs: Int32Array;
  ys: Int32Array;
  /** Premultiplied RGBA of those pixels, packed little-endian (R in the low byte). */
  colors: Uint32Array;
  /** 255 - alpha of those pixels (0 = opaque: plain copy). */
  inverse: Uint8Array;
}

/** Extracts the covered pixels of a premultiplied RGBA sprite of `size` x `size`. */
export function makeSprite(premul: Uint8Array, size: number): Sprite {
  const px = new Uint32Array(premul.buffer, premul.byteOffset, size * size);
  const offs: number[] = [];
  for (let i = 0; i < px.length; i++) if (px[i] >>> 24 !== 0) offs.push(i);
  const n = offs.length;
  const s: Sprite = {
    size,
    xs: new Int32Array(n),
    ys: new Int32Array(n),
    colors: new Uint32Array(n),
    inverse: new Uint8Array(n),
  };
  offs.forEach((o, k) => {
    s.xs[k] = o % size;
    s.ys[k] = (o / size) | 0;
    s.colors[k] = px[o];
    s.inverse[k] = 255 - (px[o] >>> 24);
  });
  return s;
}

/** src-over of one premultiplied pixel `s` (with 255 - alpha `inv`) onto `d`. */
function over(s: number, inv: number, d: number): number {
  const r = (s & 0xff) + ((((d & 0xff) * inv) + 128) * 257 >>> 16);
  const g = ((s >>> 8) & 0xff) + (((((d >>> 8) & 0xff) * inv) + 128) * 257 >>> 16);
  const b = ((s >>> 16) & 0xff) + (((((d >>> 16) & 0xff) * inv) + 128) * 257 >>> 16);
  const a = (s >>> 24) + ((((d >>> 24) * inv) + 128) * 257 >>> 16);
  return ((a > 255 ? 255 : a) << 24 | (b > 255 ? 255 : b) << 16 | (g > 255 ? 255 : g) << 8 |
    (r > 255 ? 255 : r)) >>> 0;
}

/**
 * Stamps `sprite` with its top-left corner at each (x, y) of `corners`
 * into `dst` (premultiplied RGBA, `w` x `h`), clipping at the edges.
 */
export function stampSprites(
  dst: Uint8Array,
  w: number,
  h: number,
  sprite: Sprite,
  corners: Int32Array,
): void {
  const d32 = new Uint32Array(dst.buffer, dst.byteOffset, w * h);
  const { size, xs, ys, colors, inverse } = sprite;
  const n = xs.length;
  const rel = new Int32Array(n);
  for (let k = 0; k < n; k++) rel[k] = ys[k] * w + xs[k];
  for (let p = 0; p < corners.length; p += 2) {
    const x0 = corners[p], y0 = corners[p + 1];
    if (x0 >= 0 && y0 >= 0 && x0 + size <= w && y0 + size <= h) {
      const base = y0 * w + x0;
      for (let k = 0; k < n; k++) {
        const di = base + rel[k];
        const inv = inverse[k];
        d32[di] = inv === 0 ? colors[k] : over(colors[k], inv, d32[di]);
      }
    } else {
      for (let k = 0; k < n; k++) {
        const x = x0 + xs[k], y = y0 + ys[k];
        if (x < 0 || y < 0 || x >= w || y >= h) continue;
        const di = y * w + x;
        const inv = inverse[k];
        d32[di] = inv === 0 ? colors[k] : over(colors[k], inv, d32[di]);
      }
    }
  }
}

/** Composites premultiplied `src` over premultiplied `dst` (same size), in place. */
export function compositeOver(dst: Uint8Array, src: Uint8Array): void {
  const d32 = new Uint32Array(dst.buffer, dst.byteOffset, dst.length >> 2);
  const s32 = new Uint32Array(src.buffer, src.byteOffset, src.length >> 2);
  for (let i = 0; i < s32.length; i++) {
    const s = s32[i];
    const a = s >>> 24;
    if (a === 0) continue;
    d32[i] = a === 255 ? s : over(s, 255 - a, d32[i]);
  }
}

/** Converts premultiplied RGBA to unpremultiplied, in place. */
export function unpremultiply(px: Uint8Array): void {
  for (let i = 0; i < px.length; i += 4) {
    const a = px[i + 3];
    if (a === 255) continue;
    if (a === 0) {
      px[i] = px[i + 1] = px[i + 2] = 0;
      continue;
    }
    const f = 255 / a;
    px[i] = Math.min(255, Math.round(px[i] * f));
    px[i + 1] = Math.min(255, Math.round(px[i + 1] * f));
    px[i + 2] = Math.min(255, Math.round(px[i + 2] * f));
  }
}

/** Whether every pixel of RGBA `px` has this alpha (32-bit reads when aligned). */
export function everyAlpha(px: Uint8Array, alpha: number): boolean {
  if ((px.byteOffset & 3) !== 0) {
    for (let i = 3; i < px.length; i += 4) if (px[i] !== alpha) return false;
    return true;
  }
  // 32-bit reads, little-endian: alpha is the top byte.
  const u = new Uint32Array(px.buffer, px.byteOffset, px.length >> 2);
  for (let i = 0; i < u.length; i++) if (u[i] >>> 24 !== alpha) return false;
  return true;
}
