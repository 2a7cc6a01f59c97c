/**
 * Large SOAP bodies share the server (issue 7 item 5): they are parsed in
 * slices with the event loop getting turns in between, so other requests
 * are answered meanwhile, and the bytes of bodies read at once are bounded
 * by a server-wide budget (a request that finds no room waits, then gets a
 * 503 Fault with Retry-After). Ordering and progress are asserted, never
 * timings.
 */
import { createSoapFace } from "../map/soap/server.ts";
import assert from "node:assert/strict";
import { createMapServer } from "../map/mod.ts";
import { BodyBudget } from "../routes/arcgis.ts";
import { faultOf, memoryService, NS, startMapServices } from "./_soap_helpers.ts";

/**
 * A valid GetDefaultMapName request of about `mib` MiB: the bulk is a SOAP
 * header the service ignores (no mustUnderstand), one element per line.
 */
function bigRequest(mib: number): string {
  const pad = `\n    <x:Item>${"p".repeat(40)}</x:Item>`;
  const count = Math.floor((mib * 2 ** 20) / pad.length);
  return `<?xml version="1.0" encoding="utf-8"?>\n` +
    `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">\n` +
    `  <soap:Header><x:Padding xmlns:x="urn:padding">${
      pad.repeat(count)
    }\n  </x:Padding></soap:Header>\n` +
    `  <soap:Body><e:GetDefaultMapName xmlns:e="${NS}"/></soap:Body>\n</soap:Envelope>\n`;
}

const SMALL = `<?xml version="1.0" encoding="utf-8"?>` +
  `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">` +
  `<soap:Body><e:GetDefaultMapName xmlns:e="${NS}"/></soap:Body></soap:Envelope>`;

function post(url: string, body: BodyInit): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "text/xml; charset=utf-8" },
    body,
  });
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((r) => setTimeout(r, 5));
}

Deno.test("timers run while a large SOAP body is being parsed", async () => {
  const maps = createMapServer({ services: [memoryService()], outputDir: "unused" });
  const body = bigRequest(4);
  let ticks = 0;
  let on = true;
  const tick = () => {
    ticks++;
    if (on) setTimeout(tick, 0);
  };
  setTimeout(tick, 0);
  try {
    const reply = await createSoapFace(maps).soap("Test", body, { baseUrl: "http://127.0.0.1" });
    const during = ticks;
    assert.equal(reply.status, 200, reply.body.slice(0, 500));
    assert.match(reply.body, /<DefaultMapName>Layers<\/DefaultMapName>|>Layers</);
    // Parsed in one go, the whole request would run before the first timer fires.
    assert.ok(during >= 10, `only ${during} timer turns while parsing ${body.length} characters`);
  } finally {
    on = false;
    maps.close();
  }
});

Deno.test({
  name: "an API-style GET is answered while several large SOAP bodies are parsed",
  sanitizeResources: false,
  async fn() {
    const budget = new BodyBudget();
    const s = startMapServices([memoryService()], { bodyBudget: budget });
    const url = s.serviceUrl("Test");
    const body = new TextEncoder().encode(bigRequest(4));
    try {
      const order: string[] = [];
      const posts = Array.from({ length: 4 }, async (_, i) => {
        const res = await post(url, body);
        const text = await res.text();
        assert.equal(res.status, 200, text.slice(0, 300));
        order.push(`post${i}`);
      });
      // Once a body is being read and parsed, ask for the WSDL.
      await until(() => budget.inUse > 0 || order.length > 0);
      const wsdl = await fetch(`${url}?wsdl`);
      assert.equal(wsdl.status, 200);
      await wsdl.text();
      order.push("get");
      await Promise.all(posts);
      assert.ok(
        order.indexOf("get") < order.length - 1,
        `the GET waited for every large request: ${order.join(", ")}`,
      );
    } finally {
      await s.close();
    }
  },
});

Deno.test({
  name: "the body budget makes requests wait their turn, then answers 503 with Retry-After",
  sanitizeResources: false,
  async fn() {
    // A chunked body reserves the body limit (here the whole budget) until it is answered.
    for (const waitMs of [100, 30_000]) {
      const budget = new BodyBudget({ bytes: 64 * 1024, waitMs });
      const s = startMapServices([memoryService()], { bodyBudget: budget });
      const url = s.serviceUrl("Test");
      const stream = new TransformStream<Uint8Array, Uint8Array>();
      const writer = stream.writable.getWriter();
      const bytes = new TextEncoder().encode(SMALL);
      try {
        const holder = post(url, stream.readable);
        await writer.write(bytes.subarray(0, 40));
        await until(() => budget.inUse === budget.capacity);
        const waiting = post(url, SMALL);
        if (waitMs === 100) {
          const res = await waiting;
          assert.equal(res.status, 503);
          assert.equal(res.headers.get("retry-after"), "5");
          const fault = faultOf(await res.text());
          assert.equal(fault?.code, "soap:Server");
          assert.match(fault!.message, /busy reading other large requests/);
        } else {
          await until(() => budget.waiting === 1);
        }
        await writer.write(bytes.subarray(40));
        await writer.close();
        const held = await holder;
        assert.equal(held.status, 200, await held.clone().text());
        await held.text();
        if (waitMs !== 100) {
          // The one that waited is served once the holder gave its bytes back.
          const res = await waiting;
          assert.equal(res.status, 200);
          await res.text();
        }
        assert.equal(budget.inUse, 0);
      } finally {
        await s.close();
      }
    }
  },
});

Deno.test({
  name: "the body budget is shared: REST forms wait behind SOAP bodies, then get an ArcGIS 503",
  sanitizeResources: false,
  async fn() {
    const budget = new BodyBudget({ bytes: 64 * 1024, waitMs: 100 });
    const s = startMapServices([memoryService()], { bodyBudget: budget });
    const stream = new TransformStream<Uint8Array, Uint8Array>();
    const writer = stream.writable.getWriter();
    const bytes = new TextEncoder().encode(SMALL);
    try {
      const holder = post(s.serviceUrl("Test"), stream.readable);
      await writer.write(bytes.subarray(0, 40));
      await until(() => budget.inUse === budget.capacity);
      const res = await fetch(`${s.baseUrl}/arcgis/rest/services/Test/MapServer`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "f=json",
      });
      assert.equal(res.status, 503);
      assert.equal(res.headers.get("retry-after"), "5");
      const { error } = await res.json();
      assert.equal(error.code, 503);
      assert.match(error.message, /busy reading other large requests/);
      await writer.write(bytes.subarray(40));
      await writer.close();
      await (await holder).text();
      // With room again, the same form is answered.
      const ok = await fetch(`${s.baseUrl}/arcgis/rest/services/Test/MapServer`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "f=json",
      });
      assert.equal(ok.status, 200);
      assert.equal((await ok.json()).mapName !== undefined, true);
      assert.equal(budget.inUse, 0);
    } finally {
      await s.close();
    }
  },
});
