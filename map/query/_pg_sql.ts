/**
 * Compiles a where-clause tree to PostgreSQL SQL with `$n` parameters:
 * the second dialect beside SQLite's (`_sql.ts`). Every value, string or
 * number, is a parameter; only column names chosen by the source, fixed
 * keywords and parameter numbers are written into the text.
 *
 * PostgreSQL cannot run the evaluator's own code as SQLite can (its
 * registered functions), and its built-ins differ from the standardized
 * functions in detail (LIKE, UPPER of Cyrillic under the database's
 * collation, ROUND of halves, errors on division by zero or mixed types).
 * So only the parts whose answer is the same by construction are
 * compiled: comparisons, IN, BETWEEN and IS NULL of fields, literals and
 * the functions of {@linkcode PgCompiler.call} of one kind (text compared
 * byte-wise under `COLLATE "C"`, as SQLite's BINARY does), and float8
 * arithmetic without division. Anything else makes
 * {@linkcode toPgSql} answer null, and the source filters those rows with
 * the in-memory evaluator after PostgreSQL has applied the rest.
 *
 * @module
 */
import type { ValueNode, WhereNode } from "./ast.ts";
import { quoteIdent } from "./_sql.ts";

/** How a PostgreSQL column reads as a where-clause value. */
export interface PgColumn {
  /** Column name (quoted by the compiler). */
  column: string;
  /** number: any numeric type; text: character types; date: timestamp/date (epoch ms). */
  kind: "number" | "text" | "date";
}

/** Canonical field name → PostgreSQL column. */
export type PgColumnMap = Record<string, PgColumn>;

/** A compiled filter: SQL text with `$n` placeholders and their values in order. */
export interface PgCompiled {
  sql: string;
  params: (string | number)[];
}

type Kind = "number" | "text" | "null";

class NotCompiled extends Error {}

/**
 * The expression that reads a column as the where-clause engine sees it
 * (dates as epoch milliseconds, booleans as 0/1).
 *
 * @example
 * ```ts
 * pgColumnValue("t", { column: "opened", kind: "date" });
 * // '(extract(epoch from "t"."opened") * 1000)::float8'
 * ```
 */
export function pgColumnValue(alias: string, c: PgColumn): string {
  const ref = `${quoteIdent(alias)}.${quoteIdent(c.column)}`;
  return c.kind === "date" ? `(extract(epoch from ${ref}) * 1000)::float8` : ref;
}

class PgCompiler {
  readonly params: (string | number)[] = [];
  constructor(
    private readonly columns: PgColumnMap,
    private readonly alias: string,
    private readonly first: number,
  ) {}

  private param(v: string | number, cast: string): string {
    this.params.push(v);
    return `$${this.first + this.params.length - 1}::${cast}`;
  }

  value(n: ValueNode): { sql: string; kind: Kind } {
    switch (n.kind) {
      case "literal":
        if (n.value === null) return { sql: "NULL", kind: "null" };
        if (typeof n.value === "number") {
          if (!Number.isFinite(n.value)) throw new NotCompiled();
          // Whole numbers as bigint: an integer column then keeps its B-tree index (int4 = int8
          // is in its operator family; int4 = float8 would cast the column and scan).
          const cast = Number.isSafeInteger(n.value) ? "bigint" : "float8";
          return { sql: this.param(n.value, cast), kind: "number" };
        }
        return { sql: this.param(n.value, "text"), kind: "text" };
      case "field": {
        const c = this.columns[n.name];
        if (c === undefined) throw new NotCompiled();
        return {
          sql: pgColumnValue(this.alias, c),
          kind: c.kind === "text" ? "text" : "number",
        };
      }
      case "neg": {
        const v = this.value(n.operand);
        if (v.kind !== "number") throw new NotCompiled();
        return { sql: `(-(${v.sql})::float8)`, kind: "number" };
      }
      case "arith": {
        // Division by zero is an error in PostgreSQL and NULL in the evaluator.
        if (n.op === "/") throw new NotCompiled();
        const l = this.value(n.left), r = this.value(n.right);
        if (l.kind !== "number" || r.kind !== "number") throw new NotCompiled();
        return { sql: `((${l.sql})::float8 ${n.op} (${r.sql})::float8)`, kind: "number" };
      }
      case "call":
        return this.call(n);
    }
  }

  /**
   * The functions whose PostgreSQL form answers exactly as the evaluator:
   * ABS, CEILING, FLOOR of numbers (float8), CHAR_LENGTH of text (code
   * points in both), EXTRACT of YEAR…MINUTE from a date field (in UTC, as
   * the evaluator reads epoch milliseconds).
   */
  private call(n: Extract<ValueNode, { kind: "call" }>): { sql: string; kind: Kind } {
    const fn = { ABS: "abs", CEILING: "ceil", FLOOR: "floor" }[n.name as string];
    if (fn !== undefined && n.args.length === 1) {
      const x = this.value(n.args[0]);
      if (x.kind !== "number") throw new NotCompiled();
      return { sql: `${fn}((${x.sql})::float8)`, kind: "number" };
    }
    if (n.name === "CHAR_LENGTH" && n.args.length === 1) {
      const x = this.value(n.args[0]);
      if (x.kind !== "text") throw new NotCompiled();
      return { sql: `char_length(${x.sql})`, kind: "number" };
    }
    const unit = ["YEAR", "MONTH", "DAY", "HOUR", "MINUTE"].find((u) => u === n.keyword);
    const arg = n.args[0];
    if (n.name === "EXTRACT" && unit && n.args.length === 1 && arg.kind === "field") {
      const c = this.columns[arg.name];
      if (c?.kind !== "date") throw new NotCompiled();
      const ms = pgColumnValue(this.alias, c);
      return {
        sql: `(extract(${unit} from to_timestamp(${ms} / 1000) AT TIME ZONE 'UTC'))::float8`,
        kind: "number",
      };
    }
    throw new NotCompiled();
  }

  /** Operands of one comparison, all of one kind (NULL literals go with anything). */
  private same(nodes: ValueNode[]): string[] {
    const vs = nodes.map((x) => this.value(x));
    const kinds = new Set(vs.map((v) => v.kind).filter((k) => k !== "null"));
    if (kinds.size > 1) throw new NotCompiled();
    const text = kinds.has("text");
    return vs.map((v) => (text && v.kind === "text" ? `(${v.sql} COLLATE "C")` : v.sql));
  }

  cond(n: WhereNode): string {
    switch (n.kind) {
      case "and":
      case "or":
        return `(${this.cond(n.left)} ${n.kind.toUpperCase()} ${this.cond(n.right)})`;
      case "not":
        return `(NOT ${this.cond(n.operand)})`;
      case "compare": {
        const [l, r] = this.same([n.left, n.right]);
        return `(${l} ${n.op} ${r})`;
      }
      case "in": {
        const [v, ...list] = this.same([n.value, ...n.list]);
        return `(${v} ${n.negated ? "NOT IN" : "IN"} (${list.join(", ")}))`;
      }
      case "between": {
        const [v, lo, hi] = this.same([n.value, n.low, n.high]);
        return `(${v} ${n.negated ? "NOT BETWEEN" : "BETWEEN"} ${lo} AND ${hi})`;
      }
      case "isNull":
        return `(${this.value(n.value).sql} IS ${n.negated ? "NOT NULL" : "NULL"})`;
      case "like":
        throw new NotCompiled();
    }
  }
}

/**
 * Compiles a filter to a PostgreSQL condition on table alias `alias`,
 * numbering parameters from `first`; null when some part of it must be
 * evaluated in memory instead (see the module notes).
 *
 * @example
 * ```ts
 * import { parseWhere } from "./mod.ts";
 * const fields = [{ name: "pop", type: "Integer" as const, alias: "pop", length: 0, nullable: true }];
 * toPgSql(parseWhere("pop > 5", fields)!, { pop: { column: "pop", kind: "number" } }, "t", 1);
 * // { sql: '("t"."pop" > $1::bigint)', params: [5] }
 * ```
 */
export function toPgSql(
  ast: WhereNode,
  columns: PgColumnMap,
  alias: string,
  first: number,
): PgCompiled | null {
  const c = new PgCompiler(columns, alias, first);
  try {
    return { sql: c.cond(ast), params: c.params };
  } catch (e) {
    if (e instanceof NotCompiled) return null;
    throw e;
  }
}
