import assert from "node:assert/strict";
import { negotiate, OgcError } from "./_reply.ts";

Deno.test("negotiate: f first, then the best Accept entry, else JSON; others are 406", () => {
  assert.equal(negotiate(null, null), "json");
  assert.equal(negotiate("html", "application/json"), "html");
  assert.equal(negotiate("JSON", "text/html"), "json");
  assert.equal(negotiate("geojson", null), "json");
  assert.equal(negotiate(null, "text/html,application/xhtml+xml,*/*;q=0.8"), "html");
  assert.equal(negotiate(null, "application/geo+json"), "json");
  assert.equal(negotiate(null, "text/html;q=0.5, application/json"), "json");
  assert.equal(negotiate(null, "application/xml, */*;q=0.1"), "json");
  assert.equal(negotiate(null, "application/vnd.oai.openapi+json;version=3.0"), "json");
  for (const [f, accept] of [["xml", null], [null, "application/xml"], [null, "text/html;q=0"]]) {
    assert.throws(
      () => negotiate(f, accept),
      (e) => e instanceof OgcError && e.status === 406 && e.code === "NotAcceptable",
    );
  }
});
