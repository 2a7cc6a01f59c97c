/**
 * The ArcGIS REST layers and query endpoints over the GeoPackage fixture, on
 * a real loopback server that also speaks SOAP: every REST answer that has a
 * SOAP twin (QueryFeatureCount2, QueryFeatureIDs2, QueryFeatureData) is
 * compared with it, and bad input gets the ArcGIS JSON error, never a 500.
 */
import assert from "node:assert/strict";
import {
  type Any,
  call,
  CITIES,
  createFixture,
  envelopeArg,
  type Fixture,
  items,
  type QueryServer,
  startQueryServer,
  typed,
} from "./_soap_query_fixtures.ts";
import { assertRestError, rest } from "./_rest_helpers.ts";

const FIXTURE = "/services/Fixture/MapServer";
const CAPPED = "/services/Capped/MapServer";

function restTest(name: string, fn: (s: QueryServer) => Promise<void>): void {
  Deno.test({
    name,
    sanitizeResources: false,
    sanitizeOps: false,
    async fn() {
      let fixture: Fixture | undefined;
      let server: QueryServer | undefined;
      try {
        fixture = await createFixture();
        server = await startQueryServer(fixture.services);
        await fn(server);
      } finally {
        await server?.close();
        await fixture?.dispose();
      }
    },
  });
}

function query(s: QueryServer, path: string, params: Record<string, string>, post = false) {
  return rest(s.baseUrl, `${path}/query`, { f: "json", ...params }, post);
}

restTest("REST /layers and /{layerId}: fields, geometry types, drawing info, extent", async (s) => {
  const { body } = await rest(s.baseUrl, `${FIXTURE}/layers`, { f: "json" });
  assert.deepEqual(body.layers.map((l: Any) => l.name), [
    "Cities",
    "Regions",
    "Roads",
    "BigCities",
    "HiddenCities",
  ]);
  assert.deepEqual(body.tables, []);
  const cities = (await rest(s.baseUrl, `${FIXTURE}/0`, { f: "json" })).body;
  assert.deepEqual(cities, body.layers[0]);
  assert.equal(cities.type, "Feature Layer");
  assert.equal(cities.geometryType, "esriGeometryPoint");
  assert.equal(cities.displayField, "NAME");
  assert.equal(cities.hasAttachments, false);
  assert.equal(cities.typeIdField, null);
  assert.equal(cities.capabilities, "Map,Query,Data");
  assert.equal(cities.maxRecordCount, 1000);
  assert.deepEqual(cities.fields.map((f: Any) => [f.name, f.type, f.alias]), [
    ["OBJECTID", "esriFieldTypeOID", "OBJECTID"],
    ["geom", "esriFieldTypeGeometry", "geom"],
    ["NAME", "esriFieldTypeString", "Name"],
    ["POP", "esriFieldTypeInteger", "Population"],
    ["AREA", "esriFieldTypeDouble", "Area (km²)"],
    ["FOUNDED", "esriFieldTypeDate", "Founded"],
    ["URL", "esriFieldTypeString", "Web site"],
  ]);
  assert.equal(typeof cities.fields[2].length, "number");
  const lons = CITIES.map((c) => c[2]), lats = CITIES.map((c) => c[3]);
  assert.deepEqual(
    [cities.extent.xmin, cities.extent.ymin, cities.extent.xmax, cities.extent.ymax],
    [Math.min(...lons), Math.min(...lats), Math.max(...lons), Math.max(...lats)],
  );
  const r = cities.drawingInfo.renderer;
  assert.equal(r.type, "simple");
  assert.equal(r.symbol.type, "esriSMS");
  assert.equal(r.symbol.color.length, 4);
  const regions = (await rest(s.baseUrl, `${FIXTURE}/1`, { f: "json" })).body;
  assert.equal(regions.geometryType, "esriGeometryPolygon");
  assert.equal(regions.drawingInfo.renderer.symbol.type, "esriSFS");
  assert.equal(
    (await rest(s.baseUrl, `${FIXTURE}/2`, { f: "json" })).body.geometryType,
    "esriGeometryPolyline",
  );
  assert.equal(
    (await rest(s.baseUrl, `${FIXTURE}/4`, { f: "json" })).body.defaultVisibility,
    false,
  );
  assert.equal((await rest(s.baseUrl, `${CAPPED}/0`, { f: "json" })).body.maxRecordCount, 3);
  assertRestError(await rest(s.baseUrl, `${FIXTURE}/99`, { f: "json" }), 404, /Layer '99'/);
  assertRestError(await query(s, `${FIXTURE}/99`, {}), 404, /Layer '99'/);
});

restTest("REST query and SOAP agree: counts, ids and values for the same questions", async (s) => {
  const c = await s.client("Fixture");
  const questions: {
    layer: number;
    rest: Record<string, string>;
    soap: Record<string, unknown>;
  }[] = [
    { layer: 0, rest: { where: "1=1" }, soap: { WhereClause: "1=1" } },
    { layer: 0, rest: { where: "POP > 1200000" }, soap: { WhereClause: "POP > 1200000" } },
    { layer: 0, rest: { where: "NAME LIKE 'S%'" }, soap: { WhereClause: "NAME LIKE 'S%'" } },
    { layer: 3, rest: {}, soap: {} }, // the layer's own definition expression applies to both
    {
      layer: 0,
      rest: { geometry: "30,50,50,60", geometryType: "esriGeometryEnvelope" },
      soap: typed("SpatialFilter", {
        FilterGeometry: envelopeArg(30, 50, 50, 60),
        SpatialRel: "esriSpatialRelIntersects",
      }),
    },
    {
      layer: 1,
      rest: {
        geometry: JSON.stringify({ xmin: 44, ymin: 46, xmax: 46, ymax: 51 }),
        spatialRel: "esriSpatialRelIntersects",
      },
      soap: typed("SpatialFilter", {
        FilterGeometry: envelopeArg(44, 46, 46, 51),
        SpatialRel: "esriSpatialRelIntersects",
      }),
    },
  ];
  for (const q of questions) {
    const what = `${q.layer} ${JSON.stringify(q.rest)}`;
    const soapArgs = {
      MapName: "Layers",
      LayerDescription: { LayerID: q.layer },
      QueryFilter: q.soap,
    };
    const soapCount = Number((await call(c, "QueryFeatureCount2", soapArgs)).Result);
    const soapIds = items((await call(c, "QueryFeatureIDs2", soapArgs)).Result?.FIDArray?.Int).map(
      Number,
    );
    const count =
      (await query(s, `${FIXTURE}/${q.layer}`, { ...q.rest, returnCountOnly: "true" })).body;
    assert.deepEqual(count, { count: soapCount }, what);
    const ids =
      (await query(s, `${FIXTURE}/${q.layer}`, { ...q.rest, returnIdsOnly: "true" })).body;
    const oid = q.layer === 1 ? "fid" : "OBJECTID";
    assert.equal(ids.objectIdFieldName, oid);
    assert.deepEqual(ids.objectIds, soapIds, what);
    const features = (await query(s, `${FIXTURE}/${q.layer}`, { ...q.rest, outFields: "*" })).body;
    assert.equal(features.objectIdFieldName, oid);
    assert.deepEqual(features.features.map((f: Any) => f.attributes[oid]), soapIds, what);
  }
  // Without a definition expression, QueryFeatureCount (by LayerID) asks the same question.
  const byId = Number(
    (await call(c, "QueryFeatureCount", {
      MapName: "Layers",
      LayerID: 0,
      QueryFilter: { WhereClause: "POP > 1200000" },
    }))
      .Result,
  );
  assert.equal(
    (await query(s, `${FIXTURE}/0`, { where: "POP > 1200000", returnCountOnly: "true" })).body
      .count,
    byId,
  );
  // Values: QueryFeatureData's records against the FeatureSet's attributes and points.
  const data = await call(c, "QueryFeatureData", {
    MapName: "Layers",
    LayerID: 0,
    QueryFilter: { WhereClause: "OBJECTID <= 3", SubFields: "NAME,POP,Shape" },
  });
  const records = items(data.Result.Records.Record).map((r: Any) => items(r.Values.Value));
  const set =
    (await query(s, `${FIXTURE}/0`, { where: "OBJECTID <= 3", outFields: "NAME,POP" })).body;
  assert.deepEqual(set.fields.map((f: Any) => f.name), ["OBJECTID", "NAME", "POP"]);
  assert.equal(set.features.length, records.length);
  set.features.forEach((f: Any, i: number) => {
    const v = records[i];
    assert.equal(f.attributes.OBJECTID, Number(v[0].$value ?? v[0]));
    assert.equal(f.geometry.x, Number(v[1].X));
    assert.equal(f.geometry.y, Number(v[1].Y));
    assert.equal(f.attributes.NAME, String(v[2].$value ?? v[2]));
    assert.equal(f.attributes.POP, Number(v[3].$value ?? v[3]));
  });
  assert.equal(set.objectIdFieldName, "OBJECTID");
  assert.equal(set.globalIdFieldName, "");
  assert.equal(set.geometryType, "esriGeometryPoint");
  assert.deepEqual(set.spatialReference, { wkid: 4326, latestWkid: 4326 });
  assert.equal(set.exceededTransferLimit, undefined);
});

restTest(
  "REST query pages past maxRecordCount with resultOffset and exceededTransferLimit",
  async (s) => {
    const all = CITIES.map((c) => c[0]);
    const first = (await query(s, `${CAPPED}/0`, { where: "1=1" })).body;
    assert.equal(first.features.length, 3);
    assert.equal(first.exceededTransferLimit, true);
    const seen: number[] = [];
    for (let offset = 0;; offset += 3) {
      const page =
        (await query(s, `${CAPPED}/0`, { where: "1=1", resultOffset: String(offset) })).body;
      seen.push(...page.features.map((f: Any) => f.attributes.OBJECTID));
      if (!page.exceededTransferLimit) break;
    }
    assert.deepEqual(seen, all);
    const two = (await query(s, `${CAPPED}/0`, { resultRecordCount: "2", resultOffset: "9" })).body;
    assert.deepEqual(two.features.map((f: Any) => f.attributes.OBJECTID), [10, 11]);
    assert.equal(two.exceededTransferLimit, undefined);
    const big = (await query(s, `${CAPPED}/0`, { resultRecordCount: "50" })).body;
    assert.equal(big.features.length, 3, "resultRecordCount is capped at maxRecordCount");
    // Counts and ids are not capped.
    assert.equal(
      (await query(s, `${CAPPED}/0`, { returnCountOnly: "true" })).body.count,
      all.length,
    );
    assert.deepEqual(
      (await query(s, `${CAPPED}/0`, { returnIdsOnly: "true" })).body.objectIds,
      all,
    );
    // Ordered pages.
    const byPop = (await query(s, `${FIXTURE}/0`, {
      where: "POP IS NOT NULL",
      outFields: "NAME,POP",
      orderByFields: "POP DESC",
      resultOffset: "1",
      resultRecordCount: "2",
      returnGeometry: "false",
    })).body;
    const sorted = CITIES.filter((c) => c[4] !== null).sort((a, b) => b[4]! - a[4]!);
    assert.deepEqual(byPop.features.map((f: Any) => f.attributes.NAME), [
      sorted[1][1],
      sorted[2][1],
    ]);
    assert.equal(byPop.features[0].geometry, undefined);
    assert.equal(byPop.exceededTransferLimit, true);
  },
);

restTest(
  "REST query statistics: count/sum/min/max/avg/stddev/var, grouped and ordered",
  async (s) => {
    const stats = [
      { statisticType: "count", onStatisticField: "POP", outStatisticFieldName: "n" },
      { statisticType: "sum", onStatisticField: "POP", outStatisticFieldName: "total" },
      { statisticType: "min", onStatisticField: "POP", outStatisticFieldName: "least" },
      { statisticType: "max", onStatisticField: "NAME", outStatisticFieldName: "last_name" },
      { statisticType: "avg", onStatisticField: "POP", outStatisticFieldName: "mean" },
      { statisticType: "stddev", onStatisticField: "POP", outStatisticFieldName: "sd" },
      { statisticType: "var", onStatisticField: "POP", outStatisticFieldName: "v" },
    ];
    const { body } = await query(s, `${FIXTURE}/0`, { outStatistics: JSON.stringify(stats) }, true);
    const pops = CITIES.map((c) => c[4]).filter((p): p is number => p !== null);
    const mean = pops.reduce((a, b) => a + b, 0) / pops.length;
    const variance = pops.reduce((a, p) => a + (p - mean) ** 2, 0) / (pops.length - 1);
    assert.equal(body.features.length, 1);
    const a = body.features[0].attributes;
    assert.equal(a.n, pops.length, "count skips NULL");
    assert.equal(a.total, pops.reduce((x, y) => x + y, 0));
    assert.equal(a.least, Math.min(...pops));
    assert.equal(a.last_name, [...CITIES.map((c) => c[1])].sort().at(-1));
    assert.ok(Math.abs(a.mean - mean) < 1e-6);
    assert.ok(Math.abs(a.v - variance) / variance < 1e-12);
    assert.ok(Math.abs(a.sd - Math.sqrt(variance)) / Math.sqrt(variance) < 1e-12);
    assert.deepEqual(body.fields.map((f: Any) => [f.name, f.type]), [
      ["n", "esriFieldTypeInteger"],
      ["total", "esriFieldTypeDouble"],
      ["least", "esriFieldTypeInteger"],
      ["last_name", "esriFieldTypeString"],
      ["mean", "esriFieldTypeDouble"],
      ["sd", "esriFieldTypeDouble"],
      ["v", "esriFieldTypeDouble"],
    ]);
    const grouped = (await query(s, `${FIXTURE}/1`, {
      outStatistics: JSON.stringify([{
        statisticType: "count",
        onStatisticField: "*",
        outStatisticFieldName: "n",
      }]),
      groupByFieldsForStatistics: "KIND",
      orderByFields: "n DESC",
    })).body;
    assert.deepEqual(grouped.features.map((f: Any) => f.attributes), [
      { KIND: "square", n: 2 },
      { KIND: "rectangle", n: 1 },
    ]);
  },
);

restTest(
  "REST query returnDistinctValues: only the outFields' distinct values, no object id or shape",
  async (s) => {
    const distinct = (params: Record<string, string>) =>
      query(s, `${FIXTURE}/1`, { returnDistinctValues: "true", ...params });
    const { body } = await distinct({ outFields: "KIND", orderByFields: "KIND" });
    assert.deepEqual(body.features, [
      { attributes: { KIND: "rectangle" } },
      { attributes: { KIND: "square" } },
    ]);
    assert.deepEqual(body.fields.map((f: Any) => f.name), ["KIND"]);
    assert.deepEqual(body.fieldAliases, { KIND: "Kind" });
    assert.equal(body.objectIdFieldName, undefined);
    assert.equal(body.geometryType, undefined);
    // Without the flag the same question keeps the object id and the shapes.
    const plain = (await query(s, `${FIXTURE}/1`, { outFields: "KIND" })).body;
    assert.equal(plain.features.length, 3);
    assert.equal(plain.objectIdFieldName, "fid");
    // Two fields: distinct pairs; GeoJSON rows carry the values alone too.
    const pairs = (await distinct({ outFields: "KIND,NAME", where: "KIND = 'square'" })).body;
    assert.deepEqual(pairs.features.map((f: Any) => Object.keys(f.attributes)), [
      ["NAME", "KIND"],
      ["NAME", "KIND"],
    ]);
    const gj = (await distinct({ outFields: "KIND", f: "geojson" })).body;
    assert.deepEqual(gj.features.map((f: Any) => [f.properties, f.geometry]), [
      [{ KIND: "square" }, null],
      [{ KIND: "rectangle" }, null],
    ]);
    // Value rows are not features of the layer: no object id as the GeoJSON id.
    assert.deepEqual(gj.features.map((f: Any) => "id" in f), [false, false]);
  },
);

restTest(
  "REST query geometry forms, spatial relations, outSR, precision and GeoJSON",
  async (s) => {
    const count = async (layer: number, params: Record<string, string>) =>
      (await query(s, `${FIXTURE}/${layer}`, { ...params, returnCountOnly: "true" })).body.count;
    // Short point form in the polygon layer: (35, 52) is inside West only; (35, 55) is in its hole.
    assert.equal(await count(1, { geometry: "35,52", geometryType: "esriGeometryPoint" }), 1);
    assert.equal(await count(1, { geometry: "35,55", geometryType: "esriGeometryPoint" }), 0);
    const ring = { rings: [[[29, 49], [29, 61], [51, 61], [51, 49], [29, 49]]] };
    const polygon = { geometry: JSON.stringify(ring), geometryType: "esriGeometryPolygon" };
    assert.equal(await count(1, { ...polygon, spatialRel: "esriSpatialRelContains" }), 2);
    assert.equal(await count(1, { ...polygon, spatialRel: "esriSpatialRelIntersects" }), 3);
    assert.equal(
      await count(1, {
        geometry: '{"x":46,"y":51,"spatialReference":{"wkid":4326}}',
        spatialRel: "esriSpatialRelWithin",
      }),
      2,
    );
    // inSR: the same envelope in Web Mercator.
    const merc = { xmin: 3339584.72, ymin: 6446275.84, xmax: 5565974.54, ymax: 8399737.89 }; // 30..50 x 50..60
    assert.equal(
      await count(0, { geometry: JSON.stringify(merc), inSR: "102100" }),
      await count(0, { geometry: "30,50,50,60" }),
    );
    const line = { paths: [[[30, 55], [50, 55]]] };
    assert.equal(
      await count(1, { geometry: JSON.stringify(line), geometryType: "esriGeometryPolyline" }),
      2,
    );
    // outSR and geometryPrecision.
    const moscow =
      (await query(s, `${FIXTURE}/0`, { objectIds: "1", outSR: "3857", geometryPrecision: "1" }))
        .body;
    assert.deepEqual(moscow.spatialReference, { wkid: 102100, latestWkid: 3857 });
    const x = 37.6173 * 6378137 * Math.PI / 180;
    assert.equal(moscow.features[0].geometry.x, Math.round(x * 10) / 10);
    // GeoJSON: WGS 84 whatever outSR says, outer rings counter-clockwise, the hole clockwise.
    const gj = await query(s, `${FIXTURE}/1`, {
      objectIds: "1",
      outFields: "NAME",
      outSR: "3857",
      f: "geojson",
    });
    assert.match(gj.headers.get("content-type")!, /^application\/geo\+json/);
    assert.equal(gj.body.type, "FeatureCollection");
    const west = gj.body.features[0];
    assert.equal(west.id, 1);
    assert.deepEqual(west.properties, { fid: 1, NAME: "West" });
    assert.equal(west.geometry.type, "Polygon");
    const [outer, hole] = west.geometry.coordinates;
    const area = (r: number[][]) =>
      r.slice(1).reduce((a, p, i) => a + r[i][0] * p[1] - p[0] * r[i][1], 0);
    assert.ok(area(outer) > 0 && area(hole) < 0, "RFC 7946 ring order");
    assert.ok(
      Math.abs(outer[0][0] - 30) < 1e-9 && Math.abs(outer[0][1] - 50) < 1e-9,
      String(outer[0]),
    );
    const point =
      (await query(s, `${FIXTURE}/0`, { objectIds: "2", f: "geojson" })).body.features[0];
    assert.deepEqual(point.geometry, { type: "Point", coordinates: [49.1221, 55.7887] });
    // maxAllowableOffset generalises lines (the road is a straight 2-point line: unchanged).
    const road =
      (await query(s, `${FIXTURE}/2`, { objectIds: "1", maxAllowableOffset: "0.5", outSR: "4326" }))
        .body;
    assert.equal(road.features[0].geometry.paths[0].length, 2);
  },
);

restTest("REST query: GET and POST forms agree; bad input is a 400 ArcGIS error", async (s) => {
  const params = { where: "POP > 1000000", outFields: "NAME", orderByFields: "NAME" };
  assert.deepEqual(
    (await query(s, `${FIXTURE}/0`, params, true)).body,
    (await query(s, `${FIXTURE}/0`, params)).body,
  );
  const cases: [Record<string, string>, RegExp][] = [
    [{ where: "NOPE = 1" }, /NOPE/],
    [{ where: "POP >" }, /^Invalid where for layer 0/],
    [{ outFields: "NAME,NOPE" }, /^outFields: .*NOPE/],
    [{ geometry: "{x" }, /'geometry'/],
    [{ geometry: '{"x":"a","y":1}' }, /'geometry'.*finite/],
    [{ geometry: '{"rings":[[[0,0],[1,1]]]}' }, /three points/],
    [{ geometry: "1,2,3" }, /'geometry'/],
    [{ geometry: '{"xmin":5,"ymin":5,"xmax":"a","ymax":1}' }, /xmin, ymin, xmax, ymax/],
    [{ geometry: '{"x":1,"y":1}', geometryType: "esriGeometryPolygon" }, /geometryType/],
    [{ geometry: "1,1", geometryType: "esriGeometryCircle" }, /'geometryType'/],
    [{ geometry: "1,1", spatialRel: "esriSpatialRelNear" }, /'spatialRel'/],
    [{ geometry: "1,1", inSR: '{"wkt":"PROJCS[]"}' }, /WKT/],
    [{ outSR: "2193" }, /^outSR 2193 is not supported/],
    [
      { geometry: "1,1", spatialRel: "esriSpatialRelRelation", relationParam: "TT" },
      /needs a relationParam of 9/,
    ],
    [{ resultOffset: "-1" }, /'resultOffset'/],
    [{ resultRecordCount: "many" }, /'resultRecordCount'/],
    [{ returnGeometry: "maybe" }, /'returnGeometry'/],
    [{ objectIds: "1,two" }, /'objectIds'/],
    // Number() would read these as 1, 1, 1, 10 and 0: ArcGIS refuses them.
    [{ objectIds: "0x1" }, /'objectIds'.*0x1/],
    [{ objectIds: "2,0b1" }, /'objectIds'.*0b1/],
    [{ objectIds: "1e0" }, /'objectIds'.*1e0/],
    [{ objectIds: "1.0" }, /'objectIds'/],
    [{ resultOffset: "0x10" }, /'resultOffset'/],
    // Past 2^53 a number is no longer whole-number exact, and SQLite refused the offset (a 500).
    [{ resultOffset: "99999999999999999999" }, /'resultOffset'.*at most 9007199254740991/],
    [{ resultRecordCount: "99999999999999999999" }, /'resultRecordCount'.*at most/],
    [{ geometry: "0x1,2" }, /'geometry'/],
    [{ maxAllowableOffset: "Infinity" }, /'maxAllowableOffset'/],
    [{ orderByFields: "POP SIDEWAYS" }, /'orderByFields'/],
    [{ orderByFields: "NOPE" }, /^orderByFields: .*NOPE/],
    [{ outStatistics: "[]" }, /'outStatistics'/],
    [{ outStatistics: '[{"statisticType":"median","onStatisticField":"POP"}]' }, /statisticType/],
    [{ outStatistics: '[{"statisticType":"sum","onStatisticField":"NAME"}]' }, /numeric/],
    [{ groupByFieldsForStatistics: "NAME" }, /outStatistics/],
    [{ geometryPrecision: "99" }, /'geometryPrecision'/],
  ];
  for (const [params, message] of cases) {
    assertRestError(await query(s, `${FIXTURE}/0`, params), 400, message);
  }
  // A layer id in the path is a plain decimal number too: `/0x1` is no layer.
  assertRestError(await query(s, `${FIXTURE}/0x1`, {}), 404, /does not exist/);
  assertRestError(
    await query(s, `${FIXTURE}/0`, { f: "kmz" }),
    400,
    /f=json, f=pjson, f=html, f=geojson/,
  );
  assertRestError(await query(s, `${FIXTURE}/0`, { callback: "x;alert(1)" }), 400, /callback/);
  const jsonp = await query(s, `${FIXTURE}/0`, { returnCountOnly: "true", callback: "cb" });
  assert.equal(jsonp.text, `cb({"count":${CITIES.length}});`);
});

restTest(
  "query: a buffered search (distance, as esri-leaflet's nearby sends) finds what lies within it",
  async (s) => {
    // Moscow is 6 km from the point: answering "none within 100 km" would be wrong.
    const near = {
      geometry: "37.6,55.7",
      geometryType: "esriGeometryPoint",
      inSR: "4326",
      units: "esriSRUnit_Meter",
      returnCountOnly: "true",
    };
    const within = await query(s, `${FIXTURE}/0`, { ...near, distance: "100000" });
    assert.ok(within.body.count >= 1, JSON.stringify(within.body));
    // No buffer: the point itself, as before.
    const none = await query(s, `${FIXTURE}/0`, { ...near, distance: "0" });
    assert.equal(none.body.count, 0);
    // A distance around a line or polygon is refused, never ignored.
    assertRestError(
      await query(s, `${FIXTURE}/0`, {
        geometry: "37,55,38,56",
        geometryType: "esriGeometryEnvelope",
        inSR: "4326",
        distance: "1000",
      }),
      400,
      /distance/,
    );
  },
);
