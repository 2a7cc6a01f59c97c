/**
 * Literal coercion: a literal compared with a bare field takes the field's
 * type, so '5' against a number field is 5 and '2024-01-31' against a date
 * field is a date, in SQL and in memory alike.
 *
 * @module
 */
import type { FieldInfo } from "../types.ts";
import type { ValueNode } from "./ast.ts";
import { WhereClauseError } from "./_lexer.ts";
import { parseDateLiteral } from "./_values.ts";

const NUMERIC = new Set(["OID", "SmallInteger", "Integer", "Single", "Double"]);

/** The literal converted to field `f`'s type; throws WhereClauseError when it cannot be. */
export function coerceLiteral(
  f: FieldInfo,
  lit: ValueNode & { kind: "literal" },
  pos: number,
): ValueNode & { kind: "literal" } {
  const v = lit.value;
  if (v === null) return lit;
  if (NUMERIC.has(f.type) && typeof v === "string") {
    if (!/^\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?\s*$/.test(v)) {
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
