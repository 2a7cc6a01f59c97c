/**
 * Requests real ArcGIS clients send, as they send them (issue 21): GDAL's
 * AGS mini-driver's MIME `format`, esri-leaflet's y-down bbox and
 * `returnExtentOnly`, QGIS's unquoted-key geometry JSON and empty
 * `layers=show:`, the ArcGIS Maps SDK's WKT spatial references across
 * 180°. Each is answered on a real server as ArcGIS Server answers it.
 */
import assert from "node:assert/strict";
import { startTestServer, type TestServer } from "./_api_helpers.ts";
import { assertRestError, rest } from "./_rest_helpers.ts";
import { decode, type Pixels } from "./_render_helpers.ts";

const SERVICE = "/services/Recruitment/MapServer";

/** GETs an export image; asserts a 200 of `type`. */
async function exportImage(s: TestServer, query: string, type = "image/png"): Promise<Uint8Array> {
  const res = await fetch(`${s.url}/arcgis/rest${SERVICE}/export?${query}`);
  const bytes = new Uint8Array(await res.arrayBuffer());
  assert.equal(res.status, 200, query);
  assert.equal(
    res.headers.get("content-type"),
    type,
    `${query}: ${new TextDecoder().decode(bytes.slice(0, 200))}`,
  );
  return bytes;
}

async function exportPixels(s: TestServer, query: string): Promise<Pixels> {
  return decode(await exportImage(s, query));
}

function assertSamePixels(a: Pixels, b: Pixels, what: string): void {
  assert.equal(a.width, b.width, what);
  assert.equal(a.height, b.height, what);
  let differ = 0;
  for (let i = 0; i < a.data.length; i++) if (a.data[i] !== b.data[i]) differ++;
  assert.equal(differ, 0, `${what}: ${differ} channel values differ`);
}

async function withServer(fn: (s: TestServer) => Promise<void>): Promise<void> {
  const s = await startTestServer();
  try {
    await fn(s);
  } finally {
    await s.close();
  }
}

const test = (name: string, fn: (s: TestServer) => Promise<void>) =>
  Deno.test({ name, sanitizeResources: false, sanitizeOps: false, fn: () => withServer(fn) });

test("REST export: format given as a MIME type (GDAL's AGS driver) draws that format", async (s) => {
  const view = "bbox=-180,-90,180,90&size=200,100&f=image";
  const png = await exportPixels(s, `${view}&format=png`);
  assertSamePixels(await exportPixels(s, `${view}&format=image/png`), png, "image/png");
  assertSamePixels(await exportPixels(s, `${view}&format=IMAGE/PNG`), png, "IMAGE/PNG");
  const png32 = await exportPixels(s, `${view}&format=png32`);
  assertSamePixels(await exportPixels(s, `${view}&format=image/png32`), png32, "image/png32");
  for (const mime of ["image/jpeg", "image/jpg"]) {
    const jpg = await exportImage(s, `${view}&format=${mime}`, "image/jpeg");
    assert.deepEqual([...jpg.slice(0, 2)], [0xff, 0xd8], mime);
  }
  const gif = await exportImage(s, `${view}&format=image/gif`, "image/gif");
  assert.equal(new TextDecoder().decode(gif.slice(0, 3)), "GIF");
  assertRestError(
    await rest(s.url, `${SERVICE}/export`, {
      bbox: "0,0,10,10",
      format: "image/svg+xml",
      f: "json",
    }),
    400,
    /'format'.*image\/png/,
  );
});

test("REST export and identify: an empty layer list (QGIS's layers=show:) keeps the default layers", async (s) => {
  const view = "bbox=20,40,60,60&size=400,200&format=png32&f=image";
  const defaults = await exportPixels(s, view);
  const hidden = await exportPixels(s, `${view}&layers=hide:0,1`);
  for (const op of ["show", "hide", "include", "exclude", "SHOW"]) {
    assertSamePixels(await exportPixels(s, `${view}&layers=${op}:`), defaults, `${op}:`);
  }
  assert.notDeepEqual(hidden.data, defaults.data, "hiding every layer draws another map");
  // identify: top:, visible: and all: with no ids search what top, visible and all search.
  const identify = async (layers: string) =>
    (await rest(s.url, `${SERVICE}/identify`, {
      geometry: "100,62",
      tolerance: "2",
      mapExtent: "20,40,180,78",
      imageDisplay: "800,400,96",
      layers,
      f: "json",
    })).body;
  for (const op of ["top", "visible", "all"]) {
    const plain = await identify(op);
    assert.ok(plain.results.length > 0, op);
    assert.deepEqual(await identify(`${op}:`), plain, `${op}:`);
  }
});
