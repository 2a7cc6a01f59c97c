import assert from "node:assert/strict";
import type { FieldInfo } from "../types.ts";
import { evaluate, MAX_TREE_DEPTH, MAX_WHERE_TERMS, toSql } from "../query/mod.ts";
import { Cql2Error, parseCql2Text } from "./_cql2.ts";

const field = (name: string, type: FieldInfo["type"]): FieldInfo => ({
  name,
  type,
  alias: name,
  length: 0,
  nullable: true,
});
const FIELDS = [
  field("OBJECTID", "OID"),
  field("NAME", "String"),
  field("POP", "Integer"),
  field("AREA", "Double"),
  field("FOUNDED", "Date"),
];
const GEOMETRY = ["geometry"];

function where(text: string) {
  return parseCql2Text(text, FIELDS, GEOMETRY).where!;
}

/** Whether a row passes the filter, in memory (the engine's own evaluator). */
function passes(text: string, row: Record<string, string | number | null>): boolean {
  return evaluate(where(text), row);
}

const MOSCOW = { NAME: "Moscow", POP: 13010112, AREA: 2561.5, FOUNDED: Date.UTC(1147, 3, 4) };
const TVER = { NAME: "Тверь", POP: 416219, AREA: null, FOUNDED: Date.UTC(1135, 0, 1) };

Deno.test("cql2: comparisons take the field's type (numbers, text, dates)", () => {
  assert.deepEqual(where("POP > '1000'"), {
    kind: "compare",
    op: ">",
    left: { kind: "field", name: "POP" },
    right: { kind: "literal", value: 1000 },
  });
  assert.ok(passes("POP >= 13010112 AND pop <= 13010112", MOSCOW));
  assert.ok(passes("\"NAME\" = 'Moscow'", MOSCOW));
  assert.ok(!passes("NAME <> 'Moscow'", MOSCOW));
  assert.ok(passes("FOUNDED < TIMESTAMP('1200-01-01T00:00:00Z')", MOSCOW));
  assert.ok(passes("FOUNDED = DATE('1147-04-04')", MOSCOW));
  assert.ok(passes("NAME = 'Тверь'", TVER));
  assert.ok(passes("1000 < POP", MOSCOW), "a literal on the left");
});

Deno.test("cql2: LIKE, BETWEEN, IN, IS NULL and their negations", () => {
  assert.ok(passes("NAME LIKE 'Mos%'", MOSCOW));
  assert.ok(passes("NAME LIKE 'M_scow'", MOSCOW));
  assert.ok(!passes("NAME LIKE 'mos%'", MOSCOW), "LIKE is case-sensitive");
  assert.ok(passes("NAME NOT LIKE 'K%'", MOSCOW));
  assert.ok(passes("POP BETWEEN 1000000 AND 20000000", MOSCOW));
  assert.ok(passes("POP NOT BETWEEN 1 AND 2", MOSCOW));
  assert.ok(passes("NAME IN ('Kazan', 'Moscow')", MOSCOW));
  assert.ok(passes("NAME NOT IN ('Kazan')", MOSCOW));
  assert.ok(passes("AREA IS NULL", TVER));
  assert.ok(passes("AREA IS NOT NULL", MOSCOW));
  // LIKE escapes with a backslash, as CQL2 does.
  assert.ok(passes("NAME LIKE '50\\%'", { NAME: "50%" }));
  assert.ok(!passes("NAME LIKE '50\\%'", { NAME: "500" }));
});

Deno.test("cql2: AND, OR, NOT and parentheses keep their precedence", () => {
  assert.ok(passes("NAME = 'x' OR POP > 1 AND AREA > 1", MOSCOW));
  assert.ok(!passes("(NAME = 'x' OR POP > 1) AND AREA > 99999", MOSCOW));
  assert.ok(passes("NOT (NAME = 'Kazan')", MOSCOW));
  assert.ok(passes("POP > AREA", MOSCOW), "property against property");
});

Deno.test("cql2: S_INTERSECTS becomes the spatial filter (WKT and BBOX)", () => {
  const f = parseCql2Text(
    "S_INTERSECTS(geometry, BBOX(30, 50, 60, 60)) AND POP > 1",
    FIELDS,
    GEOMETRY,
  );
  assert.deepEqual(f.intersects, { type: "Envelope", xmin: 30, ymin: 50, xmax: 60, ymax: 60 });
  assert.equal(f.where?.kind, "compare");
  const p = parseCql2Text(
    "S_INTERSECTS(POLYGON((30 50, 40 50, 40 60, 30 50)), geometry)",
    FIELDS,
    GEOMETRY,
  );
  assert.equal(p.where, undefined);
  assert.equal(p.intersects?.type, "Polygon");
  const pt = parseCql2Text("s_intersects(geometry, POINT(37.6 55.7))", FIELDS, GEOMETRY);
  assert.deepEqual(pt.intersects, { type: "Point", x: 37.6, y: 55.7 });
  for (
    const bad of [
      "S_INTERSECTS(geometry, POINT(1 2)) OR POP > 1",
      "POP > 1 OR S_INTERSECTS(geometry, POINT(1 2))",
      "(S_INTERSECTS(geometry, POINT(1 2)) AND POP > 1) OR POP < 0",
      "NOT S_INTERSECTS(geometry, POINT(1 2))",
      "S_INTERSECTS(geometry, POINT(1 2)) AND S_INTERSECTS(geometry, POINT(1 2))",
      "S_INTERSECTS(geometry, CIRCLE(1 2))",
    ]
  ) {
    assert.throws(() => parseCql2Text(bad, FIELDS, GEOMETRY), Cql2Error, bad);
  }
});

Deno.test("cql2: errors say where and what (unknown properties, bad literals, syntax)", () => {
  assert.throws(() => where("NOPE = 1"), /Unknown property 'NOPE'.*queryables: OBJECTID, NAME/);
  assert.throws(() => where("POP = 'many'"), /numeric/);
  assert.throws(() => where("FOUNDED = TIMESTAMP('yesterday')"), /not a valid timestamp/);
  assert.throws(() => where("POP >"), /expected a property name or a literal/);
  assert.throws(() => where("POP = 1 POP"), /expected AND, OR or the end/);
  assert.throws(() => where("NAME = 'open"), /Unterminated string/);
  assert.throws(() => where(""), /empty/);
});

Deno.test("cql2: injection attempts stay literals or are refused; SQL binds every string", () => {
  // A quote doubled inside a string is one quote of the value, never the end of the statement.
  const tree = where("NAME = 'x'' OR 1=1 --'");
  assert.deepEqual(tree, {
    kind: "compare",
    op: "=",
    left: { kind: "field", name: "NAME" },
    right: { kind: "literal", value: "x' OR 1=1 --" },
  });
  const sql = toSql(tree, { NAME: "NAME" });
  assert.ok(!sql.sql.includes("OR 1=1"), sql.sql);
  assert.ok(sql.params.includes("x' OR 1=1 --"));
  for (
    const bad of [
      "NAME = 'a'; DROP TABLE Cities",
      "NAME = 'a' UNION SELECT * FROM sqlite_master",
      "NAME = (SELECT NAME FROM Cities)",
      "NAME = 'a' -- comment",
      "sqlite_master.name = 'x'",
    ]
  ) {
    assert.throws(() => where(bad), Cql2Error, bad);
  }
});

Deno.test("cql2: limits bound depth, terms and length", () => {
  const deep = "(".repeat(MAX_TREE_DEPTH + 1) + "POP = 1" + ")".repeat(MAX_TREE_DEPTH + 1);
  assert.throws(() => where(deep), /nests deeper/);
  const many = Array.from({ length: MAX_WHERE_TERMS + 1 }, (_, i) => `POP = ${i}`).join(" OR ");
  assert.throws(() => parseCql2Text(many, FIELDS, GEOMETRY), Cql2Error);
  const wide = Array.from({ length: 2000 }, (_, i) => `POP = ${i}`).join(" OR ");
  assert.ok(passes(wide, { POP: 1999 }), "a long OR chain is read (and balanced)");
});
