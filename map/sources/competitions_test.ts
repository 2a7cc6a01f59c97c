import assert from "node:assert/strict";
import { join } from "node:path";
import { createDemoDatabase, openCatalog } from "../../data/mod.ts";
import { openCompetitions } from "./competitions.ts";
import { parseWhere } from "../query/mod.ts";

const dir = await Deno.makeTempDir({ prefix: "competitions_test_" });
const path = join(dir, "catalog.db");
createDemoDatabase(path, { agencies: 10, vacancies: 20, competitions: 300, seed: 7 });
const catalog = openCatalog(path, { readonly: true });
globalThis.addEventListener("unload", () => {
  catalog.close();
  Deno.removeSync(dir, { recursive: true });
});

function sqlIds(where: string, ...params: (string | number)[]): number[] {
  return catalog.db.prepare(
    `SELECT id FROM competition WHERE published = 1 AND lat IS NOT NULL AND lon IS NOT NULL AND ${where} ORDER BY id`,
  ).all(...params).map((r) => Number(r.id));
}

Deno.test("the layer holds exactly the published competitions with coordinates", () => {
  const layer = openCompetitions(catalog);
  const expected = sqlIds("1 = 1");
  assert.ok(expected.length > 50, `demo data has ${expected.length} located competitions`);
  assert.equal(layer.count({}), expected.length);
  assert.deepEqual(layer.query({ returnGeometry: false, fields: [] }).map((f) => f.id), expected);
  const hidden = catalog.db.prepare(
    "SELECT id FROM competition WHERE published = 0 OR lat IS NULL LIMIT 1",
  ).get() as { id: number } | undefined;
  if (hidden) assert.equal(layer.get(hidden.id), null);
  assert.equal(layer.revision(), String(catalog.revision()));
  // Tile invalidation recognises the layer by its catalogue collection.
  assert.equal((layer as { collection?: string }).collection, "competition");
});

Deno.test("fields carry Russian aliases and read the right columns", () => {
  const layer = openCompetitions(catalog);
  const fields = layer.fields();
  assert.deepEqual(fields.map((f) => f.name), [
    "id",
    "Shape",
    "title",
    "agency_id",
    "agency",
    "type",
    "group",
    "published",
    "deadline",
    "address",
    "site_link",
  ]);
  assert.equal(fields[0].alias, "Идентификатор");
  assert.equal(fields.find((f) => f.name === "deadline")!.alias, "Окончание приёма документов");
  const first = layer.query({ limit: 1 })[0];
  const row = catalog.db.prepare("SELECT * FROM competition WHERE id = ?").get(first.id) as Record<
    string,
    string | number
  >;
  assert.equal(first.attributes.title, row.title);
  assert.equal(first.attributes.agency, row.agency_title);
  assert.equal(first.attributes.type, row.competition_type);
  assert.equal(first.attributes.deadline, Date.parse(`${row.reception_finished}T00:00:00Z`));
  assert.deepEqual(first.geometry, { type: "Point", x: row.lon, y: row.lat });
});

Deno.test("bbox queries use the rtree and match the coordinates", () => {
  const layer = openCompetitions(catalog);
  const e = layer.extent()!;
  const box = {
    xmin: e.xmin,
    ymin: e.ymin,
    xmax: (e.xmin + e.xmax) / 2,
    ymax: (e.ymin + e.ymax) / 2,
  };
  const expected = sqlIds(
    "lon BETWEEN ? AND ? AND lat BETWEEN ? AND ?",
    box.xmin,
    box.xmax,
    box.ymin,
    box.ymax,
  );
  assert.deepEqual(layer.query({ bbox: box, fields: [] }).map((f) => f.id), expected);
  assert.equal(layer.count({ bbox: box }), expected.length);
  assert.equal(layer.count({ bbox: { xmin: -170, ymin: -80, xmax: -160, ymax: -70 } }), 0);
});

Deno.test("where clauses run on the table with the layer's field names", () => {
  const layer = openCompetitions(catalog);
  const fields = layer.fields();
  const type = String(layer.query({ limit: 1 })[0].attributes.type);
  assert.deepEqual(
    layer.query({ where: parseWhere(`type = '${type.replaceAll("'", "''")}'`, fields), fields: [] })
      .map((f) => f.id),
    sqlIds("competition_type = ?", type),
  );
  const cut = "2026-01-01";
  assert.equal(
    layer.count({ where: parseWhere(`deadline >= date '${cut}'`, fields) }),
    sqlIds("reception_finished >= ?", cut).length,
  );
  assert.equal(layer.count({ where: parseWhere('"group" IS NULL', fields) }), 0);
});
