/**
 * The WFS face over HTTP on the demo server (`Recruitment`: Конкурсы,
 * points; Страны, polygons; WGS 84): capabilities in 2.0.0 and 1.1.0,
 * DescribeFeatureType, GetFeature (BBOX with its axis order, RESOURCEID,
 * FES filters by KVP and in a POSTed XML request, PROPERTYNAME, SORTBY,
 * paging with `next`, hits, SRSNAME, GML 3.2 / 3.1.1 / GeoJSON), the
 * GetFeatureById stored query, exception reports, and agreement with the
 * REST query of the same filter (counts, ids, attributes, geometries).
 */
import assert from "node:assert/strict";
import { XmlDocument } from "libxml2-wasm";
import { startTestServer, type TestServer } from "./_api_helpers.ts";
import { rest } from "./_rest_helpers.ts";

const NS = {
  wfs: "http://www.opengis.net/wfs/2.0",
  wfs11: "http://www.opengis.net/wfs",
  ows: "http://www.opengis.net/ows/1.1",
  ows10: "http://www.opengis.net/ows",
  gml: "http://www.opengis.net/gml/3.2",
  gml31: "http://www.opengis.net/gml",
  fes: "http://www.opengis.net/fes/2.0",
  xsd: "http://www.w3.org/2001/XMLSchema",
};

const POINTS = "Recruitment:Конкурсы";
const POLYGONS = "Recruitment:Страны";
/** 30..40 E, 50..60 N. */
const BOX = { xmin: 30, ymin: 50, xmax: 40, ymax: 60 };

interface Answer {
  status: number;
  contentType: string;
  text: string;
}

function wfsUrl(base: string): string {
  return `${base}/arcgis/services/Recruitment/MapServer/WFSServer`;
}

async function wfs(base: string, params: Record<string, string>): Promise<Answer> {
  const res = await fetch(`${wfsUrl(base)}?${new URLSearchParams(params)}`);
  return {
    status: res.status,
    contentType: res.headers.get("content-type") ?? "",
    text: await res.text(),
  };
}

async function post(base: string, body: string): Promise<Answer> {
  const res = await fetch(wfsUrl(base), {
    method: "POST",
    headers: { "content-type": "text/xml" },
    body,
  });
  return {
    status: res.status,
    contentType: res.headers.get("content-type") ?? "",
    text: await res.text(),
  };
}

function xml<T>(text: string, fn: (q: (e: string) => string, n: (e: string) => number) => T): T {
  const doc = XmlDocument.fromString(text);
  try {
    return fn(
      (e) => doc.eval(`string(${e})`, NS) as string,
      (e) => doc.eval(`count(${e})`, NS) as number,
    );
  } finally {
    doc.dispose();
  }
}

function assertException(a: Answer, code: string, locator?: string, version = "2.0.0"): string {
  assert.equal(a.status, 400, a.text);
  assert.match(a.contentType, /^text\/xml/);
  return xml(a.text, (q) => {
    assert.equal(q("/ows:ExceptionReport/@version"), version);
    assert.equal(q("/ows:ExceptionReport/ows:Exception/@exceptionCode"), code, a.text);
    if (locator !== undefined) assert.equal(q("//ows:Exception/@locator"), locator);
    return q("//ows:ExceptionText");
  });
}

const GF = { SERVICE: "WFS", VERSION: "2.0.0", REQUEST: "GetFeature" };
const JSON_OUT = { OUTPUTFORMAT: "application/json" };

// deno-lint-ignore no-explicit-any
type Json = any;

async function wfsJson(base: string, params: Record<string, string>): Promise<Json> {
  const a = await wfs(base, { ...GF, ...JSON_OUT, ...params });
  assert.equal(a.status, 200, a.text);
  assert.match(a.contentType, /^application\/json/);
  return JSON.parse(a.text);
}

/** REST query of layer `id` as GeoJSON (ids, attributes, geometries). */
async function restGeoJson(
  s: TestServer,
  id: number,
  params: Record<string, string>,
): Promise<Json> {
  const r = await rest(s.url, `/services/Recruitment/MapServer/${id}/query`, {
    outFields: "*",
    f: "geojson",
    ...params,
  });
  assert.equal(r.status, 200);
  return r.body;
}

/** WFS properties with dates as epoch milliseconds, as REST's GeoJSON writes them. */
function props(fc: Json): Json[] {
  return fc.features.map((f: Json) =>
    Object.fromEntries(
      Object.entries(f.properties).map(([k, v]) => [
        k,
        typeof v === "string" && /^\d{4}-\d\d-\d\dT[\d:.]+Z$/.test(v) ? Date.parse(v) : v,
      ]),
    )
  );
}

function fesFilter(inner: string): string {
  return `<fes:Filter xmlns:fes="http://www.opengis.net/fes/2.0" xmlns:gml="http://www.opengis.net/gml/3.2">${inner}</fes:Filter>`;
}

Deno.test({
  name: "WFS face: capabilities, schemas, GetFeature, filters, paging and exceptions",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const s = await startTestServer();
    try {
      await t.step("GetCapabilities 2.0.0 (the default)", async () => {
        const a = await wfs(s.url, { SERVICE: "WFS", REQUEST: "GetCapabilities" });
        assert.equal(a.status, 200);
        xml(a.text, (q, n) => {
          assert.equal(q("/wfs:WFS_Capabilities/@version"), "2.0.0");
          assert.equal(q("//ows:ServiceIdentification/ows:ServiceType"), "WFS");
          assert.equal(n("//wfs:FeatureType"), 2);
          assert.equal(n(`//wfs:FeatureType[wfs:Name='${POINTS}']`), 1);
          assert.equal(n(`//wfs:FeatureType[wfs:Name='${POLYGONS}']`), 1);
          assert.equal(
            q(`//wfs:FeatureType[wfs:Name='${POINTS}']/wfs:DefaultCRS`),
            "urn:ogc:def:crs:EPSG::4326",
          );
          assert.equal(
            q(`//wfs:FeatureType[wfs:Name='${POINTS}']/wfs:OtherCRS`),
            "urn:ogc:def:crs:EPSG::3857",
          );
          const [w, south] = q(`//wfs:FeatureType[wfs:Name='${POINTS}']//ows:LowerCorner`)
            .split(" ").map(Number);
          assert.ok(w > 19 && w < 40 && south > 40 && south < 50, `${w} ${south}`);
          const c = (name: string) =>
            q(`//ows:OperationsMetadata/ows:Constraint[@name='${name}']/ows:DefaultValue`);
          assert.equal(c("ImplementsBasicWFS"), "TRUE");
          assert.equal(c("ImplementsResultPaging"), "TRUE");
          assert.equal(c("CountDefault"), "1000");
          assert.equal(n("//fes:SpatialOperator[@name='BBOX']"), 1);
          assert.equal(n("//fes:SpatialOperator[@name='Intersects']"), 1);
          assert.equal(n("//fes:ComparisonOperator[@name='PropertyIsLike']"), 1);
          assert.equal(
            q("//fes:Conformance/ows:Constraint[@name='ImplementsSorting']/ows:DefaultValue"),
            "TRUE",
          );
        });
      });

      await t.step("GetCapabilities 1.1.0 by VERSION and by ACCEPTVERSIONS", async () => {
        const asks: Record<string, string>[] = [{ VERSION: "1.1.0" }, {
          ACCEPTVERSIONS: "1.1.0,1.0.0",
        }];
        for (const p of asks) {
          const a = await wfs(s.url, { SERVICE: "WFS", REQUEST: "GetCapabilities", ...p });
          xml(a.text, (q, n) => {
            assert.equal(q("/wfs11:WFS_Capabilities/@version"), "1.1.0");
            assert.equal(n("//wfs11:FeatureType/wfs11:DefaultSRS"), 2);
          });
        }
        const bad = await wfs(s.url, {
          SERVICE: "WFS",
          REQUEST: "GetCapabilities",
          ACCEPTVERSIONS: "3.0.0,0.9",
        });
        assertException(bad, "VersionNegotiationFailed", "AcceptVersions");
      });

      await t.step("DescribeFeatureType: GML 3.2 schema typed from the fields", async () => {
        const a = await wfs(s.url, {
          SERVICE: "WFS",
          VERSION: "2.0.0",
          REQUEST: "DescribeFeatureType",
          TYPENAMES: POLYGONS,
        });
        assert.equal(a.status, 200);
        xml(a.text, (q, n) => {
          assert.equal(n("/xsd:schema/xsd:complexType"), 1);
          assert.equal(q("//xsd:element[@name='Shape']/@type"), "gml:MultiSurfacePropertyType");
          assert.equal(q("//xsd:element[@name='name']/@type"), "xsd:string");
          assert.equal(q("//xsd:element[@name='id']/@type"), "xsd:int");
        });
        const all = await wfs(s.url, { SERVICE: "WFS", REQUEST: "DescribeFeatureType" });
        xml(all.text, (q, n) => {
          assert.equal(n("/xsd:schema/xsd:complexType"), 2);
          assert.equal(q("//xsd:element[@name='published']/@type"), "xsd:dateTime");
          assert.equal(q("//xsd:element[@name='Shape']/@type"), "gml:PointPropertyType");
        });
      });

      await t.step("BBOX: EPSG:4326 URN is latitude first, EPSG:4326 short form x,y", async () => {
        const want = await restGeoJson(s, 0, {
          geometry: `${BOX.xmin},${BOX.ymin},${BOX.xmax},${BOX.ymax}`,
          geometryType: "esriGeometryEnvelope",
          orderByFields: "id",
        });
        assert.ok(want.features.length > 5);
        for (
          const bbox of [
            `${BOX.ymin},${BOX.xmin},${BOX.ymax},${BOX.xmax}`,
            `${BOX.ymin},${BOX.xmin},${BOX.ymax},${BOX.xmax},urn:ogc:def:crs:EPSG::4326`,
            `${BOX.xmin},${BOX.ymin},${BOX.xmax},${BOX.ymax},EPSG:4326`,
          ]
        ) {
          const got = await wfsJson(s.url, { TYPENAMES: POINTS, BBOX: bbox, SORTBY: "id" });
          assert.equal(got.numberMatched, want.features.length, bbox);
          assert.deepEqual(props(got), want.features.map((f: Json) => f.properties));
          assert.deepEqual(
            got.features.map((f: Json) => f.geometry),
            want.features.map((f: Json) => f.geometry),
          );
          assert.deepEqual(
            got.features.map((f: Json) => f.id),
            want.features.map((f: Json) => `Конкурсы.${f.id}`),
          );
        }
        // GML 3.2 in the URN CRS: latitude first.
        const g = await wfs(s.url, { ...GF, TYPENAMES: POINTS, COUNT: "1", SORTBY: "id" });
        assert.match(g.contentType, /^application\/gml\+xml; version=3\.2/);
        xml(g.text, (q) => {
          const [lat, lon] = q("//gml:Point/gml:pos").split(" ").map(Number);
          assert.deepEqual([lon, lat], want.features[0].geometry.coordinates);
          assert.equal(q("//gml:Point/@srsName"), "urn:ogc:def:crs:EPSG::4326");
        });
      });

      await t.step("FES 2.0 filters agree with the REST where clause", async () => {
        const cases: [string, string][] = [
          [
            `<fes:PropertyIsGreaterThan><fes:ValueReference>agency_id</fes:ValueReference><fes:Literal>20</fes:Literal></fes:PropertyIsGreaterThan>`,
            "agency_id > 20",
          ],
          [
            `<fes:And><fes:PropertyIsLike wildCard="*" singleChar="." escapeChar="!"><fes:ValueReference>Recruitment:agency</fes:ValueReference><fes:Literal>*налог*</fes:Literal></fes:PropertyIsLike><fes:Not><fes:PropertyIsEqualTo><fes:ValueReference>group</fes:ValueReference><fes:Literal>ведущая</fes:Literal></fes:PropertyIsEqualTo></fes:Not></fes:And>`,
            "agency LIKE '%налог%' AND NOT (\"group\" = 'ведущая')",
          ],
          [
            `<fes:Or><fes:PropertyIsBetween><fes:ValueReference>agency_id</fes:ValueReference><fes:LowerBoundary><fes:Literal>3</fes:Literal></fes:LowerBoundary><fes:UpperBoundary><fes:Literal>7</fes:Literal></fes:UpperBoundary></fes:PropertyIsBetween><fes:PropertyIsNull><fes:ValueReference>address</fes:ValueReference></fes:PropertyIsNull></fes:Or>`,
            "agency_id BETWEEN 3 AND 7 OR address IS NULL",
          ],
          [
            `<fes:PropertyIsLessThan><fes:ValueReference>published</fes:ValueReference><fes:Literal>2024-01-01T00:00:00Z</fes:Literal></fes:PropertyIsLessThan>`,
            "published < DATE '2024-01-01'",
          ],
        ];
        for (const [filter, where] of cases) {
          const want = await restGeoJson(s, 0, { where, orderByFields: "id" });
          const got = await wfsJson(s.url, {
            TYPENAMES: POINTS,
            FILTER: fesFilter(filter),
            SORTBY: "id ASC",
          });
          assert.ok(want.features.length > 0, where);
          assert.equal(got.numberMatched, want.features.length, where);
          assert.deepEqual(props(got), want.features.map((f: Json) => f.properties), where);
        }
      });

      await t.step(
        "Intersects with a GML polygon agrees with REST (ids and polygon geometries)",
        async () => {
          const ring = "50 30 60 30 60 40 50 40 50 30"; // lat lon
          const want = await restGeoJson(s, 1, {
            geometry: JSON.stringify({
              rings: [[[30, 50], [40, 50], [40, 60], [30, 60], [30, 50]]],
            }),
            geometryType: "esriGeometryPolygon",
            orderByFields: "id",
            returnGeometry: "false",
          });
          assert.ok(want.features.length >= 2);
          const ids = (fc: Json) => fc.features.map((f: Json) => f.properties.id);
          const got = await wfsJson(s.url, {
            TYPENAMES: POLYGONS,
            SORTBY: "id",
            PROPERTYNAME: "id,name",
            FILTER: fesFilter(
              `<fes:Intersects><fes:ValueReference>Shape</fes:ValueReference><gml:Polygon gml:id="p" srsName="urn:ogc:def:crs:EPSG::4326"><gml:exterior><gml:LinearRing><gml:posList>${ring}</gml:posList></gml:LinearRing></gml:exterior></gml:Polygon></fes:Intersects>`,
            ),
          });
          assert.deepEqual(ids(got), ids(want));
          // PROPERTYNAME: only the id and name, no geometry.
          assert.deepEqual(Object.keys(got.features[0].properties), ["id", "name"]);
          assert.equal(got.features[0].geometry, null);
          const first = want.features[0].id;
          const shape = await wfsJson(s.url, { RESOURCEID: `Страны.${first}` });
          const wantShape = await restGeoJson(s, 1, { objectIds: String(first) });
          assert.deepEqual(shape.features[0].geometry, wantShape.features[0].geometry);
        },
      );

      await t.step("XML POST GetFeature with a filter, sorting and count", async () => {
        const body =
          `<wfs:GetFeature xmlns:wfs="http://www.opengis.net/wfs/2.0" xmlns:fes="http://www.opengis.net/fes/2.0" xmlns:gml="http://www.opengis.net/gml/3.2" service="WFS" version="2.0.0" count="3" outputFormat="application/json">
  <wfs:Query typeNames="${POINTS}">
    <fes:Filter><fes:PropertyIsGreaterThanOrEqualTo><fes:ValueReference>agency_id</fes:ValueReference><fes:Literal>10</fes:Literal></fes:PropertyIsGreaterThanOrEqualTo></fes:Filter>
    <fes:SortBy><fes:SortProperty><fes:ValueReference>agency_id</fes:ValueReference><fes:SortOrder>DESC</fes:SortOrder></fes:SortProperty></fes:SortBy>
  </wfs:Query>
</wfs:GetFeature>`;
        const a = await post(s.url, body);
        assert.equal(a.status, 200, a.text);
        const got = JSON.parse(a.text);
        const want = await restGeoJson(s, 0, {
          where: "agency_id >= 10",
          orderByFields: "agency_id DESC",
          resultRecordCount: "3",
        });
        assert.equal(got.numberReturned, 3);
        assert.deepEqual(
          got.features.map((f: Json) => f.properties.agency_id),
          want.features.map((f: Json) => f.properties.agency_id),
        );
        const hits = await post(
          s.url,
          body.replace('count="3"', 'resultType="hits"').replace(/ outputFormat="[^"]*"/, ""),
        );
        xml(hits.text, (q) => {
          assert.equal(q("/wfs:FeatureCollection/@numberReturned"), "0");
          assert.ok(Number(q("/wfs:FeatureCollection/@numberMatched")) > 3);
        });
      });

      await t.step("paging: COUNT/STARTINDEX pages equal REST's, next links on", async () => {
        const want = await restGeoJson(s, 1, { orderByFields: "id", returnGeometry: "false" });
        const seen: number[] = [];
        let url: string | undefined = `${wfsUrl(s.url)}?${new URLSearchParams({
          ...GF,
          TYPENAMES: POLYGONS,
          COUNT: "100",
        })}`;
        let pages = 0;
        while (url) {
          const text: string = await (await fetch(url)).text();
          url = xml(text, (q, n) => {
            assert.equal(Number(q("/wfs:FeatureCollection/@numberMatched")), want.features.length);
            const returned = Number(q("/wfs:FeatureCollection/@numberReturned"));
            assert.equal(n("//wfs:member"), returned);
            for (let i = 1; i <= returned; i++) {
              seen.push(Number(q(`(//wfs:member)[${i}]/*/*[local-name()='id']`)));
            }
            return q("/wfs:FeatureCollection/@next") || undefined;
          });
          pages++;
        }
        assert.equal(pages, Math.ceil(want.features.length / 100));
        assert.deepEqual(seen, want.features.map((f: Json) => f.properties.id));
      });

      await t.step("hits, RESOURCEID, SRSNAME, GML 3.1.1, GetFeatureById", async () => {
        const hits = await wfs(s.url, { ...GF, TYPENAMES: POINTS, RESULTTYPE: "hits" });
        const total = (await restGeoJson(s, 0, { returnGeometry: "false" })).features.length;
        xml(hits.text, (q, n) => {
          assert.equal(Number(q("/wfs:FeatureCollection/@numberMatched")), total);
          assert.equal(q("/wfs:FeatureCollection/@numberReturned"), "0");
          assert.equal(n("//wfs:member"), 0);
        });
        const [a, b] = (await restGeoJson(s, 0, { orderByFields: "id", resultRecordCount: "2" }))
          .features.map((f: Json) => f.id);
        const byId = await wfsJson(s.url, { RESOURCEID: `Конкурсы.${b},Конкурсы.${a},Страны.3` });
        assert.deepEqual(byId.features.map((f: Json) => f.id), [
          `Конкурсы.${a}`,
          `Конкурсы.${b}`,
          "Страны.3",
        ]);
        const merc = await wfsJson(s.url, {
          RESOURCEID: `Конкурсы.${a}`,
          SRSNAME: "urn:ogc:def:crs:EPSG::3857",
        });
        const wantMerc = await restGeoJson(s, 0, {
          objectIds: String(a),
          outSR: "3857",
          f: "json",
        });
        const [x, y] = merc.features[0].geometry.coordinates;
        assert.ok(Math.abs(x - wantMerc.features[0].geometry.x) < 1e-6);
        assert.ok(Math.abs(y - wantMerc.features[0].geometry.y) < 1e-6);
        const g11 = await wfs(s.url, {
          SERVICE: "WFS",
          VERSION: "1.1.0",
          REQUEST: "GetFeature",
          TYPENAME: POINTS,
          MAXFEATURES: "2",
        });
        xml(g11.text, (q, n) => {
          assert.equal(q("/wfs11:FeatureCollection/@numberOfFeatures"), "2");
          assert.equal(n("//gml31:featureMember"), 2);
          assert.equal(n("//gml31:Point/gml31:pos"), 2);
        });
        const one = await wfs(s.url, {
          ...GF,
          STOREDQUERY_ID: "urn:ogc:def:query:OGC-WFS::GetFeatureById",
          ID: "Страны.3",
        });
        assert.equal(one.status, 200);
        xml(one.text, (q) => assert.equal(q("/*/@gml:id"), "Страны.3"));
        const none = await wfs(s.url, {
          ...GF,
          STOREDQUERY_ID: "urn:ogc:def:query:OGC-WFS::GetFeatureById",
          ID: "Страны.999999",
        });
        assert.equal(none.status, 404);
      });

      await t.step(
        "GetPropertyValue: one property's values, as REST query gives them",
        async () => {
          const want = await restGeoJson(s, 1, {
            orderByFields: "id",
            resultRecordCount: "5",
            returnGeometry: "false",
          });
          const a = await wfs(s.url, {
            ...GF,
            REQUEST: "GetPropertyValue",
            TYPENAMES: POLYGONS,
            VALUEREFERENCE: "name",
            SORTBY: "id",
            COUNT: "5",
          });
          assert.equal(a.status, 200, a.text);
          xml(a.text, (q, n) => {
            assert.equal(n("/wfs:ValueCollection/wfs:member"), 5);
            assert.equal(Number(q("/wfs:ValueCollection/@numberMatched")), 241);
            assert.match(q("/wfs:ValueCollection/@next"), /STARTINDEX=5/);
            for (let i = 0; i < 5; i++) {
              assert.equal(
                q(`/wfs:ValueCollection/wfs:member[${i + 1}]`),
                want.features[i].properties.name,
              );
            }
          });
          const shape = await wfs(s.url, {
            ...GF,
            REQUEST: "GetPropertyValue",
            TYPENAMES: POINTS,
            VALUEREFERENCE: "Shape",
            COUNT: "1",
          });
          xml(shape.text, (_q, n) => assert.equal(n("//wfs:member/gml:Point"), 1));
          assertException(
            await wfs(s.url, { ...GF, REQUEST: "GetPropertyValue", TYPENAMES: POINTS }),
            "MissingParameterValue",
            "VALUEREFERENCE",
          );
        },
      );

      await t.step("exceptions: codes, locators, escaping, never a 500", async () => {
        assertException(await wfs(s.url, { SERVICE: "WFS" }), "MissingParameterValue", "REQUEST");
        assertException(
          await wfs(s.url, { SERVICE: "WFS", REQUEST: "Transaction" }),
          "OperationNotSupported",
          "REQUEST",
        );
        const msg = assertException(
          await wfs(s.url, { ...GF, TYPENAMES: "<b>&nope" }),
          "InvalidParameterValue",
          "TYPENAMES",
        );
        assert.match(msg, /<b>&nope/); // parsed back: it was escaped in the document
        assertException(await wfs(s.url, { ...GF }), "MissingParameterValue", "TYPENAMES");
        assertException(
          await wfs(s.url, { ...GF, TYPENAMES: POINTS, VERSION: "3.0.0" }),
          "InvalidParameterValue",
          "VERSION",
        );
        assertException(
          await wfs(s.url, { ...GF, TYPENAMES: POINTS, BBOX: "1,2,3" }),
          "InvalidParameterValue",
          "BBOX",
        );
        assertException(
          await wfs(s.url, { ...GF, TYPENAMES: POINTS, FILTER: "<fes:Filter" }),
          "OperationParsingFailed",
          "FILTER",
        );
        assertException(
          await wfs(s.url, {
            ...GF,
            TYPENAMES: POINTS,
            FILTER: fesFilter(
              `<fes:PropertyIsEqualTo><fes:ValueReference>nofield</fes:ValueReference><fes:Literal>1</fes:Literal></fes:PropertyIsEqualTo>`,
            ),
          }),
          "InvalidParameterValue",
          "FILTER",
        );
        assertException(
          await wfs(s.url, {
            ...GF,
            TYPENAMES: POINTS,
            FILTER: fesFilter(
              `<fes:Overlaps><fes:ValueReference>Shape</fes:ValueReference><gml:Point gml:id="x"><gml:pos>1 2</gml:pos></gml:Point></fes:Overlaps>`,
            ),
          }),
          "OptionNotSupported",
          "FILTER",
        );
        assertException(
          await wfs(s.url, {
            ...GF,
            TYPENAMES: POINTS,
            FILTER: fesFilter(
              `<fes:PropertyIsEqualTo><fes:ValueReference>agency_id</fes:ValueReference><fes:Literal>many</fes:Literal></fes:PropertyIsEqualTo>`,
            ),
          }),
          "InvalidParameterValue",
          "FILTER",
        );
        assertException(
          await wfs(s.url, { ...GF, TYPENAMES: POINTS, OUTPUTFORMAT: "image/png" }),
          "InvalidParameterValue",
          "OUTPUTFORMAT",
        );
        assertException(
          await wfs(s.url, { ...GF, TYPENAMES: POINTS, SRSNAME: "EPSG:999999" }),
          "InvalidParameterValue",
          "SRSNAME",
        );
        assertException(
          await wfs(s.url, { ...GF, TYPENAMES: POINTS, COUNT: "-1" }),
          "InvalidParameterValue",
          "COUNT",
        );
        assertException(
          await wfs(s.url, {
            SERVICE: "WFS",
            VERSION: "1.1.0",
            REQUEST: "GetFeature",
            TYPENAME: POINTS,
            SORTBY: "Shape",
          }),
          "InvalidParameterValue",
          "SORTBY",
          "1.1.0",
        );
        assertException(await post(s.url, "<wfs:GetFeature"), "OperationParsingFailed");
        assertException(
          await post(s.url, `<!DOCTYPE x [<!ENTITY e "boom">]><GetCapabilities/>`),
          "OperationParsingFailed",
        );
        const missing = await fetch(
          `${s.url}/arcgis/services/Nope/MapServer/WFSServer?REQUEST=GetCapabilities`,
        );
        assert.equal(missing.status, 404);
        assert.match(await missing.text(), /ExceptionReport/);
      });
    } finally {
      await s.close();
    }
  },
});
