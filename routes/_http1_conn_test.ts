import assert from "node:assert/strict";
import { type Http1Conn, serveHttp1Connection } from "./_http1_conn.ts";
import type { ConnHandler } from "./_hyper_conn.ts";

const enc = new TextEncoder();
const dec = new TextDecoder();

/** A connection fed with `input` (then closed by the client), recording each write whole. */
class RecordingConn implements Http1Conn {
  readonly remoteAddr: Deno.NetAddr = { transport: "tcp", hostname: "10.0.0.7", port: 40000 };
  readonly writes: Uint8Array[] = [];
  #input: Uint8Array[];
  closed = false;

  constructor(input: (string | Uint8Array)[]) {
    this.#input = input.map((p) => typeof p === "string" ? enc.encode(p) : p);
  }

  read(p: Uint8Array): Promise<number | null> {
    if (this.closed) return Promise.reject(new Deno.errors.BadResource("closed"));
    const next = this.#input.shift();
    if (next === undefined) return Promise.resolve(null);
    const n = Math.min(p.length, next.length);
    p.set(next.subarray(0, n));
    if (n < next.length) this.#input.unshift(next.subarray(n));
    return Promise.resolve(n);
  }

  write(p: Uint8Array): Promise<number> {
    if (this.closed) return Promise.reject(new Deno.errors.BadResource("closed"));
    this.writes.push(p.slice());
    return Promise.resolve(p.length);
  }

  close(): void {
    this.closed = true;
  }

  get text(): string {
    return this.writes.map((w) => dec.decode(w)).join("");
  }
}

/** Serves `input` on a recording connection until the connection ends. */
async function serve(
  input: (string | Uint8Array)[],
  handler: ConnHandler,
): Promise<RecordingConn> {
  const conn = new RecordingConn(input);
  await serveHttp1Connection(conn, handler, () => new Response("oops", { status: 500 })).finished;
  return conn;
}

/** The answers in `text`, split by their status lines. */
function answers(text: string): string[] {
  return text.split(/(?=HTTP\/1\.1 \d{3} )/).filter((s) => s !== "");
}

const GET = (path: string, extra = "") =>
  `GET ${path} HTTP/1.1\r\nhost: example.org\r\n${extra}\r\n`;

Deno.test("http1: answers of 1 KB, 64 KB and a PNG's size leave in one write of head and body", async () => {
  for (const size of [1024, 65536, 180_000]) {
    const body = new Uint8Array(size).map((_, i) => i % 251);
    for (const asString of [false, true]) {
      const conn = await serve(
        [GET("/x", "connection: close\r\n")],
        () =>
          asString
            ? new Response("é".repeat(size / 2), { headers: { "x-test": "1" } })
            : new Response(body, { headers: { "content-type": "image/png" } }),
      );
      assert.equal(conn.writes.length, 1, `${size} B ${asString ? "string" : "bytes"}`);
      const text = dec.decode(conn.writes[0]);
      assert.match(text, /^HTTP\/1\.1 200 OK\r\n/);
      assert.match(text, new RegExp(`\r\ncontent-length: ${size}\r\n`));
      assert.match(text, /\r\ndate: \w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d GMT\r\n/);
      assert.match(text, /\r\nconnection: close\r\n/);
      const bodyStart = text.indexOf("\r\n\r\n") + 4;
      const sent = conn.writes[0].subarray(enc.encode(text.slice(0, bodyStart)).length);
      assert.equal(sent.length, size);
      if (!asString) assert.deepEqual(sent, body);
      assert.ok(conn.closed);
    }
  }
});

Deno.test("http1: keep-alive and pipelined requests are answered in order, one write each", async () => {
  const seen: string[] = [];
  const conn = await serve(
    [GET("/a") + GET("/b"), "GET /c HTTP/1.1\r\nhost: ex", "ample.org\r\n\r\n"],
    (req, info) => {
      seen.push(`${req.url} ${info.remoteAddr.hostname}`);
      return new Response(new URL(req.url).pathname.repeat(400));
    },
  );
  assert.deepEqual(seen, [
    "http://example.org/a 10.0.0.7",
    "http://example.org/b 10.0.0.7",
    "http://example.org/c 10.0.0.7",
  ]);
  assert.equal(conn.writes.length, 3);
  const got = answers(conn.text);
  assert.equal(got.length, 3);
  ["/a", "/b", "/c"].forEach((p, i) => {
    assert.match(got[i], /^HTTP\/1\.1 200 OK\r\n/);
    assert.doesNotMatch(got[i], /connection: close/);
    assert.ok(got[i].endsWith(p.repeat(400)));
  });
});

Deno.test("http1: HTTP/1.0 closes unless it asks for keep-alive", async () => {
  const ten = "GET /x HTTP/1.0\r\n\r\n";
  let conn = await serve([ten + ten], () => new Response("hi"));
  assert.equal(answers(conn.text).length, 1);
  assert.match(conn.text, /\r\nconnection: close\r\n/);
  conn = await serve(
    ["GET /x HTTP/1.0\r\nconnection: keep-alive\r\n\r\n" + ten],
    () => new Response("hi"),
  );
  const got = answers(conn.text);
  assert.equal(got.length, 2);
  assert.match(got[0], /\r\nconnection: keep-alive\r\n/);
});

Deno.test("http1: bodies of length and chunked (with trailers) are read as streams", async () => {
  const bodies: string[] = [];
  const handler: ConnHandler = async (req) => {
    bodies.push(await req.text());
    return new Response("ok");
  };
  const conn = await serve([
    "POST /a HTTP/1.1\r\nhost: x\r\ncontent-length: 5\r\n\r\nhel",
    "lo",
    "POST /b HTTP/1.1\r\nhost: x\r\ntransfer-encoding: chunked\r\n\r\n3\r\nabc\r\n",
    "A;ext=1\r\n0123456789\r\n0\r\nx-sum: 1\r\n\r\n",
    GET("/c"),
  ], handler);
  assert.deepEqual(bodies, ["hello", "abc0123456789", ""]);
  assert.equal(answers(conn.text).length, 3);
});

Deno.test("http1: a request body is read only as the handler pulls it", async () => {
  let pulled = 0;
  const conn = new RecordingConn([]);
  const chunks = ["POST / HTTP/1.1\r\nhost: x\r\ncontent-length: 200000\r\n\r\n"];
  const input: Uint8Array[] = chunks.map((s) => enc.encode(s));
  for (let i = 0; i < 20; i++) input.push(new Uint8Array(10_000));
  const reads: number[] = [];
  const feed = input.slice();
  conn.read = (p) => {
    const next = feed.shift();
    if (next === undefined) return Promise.resolve(null);
    p.set(next.subarray(0, p.length));
    reads.push(next.length);
    return Promise.resolve(Math.min(p.length, next.length));
  };
  const s = serveHttp1Connection(conn, async (req) => {
    const r = req.body!.getReader();
    await r.read();
    pulled = reads.length;
    await r.read();
    return new Response(`${pulled} ${reads.length}`);
  }, () => new Response(null, { status: 500 }));
  await s.finished;
  // The head and one body chunk for the first read, one more for the second.
  const [a, b] = conn.text.split("\r\n\r\n")[1].split(" ").map(Number);
  assert.equal(b - a, 1, conn.text);
});

Deno.test("http1: an unread body is dropped up to a bound, else the connection closes", async () => {
  let conn = await serve([
    "POST /a HTTP/1.1\r\nhost: x\r\ncontent-length: 5\r\n\r\nhello" + GET("/b"),
  ], () => new Response("ok"));
  assert.equal(answers(conn.text).length, 2);
  const big = new Uint8Array(1024 * 1024);
  conn = await serve([
    "POST /a HTTP/1.1\r\nhost: x\r\ncontent-length: 1048576\r\n\r\n",
    big,
    GET("/b"),
  ], () => new Response("ok"));
  assert.equal(answers(conn.text).length, 1);
});

Deno.test("http1: malformed requests get 400, 431 or 505 and the connection closes", async () => {
  const cases: [string, number][] = [
    ["GET / HTTP/1.1\r\n\r\n", 400], // no Host
    ["GET  / HTTP/1.1\r\nhost: x\r\n\r\n", 400],
    ["G(T / HTTP/1.1\r\nhost: x\r\n\r\n", 400],
    ["GET / HTTP/2.0\r\nhost: x\r\n\r\n", 505],
    ["GET / HTTP/1.2\r\nhost: x\r\n\r\n", 505],
    ["GET / HTTX/1.1\r\nhost: x\r\n\r\n", 400],
    ["GET / HTTP/1.1\r\nhost: x\r\nbad header\r\n\r\n", 400],
    ["GET / HTTP/1.1\r\nhost: x\r\nbad name: 1\r\n\r\n", 400],
    ["GET / HTTP/1.1\r\nhost: x\r\n folded\r\n\r\n", 400],
    ["GET / HTTP/1.1\r\nhost: x\r\nhost: y\r\n\r\n", 400],
    ["GET / HTTP/1.1\r\nhost: a b\r\n\r\n", 400],
    ["GET x HTTP/1.1\r\nhost: x\r\n\r\n", 400],
    ["CONNECT / HTTP/1.1\r\nhost: x\r\n\r\n", 400],
    // Request smuggling guards.
    ["POST / HTTP/1.1\r\nhost: x\r\ncontent-length: 5\r\ntransfer-encoding: chunked\r\n\r\n", 400],
    ["POST / HTTP/1.1\r\nhost: x\r\ncontent-length: 5\r\ncontent-length: 5\r\n\r\n", 400],
    ["POST / HTTP/1.1\r\nhost: x\r\ncontent-length: 5, 5\r\n\r\n", 400],
    ["POST / HTTP/1.1\r\nhost: x\r\ncontent-length: -1\r\n\r\n", 400],
    ["POST / HTTP/1.1\r\nhost: x\r\ntransfer-encoding: gzip, chunked\r\n\r\n", 400],
    ["POST / HTTP/1.1\r\nhost: x\r\ntransfer-encoding: identity\r\n\r\n", 400],
    [
      "POST / HTTP/1.1\r\nhost: x\r\ntransfer-encoding: chunked\r\ntransfer-encoding: chunked\r\n\r\n",
      400,
    ],
    ["POST / HTTP/1.0\r\ntransfer-encoding: chunked\r\n\r\n", 400],
    [`GET / HTTP/1.1\r\nhost: x\r\nx-big: ${"a".repeat(70 * 1024)}\r\n\r\n`, 431],
    [`GET / HTTP/1.1\r\nhost: x\r\n${"x-a: 1\r\n".repeat(128)}\r\n`, 431], // 129 lines
  ];
  // 128 header lines are accepted, as hyper does.
  const most = await serve(
    [`GET / HTTP/1.1\r\nhost: x\r\n${"x-a: 1\r\n".repeat(127)}\r\n`],
    () => new Response("fine"),
  );
  assert.match(most.text, /^HTTP\/1\.1 200 OK/);
  for (const [input, status] of cases) {
    let called = false;
    const conn = await serve([input + GET("/next")], () => {
      called = true;
      return new Response("no");
    });
    const what = JSON.stringify(input.slice(0, 80));
    assert.equal(called, false, what);
    const got = answers(conn.text);
    assert.equal(got.length, 1, what);
    assert.match(got[0], new RegExp(`^HTTP/1\\.1 ${status} `), what);
    assert.match(got[0], /\r\nconnection: close\r\n/, what);
    assert.equal(JSON.parse(got[0].slice(got[0].indexOf("\r\n\r\n") + 4)).detail.length > 0, true);
  }
});

Deno.test("http1: a malformed chunked body fails the handler's read and closes the connection", async () => {
  const errors: string[] = [];
  const conn = await serve([
    "POST / HTTP/1.1\r\nhost: x\r\ntransfer-encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n" +
    GET("/b"),
  ], async (req) => {
    try {
      await req.text();
    } catch (err) {
      errors.push((err as Error).message);
    }
    return new Response("answered");
  });
  assert.equal(errors.length, 1);
  const got = answers(conn.text);
  assert.equal(got.length, 1);
  assert.match(got[0], /\r\nconnection: close\r\n/);
});

Deno.test("http1: absolute-form targets, forbidden methods and the URL", async () => {
  const seen: string[] = [];
  await serve([
    "GET http://other.example:8080/p?q=1 HTTP/1.1\r\nhost: x\r\n\r\n",
    "TRACE /t HTTP/1.1\r\nhost: x\r\ncontent-length: 2\r\n\r\nhi",
    "CONNECT 127.0.0.1:8443 HTTP/1.1\r\nhost: x\r\n\r\n",
    "brew /pot HTTP/1.1\r\nhost: x\r\n\r\n",
    "get /p?q=é HTTP/1.1\r\nhost: x\r\n\r\n",
    "post /p HTTP/1.1\r\nhost: x\r\ncontent-length: 2\r\n\r\nhi",
  ], async (req) => {
    seen.push(`${req.method} ${req.url}${req.body ? ` ${await req.text()}` : ""}`);
    return new Response("ok");
  });
  assert.deepEqual(seen, [
    "GET http://other.example:8080/p?q=1",
    "TRACE http://x/t hi",
    "CONNECT http://127.0.0.1:8443/",
    "brew http://x/pot",
    // As hyper passes them: the method as sent, the target's bytes as UTF-8.
    "get http://x/p?q=%C3%A9",
    "post http://x/p hi",
  ]);
});

Deno.test("http1: HEAD keeps the GET's length without a body; 204 and 304 have none", async () => {
  const conn = await serve([
    "HEAD /x HTTP/1.1\r\nhost: x\r\n\r\n",
    GET("/204"),
    GET("/304"),
    GET("/end", "connection: close\r\n"),
  ], (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/204") return new Response(null, { status: 204 });
    if (path === "/304") return new Response(null, { status: 304, headers: { etag: '"a"' } });
    return new Response("héllo");
  });
  const got = answers(conn.text);
  assert.equal(got.length, 4);
  assert.match(got[0], /content-length: 6\r\n\r\n$/);
  assert.match(got[1], /^HTTP\/1\.1 204 No Content\r\n/);
  assert.doesNotMatch(got[1], /content-length/);
  assert.ok(got[1].endsWith("\r\n\r\n"));
  assert.match(got[2], /^HTTP\/1\.1 304 Not Modified\r\n/);
  assert.match(got[2], /etag: "a"\r\n/);
  assert.ok(got[2].endsWith("\r\n\r\n"));
  assert.ok(got[3].endsWith("héllo"));
});

Deno.test("http1: Expect: 100-continue is answered when the handler reads the body", async () => {
  const head = "POST / HTTP/1.1\r\nhost: x\r\nexpect: 100-continue\r\ncontent-length: 2\r\n\r\n";
  let conn = await serve([head, "hi", GET("/b")], async (req) => {
    return new Response(`got ${await req.text()}`);
  });
  assert.match(conn.text, /^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 OK\r\n/);
  assert.equal(answers(conn.text).length, 3);
  // Answered without reading: no 100, and the connection closes (the body may never come).
  conn = await serve([head, "hi", GET("/b")], () => new Response("no", { status: 413 }));
  assert.doesNotMatch(conn.text, /100 Continue/);
  assert.equal(answers(conn.text).length, 1);
  assert.match(conn.text, /\r\nconnection: close\r\n/);
});

Deno.test("http1: a streamed body leaves its head with the first chunk, then chunked", async () => {
  const stream = () =>
    new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(enc.encode("first"));
        c.enqueue(enc.encode("second"));
        c.close();
      },
    });
  let conn = await serve([GET("/s"), GET("/n")], () => new Response(stream()));
  assert.match(dec.decode(conn.writes[0]), /transfer-encoding: chunked\r\n\r\n5\r\nfirst\r\n$/);
  assert.match(conn.text, /6\r\nsecond\r\n0\r\n\r\nHTTP\/1\.1 200 OK/);
  assert.equal(answers(conn.text).length, 2);
  // HTTP/1.0: close-delimited.
  conn = await serve(["GET /s HTTP/1.0\r\n\r\n"], () => new Response(stream()));
  assert.match(conn.text, /connection: close\r\n\r\nfirstsecond$/);
  assert.doesNotMatch(conn.text, /transfer-encoding/);
  // A length given by the handler frames the stream (and keeps an HTTP/1.0 connection).
  conn = await serve(
    ["GET /s HTTP/1.0\r\nconnection: keep-alive\r\n\r\n", GET("/n", "connection: close\r\n")],
    () => new Response(stream(), { headers: { "content-length": "11" } }),
  );
  assert.match(
    conn.writes[0].length > 0 ? dec.decode(conn.writes[0]) : "",
    /content-length: 11\r\n\r\nfirst$/,
  );
  assert.equal(answers(conn.text).length, 2);
  assert.doesNotMatch(conn.text, /transfer-encoding/);
  // A stream longer than its length is cut: the connection closes, no second answer.
  conn = await serve(
    [GET("/s"), GET("/n")],
    () => new Response(stream(), { headers: { "content-length": "7" } }),
  );
  assert.equal(answers(conn.text).length, 1);
  assert.ok(conn.closed);
});

Deno.test("http1: a throwing handler gets onError's answer; info.completed settles", async () => {
  let completed: Promise<void> | undefined;
  const conn = await serve([GET("/a"), GET("/b", "connection: close\r\n")], (req, info) => {
    completed ??= info.completed;
    if (req.url.endsWith("/a")) throw new Error("boom");
    return new Response("fine");
  });
  const got = answers(conn.text);
  assert.match(got[0], /^HTTP\/1\.1 500 Internal Server Error\r\n[^]*oops$/);
  assert.ok(got[1].endsWith("fine"));
  await completed;
});

Deno.test("http1: a client gone mid-answer rejects info.completed and ends quietly", async () => {
  const conn = new RecordingConn([GET("/a")]);
  conn.write = () => Promise.reject(new Deno.errors.BrokenPipe("gone"));
  let completed: Promise<void> | undefined;
  const s = serveHttp1Connection(conn, (_req, info) => {
    completed = info.completed;
    return new Response("x".repeat(1000));
  }, () => new Response(null, { status: 500 }));
  await s.finished;
  await assert.rejects(completed!, Deno.errors.Interrupted);
  assert.ok(conn.closed);
});

Deno.test("http1: abort closes the connection while it waits for a request", async () => {
  const conn = new RecordingConn([]);
  const never = Promise.withResolvers<number | null>();
  conn.read = () => never.promise;
  conn.close = () => {
    conn.closed = true;
    never.reject(new Deno.errors.BadResource("closed"));
  };
  const s = serveHttp1Connection(conn, () => new Response("x"), () => new Response(null));
  s.abort();
  s.abort();
  await s.finished;
  assert.ok(conn.closed);
});
