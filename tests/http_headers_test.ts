/**
 * The headers every answer carries (issues 20 item 5, 21 item 2): CORS for
 * any origin and `X-Content-Type-Options: nosniff` on every face and status
 * (200, 301, 304, 400, 404, 405, 413, 500, 501), tiles and exported image files
 * included, and a CORS preflight answered on every path.
 */
import assert from "node:assert/strict";
import { startTestServer } from "./_api_helpers.ts";
import { HTTP_ENGINES } from "../routes/server.ts";

const MAP = "/arcgis/rest/services/Recruitment/MapServer";
const SOAP = "/arcgis/services/Recruitment/MapServer";
const TILE = `${MAP}/tile/0/0/0`;
const VIRTUAL_TILE = `${MAP}/tile/WebMercator/_alllayers/L00/R00000000/C00000000.png`;

interface Case {
  /** What is asked, as the failure message says it. */
  what: string;
  path: string;
  init?: RequestInit;
  status: number;
}

const soapBody = `<?xml version="1.0"?><soap:Envelope ` +
  `xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>` +
  `<GetDefaultMapName xmlns="http://www.esri.com/schemas/ArcGIS/10.3"/></soap:Body></soap:Envelope>`;

function check(res: Response, c: Case): void {
  const what = `${c.init?.method ?? "GET"} ${c.path} (${c.what})`;
  assert.equal(res.status, c.status, what);
  assert.equal(res.headers.get("access-control-allow-origin"), "*", what);
  assert.equal(res.headers.get("x-content-type-options"), "nosniff", what);
}

// Both HTTP engines must behave alike (issue 24).
for (const engine of HTTP_ENGINES) {
  Deno.test({
    name: `headers: CORS and nosniff on every answer of every face [${engine}]`,
    sanitizeResources: false,
    sanitizeOps: false,
    async fn() {
      const s = await startTestServer({ httpEngine: engine });
      try {
        const exported = await (await fetch(
          `${s.url}${MAP}/export?bbox=-180,-90,180,90&size=200,100&f=json`,
        )).json();
        const file = new URL(exported.href).pathname;
        const tile = await fetch(`${s.url}${TILE}`);
        await tile.body?.cancel();
        const api = await fetch(`${s.url}/api/v1/vacancies/`);
        await api.body?.cancel();
        const cases: Case[] = [
          // The JSON API.
          { what: "API root", path: "/api/v1/", status: 200 },
          { what: "API list", path: "/api/v1/vacancies/?page=2", status: 200 },
          {
            what: "API 304",
            path: "/api/v1/vacancies/",
            init: { headers: { "if-none-match": api.headers.get("etag")! } },
            status: 304,
          },
          { what: "API redirect", path: "/api/v1/vacancies", status: 301 },
          { what: "API 404", path: "/api/v1/vacancies/99999999/", status: 404 },
          { what: "API bad page", path: "/api/v1/vacancies/?page=x", status: 404 },
          { what: "API 405", path: "/api/v1/vacancies/", init: { method: "DELETE" }, status: 405 },
          {
            what: "API OPTIONS",
            path: "/api/v1/vacancies/",
            init: { method: "OPTIONS" },
            status: 200,
          },
          {
            what: "API HEAD",
            path: "/api/v1/agencies/for_vacancies/",
            init: { method: "HEAD" },
            status: 200,
          },
          // REST.
          { what: "REST JSON", path: `${MAP}?f=json`, status: 200 },
          { what: "REST error", path: `${MAP}/99?f=json`, status: 200 },
          { what: "REST export image", path: `${MAP}/export?bbox=0,0,10,10&f=image`, status: 200 },
          {
            what: "REST 413",
            path: `${MAP}/0/query`,
            init: {
              method: "POST",
              headers: { "content-type": "application/x-www-form-urlencoded" },
              body: `where=${"a".repeat(11 * 2 ** 20)}`,
            },
            status: 413,
          },
          { what: "REST 405", path: `${MAP}?f=json`, init: { method: "PUT" }, status: 405 },
          // Tiles and output files.
          { what: "tile", path: TILE, status: 200 },
          {
            what: "tile 304",
            path: TILE,
            init: { headers: { "if-none-match": tile.headers.get("etag")! } },
            status: 304,
          },
          { what: "virtual cache tile", path: VIRTUAL_TILE, status: 200 },
          { what: "tile out of range", path: `${MAP}/tile/0/5/5`, status: 404 },
          {
            what: "tile of no service",
            path: "/arcgis/rest/services/Nope/MapServer/tile/0/0/0",
            status: 404,
          },
          { what: "exported image file", path: file, status: 200 },
          {
            what: "expired output file",
            path: file.replace(/[0-9a-f]{32}/, "0".repeat(32)),
            status: 404,
          },
          // SOAP.
          { what: "WSDL", path: `${SOAP}?wsdl`, status: 200 },
          {
            what: "SOAP call",
            path: SOAP,
            init: { method: "POST", headers: { "content-type": "text/xml" }, body: soapBody },
            status: 200,
          },
          {
            what: "SOAP fault",
            path: SOAP,
            init: { method: "POST", headers: { "content-type": "text/xml" }, body: "<x" },
            status: 500,
          },
          { what: "SOAP 405", path: SOAP, init: { method: "PUT" }, status: 405 },
          { what: "SOAP without ?wsdl", path: SOAP, status: 400 },
          // The web map and everything else.
          { what: "home page", path: "/", status: 200 },
          { what: "web map style", path: "/webmap/app.css", status: 200 },
          { what: "unknown path", path: "/nope", status: 404 },
          { what: "405 on the home page", path: "/", init: { method: "POST" }, status: 405 },
          { what: "unknown method", path: "/nope", init: { method: "BREW" }, status: 501 },
          {
            what: "REST bad body type",
            path: `${MAP}/0/query`,
            init: { method: "POST", headers: { "content-type": "text/plain" }, body: "x" },
            status: 200,
          },
        ];
        for (const c of cases) {
          const res = await fetch(`${s.url}${c.path}`, { redirect: "manual", ...c.init });
          await res.body?.cancel();
          check(res, c);
        }
        // A CORS preflight on every path, whatever the route knows of OPTIONS.
        for (
          const path of ["/", "/api/v1/vacancies/", `${MAP}/export`, TILE, VIRTUAL_TILE, file, SOAP]
        ) {
          const res = await fetch(`${s.url}${path}`, {
            method: "OPTIONS",
            headers: {
              origin: "https://app.example",
              "access-control-request-method": "GET",
              "access-control-request-headers": "if-none-match",
            },
          });
          await res.body?.cancel();
          assert.ok(res.ok, `preflight ${path}: ${res.status}`);
          assert.equal(res.headers.get("access-control-allow-origin"), "*", path);
          assert.match(res.headers.get("access-control-allow-methods") ?? "", /GET/, path);
          assert.equal(res.headers.get("access-control-allow-headers"), "if-none-match", path);
          assert.match(res.headers.get("access-control-max-age") ?? "", /^\d+$/, path);
          assert.equal(res.headers.get("x-content-type-options"), "nosniff", path);
        }
      } finally {
        await s.close();
      }
    },
  });
}
