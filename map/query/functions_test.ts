/**
 * The standardized functions of ArcGIS 10.3 (EXTRACT, ABS … CAST), value
 * by value: each expression is computed in memory and by SQLite (through
 * the compiled SQL, on a GeoPackage-style table whose date column is ISO
 * text), and both must give the expected value, NULLs and edge cases
 * included. Then what the parser refuses, and how it says so.
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import type { FieldInfo } from "../types.ts";
import type { ValueNode } from "./ast.ts";
import { parseWhere, registerSqlFunctions, SQL_SYNTAX, toSql, WhereClauseError } from "./mod.ts";
import { evaluateValue } from "./_evaluate.ts";

const field = (name: string, type: FieldInfo["type"]): FieldInfo => ({
  name,
  type,
  alias: name,
  length: type === "String" ? 50 : 0,
  nullable: true,
});
const FIELDS = [
  field("oid", "OID"),
  field("n", "Integer"),
  field("x", "Double"),
  field("s", "String"),
  field("d", "Date"),
];
const D = Date.UTC(2021, 2, 4, 5, 6, 7, 500); // 2021-03-04 05:06:07.500 UTC
const ROW = { oid: 1, n: -7, x: 2.75, s: " Тверь ", d: D };
const NULL_ROW = { oid: 2, n: null, x: null, s: null, d: null };

const db = new DatabaseSync(":memory:");
registerSqlFunctions(db);
db.exec("CREATE TABLE t (oid INTEGER PRIMARY KEY, n INTEGER, x REAL, s TEXT, d TEXT)");
db.prepare("INSERT INTO t VALUES (1, ?, ?, ?, ?)").run(
  ROW.n,
  ROW.x,
  ROW.s,
  new Date(D).toISOString(),
);
db.prepare("INSERT INTO t VALUES (2, NULL, NULL, NULL, NULL)").run();
const COLUMNS = { oid: "oid", n: "n", x: "x", s: "s", d: { column: "d", dateText: true } };

/** The value of `expr` for row `oid`, in memory and through SQLite; asserts they agree. */
function valueOf(expr: string, oid = 1): unknown {
  const ast = parseWhere(`${expr} IS NULL`, FIELDS)!;
  assert.equal(ast.kind, "isNull");
  const node = (ast as { value: ValueNode }).value;
  const memory = evaluateValue(node, oid === 1 ? ROW : NULL_ROW);
  const { sql, params } = toSql(ast, COLUMNS);
  const valueSql = sql.slice(1, -" IS NULL)".length);
  const row = db.prepare(`SELECT ${valueSql} AS v FROM t WHERE oid = ?`).get(...params, oid)!;
  assert.deepEqual(row.v, memory, `${expr}: SQLite gave ${row.v}, memory ${memory}`);
  return memory;
}

const VALUES: [string, unknown][] = [
  // EXTRACT, in UTC, from a date field, date literals and date text.
  ["EXTRACT(YEAR FROM d)", 2021],
  ["EXTRACT(MONTH FROM d)", 3],
  ["EXTRACT(DAY FROM d)", 4],
  ["EXTRACT(HOUR FROM d)", 5],
  ["extract(minute from d)", 6],
  ["EXTRACT(SECOND FROM d)", 7.5],
  ["EXTRACT(YEAR FROM DATE '1999-12-31')", 1999],
  ["EXTRACT(HOUR FROM TIMESTAMP '2000-01-01 23:59:59')", 23],
  ["EXTRACT(DAY FROM '2020-02-29')", 29],
  ["EXTRACT(YEAR FROM s)", null],
  ["EXTRACT(YEAR FROM CAST('2019-05-06' AS DATE))", 2019],
  // Arithmetic.
  ["ABS(n)", 7],
  ["ABS(-2.5)", 2.5],
  ["CEILING(2.1)", 3],
  ["CEILING(-2.1)", -2],
  ["FLOOR(-2.1)", -3],
  ["FLOOR(x)", 2],
  ["MOD(7, 3)", 1],
  ["MOD(n, 3)", -1],
  ["MOD(7.5, 2)", 1.5],
  ["MOD(7, 0)", null],
  ["POWER(2, 10)", 1024],
  ["POWER(x, 2)", 7.5625],
  ["POWER(-8, 0.5)", null],
  ["POWER(0, -1)", null],
  ["POWER(10, 400)", null],
  ["ROUND(2.5)", 3],
  ["ROUND(-2.5)", -3],
  ["ROUND(x, 1)", 2.8],
  ["ROUND(1.2345, 2)", 1.23],
  ["ROUND(1250, -2)", 1300],
  ["TRUNCATE(0.29, 2)", 0.29],
  ["TRUNCATE(-1.99, 1)", -1.9],
  ["TRUNCATE(1999, -2)", 1900],
  ["TRUNCATE(x)", 2],
  // Strings, by characters (code points).
  ["CHAR_LENGTH(s)", 7],
  ["CHAR_LENGTH('😀a')", 2],
  ["CHAR_LENGTH('')", 0],
  ["CONCAT('a', 'б')", "aб"],
  ["CONCAT(s, '!')", " Тверь !"],
  ["POSITION('в' IN s)", 3],
  ["POSITION('x' IN 'abc')", 0],
  ["POSITION('' IN 'abc')", 1],
  ["POSITION('b' IN '😀b')", 2],
  ["SUBSTRING('Тверь' FROM 2 FOR 3)", "вер"],
  ["SUBSTRING('Тверь' FROM 3)", "ерь"],
  ["SUBSTRING('Тверь', 2, 2)", "ве"],
  ["SUBSTRING('abc' FROM 0 FOR 2)", "a"],
  ["SUBSTRING('abc' FROM 5)", ""],
  ["SUBSTRING('abc' FROM 2 FOR -1)", null],
  ["SUBSTRING('😀ab' FROM 2)", "ab"],
  ["TRIM(s)", "Тверь"],
  ["TRIM(LEADING FROM s)", "Тверь "],
  ["TRIM(TRAILING 'x' FROM 'xxaxx')", "xxa"],
  ["TRIM(LEADING 'x' FROM 'xxaxx')", "axx"],
  ["TRIM(BOTH 'x' FROM 'xxaxx')", "a"],
  ["TRIM('x' FROM 'xax')", "a"],
  // CAST.
  ["CAST('12' AS INTEGER)", 12],
  ["CAST(' 12.7 ' AS INT)", 12],
  ["CAST(-12.7 AS INTEGER)", -12],
  ["CAST('abc' AS INTEGER)", null],
  ["CAST('12abc' AS FLOAT)", null],
  ["CAST(40000 AS SMALLINT)", null],
  ["CAST(-32768 AS SMALLINT)", -32768],
  ["CAST('1e3' AS FLOAT)", 1000],
  ["CAST(x AS DOUBLE PRECISION)", 2.75],
  ["CAST(x AS REAL)", 2.75],
  ["CAST(n AS VARCHAR)", "-7"],
  ["CAST(x AS VARCHAR(3))", "2.7"],
  ["CAST('Тверь' AS VARCHAR(2))", "Тв"],
  ["CAST('ab' AS CHAR(4))", "ab  "],
  ["CAST(d AS VARCHAR)", "2021-03-04 05:06:07"],
  ["CAST(d AS DATE)", Date.UTC(2021, 2, 4)],
  ["CAST('2021-03-04 10:00:00' AS TIMESTAMP)", Date.UTC(2021, 2, 4, 10)],
  ["CAST('soon' AS DATE)", null],
];

Deno.test("every function gives the expected value in SQLite and in memory", () => {
  for (const [expr, expected] of VALUES) {
    assert.deepEqual(valueOf(expr), expected, expr);
  }
});

Deno.test("NULL in is NULL out, for every function", () => {
  const NULL_CALLS = [
    "EXTRACT(YEAR FROM d)",
    "ABS(n)",
    "CEILING(x)",
    "FLOOR(x)",
    "MOD(n, 2)",
    "MOD(5, n)",
    "POWER(x, 2)",
    "ROUND(x, 1)",
    "ROUND(1.5, n)",
    "TRUNCATE(x)",
    "CHAR_LENGTH(s)",
    "CONCAT(s, 'a')",
    "CONCAT('a', NULL)",
    "POSITION('a' IN s)",
    "SUBSTRING(s FROM 1 FOR n)",
    "SUBSTRING('abc' FROM n)",
    "TRIM(s)",
    "TRIM(BOTH s FROM 'abc')",
    "CAST(s AS INTEGER)",
    "CAST(d AS VARCHAR)",
    "UPPER(s)",
  ];
  for (const expr of NULL_CALLS) assert.equal(valueOf(expr, 2), null, expr);
  assert.equal(valueOf("CAST(NULL AS DATE)"), null);
});

Deno.test("function results take part in predicates, with literals of their type", () => {
  const ids = (where: string) => {
    const { sql, params } = toSql(parseWhere(where, FIELDS)!, COLUMNS);
    return db.prepare(`SELECT oid FROM t WHERE ${sql}`).all(...params).map((r) => r.oid);
  };
  assert.deepEqual(ids("CHAR_LENGTH(TRIM(s)) = 5 AND EXTRACT(YEAR FROM d) = 2021"), [1]);
  assert.deepEqual(
    ids("EXTRACT(MONTH FROM d) = '3'"),
    [1],
    "a numeric string compares as a number",
  );
  assert.deepEqual(ids("CAST(d AS DATE) = '2021-03-04'"), [1], "date text compares as a date");
  assert.deepEqual(ids("SUBSTRING(TRIM(s) FROM 1 FOR 1) IN ('Т', 'M')"), [1]);
  assert.deepEqual(ids("ABS(n) BETWEEN 5 AND 10"), [1]);
  assert.deepEqual(ids("CURRENT_DATE() > d AND CURRENT_TIMESTAMP > d"), [1]);
});

function rejects(where: string, message: RegExp): void {
  assert.throws(() => parseWhere(where, FIELDS), (e: unknown) => {
    assert.ok(e instanceof WhereClauseError, `${where}: ${e}`);
    assert.match(e.message, message, where);
    return true;
  });
}

Deno.test("the parser checks each function's arguments and says what it expected", () => {
  rejects(
    "ABS(s) > 1",
    /ABS\(\) expects a number as its first argument, but field "s" at position 4 is text/,
  );
  rejects("CHAR_LENGTH(n) > 1", /CHAR_LENGTH\(\) expects text .* field "n" .* is a number.*CAST/);
  rejects("EXTRACT(YEAR FROM n) = 1", /EXTRACT\(\) expects a date .* field "n"/);
  rejects("EXTRACT(YEAR FROM 'soon') = 1", /EXTRACT\(\) needs a date, but 'soon'/);
  rejects("EXTRACT(WEEK FROM d) = 1", /expected YEAR, MONTH, DAY, HOUR, MINUTE or SECOND/);
  rejects("EXTRACT(YEAR d) = 1", /expected FROM/);
  rejects("MOD(n) = 1", /MOD\(\) at position 0 takes 2 arguments \(MOD\(number, divisor\)\)/);
  rejects("ROUND(x, 1, 2) = 1", /ROUND\(\) .* takes 1 or 2 arguments/);
  rejects("POWER(x, 'two') = 1", /POWER\(\) expects a number as its second argument, but 'two'/);
  rejects("POSITION('a', s) = 1", /expected IN \(POSITION\(substring IN string\)\)/);
  rejects("SUBSTRING(s FROM 'a') = 'b'", /SUBSTRING\(\) expects a number as its second/);
  rejects("SUBSTRING(s) = 'b'", /expected FROM/);
  rejects("TRIM(LEADING s) = 'b'", /expected FROM/);
  rejects("CONCAT(s, n) = 'b'", /CONCAT\(\) expects text as its second argument/);
  rejects("CAST(n AS BLOB) = 1", /expected a type \(INTEGER, SMALLINT/);
  rejects("CAST(n INTEGER) = 1", /expected AS/);
  rejects("CAST(s AS VARCHAR(x)) = 'a'", /expected a length/);
  rejects("CAST(s AS CHAR(4001)) = 'a'", /expected a length from 0 to 4000/);
  rejects("LOG(x) = 1", /Unknown function LOG\(\).*CAST, CURRENT_DATE, CURRENT_TIMESTAMP\./);
  rejects("ABS(".repeat(150) + "n" + ")".repeat(150) + " = 1", /nested more than 100 deep/);
  // Numeric text is a number; UPPER and LOWER still take anything.
  parseWhere("ABS('-5') = 5 AND UPPER(n) = '5'", FIELDS);
});

Deno.test("the syntax description lists every function under its ArcObjects key", () => {
  const keys = SQL_SYNTAX.functions.map((f) => `${f.esriKey}=${f.name}`);
  for (
    const expected of [
      "esriSQL_EXTRACT=EXTRACT",
      "esriSQL_CHARLENGTH=CHAR_LENGTH",
      "esriSQL_TRUNCATE=TRUNCATE",
      "esriSQL_CAST=CAST",
      "esriSQL_CURRENTTIMESTAMP=CURRENT_TIMESTAMP",
    ]
  ) assert.ok(keys.includes(expected), `${expected} in ${keys}`);
  assert.equal(new Set(SQL_SYNTAX.functions.map((f) => f.esriKey)).size, keys.length);
  // Every entry says how it is written, starting with its name.
  for (const f of SQL_SYNTAX.functions) {
    assert.ok(f.syntax.startsWith(f.name), f.syntax);
  }
});
