import assert from "node:assert/strict";
import { HTTP_ENGINES, maxConnectionsFor, openFileLimit, serveHttp } from "./server.ts";
import { assertHyperAvailable } from "./_hyper_conn.ts";
import { EventLog } from "./_event_log.ts";

const LIMITS = `Limit                     Soft Limit           Hard Limit           Units
Max cpu time              unlimited            unlimited            seconds
Max open files            1024                 524288               files
Max locked memory         8388608              8388608              bytes
`;

Deno.test("server: the connection cap follows the open-file soft limit", () => {
  assert.equal(openFileLimit(LIMITS), 1024);
  assert.equal(openFileLimit(LIMITS.replace("1024 ", "unlimited")), undefined);
  assert.equal(openFileLimit("no such line"), undefined);
  assert.equal(maxConnectionsFor(1024), 768);
  assert.equal(maxConnectionsFor(256), 192);
  assert.equal(maxConnectionsFor(20_000), 10_000);
  assert.equal(maxConnectionsFor(40), 30);
  assert.equal(maxConnectionsFor(8), 16);
  assert.equal(maxConnectionsFor(undefined), 1000);
});

Deno.test("server: connection events are logged once, then as one line with a count", async () => {
  const lines: string[] = [];
  const log = new EventLog((l) => lines.push(l), 100);
  for (let i = 0; i < 5; i++) log.note("refused", "Refused a connection.");
  log.note("accept", "Accepting failed.");
  assert.equal(lines.length, 2);
  await new Promise((r) => setTimeout(r, 150));
  assert.equal(lines.length, 3);
  assert.match(lines[2], /Refused a connection\. \(4 more like this in the last 0.1 s\)$/);
  log.close();
});

Deno.test("server: this Deno has the per-connection hyper server the accept loop needs", () => {
  assertHyperAvailable();
});

// Both HTTP engines must behave alike (issue 24).
for (const engine of HTTP_ENGINES) {
  Deno.test(`server: the handler gets the client's address; a throwing handler gets onError's answer [${engine}]`, async () => {
    const server = serveHttp({
      engine,
      hostname: "127.0.0.1",
      port: 0,
      handler(req, info) {
        if (new URL(req.url).pathname === "/boom") throw new Error("boom");
        return new Response(`${info.remoteAddr.hostname} ${info.remoteAddr.port > 0}`);
      },
      onError: () => new Response("sorry", { status: 500 }),
      log: () => {},
    });
    try {
      const base = `http://127.0.0.1:${server.addr.port}`;
      assert.equal(await (await fetch(`${base}/`)).text(), "127.0.0.1 true");
      const res = await fetch(`${base}/boom`);
      assert.equal(res.status, 500);
      assert.equal(await res.text(), "sorry");
    } finally {
      await server.shutdown();
    }
  });

  Deno.test(`server: a body read that outlives the body timeout answers a JSON 408 [${engine}]`, async () => {
    const lines: string[] = [];
    const server = serveHttp({
      engine,
      hostname: "127.0.0.1",
      port: 0,
      bodyTimeoutMs: 300,
      handler: async (req) => new Response(await req.text()),
      log: (l) => lines.push(l),
    });
    const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.addr.port });
    try {
      await conn.write(
        new TextEncoder().encode("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc"),
      );
      const buf = new Uint8Array(4096);
      let text = "";
      for (let n; (n = await conn.read(buf)) !== null;) {
        text += new TextDecoder().decode(buf.subarray(0, n));
      }
      assert.match(text, /^HTTP\/1\.1 408 /);
      assert.match(text, /\{"detail":"The request body did not arrive within 0\.3 seconds;/);
      assert.match(lines.join("\n"), /request body did not arrive within 0\.3 s/);
    } finally {
      try {
        conn.close();
      } catch { /* closed by the server */ }
      await server.shutdown();
    }
  });

  Deno.test(`server: a large response read slowly is not cut off by the idle timeout [${engine}]`, async () => {
    // Deno reports a byte body delivered as soon as hyper takes it; the idle
    // clock must leave the bytes time to reach a slow reader.
    const body = new Uint8Array(16 * 2 ** 20).fill(97);
    const server = serveHttp({
      engine,
      hostname: "127.0.0.1",
      port: 0,
      idleTimeoutMs: 1000,
      handler: (_req) => new Response(body),
      log: () => {},
    });
    const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.addr.port });
    try {
      await conn.write(new TextEncoder().encode("GET / HTTP/1.1\r\nHost: x\r\n\r\n"));
      const buf = new Uint8Array(32 * 1024);
      let total = 0;
      const t0 = performance.now();
      while (total < body.length) {
        const n = await conn.read(buf).catch(() => null);
        if (n === null) break;
        total += n;
        await new Promise((r) => setTimeout(r, 10));
      }
      assert.ok(total > body.length, `received ${total} bytes of ${body.length} + headers`);
      assert.ok(performance.now() - t0 > 1500, "the transfer outlasted the idle timeout");
    } finally {
      conn.close();
      await server.shutdown();
    }
  });
}
