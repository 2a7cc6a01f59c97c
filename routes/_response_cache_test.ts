import assert from "node:assert/strict";
import { ResponseCache } from "./_response_cache.ts";

const entry = (n: number) => ({ body: new Uint8Array(n), etag: `"${n}"`, lastModified: "x" });

Deno.test("response cache: hits only at the same revision", () => {
  const c = new ResponseCache(10_000);
  c.set("a", "1", entry(100));
  assert.equal(c.get("a", "1")?.etag, '"100"');
  assert.equal(c.get("a", "2"), undefined, "another revision is a miss");
  assert.equal(c.get("a", "1"), undefined, "and the stale entry is gone");
  assert.equal(c.bytes, 0);
});

Deno.test("response cache: evicts least recently used beyond its size", () => {
  const c = new ResponseCache(3_000);
  c.set("a", "1", entry(300));
  c.set("b", "1", entry(300));
  c.get("a", "1");
  for (let i = 0; i < 20; i++) c.set(`k${i}`, "1", entry(300));
  assert.ok(c.bytes <= 3_000);
  assert.equal(c.get("b", "1"), undefined);
  c.set("huge", "1", entry(2_000));
  assert.equal(c.get("huge", "1"), undefined, "bodies over an eighth of the cache are not kept");
});
