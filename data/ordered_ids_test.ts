import assert from "node:assert/strict";
import { IdListBuilder, orderedIdCache } from "./_ordered_ids.ts";

Deno.test("IdListBuilder: grows past the expected size and returns exactly the ids pushed", () => {
  const b = new IdListBuilder();
  b.start(2);
  const ids = Array.from({ length: 100 }, (_, i) => (i * 7919) % 1000);
  for (const id of ids) b.push(id);
  const out = b.finish();
  assert.ok(out instanceof Uint32Array);
  assert.deepEqual([...out], ids);
  assert.equal(out.buffer.byteLength, 400, "no spare capacity is kept");
  b.start();
  assert.equal(b.finish().length, 0, "a new list starts empty");
});

Deno.test("IdListBuilder: an id past 2^32 - 1 switches the list to 8 bytes an id", () => {
  const b = new IdListBuilder();
  b.start(4);
  for (const id of [5, 2 ** 32 + 3, 1, 2 ** 40]) b.push(id);
  const out = b.finish();
  assert.ok(out instanceof Float64Array);
  assert.deepEqual([...out], [5, 2 ** 32 + 3, 1, 2 ** 40]);
});

Deno.test("orderedIdCache: the most recently used lists, within the byte budget", () => {
  const lists = orderedIdCache(1000);
  const ids = (n: number) => new Uint32Array(n);
  lists.set("a", ids(100));
  lists.set("b", ids(100));
  lists.get("a");
  // 1,200 bytes asked for 1,000: the least recently used ("b", as "a" was just read) goes.
  lists.set("c", ids(100));
  assert.deepEqual([...lists.keys()].sort(), ["a", "c"]);
  assert.equal(lists.calculatedSize, 800);
  for (let i = 0; i < 40; i++) {
    lists.set(`x${i}`, ids(30));
    assert.ok(lists.calculatedSize <= 1000, `${lists.calculatedSize} bytes`);
  }
  assert.equal(lists.get("x39")?.length, 30, "the last list kept");
  // A list over the whole budget is never kept; an empty one is (a query matching nothing).
  lists.set("huge", ids(251));
  assert.equal(lists.get("huge"), undefined);
  lists.set("none", ids(0));
  assert.equal(lists.get("none")?.length, 0);
});
