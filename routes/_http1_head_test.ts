import assert from "node:assert/strict";
import { HeadRefusal, latin1Text, parseRequestHead } from "./_http1_head.ts";

const parse = (text: string) => parseRequestHead(text, 128);

Deno.test("http1 head: URL, headers, keep-alive and body framing", () => {
  const h = parse("POST /a?b=1 HTTP/1.1\r\nHost: example.org:8080\r\nContent-Length: 12\r\n\r\n");
  assert.equal(h.url, "http://example.org:8080/a?b=1");
  assert.deepEqual(h.headers, [["host", "example.org:8080"], ["content-length", "12"]]);
  assert.equal(h.body, 12);
  assert.equal(h.keepAlive, true);
  assert.equal(h.http10, false);
  const chunked = parse(
    "POST / HTTP/1.1\nhost: x\ntransfer-encoding: Chunked\nconnection: close\n\n",
  );
  assert.equal(chunked.body, "chunked");
  assert.equal(chunked.keepAlive, false);
  const ten = parse("GET / HTTP/1.0\r\nconnection: keep-alive\r\n\r\n");
  assert.equal(ten.http10, true);
  assert.equal(ten.keepAlive, true);
  assert.equal(ten.url, "http://localhost/");
  assert.equal(parse("GET / HTTP/1.0\r\n\r\n").keepAlive, false);
  const expect = parse(
    "PUT / HTTP/1.1\r\nhost: x\r\nexpect: 100-Continue\r\ncontent-length: 1\r\n\r\n",
  );
  assert.equal(expect.expectContinue, true);
});

Deno.test("http1 head: targets in absolute and authority form; raw UTF-8 in a target", () => {
  assert.equal(
    parse("GET http://a.example/p HTTP/1.1\r\nhost: b\r\n\r\n").url,
    "http://a.example/p",
  );
  assert.equal(parse("GET http://a.example HTTP/1.1\r\nhost: b\r\n\r\n").url, "http://a.example/");
  assert.equal(
    parse("CONNECT a.example:443 HTTP/1.1\r\nhost: b\r\n\r\n").url,
    "http://a.example:443/",
  );
  assert.equal(parse("OPTIONS * HTTP/1.1\r\nhost: b\r\n\r\n").url, "http://b/*");
  const utf8 = latin1Text(new TextEncoder().encode("GET /é HTTP/1.1\r\nhost: b\r\n\r\n"));
  assert.equal(parse(utf8).url, "http://b/é");
});

Deno.test("http1 head: refusals carry their status and a sentence", () => {
  const refused = (text: string, status: number) => {
    assert.throws(() => parse(text), (e) => {
      assert.ok(e instanceof HeadRefusal, String(e));
      assert.equal(e.status, status, text);
      assert.match(e.detail, /^[A-Z].*\.$/);
      return true;
    });
  };
  refused("GET / HTTP/1.1\r\n\r\n", 400);
  refused("GET / HTTP/3.0\r\nhost: x\r\n\r\n", 505);
  refused("GET /\r\nhost: x\r\n\r\n", 400);
  refused("POST / HTTP/1.1\r\nhost: x\r\ncontent-length: 1\r\ncontent-length: 1\r\n\r\n", 400);
  refused("POST / HTTP/1.1\r\nhost: x\r\ncontent-length: 0x1\r\n\r\n", 400);
  refused("POST / HTTP/1.1\r\nhost: x\r\ntransfer-encoding: chunked, gzip\r\n\r\n", 400);
  refused(`GET / HTTP/1.1\r\nhost: x\r\n${"a: b\r\n".repeat(128)}\r\n`, 431);
});
