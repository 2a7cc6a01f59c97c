/**
 * The one table of where-clause functions. The parser reads each entry's
 * grammar, arity and argument types from it; the SQL compiler and
 * `registerSqlFunctions` its SQL name and implementation; the evaluator
 * its implementation; GetSQLSyntaxInfo its name and ArcObjects key. Adding
 * a function here is the whole job, and no two of those can disagree.
 *
 * Functions follow ArcGIS Server 10.3's "standardized queries" list
 * (Esri, "Supported SQL functions in ArcGIS Server").
 *
 * @module
 */
import type { FunctionName } from "./ast.ts";
import type { Scalar } from "./_values.ts";
import { sqlLower, sqlUpper } from "./_values.ts";
import {
  cast,
  charLength,
  extract,
  finite,
  num,
  position,
  roundTo,
  substring,
  trim,
  type Value,
} from "./_function_values.ts";

/** What the parser knows of an expression's type ("any": NULL, or not known). */
export type ValueType = "number" | "string" | "date" | "any";

/**
 * How a call is written: `list` is `F(a, b, …)`; the others are the SQL
 * standard's keyword forms, e.g. `EXTRACT(YEAR FROM d)`.
 */
export type CallForm = "list" | "extract" | "position" | "substring" | "trim" | "cast";

/** One function of the dialect. */
export interface FunctionSpec {
  /** How a user writes it (`docs/soap.md`, GetSQLSyntaxInfo, error messages). */
  syntax: string;
  /** Its key in SQLSyntaxInfo.FunctionNames (the esriSQLFunctionName constant). */
  esriKey: string;
  form: CallForm;
  /** Expected type of each value argument, in the order the syntax tree holds them. */
  params: readonly ValueType[];
  /** How many trailing params may be left out. */
  optional: number;
  /** The keyword the form takes (EXTRACT unit, TRIM side, CAST type). */
  keywords?: readonly string[];
  /** Result type, given the call's keyword. */
  result(keyword: string | undefined): ValueType;
  /** The value, from non-null arguments (NULL in is NULL out before this is called). */
  compute(keyword: string | undefined, args: Value[]): Scalar;
}

/** EXTRACT units (Esri: YEAR, MONTH, DAY, HOUR, MINUTE or SECOND). */
export const EXTRACT_UNITS = ["YEAR", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND"] as const;
/** TRIM sides; BOTH when none is written. */
export const TRIM_SIDES = ["BOTH", "LEADING", "TRAILING"] as const;
/**
 * CAST target types. INT is read as INTEGER and DOUBLE PRECISION as DOUBLE;
 * VARCHAR and CHAR take an optional `(length)`.
 */
export const CAST_TYPES = [
  "INTEGER",
  "SMALLINT",
  "FLOAT",
  "REAL",
  "DOUBLE",
  "VARCHAR",
  "CHAR",
  "DATE",
  "TIMESTAMP",
] as const;

const numeric = (syntax: string, esriKey: string, f: (x: number) => number): FunctionSpec => ({
  syntax,
  esriKey,
  form: "list",
  params: ["number"],
  optional: 0,
  result: () => "number",
  compute: (_, [x]) => finite(f(num(x))),
});

const rounding = (syntax: string, esriKey: string, mode: "round" | "truncate"): FunctionSpec => ({
  syntax,
  esriKey,
  form: "list",
  params: ["number", "number"],
  optional: 1,
  result: () => "number",
  compute: (_, [x, d]) => roundTo(num(x), d === undefined ? 0 : num(d), mode),
});

/** Every function, by name; UPPER and LOWER first, as error messages list them. */
export const FUNCTIONS: Readonly<Record<FunctionName, FunctionSpec>> = {
  UPPER: {
    syntax: "UPPER(string)",
    esriKey: "esriSQL_UPPER",
    form: "list",
    params: ["any"],
    optional: 0,
    result: () => "string",
    compute: (_, [s]) => sqlUpper(s),
  },
  LOWER: {
    syntax: "LOWER(string)",
    esriKey: "esriSQL_LOWER",
    form: "list",
    params: ["any"],
    optional: 0,
    result: () => "string",
    compute: (_, [s]) => sqlLower(s),
  },
  EXTRACT: {
    syntax: "EXTRACT(YEAR|MONTH|DAY|HOUR|MINUTE|SECOND FROM date)",
    esriKey: "esriSQL_EXTRACT",
    form: "extract",
    params: ["date"],
    optional: 0,
    keywords: EXTRACT_UNITS,
    result: () => "number",
    compute: (unit, [d]) => extract(unit!, d),
  },
  ABS: numeric("ABS(number)", "esriSQL_ABS", Math.abs),
  CEILING: numeric("CEILING(number)", "esriSQL_CEILING", Math.ceil),
  FLOOR: numeric("FLOOR(number)", "esriSQL_FLOOR", Math.floor),
  MOD: {
    syntax: "MOD(number, divisor)",
    esriKey: "esriSQL_MOD",
    form: "list",
    params: ["number", "number"],
    optional: 0,
    result: () => "number",
    // The remainder takes the dividend's sign (SQL, JavaScript and SQLite's % agree); /0 is NULL.
    compute: (_, [x, y]) => (num(y) === 0 ? null : finite(num(x) % num(y))),
  },
  POWER: {
    syntax: "POWER(number, exponent)",
    esriKey: "esriSQL_POWER",
    form: "list",
    params: ["number", "number"],
    optional: 0,
    result: () => "number",
    compute: (_, [x, y]) => finite(Math.pow(num(x), num(y))),
  },
  ROUND: rounding("ROUND(number[, digits])", "esriSQL_ROUND", "round"),
  TRUNCATE: rounding("TRUNCATE(number[, digits])", "esriSQL_TRUNCATE", "truncate"),
  CHAR_LENGTH: {
    syntax: "CHAR_LENGTH(string)",
    esriKey: "esriSQL_CHARLENGTH",
    form: "list",
    params: ["string"],
    optional: 0,
    result: () => "number",
    compute: (_, [s]) => charLength(s),
  },
  CONCAT: {
    syntax: "CONCAT(string, string)",
    esriKey: "esriSQL_CONCAT",
    form: "list",
    params: ["string", "string"],
    optional: 0,
    result: () => "string",
    compute: (_, [a, b]) => `${a}${b}`,
  },
  POSITION: {
    syntax: "POSITION(substring IN string)",
    esriKey: "esriSQL_POSITION",
    form: "position",
    params: ["string", "string"],
    optional: 0,
    result: () => "number",
    compute: (_, [sub, s]) => position(sub, s),
  },
  SUBSTRING: {
    syntax: "SUBSTRING(string FROM start [FOR length])",
    esriKey: "esriSQL_SUBSTRING",
    form: "substring",
    params: ["string", "number", "number"],
    optional: 1,
    result: () => "string",
    compute: (_, [s, start, length]) =>
      substring(s, num(start), length === undefined ? undefined : num(length)),
  },
  TRIM: {
    syntax: "TRIM([BOTH|LEADING|TRAILING] [characters] FROM string) or TRIM(string)",
    esriKey: "esriSQL_TRIM",
    form: "trim",
    // [string, characters]: the characters (a space when left out) come second in the tree.
    params: ["string", "string"],
    optional: 1,
    keywords: TRIM_SIDES,
    result: () => "string",
    compute: (side, [s, chars]) => trim(side!, chars ?? " ", s),
  },
  CAST: {
    syntax: `CAST(value AS ${CAST_TYPES.join("|")})`,
    esriKey: "esriSQL_CAST",
    form: "cast",
    params: ["any"],
    optional: 0,
    keywords: CAST_TYPES,
    result: (target) =>
      /^(VARCHAR|CHAR)\b/.test(target!)
        ? "string"
        : /^(DATE|TIMESTAMP)\b/.test(target!)
        ? "date"
        : "number",
    compute: (target, [v]) => cast(target!, v),
  },
};

/** Names of all functions, in table order. */
export const FUNCTION_NAMES = Object.keys(FUNCTIONS) as FunctionName[];

/** Functions written without parentheses; the parser fixes their value when it reads them. */
export const NILADIC: Readonly<Record<string, { esriKey: string; value(now: Date): number }>> = {
  CURRENT_DATE: {
    esriKey: "esriSQL_CURRENTDATE",
    value: (now) => Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()),
  },
  CURRENT_TIMESTAMP: { esriKey: "esriSQL_CURRENTTIMESTAMP", value: (now) => now.getTime() },
};

/**
 * Calls a function on evaluated arguments (omitted optional ones absent):
 * NULL when any argument is NULL, and never a non-finite number.
 */
export function callFunction(
  name: FunctionName,
  keyword: string | undefined,
  args: Scalar[],
): Scalar {
  if (args.some((a) => a === null)) return null;
  const r = FUNCTIONS[name].compute(keyword, args as Value[]);
  return typeof r === "number" ? finite(r) : r;
}
