/**
 * Compiles a where-clause tree to SQLite SQL with bound parameters. Only
 * column names chosen by the source, fixed keywords and numbers the
 * compiler formats itself are written into the text; every string is a `?`
 * parameter. (Numbers are written out because one statement takes at most
 * 32,766 parameters, and FID paging sends tens of thousands of them.)
 *
 * LIKE and every function of the dialect (`_functions.ts`) call SQL
 * functions registered by {@linkcode registerSqlFunctions}, which run the
 * in-memory evaluator's own code: SQLite's LIKE ignores ASCII case only, its
 * UPPER/LOWER leave Cyrillic alone, its round() and substr() differ in
 * detail, and it has no EXTRACT, so its built-ins would make the backends
 * disagree.
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite";
import type { ValueNode, WhereNode } from "./ast.ts";
import { type Scalar, sqlLike } from "./_values.ts";
import { callFunction, FUNCTION_NAMES, FUNCTIONS } from "./_functions.ts";

/** How a field is stored: a column name, or a column with its storage detail. */
export type SqlColumn = string | {
  /** Column name (quoted by the compiler) in the source table. */
  column: string;
  /** The column holds ISO-8601 text dates; compared as epoch milliseconds. */
  dateText?: boolean;
};

/** Canonical field name → column. */
export type ColumnMap = Record<string, SqlColumn>;

/** A compiled filter: SQL text with `?` placeholders and their values in order. */
export interface CompiledSql {
  sql: string;
  params: Scalar[];
}

/**
 * Quotes an SQL identifier ("name", doubling inner quotes).
 *
 * @example
 * ```ts
 * quoteIdent('odd"name'); // "\"odd\"\"name\""
 * ```
 */
export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * Registers arcgis_like and one arcgis_<name> per where-clause function
 * (arcgis_upper, arcgis_extract, arcgis_char_length…) on a connection.
 * Call once per DatabaseSync before running compiled filters.
 *
 * @example
 * ```ts
 * import { DatabaseSync } from "node:sqlite";
 * const db = new DatabaseSync(":memory:");
 * registerSqlFunctions(db);
 * db.prepare("SELECT arcgis_char_length('Тверь') AS n").get(); // { n: 5 }
 * ```
 */
export function registerSqlFunctions(db: DatabaseSync): void {
  const opts = { deterministic: true, varargs: false } as const;
  // node:sqlite takes the SQL arity from each callback's own parameter list.
  db.function("arcgis_like", opts, (v: unknown, p: unknown, e: unknown) =>
    orNull(() => {
      const r = sqlLike(v as Scalar, p as Scalar, e === "" ? undefined : e as Scalar);
      return r === null ? null : r ? 1 : 0;
    }));
  for (const name of FUNCTION_NAMES) {
    // Keyword forms (EXTRACT, TRIM, CAST) get their keyword as the first argument; optional
    // arguments may be left out, so these take any number of arguments.
    const keyword = FUNCTIONS[name].keywords !== undefined;
    db.function(
      sqlName(name),
      { deterministic: true, varargs: true },
      (...args: unknown[]) =>
        orNull(() =>
          keyword
            ? callFunction(name, String(args[0]), args.slice(1) as Scalar[])
            : callFunction(name, undefined, args as Scalar[])
        ),
    );
  }
}

/** The SQL name a where-clause function is registered under. */
function sqlName(name: string): string {
  return `arcgis_${name.toLowerCase()}`;
}

/**
 * An exception thrown inside a SQLite function callback leaves node:sqlite
 * (Deno 2.9) waiting for ever, so callbacks answer NULL instead (e.g. a LIKE
 * pattern from a field value too large to compile): the row does not match.
 */
function orNull(fn: () => number | string | null): number | string | null {
  try {
    return fn();
  } catch {
    return null;
  }
}

class Compiler {
  readonly params: Scalar[] = [];
  constructor(private readonly columns: ColumnMap, private readonly alias?: string) {}

  private column(name: string): string {
    const c = this.columns[name];
    if (c === undefined) {
      throw new Error(`The source has no column for field "${name}".`);
    }
    const col = typeof c === "string" ? c : c.column;
    const ref = this.alias ? `${quoteIdent(this.alias)}.${quoteIdent(col)}` : quoteIdent(col);
    if (typeof c !== "string" && c.dateText) {
      return `CAST(round(unixepoch(${ref}, 'subsec') * 1000) AS INTEGER)`;
    }
    return ref;
  }

  private param(v: Scalar): string {
    if (v === null) return "NULL";
    if (typeof v === "number" && Number.isFinite(v)) return realLiteral(v);
    this.params.push(v);
    return "?";
  }

  value(n: ValueNode): string {
    switch (n.kind) {
      case "literal":
        return this.param(n.value);
      case "field":
        return this.column(n.name);
      case "neg":
        return `(-${this.value(n.operand)})`;
      case "arith":
        // Force real division: 5/2 is 2.5 in the evaluator too.
        return n.op === "/"
          ? `(${this.value(n.left)} * 1.0 / ${this.value(n.right)})`
          : `(${this.value(n.left)} ${n.op} ${this.value(n.right)})`;
      case "call": {
        const args = n.args.map((a) => this.value(a));
        if (n.keyword !== undefined) {
          // The keyword comes from the parser's fixed lists (YEAR, BOTH, VARCHAR(10) DATE…), never
          // from request text; checked again here because it is written into the SQL.
          if (!/^[A-Z_]+(?:\(\d+\))?(?: DATE)?$/.test(n.keyword)) {
            throw new Error(`Invalid keyword "${n.keyword}" in a call of ${n.name}.`);
          }
          args.unshift(`'${n.keyword}'`);
        }
        return `${sqlName(n.name)}(${args.join(", ")})`;
      }
    }
  }

  /**
   * One operand of a comparison. A bare column compared with anything but
   * a literal (which the parser already gave the column's type) is written
   * `+column`: that strips SQLite's column affinity, which would otherwise
   * convert '10' to 10 (or 10 to '10') and disagree with the evaluator.
   */
  private side(n: ValueNode, others: ValueNode[]): string {
    const sql = this.value(n);
    return n.kind === "field" && others.some((o) => o.kind !== "literal") ? `+${sql}` : sql;
  }

  cond(n: WhereNode): string {
    switch (n.kind) {
      case "and":
      case "or":
        return `(${this.cond(n.left)} ${n.kind.toUpperCase()} ${this.cond(n.right)})`;
      case "not":
        return `(NOT ${this.cond(n.operand)})`;
      case "compare":
        // BINARY collation keeps "=" case-sensitive even on NOCASE columns, as in memory.
        return `(${this.side(n.left, [n.right])} COLLATE BINARY ${n.op} ${
          this.side(n.right, [n.left])
        })`;
      case "in": {
        const v = this.side(n.value, n.list);
        const list = n.list.map((x) => this.side(x, [n.value])).join(", ");
        return `(${v} COLLATE BINARY ${n.negated ? "NOT IN" : "IN"} (${list}))`;
      }
      case "between": {
        const v = this.side(n.value, [n.low, n.high]);
        const lo = this.side(n.low, [n.value]);
        const hi = this.side(n.high, [n.value]);
        return `(${v} COLLATE BINARY ${n.negated ? "NOT BETWEEN" : "BETWEEN"} ${lo} AND ${hi})`;
      }
      case "like": {
        // The escape character as its code point: one character, no parameter needed.
        const escape = n.escape === undefined ? "''" : `char(${n.escape.codePointAt(0)})`;
        const call = `arcgis_like(${this.value(n.value)}, ${this.value(n.pattern)}, ${escape})`;
        return n.negated ? `(NOT ${call})` : call;
      }
      case "isNull":
        return `(${this.value(n.value)} IS ${n.negated ? "NOT NULL" : "NULL"})`;
    }
  }
}

/**
 * A finite number as an SQLite REAL literal, as node:sqlite would bind it
 * (a bound number is REAL even when integral; SQLite reads the shortest
 * round-trip text back to the same double).
 */
function realLiteral(v: number): string {
  const text = String(v);
  const real = /[.e]/.test(text) ? text : `${text}.0`;
  return v < 0 ? `(${real})` : real;
}

/**
 * Compiles a filter to SQL for a WHERE clause. `tableAlias` prefixes
 * column references when the query joins tables.
 *
 * @example
 * ```ts
 * import { parseWhere } from "./mod.ts";
 * const fields = [{ name: "pop", type: "Integer" as const, alias: "pop", length: 0, nullable: true }];
 * toSql(parseWhere("pop > 5", fields)!, { pop: "population" });
 * // { sql: '("population" COLLATE BINARY > 5.0)', params: [] }
 * ```
 */
export function toSql(
  ast: WhereNode,
  columns: ColumnMap,
  opts: { tableAlias?: string } = {},
): CompiledSql {
  const c = new Compiler(columns, opts.tableAlias);
  const sql = c.cond(ast);
  return { sql, params: c.params };
}
