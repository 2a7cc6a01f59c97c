import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { PNG } from "pngjs";
import { encodePng } from "./png.ts";
import { RgbRows } from "./_rgb_rows.ts";
import { Scratch } from "./_scratch.ts";

function decode(bytes: Uint8Array) {
  return PNG.sync.read(Buffer.from(bytes));
}

/** A 40x30 image: four flat quadrants, one half-transparent, plus a gradient row. */
function sample(): Uint8Array {
  const w = 40, h = 30, px = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = (y * w + x) * 4;
      const q = (x < 20 ? 0 : 1) + (y < 15 ? 0 : 2);
      const c = [[255, 0, 0, 255], [0, 128, 0, 255], [0, 0, 255, 128], [250, 250, 250, 0]][q];
      px.set(y === 29 ? [x * 6, 255 - x * 6, 7, 255] : c, i);
    }
  }
  return px;
}

Deno.test("PNG32 round-trips every pixel exactly", () => {
  const px = sample();
  const d = decode(encodePng(px, 40, 30, { kind: "rgba" }));
  assert.equal(d.width, 40);
  assert.equal(d.height, 30);
  assert.deepEqual(new Uint8Array(d.data), px);
});

Deno.test("PNG24 drops alpha and keeps colour", () => {
  const px = sample();
  const bytes = encodePng(px, 40, 30, { kind: "rgb" });
  assert.equal(bytes[25], 2, "colour type 2 (truecolour)");
  const d = decode(bytes);
  for (let i = 0; i < px.length; i += 4) {
    assert.deepEqual([...d.data.subarray(i, i + 3)], [...px.subarray(i, i + 3)]);
    assert.equal(d.data[i + 3], 255);
  }
});

Deno.test("PNG24 keeps every colour at widths that are not a multiple of 4 and unaligned input", () => {
  let seed = 1;
  const rnd = () => (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24;
  for (const w of [1, 2, 3, 4, 5, 7, 9, 13]) {
    const h = 3;
    // One spare byte in front: also the byte-by-byte path for input not aligned to 4 bytes.
    for (const offset of [0, 1]) {
      const buf = new Uint8Array(w * h * 4 + offset);
      for (let i = 0; i < buf.length; i++) buf[i] = rnd();
      const px = buf.subarray(offset);
      const d = decode(encodePng(px, w, h, { kind: "rgb" }));
      assert.equal(d.width, w);
      for (let i = 0; i < px.length; i += 4) {
        assert.deepEqual(
          [...d.data.subarray(i, i + 3)],
          [...px.subarray(i, i + 3)],
          `w ${w} i ${i}`,
        );
      }
    }
  }
});

Deno.test("PNG8 with few colours is an exact palette image with tRNS alpha", () => {
  const px = sample();
  const bytes = encodePng(px, 40, 30, { kind: "palette" });
  assert.equal(bytes[25], 3, "colour type 3 (palette)");
  const text = new TextDecoder("latin1").decode(bytes);
  assert.ok(text.includes("PLTE") && text.includes("tRNS"));
  const d = decode(bytes);
  // Fully transparent pixels share one palette entry whatever their RGB.
  const expected = px.slice();
  for (let i = 0; i < expected.length; i += 4) {
    if (expected[i + 3] === 0) expected.fill(0, i, i + 4);
  }
  assert.deepEqual(new Uint8Array(d.data), expected);
});

Deno.test("PNG8 quantises images with more than 256 colours closely", () => {
  const w = 64, h = 64, px = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) px.set([x * 4, y * 4, (x + y) * 2, 255], (y * w + x) * 4);
  }
  // A dominant flat colour must come out exact.
  for (let i = 0; i < 64 * 20 * 4; i += 4) px.set([10, 200, 30, 255], i);
  const d = decode(encodePng(px, w, h, { kind: "palette" }));
  let worst = 0;
  for (let i = 0; i < px.length; i++) worst = Math.max(worst, Math.abs(d.data[i] - px[i]));
  assert.ok(worst <= 24, `worst channel error ${worst}`);
  assert.deepEqual([...d.data.subarray(0, 4)], [10, 200, 30, 255]);
});

Deno.test("encoder refuses a buffer of the wrong size", () => {
  assert.throws(() => encodePng(new Uint8Array(10), 2, 2), /got 10 bytes/);
  assert.throws(() => encodePng(new Uint8Array(0), 0, 5), /0x5 image/);
});

/** CRC-32 (ISO-HDLC, PNG's) bit by bit: the reference the chunk CRCs are checked against. */
function referenceCrc(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}

Deno.test("every chunk's CRC covers its type and data", () => {
  for (const kind of ["rgba", "rgb", "palette"] as const) {
    const png = encodePng(sample(), 40, 30, { kind });
    const dv = new DataView(png.buffer, png.byteOffset, png.byteLength);
    const types: string[] = [];
    for (let o = 8; o < png.length;) {
      const n = dv.getUint32(o);
      types.push(new TextDecoder().decode(png.subarray(o + 4, o + 8)));
      assert.equal(dv.getUint32(o + 8 + n), referenceCrc(png.subarray(o + 4, o + 8 + n)));
      o += 12 + n;
    }
    assert.equal(types.at(-1), "IEND", `${kind}: ${types}`);
    assert.ok(types.includes("IDAT"), `${kind}: ${types}`);
  }
});

Deno.test("PNG24 rows packed by the SIMD packer are the JavaScript packer's, byte for byte", () => {
  let seed = 9;
  const rnd = () => (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24;
  const scratch = new Scratch();
  for (const [w, h] of [[1, 1], [3, 2], [4, 3], [5, 3], [7, 5], [13, 4], [17, 9], [1024, 768]]) {
    for (const offset of [0, 1]) {
      const buf = new Uint8Array(w * h * 4 + offset);
      for (let i = 0; i < buf.length; i++) buf[i] = rnd();
      const px = buf.subarray(offset);
      const simd = encodePng(px, w, h, { kind: "rgb", scratch });
      assert.deepEqual(simd, encodePng(px, w, h, { kind: "rgb" }), `${w}x${h} at ${offset}`);
    }
  }
});

/** The scanlines of `rgba` from `rows`' bands, joined, checking that the bands come in order. */
function joinBands(rows: RgbRows, rgba: Uint8Array, w: number, h: number, band: number) {
  const parts: Uint8Array[] = [];
  const buffers = new Set<ArrayBufferLike>();
  let lasts = 0;
  rows.bands(rgba, w, h, band, (scanlines, last) => {
    assert.equal(lasts, 0, "no band after the last");
    if (last) lasts++;
    assert.ok(scanlines.length <= band * (3 * w + 1), "a band holds `band` rows at most");
    buffers.add(scanlines.buffer);
    parts.push(scanlines.slice());
  });
  assert.equal(lasts, 1, "the last band is flagged");
  return { rows: new Uint8Array(Buffer.concat(parts)), buffers };
}

/** `rgba` as RGB scanlines packed byte by byte: the reference. */
function referenceRows(rgba: Uint8Array, w: number, h: number): Uint8Array {
  const out = new Uint8Array(h * (3 * w + 1));
  for (let y = 0, j = 0; y < h; y++) {
    out[j++] = 0;
    for (let x = 0; x < w; x++) {
      const i = (y * w + x) * 4;
      out[j++] = rgba[i];
      out[j++] = rgba[i + 1];
      out[j++] = rgba[i + 2];
    }
  }
  return out;
}

Deno.test("the SIMD packer's bands are the image's scanlines, at every width and band height", () => {
  let seed = 3;
  const rnd = () => (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24;
  const rows = new RgbRows();
  for (const [w, h] of [[1, 1], [2, 1], [5, 3], [8, 9], [13, 7], [64, 64], [1024, 20]]) {
    const px = new Uint8Array(w * h * 4).map(rnd);
    for (const band of [1, 2, 3, h, h + 5]) {
      assert.deepEqual(
        joinBands(rows, px, w, h, band).rows,
        referenceRows(px, w, h),
        `${w}x${h}/${band}`,
      );
    }
  }
});

/** A wasm memory with a bump allocator, as CanvasKit's heap is to the packer. */
function bumpHeap(pages: number, free = 65536) {
  const memory = new WebAssembly.Memory({ initial: pages });
  let top = free, calls = 0;
  const heap = {
    memory,
    failing: false,
    buffer(n: number): number {
      calls++;
      if (heap.failing) return 0;
      const at = top;
      top += n;
      const need = Math.ceil(top / 65536) - memory.buffer.byteLength / 65536;
      if (need > 0) memory.grow(need);
      return at;
    },
    get calls() {
      return calls;
    },
  };
  return heap;
}

Deno.test("the SIMD packer packs pixels in their own heap, even when finding room grows it", () => {
  const w = 37, h = 11;
  const heap = bumpHeap(1);
  const pixels = new Uint8Array(heap.memory.buffer, 8, w * h * 4);
  let seed = 5;
  for (let i = 0; i < pixels.length; i++) pixels[i] = seed = (seed * 97 + 13) % 256;
  const want = referenceRows(pixels, w, h);
  const rows = new RgbRows(heap);
  // The first call finds room past the memory's end: the heap grows and `pixels` is detached.
  const first = joinBands(rows, pixels, w, h, 4);
  assert.equal(pixels.length, 0, "the pixel view was detached by the growth");
  assert.deepEqual([...first.buffers], [heap.memory.buffer], "every band packed in the heap");
  assert.deepEqual(first.rows, want);
  // Pixels outside the heap are copied into the packer's own memory, a band at a time.
  const outside = joinBands(rows, new Uint8Array(w * h * 4).fill(7), w, h, 4);
  assert.ok(!outside.buffers.has(heap.memory.buffer));
  assert.ok(outside.rows.every((b, i) => b === (i % (3 * w + 1) === 0 ? 0 : 7)));
  assert.equal(heap.calls, 1);
  // No room in the heap: the band copies it would have done without one.
  heap.failing = true;
  const again = new Uint8Array(heap.memory.buffer, 8, w * h * 4);
  assert.deepEqual(joinBands(rows, again, w, h, 4).rows, want);
  assert.equal(heap.calls, 2);
  // Packing never writes over the pixels.
  assert.deepEqual(referenceRows(new Uint8Array(heap.memory.buffer, 8, w * h * 4), w, h), want);
});

Deno.test("an encoding without a scratch closes its zlib stream (it does not grow the process)", () => {
  // Each stream holds ~230 KB of native state until closed: 1,500 left open took ~340 MB.
  const px = new Uint8Array(64 * 64 * 4).fill(200);
  encodePng(px, 64, 64, { kind: "rgb" });
  const before = Deno.memoryUsage().rss;
  for (let i = 0; i < 1500; i++) encodePng(px, 64, 64, { kind: i % 2 ? "rgb" : "palette" });
  const grown = (Deno.memoryUsage().rss - before) / 2 ** 20;
  assert.ok(grown < 100, `resident memory grew by ${grown.toFixed(0)} MiB`);
});
