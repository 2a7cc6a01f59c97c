/**
 * The ArcGIS REST plumbing and metadata on a real server: `/info`,
 * `/services`, the service JSON, the formats (`f=json`, `pjson`, `html`,
 * JSONP), GET and POST forms, CORS, case-insensitive paths and the ArcGIS
 * error body (HTTP 200) for bad input.
 */
import assert from "node:assert/strict";
import { assertRestError, rest, restServerTest as serverTest } from "./_rest_helpers.ts";

const SERVICE = "/services/Recruitment/MapServer";

serverTest("REST /info and /services describe the server and its services", async (s) => {
  const info = await rest(s.url, "/info", { f: "json" });
  assert.equal(info.body.currentVersion, 10.3);
  assert.equal(info.body.soapUrl, `${s.url}/arcgis/services`);
  assert.equal(info.body.authInfo.isTokenBasedSecurity, false);
  const catalog = await rest(s.url, "/services", { f: "json" });
  assert.deepEqual(catalog.body, {
    currentVersion: 10.3,
    folders: [],
    services: [{ name: "Recruitment", type: "MapServer" }],
  });
});

serverTest("REST service JSON shows the default map, its layers, extents and limits", async (s) => {
  const { body } = await rest(s.url, SERVICE, { f: "json" });
  assert.equal(body.mapName, "Layers");
  assert.deepEqual(body.spatialReference, { wkid: 4326, latestWkid: 4326 });
  assert.deepEqual(body.layers.map((l: { id: number }) => l.id), [0, 1]);
  assert.equal(body.layers[0].parentLayerId, -1);
  assert.equal(body.layers[0].defaultVisibility, true);
  assert.deepEqual(body.tables, []);
  assert.equal(body.units, "esriDecimalDegrees");
  assert.equal(body.singleFusedMapCache, false);
  assert.equal(body.tileInfo, undefined);
  assert.equal(body.capabilities, "Map,Query,Data");
  assert.equal(body.maxRecordCount, 1000);
  assert.equal(body.maxImageWidth, 4096);
  assert.equal(body.maxImageHeight, 4096);
  assert.match(body.supportedImageFormatTypes, /PNG32/);
  assert.equal(body.documentInfo.Title, "Recruitment");
  assert.equal(body.fullExtent.xmin, -180);
  assert.deepEqual(body.initialExtent.spatialReference, { wkid: 4326, latestWkid: 4326 });
  // The cached Web Mercator map, by our mapName parameter: tileInfo with the AGOL lods.
  const merc = (await rest(s.url, SERVICE, { f: "json", mapName: "webmercator" })).body;
  assert.equal(merc.mapName, "WebMercator");
  assert.deepEqual(merc.spatialReference, { wkid: 102100, latestWkid: 3857 });
  assert.equal(merc.units, "esriMeters");
  assert.equal(merc.singleFusedMapCache, true);
  assert.equal(merc.tileInfo.rows, 256);
  assert.equal(merc.tileInfo.dpi, 96);
  assert.deepEqual(merc.tileInfo.origin, { x: -20037508.342787, y: 20037508.342787 });
  assert.equal(merc.tileInfo.lods[0].level, 0);
  assert.equal(merc.tileInfo.lods[0].scale, 591657527.591555);
});

serverTest("REST formats: pjson is indented, html escapes the JSON, JSONP wraps it", async (s) => {
  const compact = await rest(s.url, "/services", { f: "json" });
  assert.ok(!compact.text.includes("\n"));
  const pretty = await rest(s.url, "/services", { f: "pjson" });
  assert.match(pretty.text, /\n {2}"currentVersion": 10\.3/);
  assert.deepEqual(JSON.parse(pretty.text), compact.body);
  // A resource without a Services Directory page shows its JSON, escaped (rest_html_test has the pages).
  const html = await rest(s.url, "/info", { f: "html" });
  assert.match(html.headers.get("content-type")!, /^text\/html/);
  assert.match(html.text, /<pre>[^<]*&#34;currentVersion&#34;: 10\.3/);
  // No f: ArcGIS answers the HTML page.
  assert.match((await rest(s.url, "/services")).headers.get("content-type")!, /^text\/html/);
  const jsonp = await rest(s.url, "/services", { f: "json", callback: "dojo.io.jsonp_1" });
  assert.match(jsonp.headers.get("content-type")!, /^application\/javascript/);
  assert.equal(jsonp.text, `dojo.io.jsonp_1(${compact.text});`);
  // An error still reaches the callback.
  const err = await rest(s.url, "/services/Nope/MapServer", { f: "json", callback: "cb" });
  assert.match(err.text, /^cb\(\{"error":\{"code":404,/);
});

serverTest("REST: POST forms, case-insensitive paths and parameters, CORS preflight", async (s) => {
  const get = await rest(s.url, SERVICE, { f: "json" });
  const post = await rest(s.url, SERVICE, { f: "json" }, true);
  assert.deepEqual(post.body, get.body);
  const lower = await rest(s.url, "/services/recruitment/mapserver/", { F: "JSON" });
  assert.deepEqual(lower.body, get.body);
  // A form field wins over the same query parameter.
  const res = await fetch(`${s.url}/arcgis/rest/services?f=html`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "f=json",
  });
  assert.deepEqual(await res.json(), (await rest(s.url, "/services", { f: "json" })).body);
  const pre = await fetch(`${s.url}/arcgis/rest/services`, {
    method: "OPTIONS",
    headers: { origin: "http://example.org", "access-control-request-method": "POST" },
  });
  await pre.body?.cancel();
  assert.equal(pre.status, 204);
  assert.equal(pre.headers.get("access-control-allow-origin"), "*");
  assert.match(pre.headers.get("access-control-allow-methods")!, /POST/);
  const head = await fetch(`${s.url}/arcgis/rest/services?f=json`, { method: "HEAD" });
  assert.equal(head.status, 200);
  assert.equal(await head.text(), "");
});

serverTest(
  "REST errors: ArcGIS JSON with HTTP 200, 404 for unknown things, never 500",
  async (s) => {
    assertRestError(await rest(s.url, "/services/Nope/MapServer", { f: "json" }), 404, /Nope/);
    assertRestError(await rest(s.url, "/no/such/thing", { f: "json" }), 404, /does not exist/);
    assertRestError(
      await rest(s.url, SERVICE, { f: "json", mapName: "Roads" }),
      404,
      /Map 'Roads'/,
    );
    assertRestError(await rest(s.url, "/services", { f: "xml" }), 400, /Invalid format 'xml'/);
    for (const callback of ["alert(1)", "a-b", "1abc", "a..b", "<script>"]) {
      const bad = await rest(s.url, "/services", { f: "json", callback });
      assertRestError(bad, 400, /callback/);
      assert.match(bad.headers.get("content-type")!, /^application\/json/);
    }
    assertRestError(await rest(s.url, "/services/%FF/MapServer", { f: "json" }), 400, /percent/);
    const wrongType = await fetch(`${s.url}/arcgis/rest/services?f=json`, {
      method: "POST",
      headers: { "content-type": "text/xml" },
      body: "<x/>",
    });
    assertRestError(
      { status: 200, headers: wrongType.headers, text: "", body: await wrongType.json() },
      400,
      /x-www-form-urlencoded/,
    );
    // Tiles still come from their own route.
    const tile = await fetch(`${s.url}/arcgis/rest/services/Recruitment/MapServer/tile/0/0/0`);
    assert.equal(tile.status, 200);
    assert.equal(tile.headers.get("content-type"), "image/png");
    await tile.body?.cancel();
  },
);
