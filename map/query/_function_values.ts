/**
 * What each where-clause function computes. These are the only
 * implementations: the in-memory evaluator calls them directly and SQLite
 * calls them through the functions `registerSqlFunctions` installs, so the
 * two backends cannot round, count characters or parse dates differently.
 *
 * Every function gets its arguments already checked for NULL (NULL in is
 * NULL out, handled once by the caller) and answers NULL where standard
 * SQL would raise an error (MOD by zero, POWER out of its domain, a CAST of
 * text that is not a number), since one bad row must not fail a query.
 *
 * @module
 */
import { isNumberText, parseDateLiteral, type Scalar, toNumber } from "./_values.ts";

/** A non-null argument value. */
export type Value = string | number;

/** A number result, or NULL when it is not finite (NaN and ±Infinity are not SQL values). */
export function finite(n: number): number | null {
  return Number.isFinite(n) ? n : null;
}

/** A number argument: text is read as SQLite arithmetic reads it. */
export function num(v: Value): number {
  return toNumber(v);
}

/** `x × 10^d` computed on the decimal text of x, so 0.29 shifted by 2 is exactly 29. */
function shift(x: number, d: number): number {
  const [mantissa, exponent = "0"] = String(x).split("e");
  return Number(`${mantissa}e${Number(exponent) + d}`);
}

/**
 * ROUND (half away from zero) and TRUNCATE (toward zero) to `digits`
 * decimal places; negative digits round to tens, hundreds…; digits are
 * truncated to an integer.
 */
export function roundTo(x: number, digits: number, mode: "round" | "truncate"): number | null {
  if (!Number.isFinite(x)) return null;
  const d = Math.trunc(digits);
  if (d > 400) return x;
  if (d < -400) return 0;
  const scaled = shift(Math.abs(x), d);
  const whole = mode === "round" ? Math.round(scaled) : Math.floor(scaled);
  return finite(Math.sign(x) * shift(whole, -d));
}

/** Code points of a value's text. */
function codePoints(v: Value): string[] {
  return [...String(v)];
}

/** CHAR_LENGTH: the number of characters (code points, not UTF-16 units or bytes). */
export function charLength(v: Value): number {
  return codePoints(v).length;
}

/** POSITION(sub IN s): 1-based code-point index of the first occurrence, 0 when absent. */
export function position(sub: Value, s: Value): number {
  const text = String(s);
  const at = text.indexOf(String(sub));
  return at < 0 ? 0 : [...text.slice(0, at)].length + 1;
}

/**
 * SUBSTRING(s FROM start FOR length) by the SQL standard: characters
 * start … start+length-1 (1-based, code points); a start below 1 still
 * counts toward the length; a negative length is NULL.
 */
export function substring(s: Value, start: number, length?: number): string | null {
  const chars = codePoints(s);
  const from = Math.trunc(start);
  if (length !== undefined && Math.trunc(length) < 0) return null;
  const end = length === undefined ? chars.length + 1 : from + Math.trunc(length);
  const first = Math.max(from, 1);
  if (end <= first) return "";
  return chars.slice(first - 1, end - 1).join("");
}

/** TRIM: removes the characters of `chars` (a set of characters, usually one) from the given side(s). */
export function trim(side: string, chars: Value, s: Value): string {
  const set = new Set(codePoints(chars));
  const text = codePoints(s);
  let a = 0;
  let b = text.length;
  if (side !== "TRAILING") { while (a < b && set.has(text[a])) a++; }
  if (side !== "LEADING") { while (b > a && set.has(text[b - 1])) b--; }
  return text.slice(a, b).join("");
}

/** A date value as epoch milliseconds: numbers are dates already, text is parsed (UTC). */
export function dateOf(v: Value): number | null {
  if (typeof v === "number") return Number.isFinite(v) ? v : null;
  return parseDateLiteral(v);
}

/** EXTRACT(unit FROM date) in UTC; SECOND includes the milliseconds as a fraction. */
export function extract(unit: string, v: Value): number | null {
  const ms = dateOf(v);
  if (ms === null) return null;
  const d = new Date(ms);
  if (Number.isNaN(d.getTime())) return null;
  switch (unit) {
    case "YEAR":
      return d.getUTCFullYear();
    case "MONTH":
      return d.getUTCMonth() + 1;
    case "DAY":
      return d.getUTCDate();
    case "HOUR":
      return d.getUTCHours();
    case "MINUTE":
      return d.getUTCMinutes();
    case "SECOND":
      return d.getUTCSeconds() + d.getUTCMilliseconds() / 1000;
  }
  return null;
}

/** Integer ranges of the CAST targets (esriFieldTypeInteger is 32-bit). */
const INTEGER_RANGE: Record<string, number> = { SMALLINT: 32_767, INTEGER: 2_147_483_647 };

/** 'YYYY-MM-DD HH:MM:SS' (UTC) of epoch milliseconds, the form date literals are written in. */
export function formatDate(ms: number): string | null {
  const d = new Date(ms);
  if (Number.isNaN(d.getTime())) return null;
  const iso = d.toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
}

/**
 * CAST(v AS target). `target` is the parser's normalised type: INTEGER,
 * SMALLINT, FLOAT, REAL, DOUBLE, DATE, TIMESTAMP, VARCHAR or CHAR, with an
 * optional `(n)` length, and ` DATE` appended when v is a date (so that a
 * date cast to text reads 'YYYY-MM-DD HH:MM:SS', not milliseconds).
 */
export function cast(target: string, v: Value): Scalar {
  const m = /^(\w+)(?:\((\d+)\))?( DATE)?$/.exec(target);
  if (!m) return null;
  const [, type, length, fromDate] = m;
  switch (type) {
    case "INTEGER":
    case "SMALLINT":
    case "FLOAT":
    case "REAL":
    case "DOUBLE": {
      const n = typeof v === "number" ? v : isNumberText(v) ? Number(v) : null;
      if (n === null || !Number.isFinite(n)) return null;
      if (!(type in INTEGER_RANGE)) return n;
      const i = Math.trunc(n);
      return Math.abs(i) > INTEGER_RANGE[type] + (i < 0 ? 1 : 0) ? null : i + 0;
    }
    case "DATE": {
      const ms = dateOf(v);
      return ms === null ? null : finite(Math.floor(ms / 86_400_000) * 86_400_000);
    }
    case "TIMESTAMP":
      return dateOf(v);
    case "VARCHAR":
    case "CHAR": {
      const text = fromDate && typeof v === "number" ? formatDate(v) : String(v);
      if (text === null || length === undefined) return text;
      const chars = codePoints(text).slice(0, Number(length));
      // CHAR(n) is fixed-length: shorter text is padded with spaces, as SQL does.
      while (type === "CHAR" && chars.length < Number(length)) chars.push(" ");
      return chars.join("");
    }
  }
  return null;
}
