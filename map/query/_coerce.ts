/**
 * Literal coercion: a literal compared with a bare field takes the field's
 * type, so '5' against a number field is 5 and '2024-01-31' against a date
 * field is a date, in SQL and in memory alike; a string literal compared
 * with a number- or date-typed expression (`EXTRACT(YEAR FROM d) = '2021'`)
 * becomes a number or date when it reads as one.
 *
 * @module
 */
import { NUMERIC_FIELD_TYPES } from "../types.ts";
import type { FieldInfo } from "../types.ts";
import type { ValueNode } from "./ast.ts";
import { WhereClauseError } from "./_lexer.ts";
import { isNumberText, parseDateLiteral } from "./_values.ts";
import type { ValueType } from "./_functions.ts";

/** The literal converted to field `f`'s type; throws WhereClauseError when it cannot be. */
export function coerceLiteral(
  f: FieldInfo,
  lit: ValueNode & { kind: "literal" },
  pos: number,
): ValueNode & { kind: "literal" } {
  const v = lit.value;
  if (v === null) return lit;
  if (NUMERIC_FIELD_TYPES.has(f.type) && typeof v === "string") {
    if (!isNumberText(v)) {
      throw new WhereClauseError(
        `Field "${f.name}" is numeric, but '${v}' (position ${pos}) is not a number.`,
        pos,
      );
    }
    return { kind: "literal" as const, value: Number(v) };
  }
  if (f.type === "String" && typeof v === "number") {
    return { kind: "literal" as const, value: String(v) };
  }
  if (f.type === "Date" && typeof v === "string") {
    const ms = parseDateLiteral(v);
    if (ms === null) {
      throw new WhereClauseError(
        `Field "${f.name}" is a date, but '${v}' (position ${pos}) is not a date; ` +
          "write date 'YYYY-MM-DD' or date 'YYYY-MM-DD HH:MM:SS'.",
        pos,
      );
    }
    return { kind: "literal" as const, value: ms };
  }
  return lit;
}

/**
 * The two sides of a comparison with a literal side converted: against a
 * bare field by {@linkcode coerceLiteral} (errors when it cannot be),
 * against any other expression by {@linkcode coerceToType} (left as it is
 * when it cannot be, as before functions had types).
 */
export function coercePair(
  left: ValueNode,
  right: ValueNode,
  pos: number,
  field: (name: string) => FieldInfo,
  types: { typeOf(node: ValueNode): ValueType },
): [ValueNode, ValueNode] {
  if (left.kind === "field" && right.kind === "literal") {
    return [left, coerceLiteral(field(left.name), right, pos)];
  }
  if (right.kind === "field" && left.kind === "literal") {
    return [coerceLiteral(field(right.name), left, pos), right];
  }
  if (left.kind === "literal" && right.kind !== "literal") {
    return [coerceToType(left, types.typeOf(right)), right];
  }
  if (right.kind === "literal" && left.kind !== "literal") {
    return [left, coerceToType(right, types.typeOf(left))];
  }
  return [left, right];
}

/** A string literal as a number or date when `type` asks for one and it reads as one. */
export function coerceToType(lit: ValueNode & { kind: "literal" }, type: ValueType): ValueNode {
  if (typeof lit.value !== "string") return lit;
  if (type === "number" && isNumberText(lit.value)) {
    return { kind: "literal", value: Number(lit.value) };
  }
  if (type === "date") {
    const ms = parseDateLiteral(lit.value);
    if (ms !== null) return { kind: "literal", value: ms };
  }
  return lit;
}
