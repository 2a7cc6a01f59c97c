import assert from "node:assert/strict";
import { startTestServer } from "./_api_helpers.ts";
import { YoungCollector } from "../routes/mod.ts";

Deno.test("young collections: one each time the API bodies sent pass the budget; HEAD, 304 and errors count nothing", async () => {
  let collections = 0;
  const budget = 20_000;
  const s = await startTestServer({ minorGc: () => collections++, youngGcBytes: budget });
  try {
    // What the server should have done, replayed on the sizes of the bodies received.
    const expected = new YoungCollector(() => {}, budget);
    const paths = [
      "/api/v1/vacancies/",
      "/api/v1/vacancies/?page=2",
      "/api/v1/competitions/",
      "/api/v1/vacancies/", // a response-cache hit is sent, so it counts too
      "/api/v1/agencies/for_vacancies/",
      "/api/v1/vacancies/?page=3&ordering=-salary_from",
      "/api/v1/vacancies/?page=4",
    ];
    let etag = "";
    for (const p of paths) {
      const res = await fetch(s.url + p);
      const body = new Uint8Array(await res.arrayBuffer());
      assert.equal(res.status, 200, p);
      etag = res.headers.get("etag") ?? "";
      expected.add(body.byteLength);
    }
    assert.ok(expected.collections >= 2, "the paths send more than twice the budget");
    const head = await fetch(s.url + "/api/v1/vacancies/?page=5", { method: "HEAD" });
    await head.body?.cancel();
    const notModified = await fetch(s.url + "/api/v1/vacancies/?page=4", {
      headers: { "if-none-match": etag },
    });
    await notModified.body?.cancel();
    assert.equal(notModified.status, 304);
    const missing = await fetch(s.url + "/api/v1/vacancies/999999999/");
    await missing.body?.cancel();
    assert.equal(missing.status, 404);
    assert.equal(collections, expected.collections);
  } finally {
    await s.close();
  }
});

Deno.test("YoungCollector: without a collector (no --expose-gc) it never collects", () => {
  const young = new YoungCollector(null, 10);
  assert.equal(young.add(100), false);
  assert.equal(young.collections, 0);
});
