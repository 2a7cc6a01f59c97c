/**
 * Inputs that used to take the process down: huge LIKE patterns. A literal
 * one is refused by the parser; one that comes from the data must make the
 * row not match rather than throw inside SQLite's callback (node:sqlite
 * never returns from a callback that throws).
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { MAX_LIKE_PATTERN, parseWhere, registerSqlFunctions, WhereClauseError } from "./mod.ts";
import type { FieldInfo } from "../types.ts";
import { LIKE_CACHE_MAX, likePatternsKept, sqlLike } from "./_values.ts";

const fields: FieldInfo[] = [
  { name: "id", type: "OID", alias: "id", length: 0, nullable: false },
  { name: "name", type: "String", alias: "name", length: 0, nullable: true },
];

Deno.test("a LIKE pattern literal over the limit is a where-clause error", () => {
  const ok = "'" + "a".repeat(MAX_LIKE_PATTERN) + "'";
  parseWhere(`name LIKE ${ok}`, fields);
  const long = "'" + "a".repeat(MAX_LIKE_PATTERN + 1) + "'";
  assert.throws(() => parseWhere(`name LIKE ${long}`, fields), (e: unknown) => {
    assert.ok(e instanceof WhereClauseError);
    assert.match(e.message, /at most 2000/);
    return true;
  });
});

Deno.test("a pattern from the data too large to compile makes the row not match, without hanging", () => {
  const db = new DatabaseSync(":memory:");
  try {
    registerSqlFunctions(db);
    db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, p TEXT)");
    // Every character escaped: a regular expression far beyond V8's size limit.
    const huge = "(a|b)".repeat(200_000);
    assert.throws(() => sqlLike("abc", huge), "the pattern really is too large to compile");
    db.prepare("INSERT INTO t (p) VALUES (?), ('a%')").run(huge);
    const rows = db.prepare("SELECT id, arcgis_like('abc', p, '') AS m FROM t ORDER BY id").all();
    assert.deepEqual(rows.map((r) => r.m), [null, 1]);
  } finally {
    db.close();
  }
});

Deno.test("patterns from the data keep at most a bounded number compiled, the recent ones", () => {
  for (let i = 0; i < 3 * LIKE_CACHE_MAX; i++) {
    assert.equal(sqlLike(`name ${i}`, `name ${i}%`), true);
    assert.equal(sqlLike("Paris", "P%"), true, "a pattern used all along");
    assert.ok(likePatternsKept() <= LIKE_CACHE_MAX, `${likePatternsKept()} kept`);
  }
  assert.equal(likePatternsKept(), LIKE_CACHE_MAX, "full, not started over");
});
