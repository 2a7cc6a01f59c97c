/**
 * The PostgreSQL dialect: which clauses are compiled (and that nothing of
 * the request text but parameter numbers reaches the SQL), which are left
 * to the evaluator. That both give the same answers as SQLite is checked
 * against a real PostGIS in tests/postgis_test.ts.
 */
import assert from "node:assert/strict";
import type { FieldInfo } from "../types.ts";
import { parseWhere, type PgColumnMap, toPgSql } from "./mod.ts";

const FIELDS: FieldInfo[] = [
  { name: "fid", type: "OID", alias: "fid", length: 4, nullable: false },
  { name: "name", type: "String", alias: "name", length: 0, nullable: true },
  { name: "kind", type: "Integer", alias: "kind", length: 0, nullable: true },
  { name: "ratio", type: "Double", alias: "ratio", length: 0, nullable: true },
  { name: "opened", type: "Date", alias: "opened", length: 0, nullable: true },
];
const COLUMNS: PgColumnMap = {
  fid: { column: "fid", kind: "number" },
  name: { column: "name", kind: "text" },
  kind: { column: "kind", kind: "number" },
  ratio: { column: "ratio", kind: "number" },
  opened: { column: "opened", kind: "date" },
};

const compile = (where: string) => toPgSql(parseWhere(where, FIELDS)!, COLUMNS, "t", 3);

Deno.test("PostgreSQL dialect: plain predicates and exact functions are compiled with parameters", () => {
  assert.deepEqual(compile("kind = 3 AND name = 'x''; DROP TABLE t; --'"), {
    sql: `(("t"."kind" = $3::bigint) AND (("t"."name" COLLATE "C") = ($4::text COLLATE "C")))`,
    params: [3, "x'; DROP TABLE t; --"],
  });
  for (
    const where of [
      "ratio > 0.5",
      "kind IN (1, 2) OR kind IS NULL",
      "NOT ratio BETWEEN -1 AND 1",
      "kind * 2 - 1 > -ratio",
      "opened > DATE '2020-01-01'",
      "ABS(kind) = 7 AND CEILING(ratio) = 1 AND FLOOR(ratio) = 0",
      "CHAR_LENGTH(name) > 3",
      "EXTRACT(YEAR FROM opened) = 2020 AND EXTRACT(MINUTE FROM opened) = 0",
      "name > 'М' AND fid < 10",
    ]
  ) {
    const c = compile(where);
    assert.ok(c, `${where} is compiled`);
    assert.doesNotMatch(c.sql, /М|2020|0\.5/, `${where}: values are parameters`);
    assert.equal((c.sql.match(/\$\d+/g) ?? []).length, c.params.length, where);
  }
});

Deno.test("PostgreSQL dialect: what PostgreSQL would answer differently is left to the evaluator", () => {
  for (
    const where of [
      "UPPER(name) = 'A'",
      "LOWER(name) = 'a'",
      "name LIKE 'a%'",
      "ratio / 2 > 1",
      "ROUND(ratio, 1) = 0.3",
      "MOD(kind, 2) = 1",
      "EXTRACT(SECOND FROM opened) = 0",
      "CAST(kind AS VARCHAR(5)) = '1'",
      "CONCAT(name, 'x') = 'ax'",
    ]
  ) {
    assert.equal(compile(where), null, where);
  }
});
