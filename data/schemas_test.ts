import assert from "node:assert/strict";
import { z } from "zod";
import { Agency, Competition, envelope, TIMESTAMP_RE, Vacancy } from "./schemas.ts";
import { COLLECTIONS, FILTER_DOCS } from "./collections.ts";
import { sampleCompetition, sampleVacancy } from "../tests/_data_fixtures.ts";

/** Every property of a JSON Schema object tree, with its path. */
function* properties(
  schema: Record<string, unknown>,
  path = "",
): Generator<[string, Record<string, unknown>]> {
  const props = schema.properties as Record<string, Record<string, unknown>> | undefined;
  for (const [k, v] of Object.entries(props ?? {})) {
    yield [`${path}${k}`, v];
    yield* properties(v, `${path}${k}.`);
    const items = v.items as Record<string, unknown> | undefined;
    if (items) yield* properties(items, `${path}${k}[].`);
  }
}

Deno.test("schemas: JSON Schema via z.toJSONSchema, every field described", () => {
  for (const schema of [Agency, Vacancy, Competition, envelope(Vacancy, "vacancies")]) {
    const json = z.toJSONSchema(schema) as Record<string, unknown>;
    assert.equal(json.type, "object");
    let n = 0;
    for (const [path, prop] of properties(json)) {
      n++;
      assert.ok(
        typeof prop.description === "string" && prop.description !== "",
        `${path} lacks a description`,
      );
    }
    assert.ok(n > 10);
  }
  const v = z.toJSONSchema(Vacancy) as { required: string[] };
  assert.deepEqual(v.required, Object.keys(Vacancy.shape));
});

Deno.test("schemas: formats are strict where the seed is exact", () => {
  assert.match("2024-01-02T03:04:05.123456", TIMESTAMP_RE);
  assert.doesNotMatch("2024-01-02T03:04:05", TIMESTAMP_RE);
  assert.doesNotMatch("2024-01-02T03:04:05.123", TIMESTAMP_RE);
  const v = sampleVacancy(1);
  assert.ok(Vacancy.safeParse(v).success);
  for (
    const bad of [
      { salary_from: "100.5" },
      { salary_from: 100 },
      { publish_date: "2024-1-2" },
      { created_by: {} },
      { industries: [1, 2] },
      { url: "/vacancies/1/" },
    ]
  ) {
    assert.ok(!Vacancy.safeParse({ ...v, ...bad }).success, JSON.stringify(bad));
  }
  assert.ok(Vacancy.safeParse({ ...v, salary_from: null, salary_to: "1.00" }).success);
  const c = sampleCompetition(2);
  assert.ok(Competition.safeParse(c).success);
  assert.ok(!Competition.safeParse({ ...c, industries: [{ id: 1, title: "x", code: 1 }] }).success);
  assert.ok(!Competition.safeParse({ ...c, document_reception_map_latitude: "55,7" }).success);
  assert.ok(!Competition.safeParse({ ...c, replies: [] }).success);
  // Parsing returns keys in the schema's order, whatever order the input had.
  const shuffled = Object.fromEntries(Object.entries(v).reverse());
  assert.deepEqual(Object.keys(Vacancy.parse(shuffled)), Object.keys(Vacancy.shape));
});

Deno.test("collections: every filter is documented and every ordering field exists", () => {
  for (const info of Object.values(COLLECTIONS)) {
    for (const f of info.filters) assert.ok(FILTER_DOCS[f]);
    const keys = Object.keys(info.schema.shape);
    for (const o of info.ordering) assert.ok(keys.includes(o), o);
  }
});
