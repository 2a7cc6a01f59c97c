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
import type { FieldInfo, Geometry, Position } from "../types.ts";
import type { ValueNode, WhereNode } from "../query/mod.ts";
import {
  fieldLiteral,
  MAX_LIKE_PATTERN,
  MAX_TREE_DEPTH,
  MAX_WHERE_STRINGS,
  MAX_WHERE_TERMS,
  WhereClauseError,
} from "../query/mod.ts";

/** What a CQL2 filter becomes: a where tree and at most one spatial filter. */
export interface Cql2Filter {
  where?: WhereNode;
  /** The S_INTERSECTS geometry, in the filter's CRS (lon/lat order for CRS84). */
  intersects?: Geometry;
}

/** A CQL2 filter the server cannot read: the message says where and why. */
export class Cql2Error extends Error {}

/** Longest filter text accepted (the where engine bounds terms and strings besides). */
export const MAX_FILTER_LENGTH = 100_000;

type Token =
  | { kind: "word"; text: string; pos: number }
  | { kind: "quoted"; text: string; pos: number }
  | { kind: "string"; text: string; pos: number }
  | { kind: "number"; value: number; pos: number }
  | { kind: "op"; text: string; pos: number }
  | { kind: "end"; pos: number };

function tokenize(text: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const pos = i;
    if (c === "'") {
      let s = "";
      i++;
      for (;;) {
        if (i >= text.length) throw new Cql2Error(`Unterminated string starting at ${pos}.`);
        if (text[i] === "'") {
          if (text[i + 1] === "'") {
            s += "'";
            i += 2;
            continue;
          }
          i++;
          break;
        }
        s += text[i++];
      }
      out.push({ kind: "string", text: s, pos });
    } else if (c === '"') {
      const end = text.indexOf('"', i + 1);
      if (end < 0) throw new Cql2Error(`Unterminated quoted property name at ${pos}.`);
      out.push({ kind: "quoted", text: text.slice(i + 1, end), pos });
      i = end + 1;
    } else if (/[0-9.]/.test(c) || (c === "-" && /[0-9.]/.test(text[i + 1] ?? ""))) {
      const m = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/.exec(text.slice(i));
      if (!m) throw new Cql2Error(`Cannot read a number at ${pos}.`);
      out.push({ kind: "number", value: Number(m[0]), pos });
      i += m[0].length;
    } else if (/[\p{L}_]/u.test(c)) {
      const m = /^[\p{L}_][\p{L}\p{N}_.:]*/u.exec(text.slice(i))!;
      out.push({ kind: "word", text: m[0], pos });
      i += m[0].length;
    } else {
      const two = text.slice(i, i + 2);
      const op = ["<>", "<=", ">="].includes(two) ? two : c;
      if (!["<>", "<=", ">=", "=", "<", ">", "(", ")", ","].includes(op)) {
        throw new Cql2Error(`Unexpected character '${c}' at ${pos}.`);
      }
      out.push({ kind: "op", text: op, pos });
      i += op.length;
    }
  }
  out.push({ kind: "end", pos: text.length });
  return out;
}

const COMPARISONS = new Set(["=", "<>", "<", "<=", ">", ">="]);

/** A scalar operand: a property (its field) or a literal (not yet typed). */
type Operand = { field: FieldInfo } | { literal: string | number | null };

class Reader {
  private i = 0;
  private depth = 0;
  private terms = 0;
  private strings = 0;
  private readonly byName = new Map<string, FieldInfo>();
  intersects: Geometry | undefined;

  constructor(
    private readonly tokens: Token[],
    fields: readonly FieldInfo[],
    private readonly geometryNames: readonly string[],
  ) {
    for (const f of fields) this.byName.set(f.name.toLowerCase(), f);
  }

  private peek(): Token {
    return this.tokens[this.i];
  }

  private next(): Token {
    const t = this.tokens[this.i];
    if (t.kind !== "end") this.i++;
    return t;
  }

  private isWord(word: string, offset = 0): boolean {
    const t = this.tokens[Math.min(this.i + offset, this.tokens.length - 1)];
    return t.kind === "word" && t.text.toUpperCase() === word;
  }

  private isOp(op: string): boolean {
    const t = this.peek();
    return t.kind === "op" && t.text === op;
  }

  private fail(expected: string): never {
    const t = this.peek();
    const found = t.kind === "end"
      ? "the end of the filter"
      : t.kind === "number"
      ? `${t.value}`
      : `'${t.text}'`;
    throw new Cql2Error(`At position ${t.pos}: expected ${expected} but found ${found}.`);
  }

  private expectOp(op: string): void {
    if (!this.isOp(op)) this.fail(`'${op}'`);
    this.next();
  }

  private expectWord(word: string): void {
    if (!this.isWord(word)) this.fail(word);
    this.next();
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
    const t = this.peek();
    if (t.kind !== "word") this.fail("a geometry (POINT, LINESTRING, POLYGON, ... or BBOX)");
    const kind = t.text.toUpperCase();
    this.next();
    switch (kind) {
      case "BBOX": {
        const n = this.numberList();
        if (n.length !== 4 && n.length !== 6) throw new Cql2Error("BBOX takes 4 or 6 numbers.");
        const [xmin, ymin, xmax, ymax] = n.length === 4 ? n : [n[0], n[1], n[3], n[4]];
        if (xmin > xmax || ymin > ymax) {
          throw new Cql2Error("BBOX must be (minx, miny, maxx, maxy) with min <= max.");
        }
        return { type: "Envelope", xmin, ymin, xmax, ymax };
      }
      case "POINT":
        return pointOf(this.positions(0));
      case "MULTIPOINT":
        return { type: "Multipoint", points: this.multiPoints() };
      case "LINESTRING":
        return { type: "Polyline", paths: [this.positions(1)] };
      case "MULTILINESTRING":
        return { type: "Polyline", paths: this.positions(2) };
      case "POLYGON":
        return { type: "Polygon", rings: arcgisRings([this.positions(2)]) };
      case "MULTIPOLYGON":
        return { type: "Polygon", rings: arcgisRings(this.positions(3)) };
      default:
        throw new Cql2Error(
          `Unsupported geometry ${kind} at ${t.pos}; use POINT, MULTIPOINT, LINESTRING, ` +
            "MULTILINESTRING, POLYGON, MULTIPOLYGON or BBOX.",
        );
    }
  }

  private numberList(): number[] {
    this.expectOp("(");
    const out = [this.number()];
    while (this.isOp(",")) {
      this.next();
      out.push(this.number());
    }
    this.expectOp(")");
    return out;
  }

  private number(): number {
    const t = this.next();
    if (t.kind !== "number") {
      this.i--;
      this.fail("a number");
    }
    return t.value;
  }

  /** `(x y, ...)` nested `level` times deeper than a position (`x y` itself at 0). */
  // deno-lint-ignore no-explicit-any
  private positions(level: number): any {
    if (level === 0) {
      this.expectOp("(");
      const p = this.position();
      this.expectOp(")");
      return p;
    }
    this.expectOp("(");
    const out = [level === 1 ? this.position() : this.positions(level - 1)];
    while (this.isOp(",")) {
      this.next();
      out.push(level === 1 ? this.position() : this.positions(level - 1));
    }
    this.expectOp(")");
    if (++this.terms > MAX_WHERE_TERMS) throw new Cql2Error("The filter geometry is too large.");
    return out;
  }

  /** MULTIPOINT ((1 2), (3 4)) or MULTIPOINT (1 2, 3 4). */
  private multiPoints(): Position[] {
    this.expectOp("(");
    const read = () => {
      if (!this.isOp("(")) return this.position();
      this.next();
      const p = this.position();
      this.expectOp(")");
      return p;
    };
    const out = [read()];
    while (this.isOp(",")) {
      this.next();
      out.push(read());
    }
    this.expectOp(")");
    return out;
  }

  private position(): Position {
    const x = this.number(), y = this.number();
    // A third (z) coordinate is read and dropped: the filter is two-dimensional.
    if (this.peek().kind === "number") this.next();
    return [x, y];
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
      const p = this.next();
      if (p.kind !== "string") {
        this.i--;
        this.fail("a quoted LIKE pattern");
      }
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
    const t = this.next();
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
          const s = this.next();
          if (s.kind !== "string") {
            this.i--;
            this.fail(`a quoted ${word.toLowerCase()}`);
          }
          this.expectOp(")");
          return { literal: instantMs(s.text, word, s.pos) };
        }
        return { field: this.field(t.text, t.pos) };
      }
      default:
        this.i--;
        this.fail("a property name or a literal");
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

function pointOf(p: Position): Geometry {
  return { type: "Point", x: p[0], y: p[1] };
}

/** WKT polygons (outer rings counter-clockwise) as ArcGIS rings (outer clockwise). */
function arcgisRings(polygons: Position[][][]): Position[][] {
  const area = (r: Position[]) => {
    let a = 0;
    for (let i = 0; i + 1 < r.length; i++) a += r[i][0] * r[i + 1][1] - r[i + 1][0] * r[i][1];
    return a;
  };
  return polygons.flatMap((rings) =>
    rings.map((ring, i) => {
      const clockwise = area(ring) < 0;
      return (i === 0) === clockwise ? ring : [...ring].reverse();
    })
  );
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
