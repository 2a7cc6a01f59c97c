/**
 * Tokenizer for where clauses. Refuses, with a reason, what has no place
 * in a single filter expression: statement separators, comments and
 * characters outside the grammar.
 *
 * @module
 */

import { InvalidRequestError } from "../errors.ts";

/** A where clause that cannot be used, with the place it went wrong (the client's fault). */
export class WhereClauseError extends InvalidRequestError {
  /** 0-based character offset into the clause. */
  readonly position: number;
  /** Set when the clause is nested too deeply to parse at all (no retry helps). */
  tooDeep = false;

  /** Builds the error; the message names the position for the user. */
  constructor(message: string, position: number) {
    super(message);
    this.name = "WhereClauseError";
    this.position = position;
  }
}

/** Token kinds. */
export type TokenKind =
  | "number"
  | "string"
  | "ident"
  | "quoted"
  | "op"
  | "("
  | ")"
  | ","
  | "end";

/** One token with its source offset. */
export interface Token {
  kind: TokenKind;
  /** Identifier/operator text, string contents (unescaped) or number text. */
  text: string;
  pos: number;
}

const OPERATORS = ["<>", "!=", "<=", ">=", "=", "<", ">", "+", "-", "*", "/", "||"];

/** Describes a token for error messages. */
export function describe(t: Token): string {
  switch (t.kind) {
    case "end":
      return "the end of the clause";
    case "string":
      return `the string '${t.text}'`;
    case "quoted":
      return `the name "${t.text}"`;
    default:
      return `"${t.text}"`;
  }
}

/** Splits a where clause into tokens; throws WhereClauseError on anything foreign. */
export function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const pos = i;
    if (c === ";") {
      throw new WhereClauseError(
        `Unexpected ";" at position ${pos}: a where clause is a single expression, not a list of statements.`,
        pos,
      );
    }
    if (src.startsWith("--", i) || src.startsWith("/*", i) || c === "#") {
      throw new WhereClauseError(
        `SQL comments are not allowed in a where clause (found "${
          src.slice(i, i + 2)
        }" at position ${pos}).`,
        pos,
      );
    }
    if (c === "'") {
      let text = "";
      i++;
      for (;;) {
        if (i >= src.length) {
          throw new WhereClauseError(
            `The string starting at position ${pos} is not closed; add a closing ' (write '' for a quote inside it).`,
            pos,
          );
        }
        if (src[i] === "'") {
          if (src[i + 1] === "'") {
            text += "'";
            i += 2;
            continue;
          }
          i++;
          break;
        }
        text += src[i++];
      }
      out.push({ kind: "string", text, pos });
      continue;
    }
    if (c === '"' || c === "[") {
      const close = c === '"' ? '"' : "]";
      let text = "";
      i++;
      for (;;) {
        if (i >= src.length) {
          throw new WhereClauseError(
            `The field name quoted at position ${pos} is not closed; add a closing ${close}.`,
            pos,
          );
        }
        if (src[i] === close) {
          if (close === '"' && src[i + 1] === '"') {
            text += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        text += src[i++];
      }
      out.push({ kind: "quoted", text, pos });
      continue;
    }
    const num = /^(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?/.exec(src.slice(i));
    if (num) {
      i += num[0].length;
      if (i < src.length && /[\p{L}_]/u.test(src[i])) {
        throw new WhereClauseError(
          `"${num[0]}${src[i]}" at position ${pos} is neither a number nor a field name.`,
          pos,
        );
      }
      out.push({ kind: "number", text: num[0], pos });
      continue;
    }
    const ident = /^[\p{L}_][\p{L}\p{N}_$]*/u.exec(src.slice(i));
    if (ident) {
      i += ident[0].length;
      out.push({ kind: "ident", text: ident[0], pos });
      continue;
    }
    if (c === "(" || c === ")" || c === ",") {
      i++;
      out.push({ kind: c, text: c, pos });
      continue;
    }
    const op = OPERATORS.find((o) => src.startsWith(o, i));
    if (op) {
      i += op.length;
      out.push({ kind: "op", text: op, pos });
      continue;
    }
    throw new WhereClauseError(
      `Unexpected character "${c}" at position ${pos}; a where clause uses field names, ` +
        "'strings', numbers, comparison and arithmetic operators, AND/OR/NOT, IN, BETWEEN, LIKE and IS NULL.",
      pos,
    );
  }
  out.push({ kind: "end", text: "", pos: src.length });
  return out;
}
