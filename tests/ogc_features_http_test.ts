/**
 * OGC API – Features at `/arcgis/rest/services/{S}/OGCFeatureServer` over
 * HTTP on the real server (`main.ts` with the GeoPackage fixture as
 * `--maps`): each resource, parameter and error of Parts 1–3.
 */
import assert from "node:assert/strict";
import SwaggerParser from "@apidevtools/swagger-parser";
import { projectPoint } from "../map/geo/projection.ts";
import { CITIES, REGIONS } from "./_soap_query_fixtures.ts";
import { expectException, ogcGet, type OgcServer, withOgcServer } from "./_ogc_features_helpers.ts";

const CRS84 = "http://www.opengis.net/def/crs/OGC/1.3/CRS84";
const EPSG4326 = "http://www.opengis.net/def/crs/EPSG/0/4326";
const EPSG3857 = "http://www.opengis.net/def/crs/EPSG/0/3857";

function ogcTest(name: string, fn: (s: OgcServer) => Promise<void>): void {
  Deno.test({
    name: `OGC API Features: ${name}`,
    sanitizeResources: false,
    sanitizeOps: false,
    fn: () => withOgcServer(fn),
  });
}

// deno-lint-ignore no-explicit-any
type Json = any;

function ids(body: Json): number[] {
  return body.features.map((f: Json) => f.id);
}

function link(body: Json, rel: string, type?: string): Json {
  return body.links.find((l: Json) => l.rel === rel && (type === undefined || l.type === type));
}

ogcTest("landing page, conformance and the OpenAPI definition", async (s) => {
  const landing = await ogcGet(s.landing);
  assert.equal(landing.status, 200);
  assert.equal(landing.headers.get("content-type"), "application/json");
  assert.equal(landing.body.title, "Fixture (OGCFeatureServer)");
  assert.equal(link(landing.body, "self").href, s.landing);
  assert.equal(
    link(landing.body, "service-desc").type,
    "application/vnd.oai.openapi+json;version=3.0",
  );
  assert.equal(link(landing.body, "service-doc").type, "text/html");
  assert.equal(link(landing.body, "conformance").href, `${s.landing}/conformance`);
  assert.equal(link(landing.body, "data").href, `${s.landing}/collections`);

  const conf = await ogcGet(link(landing.body, "conformance").href);
  for (
    const c of [
      "http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core",
      "http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/oas30",
      "http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/html",
      "http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/geojson",
      "http://www.opengis.net/spec/ogcapi-features-2/1.0/conf/crs",
      "http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/queryables",
      "http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/filter",
      "http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/features-filter",
      "http://www.opengis.net/spec/cql2/1.0/conf/cql2-text",
    ]
  ) assert.ok(conf.body.conformsTo.includes(c), c);

  const api = await ogcGet(link(landing.body, "service-desc").href);
  assert.equal(api.status, 200);
  assert.equal(api.headers.get("content-type"), "application/vnd.oai.openapi+json;version=3.0");
  assert.match(api.body.openapi, /^3\.0\.\d$/);
  assert.equal(api.body.servers[0].url, s.landing);
  for (const id of [0, 1, 2, 3, 4]) {
    for (const p of ["", "/items", "/items/{featureId}", "/queryables"]) {
      assert.ok(api.body.paths[`/collections/${id}${p}`], `/collections/${id}${p}`);
    }
  }
  const params = api.body.paths["/collections/0/items"].get.parameters.map((p: Json) => p.name);
  for (
    const p of ["bbox", "bbox-crs", "limit", "offset", "datetime", "crs", "filter", "NAME", "POP"]
  ) {
    assert.ok(params.includes(p), p);
  }
  const limit = api.body.paths["/collections/0/items"].get.parameters.find((p: Json) =>
    p.name === "limit"
  );
  assert.equal(limit.schema.maximum, 1000);
  // Regions have no date field: no datetime parameter is described.
  const regions = api.body.paths["/collections/1/items"].get.parameters.map((p: Json) => p.name);
  assert.ok(!regions.includes("datetime"));
  // The Capped service's maxRecordCount is its limit's maximum.
  const capped = await ogcGet(s.landing.replace("/Fixture/", "/Capped/") + "/api");
  const cappedLimit = capped.body.paths["/collections/0/items"].get.parameters.find((p: Json) =>
    p.name === "limit"
  );
  assert.equal(cappedLimit.schema.maximum, 3);

  // An OpenAPI 3.0 validator (the OpenAPI Initiative's schema) accepts the definition.
  await SwaggerParser.validate(structuredClone(api.body));

  const doc = await ogcGet(link(landing.body, "service-doc").href);
  assert.equal(doc.status, 200);
  assert.match(doc.headers.get("content-type")!, /^text\/html/);
  assert.match(doc.text, /\/collections\/0\/items/);
});

ogcTest("collections: one per layer, with extents, CRSs and storage CRS", async (s) => {
  const { status, body } = await ogcGet(`${s.landing}/collections`);
  assert.equal(status, 200);
  assert.deepEqual(
    body.collections.map((c: Json) => [c.id, c.title]),
    [["0", "Cities"], ["1", "Regions"], ["2", "Roads"], ["3", "BigCities"], ["4", "HiddenCities"]],
  );
  const cities = body.collections[0];
  assert.equal(cities.itemType, "feature");
  const lons = CITIES.map((c) => c[2]), lats = CITIES.map((c) => c[3]);
  assert.deepEqual(cities.extent.spatial.bbox, [[
    Math.min(...lons),
    Math.min(...lats),
    Math.max(...lons),
    Math.max(...lats),
  ]]);
  assert.equal(cities.extent.spatial.crs, CRS84);
  assert.deepEqual(cities.extent.temporal.interval, [[
    "1005-08-30T00:00:00.000Z",
    "1893-05-20T00:00:00.000Z",
  ]]);
  assert.deepEqual(cities.crs, [CRS84, EPSG4326, EPSG3857]);
  assert.equal(cities.storageCrs, CRS84);
  assert.equal(body.collections[1].extent.temporal, undefined, "Regions have no date field");
  assert.equal(body.collections[2].storageCrs, EPSG3857, "Roads are stored in Web Mercator");
  assert.equal(
    link(cities, "items", "application/geo+json").href,
    `${s.landing}/collections/0/items`,
  );

  const one = await ogcGet(`${s.landing}/collections/1`);
  assert.equal(one.status, 200);
  assert.equal(one.body.title, "Regions");
  assert.deepEqual(one.body.extent.spatial.bbox, [[30, 45, 55, 60]]);
});

ogcTest("items: limit, offset, next and prev links, numberMatched", async (s) => {
  const first = await ogcGet(`${s.landing}/collections/0/items`);
  assert.equal(first.status, 200);
  assert.equal(first.headers.get("content-type"), "application/geo+json");
  assert.equal(first.headers.get("content-crs"), `<${CRS84}>`);
  assert.equal(first.body.type, "FeatureCollection");
  assert.equal(first.body.numberMatched, 11);
  assert.equal(first.body.numberReturned, 10, "10 by default");
  assert.ok(!Number.isNaN(Date.parse(first.body.timeStamp)));
  assert.deepEqual(ids(first.body), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  assert.equal(link(first.body, "prev"), undefined);
  const second = await ogcGet(link(first.body, "next").href);
  assert.deepEqual(ids(second.body), [11]);
  assert.equal(link(second.body, "next"), undefined);
  const back = await ogcGet(link(second.body, "prev").href);
  assert.deepEqual(ids(back.body), ids(first.body));

  const page = await ogcGet(`${s.landing}/collections/0/items`, { limit: "4", offset: "4" });
  assert.deepEqual(ids(page.body), [5, 6, 7, 8]);
  const moscow = first.body.features[0];
  assert.deepEqual(moscow.geometry, { type: "Point", coordinates: [37.6173, 55.7558] });
  assert.deepEqual(moscow.properties, {
    OBJECTID: 1,
    NAME: "Moscow",
    POP: 13010112,
    AREA: 2561.5,
    FOUNDED: "1147-04-04T00:00:00.000Z",
    URL: "https://example.org/moscow",
  });

  // More than maxRecordCount is that maximum (Capped: 3), not an error.
  const capped = s.landing.replace("/Fixture/", "/Capped/");
  const big = await ogcGet(`${capped}/collections/0/items`, { limit: "100" });
  assert.equal(big.status, 200);
  assert.equal(big.body.numberReturned, 3);
  assert.equal(new URL(link(big.body, "next").href).searchParams.get("offset"), "3");

  for (
    const [name, value] of [["limit", "0"], ["limit", "ten"], ["offset", "-1"], ["limit", "1.5"]]
  ) {
    expectException(
      await ogcGet(`${s.landing}/collections/0/items`, { [name]: value }),
      400,
      new RegExp(name),
    );
  }
});

ogcTest("items: bbox in CRS84, EPSG:4326 (lat/lon) and EPSG:3857", async (s) => {
  const items = `${s.landing}/collections/0/items`;
  const expected = CITIES.filter(([, , x, y]) => x >= 30 && x <= 60 && y >= 50 && y <= 60)
    .map((c) => c[0]);
  const plain = await ogcGet(items, { bbox: "30,50,60,60", limit: "100" });
  assert.deepEqual(ids(plain.body), expected);
  assert.equal(plain.body.numberMatched, expected.length);
  const latLon = await ogcGet(items, { bbox: "50,30,60,60", "bbox-crs": EPSG4326, limit: "100" });
  assert.deepEqual(ids(latLon.body), expected);
  const [x0, y0] = projectPoint([30, 50], 4326, 3857),
    [x1, y1] = projectPoint([60, 60], 4326, 3857);
  const merc = await ogcGet(items, {
    bbox: `${x0},${y0},${x1},${y1}`,
    "bbox-crs": EPSG3857,
    limit: "100",
  });
  assert.deepEqual(ids(merc.body), expected);
  const six = await ogcGet(items, { bbox: "30,50,0,60,60,100", limit: "100" });
  assert.deepEqual(ids(six.body), expected);
  // Polygons touched by the box are found (Regions intersecting 44..46 x 46..47: South only).
  const regions = await ogcGet(`${s.landing}/collections/1/items`, { bbox: "44,46,46,47" });
  assert.deepEqual(ids(regions.body), [3]);

  // Across the antimeridian (minx > maxx): 100..180 and -180..40, in each CRS of the world.
  const across = CITIES.filter(([, , x, y]) => (x >= 100 || x <= 40) && y >= 40 && y <= 60)
    .map((c) => c[0]);
  assert.ok(across.includes(10) && across.includes(1), "both halves hold cities");
  const [w0, s0] = projectPoint([100, 40], 4326, 3857),
    [e1, n1] = projectPoint([40, 60], 4326, 3857);
  for (
    const params of <Record<string, string>[]> [
      { bbox: "100,40,40,60" },
      { bbox: "40,100,60,40", "bbox-crs": EPSG4326 },
      { bbox: `${w0},${s0},${e1},${n1}`, "bbox-crs": EPSG3857 },
    ]
  ) {
    const answer = await ogcGet(items, { ...params, limit: "100" });
    assert.deepEqual(ids(answer.body), across, JSON.stringify(params));
    assert.equal(answer.body.numberMatched, across.length);
  }
  for (const bbox of ["1,2,3", "a,b,c,d", "10,60,20,50"]) {
    expectException(await ogcGet(items, { bbox }), 400, /bbox/);
  }
  expectException(
    await ogcGet(items, { bbox: "1,2,3,4", "bbox-crs": "EPSG:9999" }),
    400,
    /bbox-crs/,
  );
  expectException(await ogcGet(items, { "bbox-crs": EPSG4326 }), 400, /bbox-crs/);
});

ogcTest("items and features: crs picks the CRS and axis order; Content-Crs says it", async (s) => {
  const items = `${s.landing}/collections/0/items`;
  const lat = await ogcGet(items, { crs: EPSG4326, limit: "1" });
  assert.equal(lat.headers.get("content-crs"), `<${EPSG4326}>`);
  assert.deepEqual(lat.body.features[0].geometry.coordinates, [55.7558, 37.6173]);
  const merc = await ogcGet(items, { crs: EPSG3857, limit: "1" });
  assert.equal(merc.headers.get("content-crs"), `<${EPSG3857}>`);
  const [x, y] = projectPoint([37.6173, 55.7558], 4326, 3857);
  const [mx, my] = merc.body.features[0].geometry.coordinates;
  assert.ok(Math.abs(mx - x) < 1e-6 && Math.abs(my - y) < 1e-6, `${mx},${my}`);
  const one = await ogcGet(`${items}/1`, { crs: EPSG3857 });
  assert.equal(one.headers.get("content-crs"), `<${EPSG3857}>`);
  assert.deepEqual(one.body.geometry.coordinates, merc.body.features[0].geometry.coordinates);
  // Roads are stored in Web Mercator and come back in CRS84 unless asked.
  const road = await ogcGet(`${s.landing}/collections/2/items/1`);
  const [lon, latitude] = road.body.geometry.coordinates[0];
  assert.ok(Math.abs(lon - 30) < 1e-9 && Math.abs(latitude - 55) < 1e-9);
  expectException(
    await ogcGet(items, { crs: "http://www.opengis.net/def/crs/EPSG/0/9999" }),
    400,
    /crs/,
  );
});

ogcTest("items: datetime on the first date field (instants, intervals, open ends)", async (s) => {
  const items = `${s.landing}/collections/0/items`;
  const get = async (datetime: string) =>
    ids((await ogcGet(items, { datetime, limit: "100" })).body);
  const founded = (pred: (d: string) => boolean) =>
    CITIES.filter((c) => pred(c[6])).map((c) => c[0]);
  assert.deepEqual(await get("1147-04-04"), [1]);
  assert.deepEqual(await get("1147-04-04T00:00:00Z"), [1]);
  assert.deepEqual(await get("1700-01-01/1800-01-01"), founded((d) => d >= "1700" && d < "1800"));
  assert.deepEqual(await get("../1200-01-01"), founded((d) => d < "1200"));
  assert.deepEqual(await get("1800-01-01T00:00:00Z/.."), founded((d) => d >= "1800"));
  assert.deepEqual(await get("../.."), CITIES.map((c) => c[0]));
  for (const bad of ["yesterday", "1900-01-01/1800-01-01", "1/2/3"]) {
    expectException(await ogcGet(items, { datetime: bad }), 400, /datetime/);
  }
  expectException(
    await ogcGet(`${s.landing}/collections/1/items`, { datetime: "2020-01-01" }),
    400,
    /no date field/,
  );
});

ogcTest("items: property filters and unknown parameters", async (s) => {
  const items = `${s.landing}/collections/0/items`;
  assert.deepEqual(ids((await ogcGet(items, { NAME: "Kazan" })).body), [2]);
  assert.deepEqual(ids((await ogcGet(items, { POP: "1308660" })).body), [2]);
  assert.deepEqual(ids((await ogcGet(items, { NAME: "Тверь" })).body), [11]);
  assert.deepEqual(ids((await ogcGet(items, { NAME: "Kazan", POP: "1" })).body), []);
  expectException(await ogcGet(items, { POP: "many" }), 400, /POP/);
  expectException(await ogcGet(items, { color: "red" }), 400, /Unknown parameter 'color'/);
  expectException(await ogcGet(s.landing, { limit: "3" }), 400, /Unknown parameter 'limit'/);
  expectException(await ogcGet(`${s.landing}/collections`, { bbox: "1,2,3,4" }), 400, /bbox/);
  expectException(await ogcGet(`${items}/1`, { limit: "3" }), 400, /limit/);
});

ogcTest("items: CQL2-text filter, filter-lang and filter-crs", async (s) => {
  const items = `${s.landing}/collections/0/items`;
  const get = async (params: Record<string, string>) =>
    ids((await ogcGet(items, { limit: "100", ...params })).body);
  const where = (pred: (c: (typeof CITIES)[number]) => boolean) =>
    CITIES.filter(pred).map((c) => c[0]);
  assert.deepEqual(
    await get({ filter: "POP > 1500000 AND NAME LIKE '%o%'", "filter-lang": "cql2-text" }),
    where((c) => (c[4] ?? 0) > 1500000 && c[1].includes("o")),
  );
  assert.deepEqual(await get({ filter: "AREA IS NULL OR NAME IN ('Omsk', 'Samara')" }), [7, 8, 10]);
  assert.deepEqual(
    await get({ filter: "NOT (POP BETWEEN 1000000 AND 2000000)" }),
    where((c) => c[4] !== null && (c[4] < 1000000 || c[4] > 2000000)),
  );
  assert.deepEqual(await get({ filter: "FOUNDED < DATE('1200-01-01')" }), [1, 2, 11]);
  assert.deepEqual(
    await get({ filter: "S_INTERSECTS(geometry, POLYGON((30 50, 60 50, 60 60, 30 60, 30 50)))" }),
    where(([, , x, y]) => x >= 30 && x <= 60 && y >= 50 && y <= 60),
  );
  assert.deepEqual(
    await get({
      filter: "S_INTERSECTS(geometry, BBOX(50, 30, 60, 60)) AND POP > 2000000",
      "filter-crs": EPSG4326,
    }),
    [1, 3],
  );
  // A filter, a property filter and a bbox together.
  assert.deepEqual(await get({ filter: "POP > 1", NAME: "Moscow", bbox: "30,50,40,60" }), [1]);
  // Injection attempts: a quote inside a string is data; statements are refused.
  assert.deepEqual(await get({ filter: "NAME = 'x'' OR ''1''=''1'" }), []);
  expectException(await ogcGet(items, { filter: "NAME = 'a'; DROP TABLE Cities" }), 400, /filter/);
  expectException(await ogcGet(items, { filter: "POP >" }), 400, /filter.*position/);
  expectException(
    await ogcGet(items, { filter: "COLOR = 'red'" }),
    400,
    /Unknown property 'COLOR'/,
  );
  expectException(
    await ogcGet(items, { filter: "POP > 1", "filter-lang": "cql2-json" }),
    400,
    /filter-lang/,
  );
  expectException(
    await ogcGet(items, { filter: "S_INTERSECTS(geometry, POINT(1 2))", bbox: "1,2,3,4" }),
    400,
    /either as bbox or as S_INTERSECTS/,
  );
  // Cities still all there: nothing was dropped.
  assert.equal((await ogcGet(items)).body.numberMatched, 11);
});

ogcTest("single features, definition expressions and queryables", async (s) => {
  const one = await ogcGet(`${s.landing}/collections/1/items/2`);
  assert.equal(one.status, 200);
  assert.equal(one.headers.get("content-type"), "application/geo+json");
  assert.equal(one.body.type, "Feature");
  assert.equal(one.body.id, 2);
  assert.deepEqual(one.body.properties, { fid: 2, NAME: "East", KIND: "square" });
  assert.deepEqual(one.body.geometry.coordinates, [[[40, 50], [50, 50], [50, 60], [40, 60], [
    40,
    50,
  ]]]);
  assert.equal(link(one.body, "collection").href, `${s.landing}/collections/1`);
  // The West region's hole is a GeoJSON inner ring (clockwise), its outer ring counter-clockwise.
  const west = await ogcGet(`${s.landing}/collections/1/items/1`);
  assert.equal(west.body.geometry.coordinates.length, REGIONS[0][3].length);

  expectException(await ogcGet(`${s.landing}/collections/1/items/99`), 404, /Feature '99'/);
  expectException(await ogcGet(`${s.landing}/collections/1/items/abc`), 404, /Feature 'abc'/);
  // BigCities (3) is Cities with POP > 1500000: Kazan (2) is not in it.
  expectException(await ogcGet(`${s.landing}/collections/3/items/2`), 404, /Feature '2'/);
  const big = await ogcGet(`${s.landing}/collections/3/items`);
  assert.deepEqual(ids(big.body), CITIES.filter((c) => (c[4] ?? 0) > 1500000).map((c) => c[0]));

  const q = await ogcGet(`${s.landing}/collections/0/queryables`);
  assert.equal(q.status, 200);
  assert.equal(q.headers.get("content-type"), "application/schema+json");
  assert.equal(q.body.$id, `${s.landing}/collections/0/queryables`);
  assert.deepEqual(q.body.properties.POP, { title: "Population", type: "integer" });
  assert.deepEqual(q.body.properties.FOUNDED, {
    title: "Founded",
    type: "string",
    format: "date-time",
  });
  assert.equal(q.body.properties.geometry.format, "geometry-point");
  assert.deepEqual(Object.keys(q.body.properties), [
    "OBJECTID",
    "NAME",
    "POP",
    "AREA",
    "FOUNDED",
    "URL",
    "geometry",
  ]);
});

ogcTest("HTML by f=html and by Accept, every reflected value escaped", async (s) => {
  const browser = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
  for (
    const path of [
      "",
      "/conformance",
      "/api",
      "/collections",
      "/collections/0",
      "/collections/0/items",
      "/collections/0/items/1",
      "/collections/0/queryables",
    ]
  ) {
    const byAccept = await ogcGet(`${s.landing}${path}`, {}, browser);
    assert.equal(byAccept.status, 200, path);
    assert.equal(byAccept.headers.get("content-type"), "text/html; charset=utf-8", path);
    assert.match(byAccept.text, /^<!DOCTYPE html>/, path);
    const byF = await ogcGet(`${s.landing}${path}`, { f: "html" });
    assert.equal(
      byF.text.replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, ""),
      byAccept.text.replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, ""),
    );
    // f=json wins over a browser's Accept.
    const json = await ogcGet(`${s.landing}${path}`, { f: "json" }, browser);
    assert.match(json.headers.get("content-type")!, /json/, path);
  }
  const items = await ogcGet(`${s.landing}/collections/0/items`, { f: "html", NAME: "Тверь" });
  assert.match(items.text, /Тверь/);
  // Paging in HTML stays in HTML.
  const paged = await ogcGet(`${s.landing}/collections/0/items`, { f: "html", limit: "5" });
  const next = /<a rel="next" href="([^"]+)"/.exec(paged.text)![1].replaceAll("&#38;", "&");
  assert.deepEqual(
    Object.fromEntries(new URL(next).searchParams),
    { limit: "5", offset: "5", f: "html" },
  );
  assert.match((await ogcGet(next)).text, /Nizhny Novgorod/);
  const evil = "<script>alert(1)</script>";
  const notFound = await ogcGet(`${s.landing}/collections/${encodeURIComponent(evil)}`, {
    f: "html",
  });
  assert.equal(notFound.status, 404);
  assert.match(notFound.headers.get("content-type")!, /^text\/html/);
  assert.ok(!notFound.text.includes("<script>"), notFound.text);
  assert.match(notFound.text, /&#60;script&#62;/);
  const badFilter = await ogcGet(`${s.landing}/collections/0/items`, {
    f: "html",
    filter: `NAME = ${evil}`,
  });
  assert.equal(badFilter.status, 400);
  assert.ok(!badFilter.text.includes("<script>"));
  const badParam = await ogcGet(`${s.landing}/collections/0/items`, { f: "html", [evil]: "1" });
  assert.equal(badParam.status, 400);
  assert.ok(!badParam.text.includes("<script>"));
});

ogcTest("errors: 404 for unknown services, collections and paths; 406; 405", async (s) => {
  const other = s.landing.replace("/Fixture/", "/Nope/");
  expectException(await ogcGet(other), 404, /Service 'Nope' does not exist/);
  expectException(await ogcGet(`${s.landing}/collections/9`), 404, /Collection '9'/);
  expectException(await ogcGet(`${s.landing}/collections/9/items`), 404, /Collection '9'/);
  expectException(await ogcGet(`${s.landing}/whatever`), 404, /No resource/);
  expectException(await ogcGet(s.landing, { f: "xml" }), 406, /f=xml/);
  expectException(await ogcGet(s.landing, {}, "application/xml"), 406, /application\/xml/);
  assert.equal((await ogcGet(s.landing, {}, "application/xml, */*;q=0.1")).status, 200);
  assert.equal(
    (await ogcGet(`${s.landing}/collections/0/items`, {}, "application/geo+json")).status,
    200,
  );
  const post = await fetch(`${s.landing}/collections`, { method: "POST", body: "x" });
  assert.equal(post.status, 405);
  assert.equal((await post.json()).code, "MethodNotAllowed");
  const head = await fetch(`${s.landing}/collections/0/items`, { method: "HEAD" });
  assert.equal(head.status, 200);
  assert.equal(await head.text(), "");
  // The REST face still answers beside it.
  const rest = await ogcGet(`${s.url}/arcgis/rest/services/Fixture/MapServer/0`, { f: "json" });
  assert.equal(rest.body.name, "Cities");
});
