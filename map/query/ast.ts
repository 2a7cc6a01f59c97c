/**
 * Syntax tree of an ArcGIS `WhereClause` / definition expression.
 *
 * The parser (see `mod.ts`) produces it after checking every field name
 * against the layer; sources compile it to parameterised SQL or evaluate it
 * in memory. Nothing of the request text is ever spliced into SQL.
 *
 * @module
 */

/** A scalar expression. `field.name` is the canonical (source) field name. */
export type ValueNode =
  | { kind: "field"; name: string }
  | { kind: "literal"; value: string | number | null }
  | { kind: "arith"; op: "+" | "-" | "*" | "/"; left: ValueNode; right: ValueNode }
  | { kind: "neg"; operand: ValueNode }
  | {
    kind: "call";
    name: FunctionName;
    args: ValueNode[];
    /** The call's keyword, from a fixed list: EXTRACT's unit, TRIM's side, CAST's type. */
    keyword?: string;
  };

/** Functions of the dialect (their table is `_functions.ts`). */
export type FunctionName =
  | "UPPER"
  | "LOWER"
  | "EXTRACT"
  | "ABS"
  | "CEILING"
  | "FLOOR"
  | "MOD"
  | "POWER"
  | "ROUND"
  | "TRUNCATE"
  | "CHAR_LENGTH"
  | "CONCAT"
  | "POSITION"
  | "SUBSTRING"
  | "TRIM"
  | "CAST";

/** A boolean expression. */
export type WhereNode =
  | { kind: "and" | "or"; left: WhereNode; right: WhereNode }
  | { kind: "not"; operand: WhereNode }
  | {
    kind: "compare";
    op: "=" | "<>" | "<" | "<=" | ">" | ">=";
    left: ValueNode;
    right: ValueNode;
  }
  | { kind: "in"; value: ValueNode; list: ValueNode[]; negated: boolean }
  | { kind: "between"; value: ValueNode; low: ValueNode; high: ValueNode; negated: boolean }
  | { kind: "like"; value: ValueNode; pattern: ValueNode; escape?: string; negated: boolean }
  | { kind: "isNull"; value: ValueNode; negated: boolean };
