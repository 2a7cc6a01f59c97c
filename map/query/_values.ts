/**
 * Value semantics shared by the in-memory evaluator and the SQL functions
 * registered in SQLite, so both backends answer a where clause alike:
 * dates, comparison across types, arithmetic on text, LIKE and case
 * mapping.
 *
 * @module
 */
import { LRUCache } from "lru-cache";

/** A scalar during evaluation (SQL NULL is null). */
export type Scalar = string | number | null;

/**
 * Parses 'YYYY-MM-DD', 'YYYY-MM-DD HH:MM[:SS[.fff]]' (or with T, optional
 * Z) as UTC and returns epoch milliseconds, or null when invalid.
 */
export function parseDateLiteral(text: string): number | null {
  const m =
    /^\s*(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?)?\s*Z?\s*$/
      .exec(text);
  if (!m) return null;
  const [y, mo, d, h = "0", mi = "0", s = "0"] = m.slice(1, 7);
  const ms = m[7] ? Math.round(Number(`0.${m[7]}`) * 1000) : 0;
  const t = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), ms);
  const back = new Date(t);
  // Reject 2023-02-30 and 25:00, which Date.UTC would silently roll over.
  if (
    back.getUTCFullYear() !== Number(y) || back.getUTCMonth() !== Number(mo) - 1 ||
    back.getUTCDate() !== Number(d) || back.getUTCHours() !== Number(h) ||
    back.getUTCMinutes() !== Number(mi) || back.getUTCSeconds() !== Number(s)
  ) {
    return null;
  }
  return t;
}

const NUMBER_TEXT = /^\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?\s*$/;

/** Whether text is wholly one number (surrounding spaces allowed), as a typed literal must be. */
export function isNumberText(text: string): boolean {
  return NUMBER_TEXT.test(text);
}

/** Numeric value of a scalar the way SQLite converts text in arithmetic (leading number, else 0). */
export function toNumber(v: string | number): number {
  if (typeof v === "number") return v;
  const m = /^\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?/.exec(v);
  return m ? Number(m[0]) : 0;
}

/**
 * Orders two non-null scalars as SQLite does without column affinity:
 * numbers numerically, text by code point, any number before any text.
 */
export function compareScalars(a: string | number, b: string | number): number {
  if (typeof a === "number" && typeof b === "number") return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === "number") return -1;
  if (typeof b === "number") return 1;
  // Code-point order, like SQLite's BINARY collation over UTF-8.
  if (a === b) return 0;
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const x = ia.next();
    const y = ib.next();
    if (x.done) return y.done ? 0 : -1;
    if (y.done) return 1;
    const cx = x.value.codePointAt(0)!;
    const cy = y.value.codePointAt(0)!;
    if (cx !== cy) return cx < cy ? -1 : 1;
  }
}

/** LIKE patterns kept compiled (the most recently used). */
export const LIKE_CACHE_MAX = 500;
const likeCache = new LRUCache<string, RegExp>({ max: LIKE_CACHE_MAX });

/**
 * How many compiled LIKE patterns this isolate keeps (diagnostics; at most
 * {@linkcode LIKE_CACHE_MAX}).
 *
 * @example
 * ```ts
 * import { likePatternsKept, sqlLike } from "./_values.ts";
 * sqlLike("Paris", "P%");
 * likePatternsKept(); // 1 or more
 * ```
 */
export function likePatternsKept(): number {
  return likeCache.size;
}

/**
 * Whether `value` matches the LIKE `pattern`: `%` any run, `_` one
 * character, `escape` makes the next character literal. Case-sensitive
 * (use UPPER/LOWER for case-insensitive matching); null in, null out.
 */
export function sqlLike(value: Scalar, pattern: Scalar, escape?: Scalar): boolean | null {
  if (value === null || pattern === null || escape === null) return null;
  const key = `${escape ?? ""}\u0000${pattern}`;
  let re = likeCache.get(key);
  if (!re) {
    let src = "";
    const chars = [...String(pattern)];
    for (let i = 0; i < chars.length; i++) {
      const c = chars[i];
      if (escape !== undefined && c === escape && i + 1 < chars.length) {
        src += chars[++i].replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
      } else if (c === "%") src += "[\\s\\S]*";
      else if (c === "_") src += "[\\s\\S]";
      else src += c.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
    }
    re = new RegExp(`^${src}$`, "u");
    likeCache.set(key, re);
  }
  return re.test(String(value));
}

/** Unicode upper case of a scalar's text (numbers become text); null stays null. */
export function sqlUpper(v: Scalar): string | null {
  return v === null ? null : String(v).toUpperCase();
}

/** Unicode lower case of a scalar's text (numbers become text); null stays null. */
export function sqlLower(v: Scalar): string | null {
  return v === null ? null : String(v).toLowerCase();
}
