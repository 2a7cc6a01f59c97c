import assert from "node:assert/strict";
import { dispatchSoap, type Handler } from "./dispatch.ts";
import { MAPSERVER_SCHEMA } from "./types.ts";
import { InvalidRequestError } from "../errors.ts";
import { decodeGpkgBlob } from "../sources/_wkb.ts";
import { RenderBusyError } from "../render/pool.ts";

const NS = "http://www.esri.com/schemas/ArcGIS/10.3";
const REQUEST =
  `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:e="${NS}">` +
  `<soap:Body><e:GetMapCount/></soap:Body></soap:Envelope>`;

/** Answers GetMapCount with `handler` and returns the fault code, string and whole reply. */
async function faultOf(handler: Handler<null>) {
  const errors: unknown[] = [];
  const reply = await dispatchSoap(REQUEST, {
    schema: MAPSERVER_SCHEMA,
    handlers: { GetMapCount: handler },
    context: () => null,
    onError: (e) => errors.push(e),
  });
  assert.equal(reply.status, 500);
  return {
    code: /<faultcode>([^<]*)<\/faultcode>/.exec(reply.body)?.[1],
    message: /<faultstring>([^<]*)<\/faultstring>/.exec(reply.body)?.[1],
    body: reply.body,
    logged: errors.length,
  };
}

Deno.test("an InvalidRequestError is a Client fault carrying its message and facts", async () => {
  const f = await faultOf(() => {
    throw new InvalidRequestError("Map Roads does not exist; use GetMapName.", {
      MapName: "Roads",
    });
  });
  assert.equal(f.code, "soap:Client");
  assert.equal(f.message, "Map Roads does not exist; use GetMapName.");
  assert.match(f.body, /<e:MapName>Roads<\/e:MapName>/);
  assert.equal(f.logged, 0);
});

Deno.test("a truncated geometry blob in stored data is a Server fault, not the client's", async () => {
  // A point blob cut after its GeoPackage header and the first bytes of its WKB.
  const blob = new Uint8Array([0x47, 0x50, 0, 1, 0xe6, 0x10, 0, 0, 1, 1, 0, 0]);
  const f = await faultOf(() => ({ Result: decodeGpkgBlob(blob).parts.points.length }));
  assert.equal(f.code, "soap:Server");
  assert.match(f.message!, /Truncated geometry blob/);
  assert.equal(f.logged, 1);
});

Deno.test("a RangeError is a Server fault: built-in errors never mean the client's fault", async () => {
  const f = await faultOf(() => {
    throw new RangeError("Offset is outside the bounds of the DataView");
  });
  assert.equal(f.code, "soap:Server");
});

Deno.test("a busy renderer is a Server fault that says to retry", async () => {
  const f = await faultOf(() => {
    throw new RenderBusyError();
  });
  assert.equal(f.code, "soap:Server");
  assert.equal(f.message, "The server is busy rendering other requests; try again in a moment.");
  assert.equal(f.logged, 0);
});
