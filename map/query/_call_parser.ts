/**
 * Parsing of function calls (`ABS(x)`, `EXTRACT(YEAR FROM d)`,
 * `SUBSTRING(s FROM 2 FOR 3)`…) for the where-clause parser, driven by the
 * function table of `_functions.ts`, and the static types the parser uses
 * to refuse calls such as `ABS(name)` on a text field before any row is read.
 *
 * @module
 */
import type { FieldType } from "../types.ts";
import type { FunctionName, ValueNode } from "./ast.ts";
import { type Token, WhereClauseError } from "./_lexer.ts";
import {
  CAST_TYPES,
  FUNCTIONS,
  type FunctionSpec,
  TRIM_SIDES,
  type ValueType,
} from "./_functions.ts";
import { coerceToType } from "./_coerce.ts";

/** What the call parser needs of the where-clause parser. */
export interface CallReader {
  peek(offset?: number): Token;
  next(): Token;
  isWord(word: string, offset?: number): boolean;
  expect(kind: Token["kind"], what: string): Token;
  expectWord(word: string): void;
  fail(expected: string, t?: Token): never;
  /** Parses one value expression. */
  value(): ValueNode;
  /** Enters / leaves one level of nesting (guards the call stack). */
  enter(): void;
  leave(): void;
  /** Static type of an expression already parsed. */
  typeOf(node: ValueNode): ValueType;
}

const NUMERIC_FIELDS: ReadonlySet<FieldType> = new Set([
  "OID",
  "SmallInteger",
  "Integer",
  "Single",
  "Double",
]);

/**
 * Longest VARCHAR(n) / CHAR(n) length accepted in a CAST (Oracle's VARCHAR2 limit). CHAR(n) pads
 * every row's value to n characters, so n bounds the work a clause can ask for per row.
 */
const MAX_CAST_LENGTH = 4_000;

/**
 * Static type of an expression: fields by their type, literals by their
 * value (`dates` holds the literals written as DATE '…', TIMESTAMP '…' or
 * CURRENT_DATE), calls by the function table.
 */
export function staticType(
  node: ValueNode,
  fieldType: (name: string) => FieldType | undefined,
  dates: WeakSet<ValueNode>,
): ValueType {
  switch (node.kind) {
    case "field": {
      const t = fieldType(node.name);
      if (t === undefined) return "any";
      return NUMERIC_FIELDS.has(t)
        ? "number"
        : t === "String"
        ? "string"
        : t === "Date"
        ? "date"
        : "any";
    }
    case "literal":
      if (node.value === null) return "any";
      if (typeof node.value === "string") return "string";
      return dates.has(node) ? "date" : "number";
    case "arith":
    case "neg":
      return "number";
    case "call":
      return FUNCTIONS[node.name].result(node.keyword);
  }
}

interface Arg {
  node: ValueNode;
  pos: number;
}

/**
 * Parses a call of `name`, the current token being its "(", and checks
 * the arguments' types. Throws WhereClauseError naming the function.
 */
export function parseCall(r: CallReader, name: FunctionName, at: Token): ValueNode {
  const spec = FUNCTIONS[name];
  r.enter();
  r.next();
  const args: Arg[] = [];
  const arg = () => {
    const pos = r.peek().pos;
    args.push({ node: r.value(), pos });
  };
  let keyword: string | undefined;
  switch (spec.form) {
    case "list":
      do arg(); while (r.peek().kind === "," && r.next());
      break;
    case "extract":
      keyword = readKeyword(r, spec, "YEAR, MONTH, DAY, HOUR, MINUTE or SECOND");
      r.expectWord("FROM");
      arg();
      break;
    case "position":
      arg();
      if (!r.isWord("IN")) r.fail(`IN (${spec.syntax})`);
      r.next();
      arg();
      break;
    case "substring":
      arg();
      // The standard's FROM/FOR and the comma form many clients send mean the same.
      if (r.isWord("FROM") || r.peek().kind === ",") {
        const comma = r.next().kind === ",";
        arg();
        if (comma ? r.peek().kind === "," : r.isWord("FOR")) {
          r.next();
          arg();
        }
      } else r.fail(`FROM (${spec.syntax})`);
      break;
    case "trim":
      keyword = readTrim(r, args, arg);
      break;
    case "cast":
      arg();
      r.expectWord("AS");
      keyword = readCastType(r, spec);
      if (/^(VARCHAR|CHAR)\b/.test(keyword) && r.typeOf(args[0].node) === "date") {
        keyword += " DATE";
      }
      break;
  }
  r.expect(")", `")" closing ${name}(`);
  r.leave();
  const min = spec.params.length - spec.optional;
  if (args.length < min || args.length > spec.params.length) {
    const count = min === spec.params.length ? `${min}` : `${min} or ${spec.params.length}`;
    throw new WhereClauseError(
      `${name}() at position ${at.pos} takes ${count} argument${count === "1" ? "" : "s"} ` +
        `(${spec.syntax}) but was given ${args.length}.`,
      at.pos,
    );
  }
  const checked = args.map((a, i) => checkArg(r, name, spec.params[i], a, i));
  return keyword === undefined
    ? { kind: "call", name, args: checked }
    : { kind: "call", name, args: checked, keyword };
}

function readKeyword(r: CallReader, spec: FunctionSpec, list: string): string {
  const t = r.peek();
  const word = t.kind === "ident" ? t.text.toUpperCase() : "";
  if (!spec.keywords!.includes(word)) r.fail(list);
  r.next();
  return word;
}

/** `TRIM([BOTH|LEADING|TRAILING] [chars] FROM s)` or `TRIM(s)`; args become [s, chars?]. */
function readTrim(r: CallReader, args: Arg[], arg: () => void): string {
  let side: string | undefined;
  const t = r.peek();
  if (t.kind === "ident" && (TRIM_SIDES as readonly string[]).includes(t.text.toUpperCase())) {
    side = t.text.toUpperCase();
    r.next();
  }
  if (r.isWord("FROM")) {
    r.next();
    arg();
    return side ?? "BOTH";
  }
  arg();
  if (r.isWord("FROM")) {
    r.next();
    arg();
    // Written "chars FROM s": the syntax tree holds the string first.
    args.reverse();
  } else if (side !== undefined) r.fail("FROM (TRIM(LEADING 'c' FROM s))");
  return side ?? "BOTH";
}

function readCastType(r: CallReader, spec: FunctionSpec): string {
  const t = r.peek();
  let type = t.kind === "ident" ? t.text.toUpperCase() : "";
  if (type === "INT") type = "INTEGER";
  if (!(CAST_TYPES as readonly string[]).includes(type)) {
    r.fail(`a type (${spec.keywords!.join(", ")})`);
  }
  r.next();
  if (type === "DOUBLE" && r.isWord("PRECISION")) r.next();
  if ((type === "VARCHAR" || type === "CHAR") && r.peek().kind === "(") {
    r.next();
    const n = r.peek();
    if (n.kind !== "number" || !/^\d+$/.test(n.text) || Number(n.text) > MAX_CAST_LENGTH) {
      r.fail(`a length from 0 to ${MAX_CAST_LENGTH}`);
    }
    r.next();
    r.expect(")", `")" closing ${type}(`);
    type += `(${Number(n.text)})`;
  }
  return type;
}

const TYPE_WORDS: Record<ValueType, string> = {
  number: "a number",
  string: "text",
  date: "a date",
  any: "a value",
};

const HINTS: Partial<Record<ValueType, string>> = {
  number: " (CAST(value AS FLOAT) reads text as a number)",
  string: " (CAST(value AS VARCHAR) turns a number or date into text)",
};

function describeArg(a: Arg): string {
  const n = a.node;
  if (n.kind === "field") return `field "${n.name}"`;
  if (n.kind === "literal") return typeof n.value === "string" ? `'${n.value}'` : String(n.value);
  return `the expression at position ${a.pos}`;
}

/** The argument if its type fits, a literal converted to the expected type, or an error. */
function checkArg(r: CallReader, name: string, expected: ValueType, a: Arg, i: number): ValueNode {
  const actual = r.typeOf(a.node);
  if (expected === "any" || actual === "any" || actual === expected) return a.node;
  const n = a.node;
  const text = n.kind === "literal" && typeof n.value === "string" ? n.value : undefined;
  if (text !== undefined) {
    // A literal that reads as the expected type is converted now ('5' for ABS, '2021-03-04' for
    // EXTRACT), as a literal compared with a field is.
    const converted = coerceToType(n as ValueNode & { kind: "literal" }, expected);
    if (converted !== n) return converted;
  }
  if (expected === "date" && actual === "string") {
    // Text is read as a date at run time ('YYYY-MM-DD[ HH:MM:SS]', UTC); a literal must be one.
    if (text === undefined) return n;
    throw new WhereClauseError(
      `${name}() needs a date, but '${text}' at position ${a.pos} is not one; ` +
        "write date 'YYYY-MM-DD' or timestamp 'YYYY-MM-DD HH:MM:SS'.",
      a.pos,
    );
  }
  const ordinal = ["first", "second", "third"][i] ?? `#${i + 1}`;
  throw new WhereClauseError(
    `${name}() expects ${TYPE_WORDS[expected]} as its ${ordinal} argument, but ${
      describeArg(a)
    } at position ${a.pos} is ${TYPE_WORDS[actual]}${HINTS[expected] ?? ""}.`,
    a.pos,
  );
}
