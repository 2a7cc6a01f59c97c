/**
 * ArcGIS 10.3's standardized SQL functions (issue 9) through the SOAP
 * query operations: the same where clause counts and selects the same
 * features on a GeoPackage layer (SQLite, dates stored as ISO text) and on
 * a GeoJSON layer (in-memory evaluator, dates as ISO strings), with
 * characters counted as code points and years taken in UTC; a function
 * given the wrong type of argument is a Client fault naming it; and
 * GetSQLSyntaxInfo lists the functions.
 */
import assert from "node:assert/strict";
import { loadServices } from "../map/document/mod.ts";
import { writeGeoPackageLayer } from "../map/sources/geopackage_writer.ts";
import {
  type Any,
  call,
  expectClientFault,
  items,
  type QueryServer,
  startQueryServer,
} from "./_soap_query_fixtures.ts";

/** [id, NAME, CREATED (ISO, UTC), POP]: names whose UTF-16 length, bytes and characters differ. */
const ROWS: [number, string, string, number | null][] = [
  [1, "Тверь", "2021-06-01T10:00:00.000Z", 416219], // 5 characters, 10 UTF-8 bytes
  [2, "Москва", "2021-01-01T00:00:00.000Z", 13010112], // first instant of 2021
  [3, "Kaliningrad", "2020-12-31T23:59:59.999Z", 490000], // last instant of 2020
  [4, "😀😀😀", "2021-03-04T05:06:07.000Z", null], // 3 characters, 6 UTF-16 units
  [5, "Novosibirsk", "2021-12-31T23:59:59.000Z", 1633595],
  [6, "Omsk", "2021-07-07T07:07:07.000Z", 1125695],
  [7, "Yekaterinburg", "1723-11-18T00:00:00.000Z", 1544376],
];

async function writeFixture(dir: string): Promise<void> {
  await Deno.mkdir(`${dir}/maps`);
  const features = ROWS.map(([id, name, created, pop], i) => ({
    id,
    attributes: { NAME: name, CREATED: Date.parse(created), POP: pop },
    geometry: { type: "Point" as const, x: i, y: i },
  }));
  writeGeoPackageLayer(`${dir}/maps/places.gpkg`, {
    table: "Places",
    geometryType: "Point",
    wkid: 4326,
    pk: "OBJECTID",
    fields: [
      { name: "NAME", type: "String" },
      { name: "CREATED", type: "Date" },
      { name: "POP", type: "Integer" },
    ],
  }, features);
  await Deno.writeTextFile(
    `${dir}/maps/places.geojson`,
    JSON.stringify({
      type: "FeatureCollection",
      features: ROWS.map(([id, name, created, pop], i) => ({
        type: "Feature",
        id,
        properties: { NAME: name, CREATED: created, POP: pop },
        geometry: { type: "Point", coordinates: [i, i] },
      })),
    }),
  );
  const layer = (name: string, source: unknown) => ({ name, description: name, source });
  await Deno.writeTextFile(
    `${dir}/maps/Functions.json`,
    JSON.stringify({
      name: "Functions",
      description: "Standardized SQL functions",
      maps: [{
        name: "Layers",
        description: "The same places twice",
        wkid: 4326,
        fullExtent: { xmin: -1, ymin: -1, xmax: 10, ymax: 10 },
        layers: [
          layer("Sql", { type: "geopackage", path: "places.gpkg", table: "Places" }),
          layer("Memory", { type: "geojson", path: "places.geojson" }),
        ],
      }],
    }),
  );
}

async function withServer(fn: (s: QueryServer) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "soap-functions-" });
  await writeFixture(dir);
  const services = await loadServices({ mapsDir: `${dir}/maps` });
  const server = await startQueryServer(services);
  try {
    await fn(server);
  } finally {
    await server.close();
    for (const s of services) s.close?.();
    await Deno.remove(dir, { recursive: true });
  }
}

/** The ids a clause should select, worked out here from the rows themselves. */
function expectedIds(test: (name: string, created: Date, pop: number | null) => boolean): number[] {
  return ROWS.filter(([, name, created, pop]) => test(name, new Date(created), pop)).map((r) =>
    r[0]
  );
}

Deno.test({
  name: "standardized functions select the same features on GeoPackage and GeoJSON layers",
  sanitizeResources: false,
  async fn() {
    await withServer(async (s) => {
      const c = await s.client("Functions");
      const count = async (layer: number, where: string) =>
        Number(
          (await call(c, "QueryFeatureCount", {
            MapName: "Layers",
            LayerID: layer,
            QueryFilter: { WhereClause: where },
          })).Result,
        );
      const ids = async (layer: number, where: string) =>
        items(
          (await call(c, "QueryFeatureIDs", {
            MapName: "Layers",
            LayerID: layer,
            QueryFilter: { WhereClause: where },
          })).Result?.FIDArray?.Int,
        ).map(Number).sort((a, b) => a - b);

      const issue = "CHAR_LENGTH(NAME) > 5 AND EXTRACT(YEAR FROM CREATED) = 2021";
      const want = expectedIds((name, created) =>
        [...name].length > 5 && created.getUTCFullYear() === 2021
      );
      assert.deepEqual(want, [2, 5], "the fixture itself: Москва and Novosibirsk");
      assert.equal(await count(0, issue), want.length, "GeoPackage");
      assert.equal(await count(1, issue), want.length, "GeoJSON");

      const clauses: [string, number[]][] = [
        [issue, want],
        [
          "CHAR_LENGTH(NAME) <= 5",
          expectedIds((name) => [...name].length <= 5),
        ],
        [
          "EXTRACT(MONTH FROM CREATED) = 12 OR EXTRACT(SECOND FROM CREATED) > 59",
          expectedIds((_, d) =>
            d.getUTCMonth() === 11 || d.getUTCSeconds() + d.getUTCMilliseconds() / 1000 > 59
          ),
        ],
        [
          "ROUND(POP / 1000000, 0) = 1 AND MOD(POP, 2) = 1",
          expectedIds((_, __, pop) => pop !== null && Math.round(pop / 1e6) === 1 && pop % 2 === 1),
        ],
        [
          "POSITION('в' IN LOWER(NAME)) > 0 OR SUBSTRING(NAME FROM 1 FOR 1) = '😀'",
          expectedIds((name) => name.toLowerCase().includes("в") || name.startsWith("😀")),
        ],
        [
          "TRIM(TRAILING 'k' FROM NAME) <> NAME AND CAST(POP AS VARCHAR(2)) = '16'",
          expectedIds((name, _, pop) => name.endsWith("k") && String(pop).startsWith("16")),
        ],
      ];
      for (const [where, expected] of clauses) {
        assert.ok(expected.length > 0 && expected.length < ROWS.length, `${where} must split`);
        assert.deepEqual(await ids(0, where), expected, `GeoPackage: ${where}`);
        assert.deepEqual(await ids(1, where), expected, `GeoJSON: ${where}`);
      }
    });
  },
});

Deno.test({
  name: "a function given the wrong type of argument is a Client fault naming it",
  sanitizeResources: false,
  async fn() {
    await withServer(async (s) => {
      for (const layer of [0, 1]) {
        const message = await expectClientFault(
          s.serviceUrl("Functions"),
          "QueryFeatureCount",
          `<MapName>Layers</MapName><LayerID>${layer}</LayerID>` +
            "<QueryFilter><WhereClause>ABS(NAME) &gt; 1</WhereClause></QueryFilter>",
        );
        assert.match(message, /ABS\(\) expects a number .* field "NAME"/);
      }
    });
  },
});

Deno.test({
  name: "GetSQLSyntaxInfo lists the standardized functions under their esriSQLFunctionName keys",
  sanitizeResources: false,
  async fn() {
    await withServer(async (s) => {
      const c = await s.client("Functions");
      const info = (await call(c, "GetSQLSyntaxInfo", { MapName: "Layers", LayerID: 0 })).Result;
      const names = Object.fromEntries(
        items(info.FunctionNames.PropertyArray.PropertySetProperty).map((p: Any) => [
          p.Key,
          p.Value?.$value ?? p.Value,
        ]),
      );
      const expected: Record<string, string> = {
        esriSQL_EXTRACT: "EXTRACT",
        esriSQL_ABS: "ABS",
        esriSQL_CEILING: "CEILING",
        esriSQL_FLOOR: "FLOOR",
        esriSQL_MOD: "MOD",
        esriSQL_POWER: "POWER",
        esriSQL_ROUND: "ROUND",
        esriSQL_TRUNCATE: "TRUNCATE",
        esriSQL_CHARLENGTH: "CHAR_LENGTH",
        esriSQL_CONCAT: "CONCAT",
        esriSQL_POSITION: "POSITION",
        esriSQL_SUBSTRING: "SUBSTRING",
        esriSQL_TRIM: "TRIM",
        esriSQL_CAST: "CAST",
        esriSQL_UPPER: "UPPER",
        esriSQL_LOWER: "LOWER",
        esriSQL_CURRENTDATE: "CURRENT_DATE",
        esriSQL_CURRENTTIMESTAMP: "CURRENT_TIMESTAMP",
      };
      for (const [key, name] of Object.entries(expected)) {
        assert.equal(names[key], name, `${key} in ${JSON.stringify(names)}`);
      }
      const keywords: string[] = items(info.Keywords.String);
      for (const k of ["FROM", "FOR", "AS", "YEAR", "LEADING", "VARCHAR"]) {
        assert.ok(keywords.includes(k), `keyword ${k}`);
      }
    });
  },
});
