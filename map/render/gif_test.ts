import assert from "node:assert/strict";
import { encodeGif } from "./gif.ts";

/** A small independent GIF decoder (single image, global palette) for the round trip. */
function decodeGif(b: Uint8Array): { w: number; h: number; rgba: Uint8Array } {
  assert.equal(new TextDecoder().decode(b.subarray(0, 6)), "GIF89a");
  const dv = new DataView(b.buffer, b.byteOffset);
  const w = dv.getUint16(6, true), h = dv.getUint16(8, true);
  const flags = b[10];
  const tableSize = 2 << (flags & 7);
  const table = b.subarray(13, 13 + tableSize * 3);
  let o = 13 + tableSize * 3;
  let transparent = -1;
  while (b[o] === 0x21) {
    if (b[o + 1] === 0xf9 && (b[o + 3] & 1)) transparent = b[o + 6];
    o += 2;
    while (b[o] !== 0) o += b[o] + 1;
    o++;
  }
  assert.equal(b[o], 0x2c);
  o += 10;
  const minCode = b[o++];
  const data: number[] = [];
  while (b[o] !== 0) {
    data.push(...b.subarray(o + 1, o + 1 + b[o]));
    o += b[o] + 1;
  }
  const clear = 1 << minCode, eoi = clear + 1;
  let size = minCode + 1, dict: number[][] = [], prev: number[] | null = null;
  const reset = () => {
    dict = [];
    for (let i = 0; i < clear; i++) dict[i] = [i];
    dict[clear] = [];
    dict[eoi] = [];
    size = minCode + 1;
    prev = null;
  };
  reset();
  const out: number[] = [];
  let bit = 0;
  while (true) {
    let code = 0;
    for (let i = 0; i < size; i++, bit++) code |= ((data[bit >> 3] >> (bit & 7)) & 1) << i;
    if (code === clear) {
      reset();
      continue;
    }
    if (code === eoi) break;
    let entry: number[];
    if (code < dict.length) entry = dict[code];
    else entry = [...prev!, prev![0]];
    out.push(...entry);
    if (prev) dict.push([...prev, entry[0]]);
    prev = entry;
    if (dict.length === 1 << size && size < 12) size++;
  }
  const rgba = new Uint8Array(w * h * 4);
  for (let i = 0; i < w * h; i++) {
    const k = out[i];
    rgba.set(
      k === transparent ? [0, 0, 0, 0] : [table[k * 3], table[k * 3 + 1], table[k * 3 + 2], 255],
      i * 4,
    );
  }
  return { w, h, rgba };
}

Deno.test("GIF round-trips a few-colour image with transparency through an independent decoder", () => {
  const w = 61, h = 37, px = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const c = (x * 7 + y * 3) % 5;
      px.set(
        c === 4 ? [0, 0, 0, 0] : [c * 60, 255 - c * 50, (x * y) % 2 ? 10 : 200, 255],
        (y * w + x) * 4,
      );
    }
  }
  const g = decodeGif(encodeGif(px, w, h));
  assert.equal(g.w, w);
  assert.equal(g.h, h);
  assert.deepEqual(g.rgba, px);
});

Deno.test("GIF of a large, varied image decodes to the quantised colours (LZW table resets)", () => {
  const w = 300, h = 200, px = new Uint8Array(w * h * 4);
  for (let i = 0; i < w * h; i++) {
    px.set([(i * 13) % 256, (i * 7) % 256, (i >> 3) % 256, 255], i * 4);
  }
  const g = decodeGif(encodeGif(px, w, h));
  let worst = 0;
  for (let i = 0; i < px.length; i++) worst = Math.max(worst, Math.abs(g.rgba[i] - px[i]));
  assert.ok(worst <= 64, `worst channel error ${worst}`);
});
