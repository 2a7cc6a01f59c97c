/**
 * Connection handling of the real server (issue 7, items 2 and 3): idle,
 * half-sent and silent clients are closed after their timeout, a body that
 * does not arrive gets a 408, connections beyond the cap get a 503, and a
 * graceful shutdown lets a request in flight finish. Slow clients are raw TCP.
 */
import assert from "node:assert/strict";
import { startTestServer } from "./_api_helpers.ts";
import { closeQuietly, connectTo, receive, send } from "./_raw_http.ts";
import { HTTP_ENGINES } from "../routes/server.ts";

const SOAP_PATH = "/arcgis/services/Recruitment/MapServer";
const GET_MAP_COUNT = `<?xml version="1.0" encoding="utf-8"?>
<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>
<GetMapCount xmlns="http://www.esri.com/schemas/ArcGIS/10.3"/></soap:Body></soap:Envelope>`;

function utf8Length(s: string): number {
  return new TextEncoder().encode(s).byteLength;
}

// Both HTTP engines must behave alike (issue 24).
for (const engine of HTTP_ENGINES) {
  Deno.test({
    name: `connections: an idle keep-alive connection is closed after the idle timeout [${engine}]`,
    sanitizeResources: false,
    async fn() {
      const server = await startTestServer({ httpEngine: engine, idleTimeoutMs: 1000 });
      const conn = await connectTo(server.url);
      try {
        await send(conn, "GET /api/v1/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
        const first = await receive(conn, 5000, '"competitions"');
        assert.match(first.text, /^HTTP\/1\.1 200/);
        const rest = await receive(conn, 6000);
        assert.ok(rest.closed, "the server closed the idle connection");
        assert.ok(rest.ms > 500, `closed after ${rest.ms} ms, not at once`);
      } finally {
        closeQuietly(conn);
        await server.close();
      }
    },
  });

  Deno.test({
    name:
      `connections: a half-sent request head and a silent connection close after the header timeout [${engine}]`,
    sanitizeResources: false,
    async fn() {
      const server = await startTestServer({ httpEngine: engine, headerTimeoutMs: 1000 });
      const partial = await connectTo(server.url);
      const silent = await connectTo(server.url);
      try {
        await send(partial, "GET /api/v1/ HTTP/1.1\r\nHo");
        const [a, b] = await Promise.all([receive(partial, 6000), receive(silent, 6000)]);
        assert.ok(a.closed && b.closed, "both connections were closed by the server");
        assert.equal(a.text, "");
        assert.ok(a.ms > 500 && b.ms > 500, `closed after ${a.ms} / ${b.ms} ms, not at once`);
        // The server itself carries on.
        const res = await fetch(`${server.url}/api/v1/`);
        assert.equal(res.status, 200);
        await res.body?.cancel();
      } finally {
        closeQuietly(partial);
        closeQuietly(silent);
        await server.close();
      }
    },
  });

  Deno.test({
    name:
      `connections: a SOAP body that does not arrive gets a 408 Fault and the connection closes [${engine}]`,
    sanitizeResources: false,
    async fn() {
      const server = await startTestServer({ httpEngine: engine, bodyTimeoutMs: 1000 });
      const conn = await connectTo(server.url);
      try {
        await send(
          conn,
          `POST ${SOAP_PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/xml\r\n` +
            "Content-Length: 500\r\n\r\n<?xml ",
        );
        const got = await receive(conn, 6000);
        assert.match(got.text, /^HTTP\/1\.1 408 /);
        assert.match(got.text, /connection: close/i);
        assert.match(got.text, /<faultcode>soap:Client<\/faultcode>/);
        assert.match(got.text, /did not arrive within 1 seconds/);
        assert.ok(got.closed, "the server closed the connection");
      } finally {
        closeQuietly(conn);
        await server.close();
      }
    },
  });

  Deno.test({
    name:
      `connections: beyond --max-connections a connection gets a JSON 503 and is closed [${engine}]`,
    sanitizeResources: false,
    async fn() {
      const server = await startTestServer({ httpEngine: engine, maxConnections: 2 });
      const held = [await connectTo(server.url), await connectTo(server.url)];
      const extra = await connectTo(server.url);
      try {
        await send(extra, "GET /api/v1/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
        const got = await receive(extra, 5000);
        assert.ok(got.closed);
        const [head, body] = got.text.split("\r\n\r\n");
        assert.match(head, /^HTTP\/1\.1 503 Service Unavailable\r\n/);
        assert.match(head, /\r\nconnection: close\r\n/i);
        assert.match(head, /\r\nretry-after: \d+\r\n/i);
        assert.match(head, /\r\ncontent-type: application\/json\r\n/i);
        assert.match(JSON.parse(body).detail, /limit of 2 open connections/);
        // Once a held connection goes, a new one is served again.
        closeQuietly(held.pop()!);
        let status = 0;
        for (let i = 0; i < 50 && status !== 200; i++) {
          await new Promise((r) => setTimeout(r, 50));
          const res = await fetch(`${server.url}/api/v1/`, { headers: { connection: "close" } })
            .catch(() => null);
          status = res?.status ?? 0;
          await res?.body?.cancel();
        }
        assert.equal(status, 200);
      } finally {
        held.forEach(closeQuietly);
        closeQuietly(extra);
        await server.close();
      }
    },
  });

  Deno.test({
    name: `connections: graceful shutdown lets a request in flight finish, then stops [${engine}]`,
    sanitizeResources: false,
    async fn() {
      const server = await startTestServer({ httpEngine: engine, shutdownTimeoutMs: 5000 });
      const conn = await connectTo(server.url);
      try {
        const half = GET_MAP_COUNT.length >> 1;
        await send(
          conn,
          `POST ${SOAP_PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/xml\r\n` +
            `Content-Length: ${utf8Length(GET_MAP_COUNT)}\r\n\r\n${GET_MAP_COUNT.slice(0, half)}`,
        );
        await new Promise((r) => setTimeout(r, 200));
        const stopping = server.close();
        await new Promise((r) => setTimeout(r, 300));
        await send(conn, GET_MAP_COUNT.slice(half));
        const got = await receive(conn, 5000);
        assert.match(got.text, /^HTTP\/1\.1 200 /);
        assert.match(got.text, /GetMapCountResponse/);
        assert.match(got.text, /connection: close/i);
        await stopping;
        await assert.rejects(connectTo(server.url));
      } finally {
        closeQuietly(conn);
      }
    },
  });
}
