import assert from "node:assert/strict";
import { BodyBudget, BodyTooLargeError, declaredTooLarge, limitBody } from "./_body_budget.ts";

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

Deno.test("whileReserved: answers with room reserved, gives it back, and answers busy with Retry-After", async () => {
  const budget = new BodyBudget({ bytes: 100, waitMs: 20 });
  const req = () =>
    new Request("http://x/", {
      method: "POST",
      headers: { "content-length": "80" },
      body: "a".repeat(80),
    });
  const busy = (m: string) => new Response(m, { status: 503 });
  const ok = await budget.whileReserved(req(), 1000, busy, () => {
    assert.equal(budget.inUse, 80);
    return Promise.resolve(new Response("done"));
  });
  assert.equal(await ok.text(), "done");
  assert.equal(budget.inUse, 0);
  const held = await budget.reserve(100);
  let ran = false;
  const refused = await budget.whileReserved(req(), 1000, busy, () => {
    ran = true;
    return Promise.resolve(new Response("no"));
  });
  held();
  assert.equal(refused.status, 503);
  assert.equal(refused.headers.get("retry-after"), "5");
  assert.equal(ran, false);
});
