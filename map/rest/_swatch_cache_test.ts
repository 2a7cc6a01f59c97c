import assert from "node:assert/strict";
import type { MapFrame } from "../ops/mod.ts";
import { SwatchCache } from "./_swatch_cache.ts";

Deno.test("SwatchCache keeps recent swatches within its byte bound, per map object", () => {
  const frame = { name: "Layers" } as MapFrame;
  const cache = new SwatchCache(8_000);
  const key = (digest: string, f = frame) => ({ service: "S", frame: f, layerId: 0, digest });
  const image = (n: number) => ({ contentType: "image/png", bytes: new Uint8Array(n) });
  cache.put(key("aa"), image(900));
  cache.put(key("bb"), image(900));
  assert.equal(cache.get(key("AA"))?.bytes.byteLength, 900, "digests are case-insensitive");
  // Over the bound the least recently used goes first: "bb", as "aa" was just read.
  for (const d of ["c1", "c2", "c3", "c4", "c5", "c6", "c7"]) {
    cache.put(key(d), image(900));
    assert.ok(cache.bytes <= 8_000, `${cache.bytes} bytes`);
  }
  assert.equal(cache.bytes, 8_100 - 900, "full: the 9th image pushed out one");
  assert.equal(cache.get(key("bb")), undefined);
  assert.ok(cache.get(key("aa")));
  assert.ok(cache.get(key("c7")));
  // An image over an eighth of the bound is not kept.
  cache.put(key("big"), image(1_001));
  assert.equal(cache.get(key("big")), undefined);
  // A reloaded map (another object with the same name) never sees the old swatches.
  assert.equal(cache.get(key("c7", { name: "Layers" } as MapFrame)), undefined);
});
