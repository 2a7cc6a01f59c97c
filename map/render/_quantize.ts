/**
 * Colour quantisation to at most 256 RGBA colours for palette PNGs.
 *
 * Map images usually hold few distinct colours (fills, background,
 * outlines) plus antialiasing blends, so an exact palette is tried first;
 * only when it overflows is a median cut over a 5-5-5-3 bit histogram made,
 * with each palette entry the weighted mean of its pixels, so dominant flat
 * colours come out exact.
 *
 * @module
 */

/** A palette (`n * 4` RGBA bytes) and one palette index per pixel. */
export interface Quantized {
  palette: Uint8Array;
  indices: Uint8Array;
}

const MAX = 256;

function exact(px: Uint32Array, count: number, indices: Uint8Array): Quantized | null {
  const index = new Map<number, number>();
  const colours: number[] = [];
  let last = -1, lastIdx = 0;
  for (let i = 0; i < count; i++) {
    let v = px[i];
    // Every fully transparent pixel is the same colour.
    if (v >>> 24 === 0) v = 0;
    if (v !== last) {
      let idx = index.get(v);
      if (idx === undefined) {
        if (colours.length === MAX) return null;
        idx = colours.length;
        colours.push(v);
        index.set(v, idx);
      }
      last = v;
      lastIdx = idx;
    }
    indices[i] = lastIdx;
  }
  return { palette: toPalette(colours), indices };
}

function toPalette(colours: number[]): Uint8Array {
  // Little-endian packing: byte 0 is red.
  const palette = new Uint8Array(colours.length * 4);
  new Uint32Array(palette.buffer).set(colours);
  return palette;
}

const SIZE = 1 << 18;
let scratchArrays: { count: Uint32Array; sums: Float64Array } | null = null;

/** The isolate's histogram arrays (all zero between calls). */
function scratch(): { count: Uint32Array; sums: Float64Array } {
  scratchArrays ??= { count: new Uint32Array(SIZE), sums: new Float64Array(SIZE * 4) };
  return scratchArrays;
}

/** Histogram key of a pixel: 5 bits each of R, G, B and 3 of alpha. */
function key(v: number): number {
  const r = v & 0xff, g = (v >>> 8) & 0xff, b = (v >>> 16) & 0xff, a = v >>> 24;
  return ((r >> 3) << 13) | ((g >> 3) << 8) | ((b >> 3) << 3) | (a >> 5);
}

interface Box {
  bins: number[];
  weight: number;
  /** Widest channel and its extent (of bin means). */
  channel: number;
  range: number;
}

function medianCut(
  count: Uint32Array,
  sums: Float64Array,
  bins: number[],
): { means: number[][]; boxes: Box[] } {
  // Bin means computed once: the sorts below compare them many times.
  const means = new Map<number, Float32Array>();
  for (const k of bins) {
    means.set(
      k,
      Float32Array.of(
        sums[k * 4] / count[k],
        sums[k * 4 + 1] / count[k],
        sums[k * 4 + 2] / count[k],
        sums[k * 4 + 3] / count[k],
      ),
    );
  }
  const mean = (k: number, ch: number) => means.get(k)![ch];
  const boxOf = (b: number[]): Box => {
    let w = 0;
    const lo = [255, 255, 255, 255], hi = [0, 0, 0, 0];
    for (const k of b) {
      w += count[k];
      for (let ch = 0; ch < 4; ch++) {
        const m = mean(k, ch);
        if (m < lo[ch]) lo[ch] = m;
        if (m > hi[ch]) hi[ch] = m;
      }
    }
    let channel = 0;
    for (let ch = 1; ch < 4; ch++) if (hi[ch] - lo[ch] > hi[channel] - lo[channel]) channel = ch;
    return { bins: b, weight: w, channel, range: hi[channel] - lo[channel] };
  };
  const boxes: Box[] = [boxOf(bins)];
  while (boxes.length < MAX) {
    // Split the box with the largest spread weighted by its pixel count.
    let pick = -1;
    let best = 0;
    for (let i = 0; i < boxes.length; i++) {
      const bx = boxes[i];
      if (bx.bins.length < 2) continue;
      const score = bx.range * Math.sqrt(bx.weight);
      if (score > best) (best = score), (pick = i);
    }
    if (pick < 0) break;
    const bx = boxes[pick];
    const ch = bx.channel;
    const sorted = bx.bins.slice().sort((a, b) => mean(a, ch) - mean(b, ch));
    let acc = 0, cut = 1;
    for (let i = 0; i < sorted.length - 1; i++) {
      acc += count[sorted[i]];
      cut = i + 1;
      if (acc * 2 >= bx.weight) break;
    }
    boxes.splice(pick, 1, boxOf(sorted.slice(0, cut)), boxOf(sorted.slice(cut)));
  }
  const palette = boxes.map((bx) => {
    const s = [0, 0, 0, 0];
    for (const k of bx.bins) for (let ch = 0; ch < 4; ch++) s[ch] += sums[k * 4 + ch];
    return s.map((v) => Math.round(v / bx.weight));
  });
  return { means: palette, boxes };
}

/**
 * Reduces unpremultiplied RGBA pixels to a palette of at most 256 colours.
 * The indices are written to `indices` when given (a reused work buffer of
 * at least `pixelCount` bytes), else to a new array.
 *
 * @example
 * ```ts
 * const width = 16, height = 16, rgba = new Uint8Array(width * height * 4);
 * const { palette, indices } = quantize(rgba, width * height);
 * ```
 */
export function quantize(
  rgba: Uint8Array,
  pixelCount: number,
  indices: Uint8Array = new Uint8Array(pixelCount),
): Quantized {
  const px = new Uint32Array(rgba.buffer, rgba.byteOffset, pixelCount);
  const out = indices.subarray(0, pixelCount);
  const e = exact(px, pixelCount, out);
  if (e) return e;
  // Histogram arrays are reused between calls (zeroed bin by bin below): allocating
  // 9 MB per image cost more than filling it. Runs of one colour (most of a map)
  // are added once.
  const { count, sums } = scratch();
  let run = 0, last = -1;
  const flush = () => {
    if (run === 0) return;
    const k = key(last);
    count[k] += run;
    const o = k * 4;
    sums[o] += (last & 0xff) * run;
    sums[o + 1] += ((last >>> 8) & 0xff) * run;
    sums[o + 2] += ((last >>> 16) & 0xff) * run;
    sums[o + 3] += (last >>> 24) * run;
  };
  for (let i = 0; i < pixelCount; i++) {
    let v = px[i];
    if (v >>> 24 === 0) v = 0;
    if (v === last) {
      run++;
      continue;
    }
    flush();
    last = v;
    run = 1;
  }
  flush();
  const bins: number[] = [];
  for (let k = 0; k < SIZE; k++) if (count[k]) bins.push(k);
  try {
    return fromHistogram(px, pixelCount, count, sums, bins, out);
  } finally {
    for (const k of bins) {
      count[k] = 0;
      sums.fill(0, k * 4, k * 4 + 4);
    }
  }
}

function fromHistogram(
  px: Uint32Array,
  pixelCount: number,
  count: Uint32Array,
  sums: Float64Array,
  bins: number[],
  indices: Uint8Array,
): Quantized {
  const { means } = medianCut(count, sums, bins);
  // Map every occupied bin to its nearest palette colour (not just its box) for accuracy.
  const binIndex = new Uint8Array(SIZE);
  for (const k of bins) {
    const o = k * 4;
    const r = sums[o] / count[k], g = sums[o + 1] / count[k];
    const b = sums[o + 2] / count[k], a = sums[o + 3] / count[k];
    let best = 0, bestD = Infinity;
    for (let i = 0; i < means.length; i++) {
      const m = means[i];
      const d = (m[0] - r) ** 2 + (m[1] - g) ** 2 + (m[2] - b) ** 2 + (m[3] - a) ** 2;
      if (d < bestD) (bestD = d), (best = i);
    }
    binIndex[k] = best;
  }
  let lastPx = -1, lastIdx = 0;
  for (let i = 0; i < pixelCount; i++) {
    const v = px[i];
    if (v !== lastPx) {
      lastPx = v;
      lastIdx = binIndex[key(v >>> 24 === 0 ? 0 : v)];
    }
    indices[i] = lastIdx;
  }
  const palette = new Uint8Array(means.length * 4);
  means.forEach((m, i) => palette.set(m, i * 4));
  return { palette, indices };
}
