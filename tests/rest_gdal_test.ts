/**
 * GDAL reads the ArcGIS REST query as a client would: `ogrinfo` (ESRIJSON
 * driver) over real HTTP gets the same feature count as SOAP
 * QueryFeatureCount, and reads every feature when it has to page
 * (`exceededTransferLimit`, then `resultOffset`).
 */
import assert from "node:assert/strict";
import { GDAL_BIN, optionalTest } from "./_optional.ts";
import { startTestServer } from "./_api_helpers.ts";
import { operationEnvelope, postSoap } from "./_soap_helpers.ts";
import { CITIES, createFixture, startQueryServer } from "./_soap_query_fixtures.ts";

async function ogrinfo(...args: string[]): Promise<string> {
  const out = await new Deno.Command("ogrinfo", {
    args: ["-ro", "-al", ...args],
    env: { GDAL_HTTP_TIMEOUT: "60", CPL_CURL_VERBOSE: "NO" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  assert.ok(out.success, `ogrinfo failed:\n${new TextDecoder().decode(out.stderr)}\n${text}`);
  return text;
}

function featureCount(summary: string): number {
  const m = /^Feature Count: (\d+)$/m.exec(summary);
  assert.ok(m, summary);
  return Number(m[1]);
}

/** FIDs of the features ogrinfo listed, in order. */
function featureIds(listing: string): number[] {
  return [...listing.matchAll(/^OGRFeature\([^)]*\):(\d+)$/gm)].map((m) => Number(m[1]));
}

async function soapCount(serviceUrl: string, layer: number): Promise<number> {
  const reply = await postSoap(
    serviceUrl,
    operationEnvelope("QueryFeatureCount", `<MapName>Layers</MapName><LayerID>${layer}</LayerID>`),
  );
  const m = /<Result>(\d+)<\/Result>/.exec(reply.text);
  assert.ok(m, reply.text);
  return Number(m[1]);
}

optionalTest(GDAL_BIN, {
  name: "ogrinfo reads the Recruitment competitions through /query: SOAP's count, paged reads",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const s = await startTestServer();
    try {
      const expected = await soapCount(`${s.url}/arcgis/services/Recruitment/MapServer`, 0);
      assert.ok(expected > 100, "the demo catalogue has enough competitions to page");
      const url =
        `${s.url}/arcgis/rest/services/Recruitment/MapServer/0/query?where=1%3D1&outfields=*&f=json`;
      const summary = await ogrinfo("-so", url);
      assert.match(summary, /using driver `ESRIJSON' successful/);
      assert.equal(featureCount(summary), expected);
      // Pages of 50: GDAL follows exceededTransferLimit with resultOffset.
      const ids = featureIds(await ogrinfo("-q", `${url}&resultRecordCount=50`));
      assert.equal(ids.length, expected);
      assert.equal(new Set(ids).size, expected, "no feature read twice");
    } finally {
      await s.close();
    }
  },
});

optionalTest(GDAL_BIN, {
  name: "ogrinfo pages past a service's maxRecordCount and reads every value",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const fixture = await createFixture();
    const server = await startQueryServer(fixture.services);
    try {
      // Capped: maxRecordCount 3, so 11 cities come in 4 pages.
      const expected = await soapCount(server.serviceUrl("Capped"), 0);
      assert.equal(expected, CITIES.length);
      const url =
        `${server.baseUrl}/arcgis/rest/services/Capped/MapServer/0/query?where=1%3D1&outFields=*&f=json`;
      assert.equal(featureCount(await ogrinfo("-so", url)), expected);
      const listing = await ogrinfo("-q", url);
      assert.deepEqual(featureIds(listing), CITIES.map((c) => c[0]));
      for (const [, name, x, y] of CITIES) {
        assert.match(listing, new RegExp(`NAME \\(String\\) = ${name}\\n`));
        assert.match(listing, new RegExp(`POINT \\(${x} ${y}\\)`));
      }
    } finally {
      await server.close();
      await fixture.dispose();
    }
  },
});
