import assert from "node:assert/strict";
import { type BodySource, RequestBody } from "./_http1_body.ts";
import { parseRequestHead } from "./_http1_head.ts";

/** A source over `input`, recording what was sent back. */
function source(input: string): BodySource & { sent: string[] } {
  let rest = input;
  const sent: string[] = [];
  return {
    sent,
    readSome(max) {
      if (rest === "") return Promise.resolve(null);
      const piece = rest.slice(0, Math.min(max, 3));
      rest = rest.slice(piece.length);
      return Promise.resolve(new TextEncoder().encode(piece));
    },
    readLine(max) {
      const nl = rest.indexOf("\n");
      if (nl < 0) return Promise.resolve(null);
      if (nl > max) return Promise.reject(new Error("too long"));
      const line = rest.slice(0, nl).replace(/\r$/, "");
      rest = rest.slice(nl + 1);
      return Promise.resolve(line);
    },
    send(bytes) {
      sent.push(new TextDecoder().decode(bytes));
      return Promise.resolve();
    },
  };
}

const head = (fields: string) =>
  parseRequestHead(`POST / HTTP/1.1\r\nhost: x\r\n${fields}\r\n`, 128);

Deno.test("http1 body: a length, read in pieces as pulled", async () => {
  const body = new RequestBody(source("hello world"), head("content-length: 5\r\n"));
  assert.equal(await new Response(body.stream()).text(), "hello");
});

Deno.test("http1 body: chunks with extensions and trailers; a 100 Continue at the first pull", async () => {
  const src = source("5;a=b\r\nhello\r\n1\r\n!\r\n0\r\nx-sum: 6\r\n\r\nNEXT");
  const body = new RequestBody(src, head("transfer-encoding: chunked\r\nexpect: 100-continue\r\n"));
  assert.equal(body.awaitingContinue, true);
  assert.equal(await new Response(body.stream()).text(), "hello!");
  assert.deepEqual(src.sent, ["HTTP/1.1 100 Continue\r\n\r\n"]);
  assert.equal(await body.finish(0), true);
});

Deno.test("http1 body: malformed or cut bodies fail the read and the connection", async () => {
  for (
    const [fields, input] of [
      ["transfer-encoding: chunked\r\n", "zz\r\nabc\r\n0\r\n\r\n"],
      ["transfer-encoding: chunked\r\n", "3\r\nabcX\r\n0\r\n\r\n"],
      ["content-length: 10\r\n", "abc"],
    ]
  ) {
    const body = new RequestBody(source(input), head(fields));
    await assert.rejects(new Response(body.stream()).text(), JSON.stringify(input));
    assert.equal(body.failed, true);
    assert.equal(await body.finish(1000), false);
  }
});

Deno.test("http1 body: what the answer left unread is dropped up to a bound", async () => {
  assert.equal(
    await new RequestBody(source("abcdef"), head("content-length: 6\r\n")).finish(6),
    true,
  );
  assert.equal(
    await new RequestBody(source("abcdef"), head("content-length: 6\r\n")).finish(2),
    false,
  );
});
