/**
 * HTTP edges of the ArcGIS endpoints on the real server: malformed
 * percent-escapes in paths are the client's mistake (400 in each route's own
 * form with the one message, never a 500), and methods a SOAP endpoint does not speak get 405.
 */
import assert from "node:assert/strict";
import { startTestServer } from "./_api_helpers.ts";
import { envelope, faultOf, NS } from "./_soap_helpers.ts";
import { PERCENT_ESCAPE_MESSAGE } from "../map/percent.ts";

const BAD_ESCAPE = /invalid percent-escape/;

Deno.test({
  name: "paths with %FF get 400 with a clear message on every ArcGIS route, never 500",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const s = await startTestServer();
    try {
      // REST and file routes: ArcGIS REST's JSON error.
      for (
        const path of [
          "/arcgis/rest/services/%FF/MapServer/tile/0/0/0",
          "/arcgis/rest/services/Recruitment/MapServer/tile/%FF/_alllayers/0/0/0",
          "/arcgis/rest/directories/arcgisoutput/%FF_MapServer/_ags_x.png",
          "/arcgis/rest/directories/arcgisoutput/Recruitment_MapServer/_ags_%FF.png",
        ]
      ) {
        const res = await fetch(s.url + path);
        assert.equal(res.status, 400, path);
        assert.match(res.headers.get("content-type") ?? "", /application\/json/);
        const body = await res.json();
        assert.equal(body.error.code, 400);
        assert.match(body.error.message, BAD_ESCAPE, path);
      }
      // WSDL fetch: plain text like the endpoint's other GET errors.
      for (
        const path of ["/arcgis/services/%FF/MapServer?wsdl", "/arcgis/services/%E0%A4/MapServer"]
      ) {
        const res = await fetch(s.url + path);
        assert.equal(res.status, 400, path);
        assert.match(await res.text(), BAD_ESCAPE, path);
      }
      const head = await fetch(s.url + "/arcgis/services/%FF/MapServer?wsdl", { method: "HEAD" });
      assert.equal(head.status, 400);
      await head.body?.cancel();
      // SOAP POST: a Client fault naming the path, not "the body could not be read".
      const res = await fetch(s.url + "/arcgis/services/%FF/MapServer", {
        method: "POST",
        headers: { "content-type": "text/xml; charset=utf-8" },
        body: envelope(`<e:GetDefaultMapName xmlns:e="${NS}"/>`),
      });
      assert.equal(res.status, 400);
      const fault = faultOf(await res.text());
      assert.equal(fault?.code, "soap:Client");
      assert.match(fault!.message, BAD_ESCAPE);
      // The OGC faces beside them: the same message, in each face's own form.
      const forms: [string, RegExp][] = [
        ["/arcgis/services/%FF/MapServer/WMSServer?version=1.3.0", /<ServiceException>/],
        ["/arcgis/services/%FF/MapServer/WFSServer", /<ows:ExceptionText>/],
        ["/arcgis/rest/services/%FF/MapServer/WMTS/1.0.0/WMTSCapabilities.xml", /^The /],
        ["/arcgis/rest/services/Recruitment/MapServer/WMTS/tile/%FF/x", /^The /],
        ["/arcgis/rest/services/%FF/MapServer?f=json", /^\{"error":/],
      ];
      for (const [path, form] of forms) {
        const res = await fetch(s.url + path);
        const text = await res.text();
        assert.ok(res.status === 400 || res.status === 200, `${path}: ${res.status}`);
        assert.match(text, form, path);
        assert.ok(text.includes(PERCENT_ESCAPE_MESSAGE), `${path}: ${text}`);
      }
      // The same routes still serve well-formed escapes.
      const ok = await fetch(s.url + "/arcgis/services/%52ecruitment/MapServer?wsdl");
      assert.equal(ok.status, 200);
      await ok.body?.cancel();
    } finally {
      await s.close();
    }
  },
});

Deno.test({
  name: "PUT, DELETE, PATCH on SOAP endpoints get 405 with Allow",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const s = await startTestServer();
    try {
      for (const path of ["/arcgis/services/Recruitment/MapServer", "/arcgis/services"]) {
        for (const method of ["PUT", "DELETE", "PATCH"]) {
          const res = await fetch(s.url + path, { method, body: "<x/>" });
          assert.equal(res.status, 405, `${method} ${path}`);
          assert.equal(res.headers.get("allow"), "GET, HEAD, POST");
          assert.match(await res.text(), /POST/);
        }
      }
      // Unknown paths stay 404.
      const res = await fetch(s.url + "/arcgis/services/Recruitment/FeatureServer", {
        method: "PUT",
      });
      assert.equal(res.status, 404);
      await res.body?.cancel();
    } finally {
      await s.close();
    }
  },
});
