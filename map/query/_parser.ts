/**
 * Recursive-descent parser from where-clause tokens to the syntax tree of
 * `ast.ts`, resolving field names against the layer and giving literals
 * compared with a field that field's type (so SQL and in-memory
 * evaluation see the same values).
 *
 * Precedence, loosest first: OR, AND, NOT, predicates (comparison, IN,
 * BETWEEN, LIKE, IS NULL), + -, * /, unary minus.
 *
 * @module
 */
import type { FieldInfo } from "../types.ts";
import type { ValueNode, WhereNode } from "./ast.ts";
import { describe, type Token, tokenize, WhereClauseError } from "./_lexer.ts";
import { parseDateLiteral } from "./_values.ts";
import { coercePair } from "./_coerce.ts";
import { balance, checkDepth, mergeEqualities } from "./_tree_shape.ts";
import { FUNCTION_NAMES, NILADIC, type ValueType } from "./_functions.ts";
import { type CallReader, parseCall, staticType } from "./_call_parser.ts";

/** Words that would start another statement or a subquery. */
const FORBIDDEN = new Set([
  "SELECT",
  "FROM",
  "WHERE",
  "UNION",
  "EXISTS",
  "DROP",
  "DELETE",
  "INSERT",
  "UPDATE",
  "CREATE",
  "ALTER",
  "ATTACH",
  "DETACH",
  "PRAGMA",
  "EXEC",
  "EXECUTE",
  "GRANT",
  "TRUNCATE",
  "REPLACE",
  "VACUUM",
]);

const MAX_DEPTH = 100;

/**
 * Most conditions one where clause may hold: each comparison, BETWEEN,
 * LIKE and IS NULL counts one, an IN list one per value. Clients page by
 * FID with `OBJECTID = 1 OR OBJECTID = 2 OR …`; 30,000 keeps such a page
 * well inside a 10 MiB request and every backend's limits.
 */
export const MAX_WHERE_TERMS = 30_000;

/**
 * Most quoted strings one where clause may hold. Strings reach SQLite as
 * bound parameters, of which one statement takes at most 32,766; the rest
 * are left to the query's own parameters.
 */
export const MAX_WHERE_STRINGS = 30_000;

const COMPARE = new Set(["=", "<>", "!=", "<", "<=", ">", ">="]);

/**
 * Longest LIKE pattern literal accepted. Patterns compile to regular
 * expressions; a pattern of tens of thousands of characters fails to
 * compile inside SQLite's function callback, which node:sqlite cannot
 * recover from.
 */
export const MAX_LIKE_PATTERN = 2000;

class Parser implements CallReader {
  private i = 0;
  private depth = 0;
  private terms = 0;
  private strings = 0;
  private readonly byName = new Map<string, FieldInfo>();
  /** Literals written as dates (DATE '…', TIMESTAMP '…', CURRENT_DATE…), for type checks. */
  private readonly dates = new WeakSet<ValueNode>();

  constructor(private readonly tokens: Token[], private readonly fields: FieldInfo[]) {
    for (const f of fields) this.byName.set(f.name.toLowerCase(), f);
  }

  peek(offset = 0): Token {
    return this.tokens[Math.min(this.i + offset, this.tokens.length - 1)];
  }

  next(): Token {
    return this.tokens[this.i < this.tokens.length - 1 ? this.i++ : this.i];
  }

  isWord(word: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t.kind === "ident" && t.text.toUpperCase() === word;
  }

  fail(expected: string, t: Token = this.peek()): never {
    throw new WhereClauseError(
      `Invalid where clause at position ${t.pos}: expected ${expected} but found ${describe(t)}.`,
      t.pos,
    );
  }

  expectWord(word: string): void {
    if (!this.isWord(word)) this.fail(word);
    this.next();
  }

  expect(kind: Token["kind"], what: string): Token {
    if (this.peek().kind !== kind) this.fail(what);
    return this.next();
  }

  parseAll(): WhereNode {
    const node = this.or();
    if (this.peek().kind !== "end") {
      this.fail("AND, OR or the end of the clause");
    }
    checkDepth(node);
    return node;
  }

  // AND and OR chains become balanced trees (both are associative in three-valued logic), so
  // a chain of n terms is log2(n) deep for the evaluator's recursion and SQLite's depth limit.
  private or(): WhereNode {
    const operands = [this.and()];
    while (this.isWord("OR")) {
      this.next();
      operands.push(this.and());
    }
    return balance("or", mergeEqualities(operands));
  }

  private and(): WhereNode {
    const operands = [this.not()];
    while (this.isWord("AND")) {
      this.next();
      operands.push(this.not());
    }
    return balance("and", operands);
  }

  private not(): WhereNode {
    // A loop, not recursion: "NOT NOT … NOT" must not grow the parser's stack.
    let nots = 0;
    while (this.isWord("NOT")) {
      this.next();
      nots++;
    }
    let node = this.predicate();
    for (; nots > 0; nots--) node = { kind: "not", operand: node };
    return node;
  }

  /** Counts conditions (and quoted strings) against the clause's limits. */
  private count(terms: number, at: number): void {
    this.terms += terms;
    if (this.terms > MAX_WHERE_TERMS) {
      throw limitError(
        `The where clause has more than ${MAX_WHERE_TERMS} conditions (the limit is reached at ` +
          `position ${at}); split it into several requests or use fewer, wider conditions ` +
          "(e.g. OBJECTID BETWEEN a AND b).",
        at,
      );
    }
  }

  private predicate(): WhereNode {
    if (this.peek().kind !== "(") return this.predicateTail(this.value());
    // "(" opens either a boolean group or a value such as "(a + b) > 3": try the group first.
    const start = this.i;
    const [terms, strings] = [this.terms, this.strings];
    let groupError: WhereClauseError | undefined;
    try {
      this.enter();
      this.next();
      const inner = this.or();
      this.expect(")", '")"');
      this.depth--;
      const t = this.peek();
      const continuesAsValue = t.kind === "op" ||
        ["IN", "BETWEEN", "LIKE", "IS"].some((w) => this.isWord(w)) ||
        (this.isWord("NOT") && ["IN", "BETWEEN", "LIKE"].some((w) => this.isWord(w, 1)));
      if (!continuesAsValue) return inner;
    } catch (e) {
      if (!(e instanceof WhereClauseError) || e.tooDeep) throw e;
      groupError = e;
    }
    this.i = start;
    this.depth = this.depthAt(start);
    [this.terms, this.strings] = [terms, strings];
    try {
      return this.predicateTail(this.value());
    } catch (e) {
      // Report whichever reading got further: that is where the user's mistake is.
      if (groupError && e instanceof WhereClauseError && groupError.position > e.position) {
        throw groupError;
      }
      throw e;
    }
  }

  /** Guards the call stack against absurdly nested parentheses. */
  enter(): void {
    if (++this.depth > MAX_DEPTH) {
      const t = this.peek();
      const e = new WhereClauseError(
        `Parentheses are nested more than ${MAX_DEPTH} deep at position ${t.pos}; simplify the clause.`,
        t.pos,
      );
      e.tooDeep = true;
      throw e;
    }
  }

  leave(): void {
    this.depth--;
  }

  typeOf(node: ValueNode): ValueType {
    return staticType(node, (name) => this.byName.get(name.toLowerCase())?.type, this.dates);
  }

  /** Nesting depth before token `index` (count of unclosed "("). */
  private depthAt(index: number): number {
    let d = 0;
    for (let k = 0; k < index; k++) {
      if (this.tokens[k].kind === "(") d++;
      else if (this.tokens[k].kind === ")") d--;
    }
    return d;
  }

  private predicateTail(value: ValueNode): WhereNode {
    const t = this.peek();
    if (t.kind === "op" && COMPARE.has(t.text)) {
      this.count(1, t.pos);
      this.next();
      const right = this.value();
      const op = (t.text === "!=" ? "<>" : t.text) as "=" | "<>" | "<" | "<=" | ">" | ">=";
      const [l, r] = this.coercePair(value, right, t.pos);
      return { kind: "compare", op, left: l, right: r };
    }
    if (this.isWord("IS")) {
      this.count(1, t.pos);
      this.next();
      const negated = this.isWord("NOT");
      if (negated) this.next();
      this.expectWord("NULL");
      return { kind: "isNull", value, negated };
    }
    const negated = this.isWord("NOT");
    if (negated) this.next();
    if (this.isWord("IN")) {
      this.next();
      this.expect("(", '"(" after IN');
      if (this.isWord("SELECT")) this.forbidden(this.peek());
      const list: ValueNode[] = [];
      do {
        const at = this.peek().pos;
        this.count(1, at);
        list.push(this.coercePair(value, this.value(), at)[1]);
      } while (this.peek().kind === "," && this.next());
      this.expect(")", '"," or ")" in the IN list');
      return { kind: "in", value, list, negated };
    }
    if (this.isWord("BETWEEN")) {
      this.count(1, t.pos);
      this.next();
      const lowAt = this.peek().pos;
      const low = this.coercePair(value, this.value(), lowAt)[1];
      this.expectWord("AND");
      const highAt = this.peek().pos;
      const high = this.coercePair(value, this.value(), highAt)[1];
      return { kind: "between", value, low, high, negated };
    }
    if (this.isWord("LIKE")) {
      this.count(1, t.pos);
      this.next();
      const patternAt = this.peek().pos;
      const pattern = this.value();
      if (
        pattern.kind === "literal" && typeof pattern.value === "string" &&
        pattern.value.length > MAX_LIKE_PATTERN
      ) {
        throw new WhereClauseError(
          `The LIKE pattern at position ${patternAt} is ${pattern.value.length} characters long; ` +
            `patterns may have at most ${MAX_LIKE_PATTERN}.`,
          patternAt,
        );
      }
      if (!this.isWord("ESCAPE")) return { kind: "like", value, pattern, negated };
      this.next();
      const esc = this.expect("string", "a one-character string after ESCAPE");
      if ([...esc.text].length !== 1) {
        throw new WhereClauseError(
          `The ESCAPE character at position ${esc.pos} must be exactly one character, got '${esc.text}'.`,
          esc.pos,
        );
      }
      return { kind: "like", value, pattern, escape: esc.text, negated };
    }
    if (negated) this.fail("IN, BETWEEN or LIKE after NOT");
    return this.fail("a comparison (=, <>, <, <=, >, >=), IN, BETWEEN, LIKE or IS NULL");
  }

  value(): ValueNode {
    let left = this.term();
    for (;;) {
      const t = this.peek();
      if (t.kind === "op" && t.text === "||") {
        throw new WhereClauseError(
          `String concatenation (||) at position ${t.pos} is not supported in where clauses.`,
          t.pos,
        );
      }
      if (t.kind !== "op" || (t.text !== "+" && t.text !== "-")) return left;
      this.next();
      left = { kind: "arith", op: t.text, left, right: this.term() };
    }
  }

  private term(): ValueNode {
    let left = this.unary();
    for (;;) {
      const t = this.peek();
      if (t.kind !== "op" || (t.text !== "*" && t.text !== "/")) return left;
      this.next();
      left = { kind: "arith", op: t.text, left, right: this.unary() };
    }
  }

  private unary(): ValueNode {
    // Signs are read in a loop, not by recursion, so "- - - … 5" cannot exhaust the stack.
    const signs: string[] = [];
    for (
      let t = this.peek();
      t.kind === "op" && (t.text === "-" || t.text === "+");
      t = this.peek()
    ) {
      signs.push(t.text);
      this.next();
    }
    let operand = this.primary();
    while (signs.length > 0) {
      if (signs.pop() === "+") continue;
      // Fold "-5" into a literal so it reads and coerces like one.
      operand = operand.kind === "literal" && typeof operand.value === "number"
        ? { kind: "literal", value: -operand.value }
        : { kind: "neg", operand };
    }
    return operand;
  }

  private primary(): ValueNode {
    const t = this.next();
    switch (t.kind) {
      case "number":
        return { kind: "literal", value: Number(t.text) };
      case "string":
        if (++this.strings > MAX_WHERE_STRINGS) {
          throw limitError(
            `The where clause has more than ${MAX_WHERE_STRINGS} quoted strings (the limit is ` +
              `reached at position ${t.pos}); split it into several requests.`,
            t.pos,
          );
        }
        return { kind: "literal", value: t.text };
      case "quoted":
        return { kind: "field", name: this.field(t).name };
      case "(": {
        this.enter();
        const inner = this.value();
        this.expect(")", '")"');
        this.depth--;
        return inner;
      }
      case "ident":
        return this.word(t);
      default:
        this.i--;
        return this.fail("a field name, a number, a 'string', NULL or a function", t);
    }
  }

  private word(t: Token): ValueNode {
    const upper = t.text.toUpperCase();
    if (upper === "NULL") return { kind: "literal", value: null };
    // The current date/time is fixed when the clause is parsed (parse per request).
    const niladic = Object.hasOwn(NILADIC, upper) ? NILADIC[upper] : undefined;
    if (niladic && (this.peek().kind !== "(" || this.peek(1).kind === ")")) {
      if (this.peek().kind === "(") this.i += 2; // CURRENT_DATE() as ArcGIS Online writes it
      return this.dateLiteral(niladic.value(new Date()));
    }
    if ((upper === "DATE" || upper === "TIMESTAMP") && this.peek().kind === "string") {
      const s = this.next();
      const ms = parseDateLiteral(s.text);
      if (ms === null) {
        throw new WhereClauseError(
          `The ${upper} literal '${s.text}' at position ${s.pos} is not a valid date; ` +
            "write it as 'YYYY-MM-DD' or 'YYYY-MM-DD HH:MM:SS'.",
          s.pos,
        );
      }
      return this.dateLiteral(ms);
    }
    if (this.peek().kind === "(") {
      const name = FUNCTION_NAMES.find((f) => f === upper);
      if (!name) {
        if (FORBIDDEN.has(upper)) this.forbidden(t);
        throw new WhereClauseError(
          `Unknown function ${t.text}() at position ${t.pos}; supported functions: ${
            [...FUNCTION_NAMES, ...Object.keys(NILADIC)].join(", ")
          }.`,
          t.pos,
        );
      }
      return parseCall(this, name, t);
    }
    return { kind: "field", name: this.field(t).name };
  }

  private dateLiteral(ms: number): ValueNode {
    const node: ValueNode = { kind: "literal", value: ms };
    this.dates.add(node);
    return node;
  }

  private forbidden(t: Token): never {
    throw new WhereClauseError(
      `"${t.text}" at position ${t.pos} is not allowed: a where clause is one filter expression ` +
        "(subqueries and other statements are not supported).",
      t.pos,
    );
  }

  private field(t: Token): FieldInfo {
    const f = this.byName.get(t.text.toLowerCase());
    if (!f) {
      if (t.kind === "ident" && FORBIDDEN.has(t.text.toUpperCase())) this.forbidden(t);
      const valid = this.fields.filter((x) => x.type !== "Geometry").map((x) => x.name);
      throw new WhereClauseError(
        `Unknown field "${t.text}" at position ${t.pos}; valid fields are: ${valid.join(", ")}.`,
        t.pos,
      );
    }
    if (f.type === "Geometry") {
      throw new WhereClauseError(
        `Field "${f.name}" at position ${t.pos} holds geometry and cannot be used in a where clause.`,
        t.pos,
      );
    }
    return f;
  }

  /** The pair with a literal given the type of what it is compared with (see `_coerce.ts`). */
  private coercePair(left: ValueNode, right: ValueNode, pos: number): [ValueNode, ValueNode] {
    return coercePair(left, right, pos, (n) => this.byName.get(n.toLowerCase())!, this);
  }
}

/** An error no other reading of the clause can avoid (the parser does not backtrack past it). */
function limitError(message: string, at: number): WhereClauseError {
  const e = new WhereClauseError(message, at);
  e.tooDeep = true;
  return e;
}

/**
 * Parses a where clause against a layer's fields. Empty or blank text
 * means "no filter" (undefined). Throws {@linkcode WhereClauseError}.
 */
export function parseWhereClause(
  text: string | null | undefined,
  fields: FieldInfo[],
): WhereNode | undefined {
  if (text === null || text === undefined || text.trim() === "") return undefined;
  return new Parser(tokenize(text), fields).parseAll();
}
