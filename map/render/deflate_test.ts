import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { deflateSync, inflateSync } from "node:zlib";
import { BandDeflater } from "./_deflate.ts";

/** `n` bytes of map-like data: long flat runs, some noise. */
function mapLike(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  let s = seed;
  for (let i = 0; i < n; i++) {
    s = (s * 1103515245 + 12345) >>> 0;
    out[i] = (i >> 9) % 3 === 0 ? s >>> 24 : 200 + ((i >> 12) & 7);
  }
  return out;
}

/** Feeds `data` to `z` in bands of `band` bytes (from one reused buffer, as the encoder does). */
function deflateInBands(z: BandDeflater, data: Uint8Array, band: number, level = 4): Uint8Array {
  z.begin(level);
  const buf = new Uint8Array(band);
  for (let o = 0; o < data.length; o += band) {
    const n = Math.min(band, data.length - o);
    buf.set(data.subarray(o, o + n));
    z.write(buf.subarray(0, n), o + n >= data.length);
  }
  return z.bytes().slice();
}

Deno.test("this Deno hands bands straight to a kept zlib stream", () => {
  const z = new BandDeflater();
  z.begin(4);
  // A runtime without node:zlib's handle would gather the bands for deflateSync: slower, same bytes.
  assert.equal(z.streaming, true, "node:zlib's _handle.writeSync is gone: see _deflate.ts");
});

Deno.test("bands deflated one by one inflate to the data, as small as deflateSync's, at every level", () => {
  // zlib may end blocks or matches where a band ends (level 0 stores blocks that follow them):
  // the stream's bytes can differ from one call's, never the data it inflates to.
  const data = mapLike(300_000, 7);
  const z = new BandDeflater();
  for (const level of [0, 1, 4, 6, 9]) {
    for (const band of [1, 4096, 65_536, 300_000]) {
      if (band === 1 && level !== 4) continue;
      const got = deflateInBands(z, data.subarray(0, band === 1 ? 5000 : data.length), band, level);
      const want = deflateSync(data.subarray(0, band === 1 ? 5000 : data.length), { level });
      assert.deepEqual(inflateSync(got), inflateSync(want), `level ${level}, bands of ${band}`);
      if (band >= 4096) {
        assert.ok(got.length <= want.length * 1.01 + 64, `level ${level}, bands of ${band}: size`);
      }
    }
  }
});

Deno.test("the output buffer grows for data that does not compress, and a new image starts clean", () => {
  const z = new BandDeflater({ initialBytes: 16 });
  const noise = mapLike(200_000, 1).map((_, i) => (i * 2654435761) >>> 24);
  assert.deepEqual(inflateSync(deflateInBands(z, noise, 3000)), Buffer.from(noise));
  const small = mapLike(1000, 2);
  assert.deepEqual(inflateSync(deflateInBands(z, small, 300)), Buffer.from(small));
});

Deno.test("an output buffer past 8 MiB is not kept for the next image; a smaller one is", () => {
  const z = new BandDeflater({ initialBytes: 64 * 1024 });
  // Noise does not compress: 9 MiB of it needs a 16 MiB buffer (the buffer doubles).
  const noise = new Uint8Array(9 * 2 ** 20);
  let s = 1;
  for (let i = 0; i < noise.length; i++) {
    noise[i] = (s = (Math.imul(s, 1103515245) + 12345) >>> 0) >>> 24;
  }
  deflateInBands(z, noise, 1 << 20);
  // bytes() is a view of the deflater's buffer: its buffer's size is the buffer kept.
  assert.ok(z.bytes().buffer.byteLength > 8 * 2 ** 20);
  const small = mapLike(1000, 2);
  assert.deepEqual(inflateSync(deflateInBands(z, small, 300)), Buffer.from(small));
  assert.equal(z.bytes().buffer.byteLength, 64 * 1024, "a fresh buffer of the first size");
  // One that grew to 1 MiB stays for the next image.
  deflateInBands(z, noise.subarray(0, 600_000), 1 << 16);
  const kept = z.bytes().buffer;
  assert.equal(kept.byteLength, 1 << 20);
  deflateInBands(z, small, 300);
  assert.equal(z.bytes().buffer, kept);
});

Deno.test("without a zlib handle the gathered bands make deflateSync's stream", () => {
  const data = mapLike(100_000, 3);
  const gathered = new BandDeflater({ streaming: false, initialBytes: 16 });
  const got = deflateInBands(gathered, data, 7000);
  assert.equal(gathered.streaming, false);
  assert.deepEqual(got, new Uint8Array(deflateSync(data, { level: 4 })));
});

Deno.test("a band after the last, or the bytes before it, is a caller's error", () => {
  const z = new BandDeflater();
  z.begin(4);
  z.write(new Uint8Array([0, 1]), false);
  assert.throws(() => z.bytes(), /before the last band/);
  z.write(new Uint8Array([0, 2]), true);
  assert.throws(() => z.write(new Uint8Array([0, 3]), true), /after the last band/);
  assert.deepEqual(inflateSync(z.bytes()), Buffer.from([0, 1, 0, 2]));
});

Deno.test("a closed deflater opens a fresh stream on its next image", () => {
  const z = new BandDeflater();
  const data = mapLike(50_000, 9);
  deflateInBands(z, data, 10_000);
  z.close();
  z.close();
  assert.deepEqual(inflateSync(deflateInBands(z, data, 10_000)), Buffer.from(data));
  assert.equal(z.streaming, true);
});
