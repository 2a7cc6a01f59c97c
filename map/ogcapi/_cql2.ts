/**
 * CQL2-text (OGC 21-065, the `filter` of OGC API – Features Part 3) read
 * straight into the where engine's tree (`map/query/ast.ts`): nothing of
 * the filter text becomes SQL; property names are checked against the
 * layer's fields and literals take the field's type by the where parser's
 * own rule ({@linkcode fieldLiteral}).
 *
 * Supported: basic CQL2 (`=`, `<>`, `<`, `<=`, `>`, `>=`, `IS [NOT] NULL`,
 * AND, OR, NOT, parentheses), the advanced comparison operators (`[NOT]
 * LIKE` with `%`, `_` and `\` escapes, `[NOT] BETWEEN`, `[NOT] IN (...)`),
 * comparisons of two properties, `TIMESTAMP('...')` and `DATE('...')`
 * literals, and `S_INTERSECTS(geometry, <WKT or BBOX>)` as a conjunct of
 * the whole filter (it becomes the query's spatial filter).
 *
 * @module
 */
import type { FieldInfo, Geometry } from "../types.ts";
import type { ValueNode, WhereNode } from "../query/mod.ts";
import {
  fieldLiteral,
  MAX_LIKE_PATTERN,
  MAX_TREE_DEPTH,
  MAX_WHERE_STRINGS,
  MAX_WHERE_TERMS,
  WhereClauseError,
} from "../query/mod.ts";
import { Cql2Error, type Token, TokenCursor, tokenize } from "./_cql2_tokens.ts";
import { readGeometry } from "./_cql2_geometry.ts";

export { Cql2Error } from "./_cql2_tokens.ts";

/** What a CQL2 filter becomes: a where tree and at most one spatial filter. */
export interface Cql2Filter {
  where?: WhereNode;
  /** The S_INTERSECTS geometry, in the filter's CRS (lon/lat order for CRS84). */
  intersects?: Geometry;
}

/** Longest filter text accepted (the where engine bounds terms and strings besides). */
export const MAX_FILTER_LENGTH = 100_000;

const COMPARISONS = new Set(["=", "<>", "<", "<=", ">", ">="]);

/** A scalar operand: a property (its field) or a literal (not yet typed). */
type Operand = { field: FieldInfo } | { literal: string | number | null };

class Reader extends TokenCursor {
  private depth = 0;
  private terms = 0;
  private strings = 0;
  private readonly byName = new Map<string, FieldInfo>();
  intersects: Geometry | undefined;

  constructor(
    tokens: Token[],
    fields: readonly FieldInfo[],
    private readonly geometryNames: readonly string[],
  ) {
    super(tokens);
    for (const f of fields) this.byName.set(f.name.toLowerCase(), f);
  }

  all(): WhereNode | undefined {
    const node = this.or(true);
    if (this.peek().kind !== "end") this.fail("AND, OR or the end of the filter");
    return node;
  }

  /** OR of AND-terms; `top` while still in the conjunction of the whole filter. */
  private or(top: boolean): WhereNode | undefined {
    const before = this.intersects;
    const parts = [this.and(top)];
    if (!this.isWord("OR")) return parts[0];
    // A spatial condition read before the OR turned out to be under it.
    if (this.intersects !== before) {
      throw new Cql2Error("S_INTERSECTS may only be ANDed with the rest of the filter.");
    }
    while (this.isWord("OR")) {
      this.next();
      parts.push(this.and(false));
    }
    return balanced("or", parts as WhereNode[]);
  }

  private and(top: boolean): WhereNode | undefined {
    const parts = [this.not(top)];
    while (this.isWord("AND")) {
      this.next();
      parts.push(this.not(top));
    }
    return balanced("and", parts.filter((p): p is WhereNode => p !== undefined));
  }

  private not(top: boolean): WhereNode | undefined {
    if (this.isWord("NOT")) {
      this.next();
      const operand = this.nested(() => this.not(false));
      return { kind: "not", operand: operand! };
    }
    return this.primary(top);
  }

  private nested<T>(read: () => T): T {
    if (++this.depth > MAX_TREE_DEPTH) {
      throw new Cql2Error(`The filter nests deeper than ${MAX_TREE_DEPTH} levels.`);
    }
    const v = read();
    this.depth--;
    return v;
  }

  private primary(top: boolean): WhereNode | undefined {
    if (this.isOp("(")) {
      this.next();
      const node = this.nested(() => this.or(top));
      this.expectOp(")");
      return node;
    }
    if (this.isWord("S_INTERSECTS") || this.isWord("INTERSECTS")) return this.spatial(top);
    return this.predicate();
  }

  private spatial(top: boolean): undefined {
    const name = this.next() as Token & { text: string };
    if (!top) {
      throw new Cql2Error(
        `${name.text} is supported only as a condition ANDed with the rest of the filter ` +
          "(not under OR or NOT).",
      );
    }
    if (this.intersects) throw new Cql2Error("Only one S_INTERSECTS per filter is supported.");
    this.expectOp("(");
    let geometry: Geometry;
    if (this.isGeometryProperty()) {
      this.next();
      this.expectOp(",");
      geometry = this.geometryLiteral();
    } else {
      geometry = this.geometryLiteral();
      this.expectOp(",");
      if (!this.isGeometryProperty()) this.fail(`the geometry property (${this.geometryNames[0]})`);
      this.next();
    }
    this.expectOp(")");
    this.intersects = geometry;
    return undefined;
  }

  private isGeometryProperty(): boolean {
    const t = this.peek();
    return (t.kind === "word" || t.kind === "quoted") &&
      this.geometryNames.some((n) => n.toLowerCase() === t.text.toLowerCase());
  }

  private geometryLiteral(): Geometry {
    const { geometry, end } = readGeometry(this.tokens, this.i);
    this.i = end;
    return geometry;
  }

  private count(): void {
    if (++this.terms > MAX_WHERE_TERMS) {
      throw new Cql2Error(`The filter has more than ${MAX_WHERE_TERMS} conditions.`);
    }
  }

  private predicate(): WhereNode {
    const left = this.operand();
    this.count();
    const negated = this.isWord("NOT") &&
      (this.isWord("LIKE", 1) || this.isWord("BETWEEN", 1) || this.isWord("IN", 1));
    if (negated) this.next();
    const t = this.peek();
    if (t.kind === "op" && COMPARISONS.has(t.text)) {
      this.next();
      const right = this.operand();
      const [l, r] = this.typedPair(left, right);
      return { kind: "compare", op: t.text as "=", left: l, right: r };
    }
    if (this.isWord("LIKE")) {
      this.next();
      const p = this.string("a quoted LIKE pattern");
      if (p.text.length > MAX_LIKE_PATTERN) {
        throw new Cql2Error(`LIKE patterns are limited to ${MAX_LIKE_PATTERN} characters.`);
      }
      this.countString();
      return {
        kind: "like",
        value: this.value(left),
        pattern: { kind: "literal", value: p.text },
        escape: "\\",
        negated,
      };
    }
    if (this.isWord("BETWEEN")) {
      this.next();
      const low = this.operand();
      this.expectWord("AND");
      const high = this.operand();
      return {
        kind: "between",
        value: this.value(left),
        low: this.typedPair(left, low)[1],
        high: this.typedPair(left, high)[1],
        negated,
      };
    }
    if (this.isWord("IN")) {
      this.next();
      this.expectOp("(");
      const list = [this.typedPair(left, this.operand())[1]];
      while (this.isOp(",")) {
        this.next();
        this.count();
        list.push(this.typedPair(left, this.operand())[1]);
      }
      this.expectOp(")");
      return { kind: "in", value: this.value(left), list, negated };
    }
    if (this.isWord("IS")) {
      this.next();
      const not = this.isWord("NOT");
      if (not) this.next();
      this.expectWord("NULL");
      return { kind: "isNull", value: this.value(left), negated: not };
    }
    this.fail("a comparison, LIKE, BETWEEN, IN or IS NULL");
  }

  private countString(): void {
    if (++this.strings > MAX_WHERE_STRINGS) {
      throw new Cql2Error(`The filter has more than ${MAX_WHERE_STRINGS} strings.`);
    }
  }

  private operand(): Operand {
    const t = this.peek();
    if (t.kind === "op" || t.kind === "end") this.fail("a property name or a literal");
    this.next();
    switch (t.kind) {
      case "string":
        this.countString();
        return { literal: t.text };
      case "number":
        return { literal: t.value };
      case "quoted":
        return { field: this.field(t.text, t.pos) };
      case "word": {
        const word = t.text.toUpperCase();
        if (word === "NULL") return { literal: null };
        if ((word === "TIMESTAMP" || word === "DATE") && this.isOp("(")) {
          this.next();
          const s = this.string(`a quoted ${word.toLowerCase()}`);
          this.expectOp(")");
          return { literal: instantMs(s.text, word, s.pos) };
        }
        return { field: this.field(t.text, t.pos) };
      }
    }
  }

  private field(name: string, pos: number): FieldInfo {
    const f = this.byName.get(name.toLowerCase());
    if (!f) {
      throw new Cql2Error(
        `Unknown property '${name}' at ${pos}; queryables: ${
          [...this.byName.values()].map((v) => v.name).join(", ")
        }.`,
      );
    }
    return f;
  }

  private value(o: Operand): ValueNode {
    return "field" in o
      ? { kind: "field", name: o.field.name }
      : { kind: "literal", value: o.literal };
  }

  /** Both sides, a literal given the type of the property it is compared with. */
  private typedPair(a: Operand, b: Operand): [ValueNode, ValueNode] {
    try {
      if ("field" in a && "literal" in b) return [this.value(a), fieldLiteral(a.field, b.literal)];
      if ("literal" in a && "field" in b) return [fieldLiteral(b.field, a.literal), this.value(b)];
    } catch (e) {
      if (e instanceof WhereClauseError) {
        throw new Cql2Error(e.message.replace(/ \(position \d+\)/, ""));
      }
      throw e;
    }
    return [this.value(a), this.value(b)];
  }
}

/** `'2020-01-01T00:00:00Z'` (TIMESTAMP) or `'2020-01-01'` (DATE) as epoch milliseconds. */
function instantMs(text: string, word: string, pos: number): number {
  const ok = word === "DATE"
    ? /^\d{4}-\d{2}-\d{2}$/.test(text)
    : /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i.test(text);
  const ms = ok ? Date.parse(word === "DATE" ? `${text}T00:00:00Z` : text) : NaN;
  if (Number.isNaN(ms)) {
    throw new Cql2Error(
      `${word}('${text}') at ${pos} is not a valid ${
        word === "DATE" ? "date (YYYY-MM-DD)" : "timestamp (YYYY-MM-DDTHH:MM:SSZ)"
      }.`,
    );
  }
  return ms;
}

/** AND or OR of `parts` as a balanced tree (deep left chains would strain SQL compilers). */
function balanced(kind: "and" | "or", parts: WhereNode[]): WhereNode | undefined {
  if (parts.length === 0) return undefined;
  if (parts.length === 1) return parts[0];
  const mid = parts.length >> 1;
  return {
    kind,
    left: balanced(kind, parts.slice(0, mid))!,
    right: balanced(kind, parts.slice(mid))!,
  };
}

/**
 * Reads a CQL2-text filter against a layer's fields; `geometryNames` are
 * the names the geometry property may be given in S_INTERSECTS.
 *
 * @example
 * ```ts
 * const fields = [{ name: "POP", type: "Integer" as const, alias: "", length: 0, nullable: true }];
 * parseCql2Text("POP > 1000000", fields, ["geometry"]).where;
 * // { kind: "compare", op: ">", left: { kind: "field", name: "POP" }, right: { kind: "literal", value: 1000000 } }
 * ```
 */
export function parseCql2Text(
  text: string,
  fields: readonly FieldInfo[],
  geometryNames: readonly string[],
): Cql2Filter {
  if (text.length > MAX_FILTER_LENGTH) {
    throw new Cql2Error(`The filter is longer than ${MAX_FILTER_LENGTH} characters.`);
  }
  if (text.trim() === "") throw new Cql2Error("The filter is empty.");
  const reader = new Reader(tokenize(text), fields, geometryNames);
  const where = reader.all();
  return { where, intersects: reader.intersects };
}
