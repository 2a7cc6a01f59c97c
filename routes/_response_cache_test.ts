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

Deno.test("response cache: bodies read back intact across many wraps of its ring", () => {
  const c = new ResponseCache(10_000);
  const body = (i: number) => new Uint8Array(200 + (i * 37) % 1000).fill(i % 251);
  const model = new Map<string, number>();
  for (let i = 0; i < 2_000; i++) {
    c.set(`k${i}`, "1", { body: body(i), etag: `"${i}"`, lastModified: "x" });
    model.set(`k${i}`, i);
    if (i % 3 === 0) c.get(`k${i - 5}`, "1");
    let held = 0;
    for (const [k, n] of model) {
      const hit = c.get(k, "1");
      if (!hit) continue;
      held += hit.body.length;
      assert.deepEqual(hit.body, body(n), `${k} after ${i} writes`);
      assert.equal(hit.etag, `"${n}"`);
    }
    assert.ok(held <= 10_000 && c.bytes <= 10_000, `${held} bytes held after ${i} writes`);
    if (model.size > 60) model.delete(model.keys().next().value!);
  }
  assert.ok(c.get("k1999", "1"), "the newest body is kept");
});

Deno.test("response cache: a body read often outlives the traffic around it", () => {
  const c = new ResponseCache(10_000);
  c.set("hot", "1", entry(500));
  for (let i = 0; i < 500; i++) {
    c.set(`k${i}`, "1", entry(400));
    assert.ok(c.get("hot", "1"), `hot entry lost after ${i} writes`);
  }
});
