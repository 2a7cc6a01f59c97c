/**
 * The tokens of CQL2-text (strings with doubled quotes, "quoted"
 * property names, numbers, words, operators) and a cursor over them with
 * the error a reader raises: where the filter went wrong and what was
 * expected there.
 *
 * @module
 */

/** A CQL2 filter the server cannot read: the message says where and why. */
export class Cql2Error extends Error {}

/** One token of a filter; `pos` is its offset in the text. */
export type Token =
  | { kind: "word"; text: string; pos: number }
  | { kind: "quoted"; text: string; pos: number }
  | { kind: "string"; text: string; pos: number }
  | { kind: "number"; value: number; pos: number }
  | { kind: "op"; text: string; pos: number }
  | { kind: "end"; pos: number };

/**
 * The tokens of a filter, ending with an `end` token.
 *
 * @example
 * ```ts
 * tokenize("POP > 5").map((t) => t.kind); // ["word", "op", "number", "end"]
 * ```
 */
export function tokenize(text: string): Token[] {
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

/**
 * A reading position in the tokens, with the checks every reader makes.
 *
 * @example
 * ```ts
 * const c = new TokenCursor(tokenize("(1 2)"));
 * c.expectOp("(");
 * c.number(); // 1
 * ```
 */
export class TokenCursor {
  protected i = 0;

  constructor(protected readonly tokens: Token[]) {}

  peek(): Token {
    return this.tokens[this.i];
  }

  next(): Token {
    const t = this.tokens[this.i];
    if (t.kind !== "end") this.i++;
    return t;
  }

  isWord(word: string, offset = 0): boolean {
    const t = this.tokens[Math.min(this.i + offset, this.tokens.length - 1)];
    return t.kind === "word" && t.text.toUpperCase() === word;
  }

  isOp(op: string): boolean {
    const t = this.peek();
    return t.kind === "op" && t.text === op;
  }

  fail(expected: string): never {
    const t = this.peek();
    const found = t.kind === "end"
      ? "the end of the filter"
      : t.kind === "number"
      ? `${t.value}`
      : `'${t.text}'`;
    throw new Cql2Error(`At position ${t.pos}: expected ${expected} but found ${found}.`);
  }

  expectOp(op: string): void {
    if (!this.isOp(op)) this.fail(`'${op}'`);
    this.next();
  }

  expectWord(word: string): void {
    if (!this.isWord(word)) this.fail(word);
    this.next();
  }

  /** A string token (`what` names it in the error); anything else fails. */
  string(what: string): Token & { kind: "string" } {
    const t = this.peek();
    if (t.kind !== "string") this.fail(what);
    this.next();
    return t;
  }

  /** A number token's value; anything else fails. */
  number(): number {
    const t = this.peek();
    if (t.kind !== "number") this.fail("a number");
    this.next();
    return t.value;
  }
}
