/**
 * The where-clause engine: parse ArcGIS WhereClause / definition
 * expressions into the tree of `ast.ts` (field names checked against the
 * layer), then run it either as parameterised SQL ({@linkcode toSql}) or in
 * memory ({@linkcode evaluate}) with the same semantics:
 *
 * - SQL three-valued logic: a comparison with NULL is unknown, and a
 *   feature passes only when the whole clause is true;
 * - `=`, `<>`, `<`… and IN/BETWEEN compare text case-sensitively by code
 *   point; numbers compare numerically; a literal compared with a field
 *   takes the field's type (`'5'` for a numeric field is 5, a date string
 *   for a date field is a date);
 * - LIKE is case-sensitive (`%` any run, `_` one character, optional
 *   ESCAPE); UPPER/LOWER are Unicode-aware, so `UPPER(name) LIKE '%МОСК%'`
 *   is the case-insensitive search;
 * - `/` is real division; division by zero gives NULL;
 * - dates are epoch milliseconds; `date 'YYYY-MM-DD[ HH:MM:SS]'` and
 *   `timestamp '…'` literals are UTC; CURRENT_DATE (today, 00:00 UTC) and
 *   CURRENT_TIMESTAMP, with or without `()`, are fixed when the clause is
 *   parsed, so parse per request;
 * - functions are ArcGIS 10.3's standardized ones, one table
 *   (`_functions.ts`) for parser, SQL, evaluator and GetSQLSyntaxInfo; SQL
 *   calls registered functions running the evaluator's code. NULL in is
 *   NULL out; what standard SQL makes an error is NULL. Syntax:
 *   - `EXTRACT(YEAR|MONTH|DAY|HOUR|MINUTE|SECOND FROM d)`, UTC, `d` a date
 *     field, date literal or date text; SECOND keeps milliseconds;
 *   - `ABS(n)`, `CEILING(n)`, `FLOOR(n)`, `MOD(n, m)` (sign of n, NULL for
 *     m = 0), `POWER(n, m)` (NULL unless finite), `ROUND(n[, d])` (half away
 *     from zero), `TRUNCATE(n[, d])`; d may be negative;
 *   - `CHAR_LENGTH(s)`, `CONCAT(s1, s2)`, `POSITION(sub IN s)` (1-based, 0
 *     when absent), `SUBSTRING(s FROM start [FOR len])` or
 *     `SUBSTRING(s, start[, len])` (SQL standard; negative len is NULL),
 *     `TRIM([BOTH|LEADING|TRAILING] [chars] FROM s)`, `TRIM(s)` (chars is a
 *     set, default space); all count code points;
 *   - `CAST(v AS INTEGER|INT|SMALLINT|FLOAT|REAL|DOUBLE [PRECISION]|
 *     VARCHAR[(n)]|CHAR[(n)]|DATE|TIMESTAMP)`: integers truncate (NULL out
 *     of range), text that is not wholly a number is NULL, a date becomes
 *     'YYYY-MM-DD HH:MM:SS', CHAR(n) pads;
 *   - arguments are type-checked against the fields (`ABS(name)` on text is
 *     a WhereClauseError naming ABS and "a number"); a numeric or date
 *     string literal takes the type a function or its result needs.
 *
 * @module
 */
import type { AttributeValue, FieldInfo } from "../types.ts";
import type { ValueNode, WhereNode } from "./ast.ts";
import { evaluateCondition } from "./_evaluate.ts";
import { parseWhereClause } from "./_parser.ts";
import { FUNCTION_NAMES, FUNCTIONS, NILADIC } from "./_functions.ts";
import { coerceLiteral } from "./_coerce.ts";

export type { ValueNode, WhereNode } from "./ast.ts";
export { WhereClauseError } from "./_lexer.ts";
export { MAX_LIKE_PATTERN, MAX_WHERE_STRINGS, MAX_WHERE_TERMS } from "./_parser.ts";
export { MAX_TREE_DEPTH } from "./_tree_shape.ts";
export {
  type ColumnMap,
  type CompiledSql,
  quoteIdent,
  registerSqlFunctions,
  type SqlColumn,
  toSql,
} from "./_sql.ts";
export { parseDateLiteral } from "./_values.ts";
export {
  type PgColumn,
  type PgColumnMap,
  pgColumnValue,
  type PgCompiled,
  toPgSql,
} from "./_pg_sql.ts";

/**
 * Parses a where clause against a layer's fields; blank text gives
 * undefined (no filter). Throws WhereClauseError with the position and
 * what was expected.
 *
 * @example
 * ```ts
 * const fields = [
 *   { name: "name", type: "String" as const, alias: "name", length: 50, nullable: true },
 *   { name: "pop", type: "Integer" as const, alias: "pop", length: 0, nullable: true },
 * ];
 * parseWhere("UPPER(name) LIKE 'RUS%' AND pop > 1e6", fields);
 * ```
 */
export function parseWhere(
  text: string | null | undefined,
  fields: FieldInfo[],
): WhereNode | undefined {
  return parseWhereClause(text, fields);
}

/**
 * A literal compared with field `field`, given that field's type as the
 * parser gives it (`'5'` for a number field is 5, `'2024-01-31'` for a
 * date field is its epoch milliseconds): for faces that build the tree
 * themselves. Throws WhereClauseError when the value cannot have that type.
 *
 * @example
 * ```ts
 * fieldLiteral({ name: "POP", type: "Integer", alias: "", length: 0, nullable: true }, "5");
 * // { kind: "literal", value: 5 }
 * ```
 */
export function fieldLiteral(
  field: FieldInfo,
  value: string | number | null,
): ValueNode & { kind: "literal" } {
  return coerceLiteral(field, { kind: "literal", value }, 0);
}

/**
 * Whether a feature's attributes satisfy the filter (true only when the
 * clause is TRUE, not unknown). Attributes are keyed by canonical field name.
 *
 * @example
 * ```ts
 * const fields = [{ name: "pop", type: "Integer" as const, alias: "pop", length: 0, nullable: true }];
 * evaluate(parseWhere("pop > 5", fields)!, { pop: 7 }); // true
 * ```
 */
export function evaluate(ast: WhereNode, attributes: Record<string, AttributeValue>): boolean {
  return evaluateCondition(ast, attributes) === true;
}

/**
 * ANDs filters together, skipping missing ones (a layer's definition
 * expression with a request's where clause).
 *
 * @example
 * ```ts
 * const fields = [{ name: "pop", type: "Integer" as const, alias: "pop", length: 0, nullable: true }];
 * const definition = parseWhere("pop > 5", fields), request = parseWhere("pop < 9", fields);
 * combineWhere(definition, request); // undefined when both are undefined
 * ```
 */
export function combineWhere(...nodes: (WhereNode | undefined)[]): WhereNode | undefined {
  return nodes.reduce<WhereNode | undefined>(
    (
      acc,
      n,
    ) => (n === undefined ? acc : acc === undefined ? n : { kind: "and", left: acc, right: n }),
    undefined,
  );
}

/**
 * What the engine accepts, for GetSQLSyntaxInfo: functions (name, the
 * esriSQLFunctionName key it is reported under, how it is written),
 * predicates, keywords, and the case rules (identifiers case-insensitive,
 * string comparisons case-sensitive). Read from the parser's own tables.
 */
export const SQL_SYNTAX = {
  functions: [
    ...FUNCTION_NAMES.map((name) => ({
      name,
      esriKey: FUNCTIONS[name].esriKey,
      syntax: FUNCTIONS[name].syntax,
    })),
    ...Object.entries(NILADIC).map(([name, f]) => ({ name, esriKey: f.esriKey, syntax: name })),
  ] as readonly { name: string; esriKey: string; syntax: string }[],
  supportedPredicates: [
    "=",
    "<>",
    "<",
    "<=",
    ">",
    ">=",
    "AND",
    "OR",
    "NOT",
    "IN",
    "BETWEEN",
    "LIKE",
    "ESCAPE",
    "IS NULL",
    "IS NOT NULL",
  ],
  supportedClauses: [] as string[],
  keywords: [
    ...new Set([
      "AND",
      "OR",
      "NOT",
      "IN",
      "BETWEEN",
      "LIKE",
      "ESCAPE",
      "IS",
      "NULL",
      "DATE",
      "TIMESTAMP",
      // The keyword forms of the functions (CAST repeats DATE and TIMESTAMP).
      "FROM",
      "FOR",
      "AS",
      "INT",
      "PRECISION",
      ...FUNCTION_NAMES.flatMap((f) => FUNCTIONS[f].keywords ?? []),
    ]),
  ],
  specialCharacters: {
    wildcardMany: "%",
    wildcardSingle: "_",
    stringQuote: "'",
    identifierQuote: '"',
  },
  identifierCase: false,
  delimitedIdentifierCase: false,
  stringComparisonCase: true,
  invalidCharacters: ";",
  invalidStartingCharacters: "0123456789",
} as const;
