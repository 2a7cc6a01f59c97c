/**
 * Long where clauses, as clients paging by FID send them
 * (`OBJECTID = 1 OR OBJECTID = 3 OR …`): they work up to the stated limit
 * (MAX_WHERE_TERMS) on SQL-backed (GeoPackage) and in-memory (GeoJSON)
 * layers alike, with the same answers, and beyond it a Client fault names
 * the limit. Before, 999 terms overflowed SQLite's expression depth and a
 * few thousand the evaluator's call stack (Server faults).
 */
import assert from "node:assert/strict";
import { loadServices } from "../map/document/mod.ts";
import { writeGeoPackageLayer } from "../map/sources/geopackage_writer.ts";
import { MAX_WHERE_TERMS } from "../map/query/mod.ts";
import { faultOf, operationEnvelope, postSoap } from "./_soap_helpers.ts";
import { startQueryServer } from "./_soap_query_fixtures.ts";

const ROWS = 12_000;

async function writeFixture(dir: string): Promise<void> {
  const features = Array.from({ length: ROWS }, (_, i) => ({
    id: i + 1,
    attributes: { NAME: `f${i + 1}` },
    geometry: { type: "Point" as const, x: (i % 300) / 10, y: Math.floor(i / 300) / 10 },
  }));
  await Deno.mkdir(`${dir}/maps`);
  writeGeoPackageLayer(`${dir}/maps/points.gpkg`, {
    table: "Points",
    geometryType: "Point",
    wkid: 4326,
    pk: "OBJECTID",
    fields: [{ name: "NAME", type: "String" }],
  }, features);
  await Deno.writeTextFile(
    `${dir}/maps/points.geojson`,
    JSON.stringify({
      type: "FeatureCollection",
      features: features.map((f) => ({
        type: "Feature",
        id: f.id,
        properties: f.attributes,
        geometry: { type: "Point", coordinates: [f.geometry.x, f.geometry.y] },
      })),
    }),
  );
  const layer = (name: string, source: unknown) => ({ name, description: name, source });
  await Deno.writeTextFile(
    `${dir}/maps/Long.json`,
    JSON.stringify({
      name: "Long",
      description: "Long where clauses",
      maps: [{
        name: "Layers",
        description: "Points twice",
        wkid: 4326,
        fullExtent: { xmin: -1, ymin: -1, xmax: 31, ymax: 41 },
        layers: [
          layer("Sql", { type: "geopackage", path: "points.gpkg", table: "Points" }),
          layer("Memory", { type: "geojson", path: "points.geojson" }),
        ],
      }],
    }),
  );
}

function idsRequest(layer: number, where: string): string {
  return operationEnvelope(
    "QueryFeatureIDs",
    `<MapName>Layers</MapName><LayerID>${layer}</LayerID>` +
      `<QueryFilter><WhereClause>${
        where.replaceAll("&", "&amp;").replaceAll("<", "&lt;")
      }</WhereClause></QueryFilter>`,
  );
}

async function ids(url: string, layer: number, where: string): Promise<number[]> {
  const r = await postSoap(url, idsRequest(layer, where));
  assert.equal(r.status, 200, `layer ${layer}: ${r.text.slice(0, 600)}`);
  return [...r.text.matchAll(/<Int>(\d+)<\/Int>/g)].map((m) => Number(m[1])).sort((a, b) => a - b);
}

/** `OBJECTID = 1 OR OBJECTID = 3 OR …`, n terms. */
function fidChain(n: number): string {
  return Array.from({ length: n }, (_, i) => `OBJECTID = ${2 * i + 1}`).join(" OR ");
}

Deno.test({
  name: "FID-paging OR chains of 999, 5,000 and 20,000 terms work on SQL and memory layers alike",
  sanitizeResources: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "long-where-" });
    await writeFixture(dir);
    const services = await loadServices({ mapsDir: `${dir}/maps` });
    const server = await startQueryServer(services);
    const url = server.serviceUrl("Long");
    try {
      for (const n of [999, 5_000, 20_000]) {
        const expected = Array.from({ length: n }, (_, i) => 2 * i + 1).filter((id) => id <= ROWS);
        const where = fidChain(n);
        assert.deepEqual(await ids(url, 0, where), expected, `${n} terms, GeoPackage`);
        assert.deepEqual(await ids(url, 1, where), expected, `${n} terms, GeoJSON`);
      }
      // Chains that cannot become one IN list: mixed predicates, AND inside, NOT.
      const mixed = Array.from(
        { length: 3_000 },
        (_, i) =>
          i % 2
            ? `OBJECTID BETWEEN ${4 * i} AND ${4 * i}`
            : `(NAME = 'f${4 * i + 2}' AND NOT OBJECTID < 0)`,
      ).join(" OR ");
      const sqlIds = await ids(url, 0, mixed);
      assert.equal(sqlIds.length, 3_000);
      assert.deepEqual(await ids(url, 1, mixed), sqlIds);
      const and = Array.from({ length: 5_000 }, (_, i) => `OBJECTID <> ${i + 2}`).join(" AND ");
      assert.deepEqual(await ids(url, 0, `(${and}) AND OBJECTID < 5010`), [
        1,
        ...range(5_002, 5_009),
      ]);
      assert.deepEqual(await ids(url, 1, `(${and}) AND OBJECTID < 5010`), [
        1,
        ...range(5_002, 5_009),
      ]);
    } finally {
      await server.close();
      for (const s of services) s.close?.();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

function range(a: number, b: number): number[] {
  return Array.from({ length: b - a + 1 }, (_, i) => a + i);
}

Deno.test({
  name: "a where clause over the term limit is a Client fault that names the limit",
  sanitizeResources: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "long-where-" });
    await writeFixture(dir);
    const services = await loadServices({ mapsDir: `${dir}/maps` });
    const server = await startQueryServer(services);
    const url = server.serviceUrl("Long");
    try {
      for (const layer of [0, 1]) {
        const r = await postSoap(url, idsRequest(layer, fidChain(MAX_WHERE_TERMS + 1)));
        assert.equal(r.status, 500);
        const fault = faultOf(r.text);
        assert.equal(fault?.code, "soap:Client", r.text.slice(0, 600));
        assert.match(fault!.message, new RegExp(`more than ${MAX_WHERE_TERMS} conditions`));
      }
      // Deep NOT and arithmetic chains: a Client fault too, never a stack overflow.
      for (
        const where of [
          "NOT ".repeat(50_000) + "OBJECTID = 1",
          "OBJECTID = " + "1 + ".repeat(5_000) + "1",
        ]
      ) {
        const r = await postSoap(url, idsRequest(1, where));
        assert.equal(faultOf(r.text)?.code, "soap:Client", r.text.slice(0, 600));
        assert.match(faultOf(r.text)!.message, /levels deep/);
      }
    } finally {
      await server.close();
      for (const s of services) s.close?.();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
