import assert from "node:assert/strict";
import { IdListBuilder } from "./_ordered_ids.ts";

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
