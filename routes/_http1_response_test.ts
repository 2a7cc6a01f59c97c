import assert from "node:assert/strict";
import { contentLength, frame, noBody, responseBytes } from "./_http1_response.ts";

const text = (b: Uint8Array) => new TextDecoder().decode(b);

Deno.test("http1 response: our framing replaces the handler's; the body follows the head", () => {
  const res = new Response("x", {
    status: 201,
    headers: {
      "content-length": "99",
      "transfer-encoding": "gzip",
      connection: "keep-alive",
      "x-a": "1",
    },
  });
  const out = text(responseBytes(res, false, false, 2, new TextEncoder().encode("hi")));
  assert.match(out, /^HTTP\/1\.1 201 Created\r\n/);
  assert.doesNotMatch(out, /99|gzip|keep-alive/);
  assert.match(out, /\r\nx-a: 1\r\n/);
  assert.match(out, /\r\nconnection: close\r\ncontent-length: 2\r\n\r\nhi$/);
  // HTTP/1.0 keeping the connection says so; a Date given by the handler is kept.
  const ten = text(
    responseBytes(new Response(null, { headers: { date: "then" } }), true, true, 0, null),
  );
  assert.match(ten, /\r\ndate: then\r\nconnection: keep-alive\r\ncontent-length: 0\r\n\r\n$/);
  assert.doesNotMatch(
    text(responseBytes(new Response(null, { status: 204 }), false, true, 0, null)),
    /content-length/,
  );
  // Header values are byte strings: written as Latin-1.
  const latin = responseBytes(
    new Response(null, { headers: { "x-b": "\xe9" } }),
    false,
    true,
    0,
    null,
  );
  assert.ok(latin.includes(0xe9));
});

Deno.test("http1 response: lengths of HEAD and 304, chunks, bodiless statuses", () => {
  const given = new Response(null, { headers: { "content-length": "41" } });
  assert.equal(contentLength(given, null, true), 41);
  assert.equal(contentLength(given, null, false), 0);
  assert.equal(contentLength(new Response(null), new Uint8Array(3), true), 3);
  assert.equal(
    text(frame(new TextEncoder().encode("0123456789abcdef!"), true)),
    "11\r\n0123456789abcdef!\r\n",
  );
  assert.deepEqual([noBody(204), noBody(304), noBody(200)], [true, true, false]);
});
