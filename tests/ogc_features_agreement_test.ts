/**
 * The same question through OGC API – Features and through ArcGIS REST
 * `query` gets the same answer: counts, ids, attribute values and
 * geometries, for the same box, filter, dates and page, on points,
 * polygons with holes and lines stored in Web Mercator.
 */
import assert from "node:assert/strict";
import { ogcGet, type OgcServer, withOgcServer } from "./_ogc_features_helpers.ts";

// deno-lint-ignore no-explicit-any
type Json = any;
type Ring = number[][];

/** A question in both forms: OGC items parameters and REST query parameters. */
interface Question {
  what: string;
  service?: string;
  layer: number;
  ogc: Record<string, string>;
  rest: Record<string, string>;
}

const EPSG3857 = "http://www.opengis.net/def/crs/EPSG/0/3857";

const QUESTIONS: Question[] = [
  ...[0, 4, 8].map((offset) => ({
    what: `Cities, page at ${offset}`,
    layer: 0,
    ogc: { limit: "4", offset: String(offset) },
    rest: { resultRecordCount: "4", resultOffset: String(offset) },
  })),
  {
    what: "Cities in a box",
    layer: 0,
    ogc: { bbox: "30,50,60,60" },
    rest: { geometry: "30,50,60,60" },
  },
  {
    what: "Regions touched by a box",
    layer: 1,
    ogc: { bbox: "44,46,46,47" },
    rest: { geometry: "44,46,46,47" },
  },
  { what: "Regions with holes", layer: 1, ogc: {}, rest: {} },
  { what: "Roads stored in Web Mercator, in CRS84", layer: 2, ogc: {}, rest: {} },
  {
    what: "Roads in Web Mercator",
    layer: 2,
    ogc: { crs: EPSG3857 },
    rest: { outSR: "3857" },
  },
  {
    what: "BigCities (definition expression) with a CQL2 filter and a box",
    layer: 3,
    ogc: { filter: "NAME LIKE '%o%' OR AREA IS NULL", bbox: "20,40,90,70" },
    rest: { where: "NAME LIKE '%o%' OR AREA IS NULL", geometry: "20,40,90,70" },
  },
  {
    what: "Cities by datetime interval",
    layer: 0,
    ogc: { datetime: "1700-01-01/1800-01-01" },
    rest: { where: "FOUNDED >= date '1700-01-01' AND FOUNDED < date '1800-01-02'" },
  },
  {
    what: "Cities by property filter and CQL2 IN/BETWEEN",
    layer: 0,
    ogc: { filter: "POP BETWEEN 1000000 AND 2000000 AND NAME NOT IN ('Omsk')", URL: "" },
    rest: { where: "POP BETWEEN 1000000 AND 2000000 AND NAME NOT IN ('Omsk') AND URL = ''" },
  },
  ...[0, 3, 6, 9].map((offset) => ({
    what: `Capped (maxRecordCount 3), page at ${offset}`,
    service: "Capped",
    layer: 0,
    ogc: { limit: "50", offset: String(offset) },
    rest: { resultRecordCount: "50", resultOffset: String(offset) },
  })),
];

/** A geometry as sorted rings of sorted vertices (orientation and ring order aside). */
function canonical(rings: Ring[]): string[] {
  return rings.map((r) =>
    JSON.stringify(r.map((p) => p.map((v) => Math.round(v * 1e6) / 1e6)).map(String).sort())
  ).sort();
}

function esriRings(g: Json): Ring[] {
  if (g === undefined || g === null) return [];
  if ("x" in g) return [[[g.x, g.y]]];
  if ("paths" in g) return g.paths;
  if ("rings" in g) return g.rings;
  if ("points" in g) return [g.points];
  throw new Error(`unexpected geometry ${JSON.stringify(g)}`);
}

function geoJsonRings(g: Json): Ring[] {
  if (g === null) return [];
  switch (g.type) {
    case "Point":
      return [[g.coordinates]];
    case "MultiPoint":
    case "LineString":
      return [g.coordinates];
    case "MultiLineString":
    case "Polygon":
      return g.coordinates;
    case "MultiPolygon":
      return g.coordinates.flat();
  }
  throw new Error(`unexpected geometry ${JSON.stringify(g)}`);
}

async function ask(s: OgcServer, q: Question): Promise<void> {
  const service = q.service ?? "Fixture";
  const ogc = await ogcGet(
    `${s.url}/arcgis/rest/services/${service}/OGCFeatureServer/collections/${q.layer}/items`,
    q.ogc,
  );
  assert.equal(ogc.status, 200, `${q.what}: ${ogc.text}`);
  const restUrl = `${s.url}/arcgis/rest/services/${service}/MapServer/${q.layer}/query`;
  const rest: Record<string, string> = {
    outFields: "*",
    outSR: "4326",
    f: "json",
    inSR: "4326",
    ...q.rest,
  };
  if (rest.geometry) rest.geometryType = "esriGeometryEnvelope";
  const features = await ogcGet(restUrl, rest);
  const count = await ogcGet(restUrl, { ...rest, returnCountOnly: "true" });
  assert.equal(features.body.error, undefined, `${q.what}: ${features.text}`);

  assert.equal(ogc.body.numberMatched, count.body.count, `${q.what}: numberMatched`);
  assert.equal(ogc.body.numberReturned, features.body.features.length, `${q.what}: numberReturned`);
  const oid = features.body.objectIdFieldName;
  const dates = new Set(
    features.body.fields.filter((f: Json) => f.type === "esriFieldTypeDate").map((f: Json) =>
      f.name
    ),
  );
  assert.deepEqual(
    ogc.body.features.map((f: Json) => f.id),
    features.body.features.map((f: Json) => f.attributes[oid]),
    `${q.what}: ids`,
  );
  ogc.body.features.forEach((f: Json, i: number) => {
    const r = features.body.features[i];
    const expected = Object.fromEntries(
      Object.entries(r.attributes).map((
        [k, v],
      ) => [k, dates.has(k) && v !== null ? new Date(v as number).toISOString() : v]),
    );
    assert.deepEqual(f.properties, expected, `${q.what}: attributes of ${f.id}`);
    assert.deepEqual(
      canonical(geoJsonRings(f.geometry)),
      canonical(esriRings(r.geometry)),
      `${q.what}: geometry of ${f.id}`,
    );
  });
  // The REST answer says more match exactly when OGC gives a next link.
  const next = ogc.body.links.some((l: Json) => l.rel === "next");
  assert.equal(next, features.body.exceededTransferLimit === true, `${q.what}: more pages`);
}

Deno.test({
  name: "OGC API Features and REST query agree: counts, ids, attributes, geometries, pages",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: () =>
    withOgcServer(async (s) => {
      for (const q of QUESTIONS) await ask(s, q);
    }),
});
