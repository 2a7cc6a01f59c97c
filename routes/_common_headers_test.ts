import assert from "node:assert/strict";
import { COMMON_HEADERS, withAllCommonHeaders, withCommonHeaders } from "./_common_headers.ts";

const preflight = (headers: Record<string, string> = {}) =>
  new Request("http://h/x", {
    method: "OPTIONS",
    headers: { origin: "https://a.example", "access-control-request-method": "POST", ...headers },
  });

Deno.test("common headers: added to any answer, kept when the route set them", () => {
  const res = withCommonHeaders(
    new Request("http://h/"),
    new Response("x", { status: 404, headers: { "access-control-allow-origin": "https://a" } }),
  );
  assert.equal(res.status, 404);
  assert.equal(res.headers.get("access-control-allow-origin"), "https://a");
  assert.equal(res.headers.get("x-content-type-options"), "nosniff");
});

Deno.test("common headers: immutable headers (Response.redirect) are copied", async () => {
  const res = withCommonHeaders(new Request("http://h/"), Response.redirect("http://h/a", 302));
  assert.equal(res.status, 302);
  assert.equal(res.headers.get("location"), "http://h/a");
  assert.equal(res.headers.get("access-control-allow-origin"), "*");
  assert.equal(res.headers.get("x-content-type-options"), "nosniff");
  await res.body?.cancel();
});

Deno.test("common headers: a preflight the route refused becomes a 204 with what browsers need", () => {
  const res = withCommonHeaders(
    preflight({ "access-control-request-headers": "x-requested-with" }),
    new Response("no", { status: 405, headers: { allow: "GET, HEAD, POST" } }),
  );
  assert.equal(res.status, 204);
  assert.equal(res.headers.get("access-control-allow-methods"), "GET, HEAD, POST, OPTIONS");
  assert.equal(res.headers.get("access-control-allow-headers"), "x-requested-with");
  assert.equal(res.headers.get("access-control-max-age"), "86400");
  // A route's own preflight answer keeps its methods.
  const own = withCommonHeaders(
    preflight(),
    new Response("{}", { headers: { "access-control-allow-methods": "GET, HEAD, OPTIONS" } }),
  );
  assert.equal(own.status, 200);
  assert.equal(own.headers.get("access-control-allow-methods"), "GET, HEAD, OPTIONS");
  assert.equal(own.headers.get("access-control-allow-headers"), "content-type");
  // A route's OPTIONS answer (the router's 204, DRF's metadata) gives its Allow as the methods.
  const allowed = withCommonHeaders(
    preflight(),
    new Response(null, { status: 204, headers: { allow: "GET, HEAD, OPTIONS" } }),
  );
  assert.equal(allowed.headers.get("access-control-allow-methods"), "GET, HEAD, OPTIONS");
});

Deno.test("common headers: a response built with them is passed on untouched, except a preflight's", () => {
  const built = () =>
    withAllCommonHeaders(
      new Response("{}", { headers: { "content-type": "application/json", ...COMMON_HEADERS } }),
    );
  const res = built();
  assert.equal(withCommonHeaders(new Request("http://h/"), res), res);
  assert.equal(res.headers.get("access-control-allow-origin"), "*");
  assert.equal(res.headers.get("x-content-type-options"), "nosniff");
  // A preflight still gets its answer even when the route marked its response.
  const answered = withCommonHeaders(preflight(), built());
  assert.equal(answered.headers.get("access-control-allow-methods"), "GET, HEAD, POST, OPTIONS");
  assert.equal(answered.headers.get("access-control-max-age"), "86400");
});
