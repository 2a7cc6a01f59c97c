/**
 * The two HTTP engines (`--http-engine hyper|js`, issue 24) answer alike: a
 * sample of every face (API, REST JSON and PNG export, SOAP, WMS, the web
 * map, errors, HEAD, a conditional GET) is sent raw to a server of each, and
 * status, body and every header but `Date` must be the same. The js engine
 * additionally sends each of these answers in one write, which only a
 * kill -9 shows (tests/replicas_test.ts).
 */
import assert from "node:assert/strict";
import { startTestServer } from "./_api_helpers.ts";
import { closeQuietly, connectTo, send } from "./_raw_http.ts";
import { MAP13, wmsUrl } from "./_wms_helpers.ts";

const REST = "/arcgis/rest/services/Recruitment/MapServer";
const SOAP = "/arcgis/services/Recruitment/MapServer";
const SOAP_BODY = '<?xml version="1.0" encoding="utf-8"?>' +
  '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>' +
  '<e:GetDefaultMapName xmlns:e="http://www.esri.com/schemas/ArcGIS/10.3"/>' +
  "</soap:Body></soap:Envelope>";

/** One answer as read off the wire: status line, headers (without Date), body decoded of its framing. */
interface Raw {
  status: string;
  headers: string[];
  body: Uint8Array;
}

/** Sends `request` (a whole HTTP/1.1 request but its Host and Connection lines) and reads the answer. */
async function raw(
  base: string,
  method: string,
  path: string,
  extra = "",
  body = "",
): Promise<Raw> {
  const conn = await connectTo(base);
  try {
    const length = body === ""
      ? ""
      : `content-length: ${new TextEncoder().encode(body).length}\r\n`;
    await send(
      conn,
      `${method} ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n${extra}${length}\r\n${body}`,
    );
    const chunks: Uint8Array[] = [];
    const buf = new Uint8Array(64 * 1024);
    for (let n; (n = await conn.read(buf)) !== null;) chunks.push(buf.slice(0, n));
    const all = new Uint8Array(chunks.reduce((s, c) => s + c.length, 0));
    let at = 0;
    for (const c of chunks) all.set(c, at), at += c.length;
    const headEnd = new TextDecoder().decode(all).indexOf("\r\n\r\n");
    const [status, ...lines] = new TextDecoder().decode(all.subarray(0, headEnd)).split("\r\n");
    let rest: Uint8Array = all.subarray(headEnd + 4);
    if (lines.some((l) => /^transfer-encoding: chunked$/i.test(l))) rest = unchunk(rest);
    return {
      status,
      // Hyper repeats "connection: close" when the handler set it too: the same to a client.
      headers: [
        ...new Set(lines.map((l) => l.toLowerCase().startsWith("date:") ? "date: (now)" : l)),
      ]
        .sort(),
      body: rest,
    };
  } finally {
    closeQuietly(conn);
  }
}

/** The data of a chunked body. */
function unchunk(b: Uint8Array): Uint8Array {
  const out: number[] = [];
  let at = 0;
  while (true) {
    const nl = b.indexOf(10, at);
    const size = parseInt(new TextDecoder().decode(b.subarray(at, nl)), 16);
    if (size === 0) break;
    out.push(...b.subarray(nl + 1, nl + 1 + size));
    at = nl + 1 + size + 2;
  }
  return new Uint8Array(out);
}

Deno.test({
  name: "engines: hyper and js answer every face alike (status, headers, body)",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const hyper = await startTestServer({ httpEngine: "hyper" });
    const js = await startTestServer({ httpEngine: "js", dbPath: hyper.dbPath });
    try {
      const wms = new URL(wmsUrl(""), "http://x");
      for (const [k, v] of Object.entries(MAP13)) wms.searchParams.set(k, v);
      const etag = (await raw(hyper.url, "GET", "/api/v1/vacancies/?page=1")).headers
        .find((h) => h.startsWith("etag:"))?.slice(6);
      const cases: [string, string, string?, string?][] = [
        ["GET", "/api/v1/"],
        ["GET", "/api/v1/vacancies/?page=2"],
        ["GET", `/api/v1/competitions/?search=${encodeURIComponent("отдел")}`],
        ["GET", "/api/v1/vacancies/?page=9999"],
        ["HEAD", "/api/v1/vacancies/?page=1"],
        ["GET", "/api/v1/vacancies/?page=1", etag ? `if-none-match: ${etag}\r\n` : ""],
        ["POST", "/api/v1/vacancies/", "content-type: application/json\r\n", '{"a":1}'],
        [
          "OPTIONS",
          "/api/v1/vacancies/",
          "origin: http://a\r\naccess-control-request-method: GET\r\n",
        ],
        ["GET", `${REST}?f=json`],
        ["GET", `${REST}/0/query?where=1%3D1&returnCountOnly=true&f=json`],
        ["GET", `${REST}/export?bbox=20,40,60,70&size=300,200&f=image`],
        ["GET", `${REST}/export?bbox=20,40,60,70&size=300,200&f=image&format=jpg`],
        ["GET", `${REST}/tile/0/0/0`],
        ["GET", `${REST}/export?bbox=bad&f=json`],
        ["POST", SOAP, 'content-type: text/xml; charset=utf-8\r\nsoapaction: ""\r\n', SOAP_BODY],
        ["GET", `${SOAP}?wsdl`],
        ["GET", `${wms.pathname}${wms.search}`],
        ["GET", `${wms.pathname}?SERVICE=WMS&REQUEST=GetCapabilities`],
        ["GET", "/"],
        ["GET", "/no-such-thing"],
        // As clients may send them: a method in lower case, raw UTF-8 in the target, TRACE.
        ["get", "/api/v1/vacancies/"],
        ["GET", "/api/v1/competitions/?search=отдел"],
        ["TRACE", "/api/v1/", "content-type: text/plain\r\n", "hello"],
      ];
      for (const [method, path, extra, body] of cases) {
        const what = `${method} ${path}`;
        const [a, b] = [
          await raw(hyper.url, method, path, extra, body),
          await raw(js.url, method, path, extra, body),
        ];
        assert.match(a.status, /^HTTP\/1\.1 [1-5]\d\d /, what);
        assert.equal(b.status, a.status, what);
        assert.deepEqual(b.headers, a.headers, what);
        assert.ok(a.body.length === b.body.length && a.body.every((x, i) => x === b.body[i]), what);
      }
    } finally {
      await js.close();
      await hyper.close();
    }
  },
});
