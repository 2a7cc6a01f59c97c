import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import type { AttributeValue, FieldInfo } from "../types.ts";
import {
  combineWhere,
  evaluate,
  parseWhere,
  registerSqlFunctions,
  toSql,
  WhereClauseError,
} from "./mod.ts";

const field = (name: string, type: FieldInfo["type"]): FieldInfo => ({
  name,
  type,
  alias: name,
  length: type === "String" ? 255 : 0,
  nullable: type !== "OID",
});
const FIELDS = [
  field("OBJECTID", "OID"),
  field("Name", "String"),
  field("pop", "Integer"),
  field("area", "Double"),
  field("founded", "Date"),
  field("note", "String"),
  field("Shape", "Geometry"),
];

const ROWS: Record<string, string | number | null>[] = [
  { OBJECTID: 1, Name: "Москва", pop: 13000000, area: 2561.5, founded: "1147-04-04", note: null },
  {
    OBJECTID: 2,
    Name: "Санкт-Петербург",
    pop: 5600000,
    area: 1439,
    founded: "1703-05-27",
    note: "north",
  },
  { OBJECTID: 3, Name: "Kazan", pop: 1300000, area: 425.3, founded: "1005-01-01", note: "100%" },
  {
    OBJECTID: 4,
    Name: "kaliningrad",
    pop: 490000,
    area: 223,
    founded: "1255-01-01 12:30:00",
    note: "it's",
  },
  { OBJECTID: 5, Name: "Omsk", pop: null, area: null, founded: null, note: "" },
];

function epoch(iso: string): number {
  return Date.parse(iso.replace(" ", "T") + (iso.length === 10 ? "T00:00:00Z" : "Z"));
}

function memoryIds(where: string): number[] {
  const ast = parseWhere(where, FIELDS)!;
  return ROWS.map((r): Record<string, AttributeValue> => ({
    ...r,
    founded: r.founded === null ? null : epoch(String(r.founded)),
  })).filter((r) => evaluate(ast, r)).map((r) => Number(r.OBJECTID));
}

const db = new DatabaseSync(":memory:");
registerSqlFunctions(db);
db.exec(
  `CREATE TABLE city (fid INTEGER PRIMARY KEY, "name" TEXT COLLATE NOCASE, pop INTEGER, area REAL, founded TEXT, note TEXT)`,
);
for (const r of ROWS) {
  db.prepare("INSERT INTO city VALUES (?, ?, ?, ?, ?, ?)").run(
    r.OBJECTID,
    r.Name,
    r.pop,
    r.area,
    r.founded,
    r.note,
  );
}
const COLUMNS = {
  OBJECTID: "fid",
  Name: "name",
  pop: "pop",
  area: "area",
  founded: { column: "founded", dateText: true },
  note: "note",
};

function sqlIds(where: string): number[] {
  const { sql, params } = toSql(parseWhere(where, FIELDS)!, COLUMNS);
  return db.prepare(`SELECT fid FROM city WHERE ${sql} ORDER BY fid`).all(...params).map((r) =>
    Number(r.fid)
  );
}

const CASES: [string, number[]][] = [
  ["pop > 1000000", [1, 2, 3]],
  ["POP >= 1300000 AND area < 2000", [2, 3]],
  ["pop > 5000000 OR area < 300 AND Name = 'kaliningrad'", [1, 2, 4]],
  ["(pop > 5000000 OR area < 300) AND NOT Name = 'Москва'", [2, 4]],
  ["NOT (pop > 1000000)", [4]],
  ["pop IS NULL", [5]],
  ["note IS NOT NULL", [2, 3, 4, 5]],
  ["note <> 'north'", [3, 4, 5]],
  ["OBJECTID IN (1, 3, 99)", [1, 3]],
  ["OBJECTID NOT IN (1, 3, NULL)", []],
  ["pop NOT IN (490000)", [1, 2, 3]],
  ["area BETWEEN 223 AND 1439", [2, 3, 4]],
  ["area NOT BETWEEN 223 AND 1439", [1]],
  ["Name LIKE 'K%'", [3]],
  ["UPPER(Name) LIKE 'K%'", [3, 4]],
  ["LOWER(Name) LIKE '%петер%'", [2]],
  ["UPPER(Name) = 'МОСКВА'", [1]],
  ["Name = 'kazan'", []],
  ["Name LIKE '_azan'", [3]],
  ["note LIKE '%!%' ESCAPE '!'", [3]],
  ["note LIKE '%%'", [2, 3, 4, 5]],
  ["note NOT LIKE 'n%'", [3, 4, 5]],
  ["note = 'it''s'", [4]],
  ["pop / 1000000 > 5.5", [1, 2]],
  ["pop * 2 + 1 = 980001", [4]],
  ["-area < -1000", [1, 2]],
  ["(area + 1) * 2 >= 2880", [1, 2]],
  ["pop / 0 IS NULL", [1, 2, 3, 4, 5]],
  ["OBJECTID = '3'", [3]],
  ["founded < date '1200-01-01'", [1, 3]],
  ["founded >= timestamp '1255-01-01 12:30:00'", [2, 4]],
  ["founded > '1255-01-01'", [2, 4]],
  ["\"Name\" = 'Omsk' OR \"note\" = 'north'", [2, 5]],
  ["[pop] < 500000", [4]],
  ["1 = 1", [1, 2, 3, 4, 5]],
  ["area > pop", []],
  ["founded < CURRENT_DATE", [1, 2, 3, 4]],
  ["founded > CURRENT_TIMESTAMP - 1000", []],
];

Deno.test("SQL and in-memory evaluation agree on every clause", () => {
  for (const [where, expected] of CASES) {
    assert.deepEqual(memoryIds(where), expected, `memory: ${where}`);
    assert.deepEqual(sqlIds(where), expected, `sql: ${where}`);
  }
});

Deno.test("strings are always bound parameters; numbers are written by the compiler", () => {
  const { sql, params } = toSql(
    parseWhere("Name = 'x''); DROP TABLE city; --' OR pop IN (1, -2.5)", FIELDS)!,
    COLUMNS,
  );
  assert.ok(!sql.includes("DROP"));
  assert.deepEqual(params, ["x'); DROP TABLE city; --"]);
  assert.match(sql, /IN \(1\.0, \(-2\.5\)\)/);
  assert.equal(sqlIds("Name = 'x''); DROP TABLE city; --'").length, 0);
  assert.equal(db.prepare("SELECT count(*) AS n FROM city").get()!.n, 5);
});

Deno.test("blank clauses mean no filter; filters combine with AND", () => {
  assert.equal(parseWhere("", FIELDS), undefined);
  assert.equal(parseWhere("   ", FIELDS), undefined);
  assert.equal(parseWhere(undefined, FIELDS), undefined);
  const a = parseWhere("pop > 1", FIELDS);
  const b = parseWhere("area > 1", FIELDS);
  assert.deepEqual(combineWhere(a, undefined, b), { kind: "and", left: a, right: b });
  assert.equal(combineWhere(undefined, undefined), undefined);
});

Deno.test("field names resolve case-insensitively to their canonical spelling", () => {
  assert.deepEqual(parseWhere("name = 'a'", FIELDS), {
    kind: "compare",
    op: "=",
    left: { kind: "field", name: "Name" },
    right: { kind: "literal", value: "a" },
  });
  assert.deepEqual(parseWhere("pop != -5", FIELDS), {
    kind: "compare",
    op: "<>",
    left: { kind: "field", name: "pop" },
    right: { kind: "literal", value: -5 },
  });
});

function rejects(where: string, message: RegExp): void {
  assert.throws(() => parseWhere(where, FIELDS), (e: unknown) => {
    assert.ok(e instanceof WhereClauseError, `${where}: ${e}`);
    assert.match(e.message, message, where);
    return true;
  });
}

Deno.test("bad clauses get errors that say where and what", () => {
  rejects(
    "popul > 5",
    /Unknown field "popul" at position 0; valid fields are: OBJECTID, Name, pop, area, founded, note\./,
  );
  rejects("pop >", /position 5: expected a field name, a number.*found the end of the clause/);
  rejects("pop > 5 AND", /position 11/);
  rejects("pop 5", /position 4: expected a comparison/);
  rejects("(pop > 5", /position 8: expected "\)"/);
  rejects("Name = 'open", /not closed/);
  rejects("pop = 'many'", /Field "pop" is numeric, but 'many'/);
  rejects("founded = '2020-02-30'", /is a date, but '2020-02-30'/);
  rejects("founded = date 'yesterday'", /not a valid date/);
  rejects("Shape IS NULL", /holds geometry/);
  rejects("note LIKE 'a' ESCAPE 'ab'", /exactly one character/);
  rejects("Name = 'a' || 'b'", /concatenation/);
  rejects("pop > 5 pop < 3", /expected AND, OR or the end/);
  rejects("pop @ 5", /Unexpected character "@"/);
  rejects("5abc = 1", /neither a number nor a field name/);
});

Deno.test("injection attempts are refused", () => {
  rejects("1=1; DROP TABLE city", /Unexpected ";"/);
  rejects("1=1 -- comment", /SQL comments are not allowed/);
  rejects("1=1 /* x */", /SQL comments/);
  rejects("pop IN (SELECT pop FROM city)", /"SELECT" .* not allowed/);
  rejects("EXISTS (SELECT 1)", /not allowed/);
  rejects("sqlite_version() = '3'", /Unknown function sqlite_version\(\).*UPPER, LOWER/);
  rejects("load_extension('x') = 1", /Unknown function/);
  rejects("pop = 1 UNION SELECT 1", /expected AND, OR or the end/);
  rejects("(".repeat(500) + "pop = 1" + ")".repeat(500), /nested more than 100 deep/);
});
