import assert from "node:assert/strict";
import { BodyTooLargeError, declaredTooLarge, limitBody } from "./_body_budget.ts";

/** A stream of `chunks` pieces of 1 KiB that counts how many were pulled. */
function source(chunks: number): { stream: ReadableStream<Uint8Array>; pulled: () => number } {
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(c) {
      if (pulled++ === chunks) c.close();
      else c.enqueue(new Uint8Array(1024));
    },
  }, { highWaterMark: 0 });
  return { stream, pulled: () => pulled };
}

Deno.test("limitBody: a body within the limit passes whole", async () => {
  const bytes = await new Response(limitBody(source(4).stream, 4096)).arrayBuffer();
  assert.equal(bytes.byteLength, 4096);
  assert.equal((await new Response(limitBody(null, 10)).arrayBuffer()).byteLength, 0);
});

Deno.test("limitBody: a body over the limit fails as soon as it passes it, for formData too", async () => {
  const s = source(1_000_000);
  await assert.rejects(
    new Response(limitBody(s.stream, 10 * 1024), {
      headers: { "content-type": "multipart/form-data; boundary=b" },
    }).formData(),
    (e) => e instanceof BodyTooLargeError && e.limit === 10 * 1024,
  );
  assert.ok(s.pulled() < 20, `${s.pulled()} KiB pulled`);
});

Deno.test("declaredTooLarge: only a Content-Length over the limit", () => {
  const req = (headers: Record<string, string>) => new Request("http://h/", { headers });
  assert.equal(declaredTooLarge(req({ "content-length": "11" }), 10), true);
  assert.equal(declaredTooLarge(req({ "content-length": "10" }), 10), false);
  assert.equal(declaredTooLarge(req({}), 10), false);
});
