/**
 * Query strings exactly as Django REST Framework's pagination links build
 * them: Python's `parse_qs(keep_blank_values=True)` to read and
 * `urlencode(sorted(...), doseq=True)` to write.
 *
 * @module
 */

/** Ordered multi-map of decoded query parameters, first-seen key order. */
export type QueryPairs = Map<string, string[]>;

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });

/** Value of an ASCII hex digit's char code, or -1. */
function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const lower = c | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

/** Python `unquote_plus` with `errors="replace"`. */
function unquotePlus(s: string): string {
  if (!s.includes("+") && !s.includes("%")) return s;
  s = s.replaceAll("+", " ");
  if (!s.includes("%")) return s;
  // Each UTF-16 unit is at most 3 UTF-8 bytes; text between escapes is encoded a run at a time.
  const bytes = new Uint8Array(s.length * 3);
  let n = 0;
  let run = 0;
  for (let i = 0; i + 2 < s.length; i++) {
    if (s.charCodeAt(i) !== 0x25) continue;
    const hi = hexValue(s.charCodeAt(i + 1)), lo = hexValue(s.charCodeAt(i + 2));
    if (hi < 0 || lo < 0) continue;
    if (run < i) n += encoder.encodeInto(s.slice(run, i), bytes.subarray(n)).written;
    bytes[n++] = hi * 16 + lo;
    i += 2;
    run = i + 1;
  }
  if (run < s.length) n += encoder.encodeInto(s.slice(run), bytes.subarray(n)).written;
  return decoder.decode(bytes.subarray(0, n));
}

/**
 * Parses a raw query string (without `?`) like Python's
 * `urllib.parse.parse_qs(qs, keep_blank_values=True)`.
 *
 * @example
 * ```ts
 * parseQs("b=2&a=1&flag"); // Map { "b" => ["2"], "a" => ["1"], "flag" => [""] }
 * ```
 */
export function parseQs(raw: string): QueryPairs {
  const out: QueryPairs = new Map();
  for (const part of raw.split("&")) {
    if (!part) continue;
    const eq = part.indexOf("=");
    const name = unquotePlus(eq < 0 ? part : part.slice(0, eq));
    const value = eq < 0 ? "" : unquotePlus(part.slice(eq + 1));
    const list = out.get(name);
    if (list) list.push(value);
    else out.set(name, [value]);
  }
  return out;
}

/** Strings `quotePlus` leaves as they are (most keys and values: `page`, `2`). */
const ALL_SAFE = /^[A-Za-z0-9_.\-~]*$/;

/** For each byte: itself when `quote_plus` keeps it, `+` for a space, else its `%XX`. */
const QUOTED = Array.from({ length: 256 }, (_, b) => {
  const ch = String.fromCharCode(b);
  if (/[A-Za-z0-9_.\-~]/.test(ch)) return ch;
  return b === 0x20 ? "+" : "%" + b.toString(16).toUpperCase().padStart(2, "0");
});

/** Python `quote_plus(s, safe="")`: UTF-8, uppercase `%XX`, space as `+`. */
export function quotePlus(s: string): string {
  if (ALL_SAFE.test(s)) return s;
  let out = "";
  for (const b of encoder.encode(s)) out += QUOTED[b];
  return out;
}

/**
 * Python `urlencode(sorted(pairs.items()), doseq=True)`: keys sorted by code
 * point, repeated values kept in their order.
 *
 * @example
 * ```ts
 * urlencode(new Map([["page", ["2"]], ["format", ["api"]]])); // "format=api&page=2"
 * ```
 */
export function urlencode(pairs: QueryPairs): string {
  const keys = [...pairs.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const parts: string[] = [];
  for (const k of keys) {
    for (const v of pairs.get(k)!) parts.push(`${quotePlus(k)}=${quotePlus(v)}`);
  }
  return parts.join("&");
}

/**
 * The query of each page's link of a paginated list, as DRF's
 * `replace_query_param` / `remove_query_param` write it: `urlencode` of the
 * request's parameters with `page` set to the page (removed for page 1).
 * The other parameters are encoded once for every link.
 *
 * @example
 * ```ts
 * const link = pageQuery(new Map([["search", ["a b"]], ["format", ["json"]]]));
 * link(2); // "format=json&page=2&search=a+b"
 * link(1); // "format=json&search=a+b"
 * ```
 */
export function pageQuery(pairs: QueryPairs): (page: number) => string {
  // urlencode sorts the keys: page goes between the keys before it and those after it.
  const before: QueryPairs = new Map();
  const after: QueryPairs = new Map();
  for (const [k, v] of pairs) {
    if (k !== "page") (k < "page" ? before : after).set(k, v);
  }
  const head = urlencode(before);
  const tail = urlencode(after);
  return (page) => [head, page === 1 ? "" : `page=${page}`, tail].filter((p) => p !== "").join("&");
}

/** Python's `int()` white space: ASCII `\t\n\v\f\r` and space, plus the non-ASCII `str.isspace()` set. */
const PY_SPACE =
  "[\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";
const PY_INT = new RegExp(
  `^${PY_SPACE}*([+-]?)(\\p{Nd}+(?:_\\p{Nd}+)*)${PY_SPACE}*$`,
  "u",
);

/** Up to 15 ASCII digits: always a safe integer. */
const ASCII_INT = /^[0-9]{1,15}$/;

/** Value of a Unicode decimal digit (`\p{Nd}` comes in contiguous runs 0-9). */
function digitValue(ch: string): number {
  const cp = ch.codePointAt(0)!;
  if (cp <= 0x39) return cp - 0x30;
  let start = cp;
  while (/\p{Nd}/u.test(String.fromCodePoint(start - 1))) start--;
  return (cp - start) % 10;
}

/**
 * Python `int(s)` for the strings a query parameter or a path segment can
 * hold: surrounding white space, a sign, leading zeros, `_` between digits
 * and any Unicode decimal digits (`int("٢")` is 2) are accepted. Returns
 * undefined where Python would raise `ValueError`, and ±Infinity for an
 * integer beyond JavaScript's safe range (still an integer to Python: a page
 * size of 10**20 is clamped, a page number of 10**20 is past the end).
 *
 * @example
 * ```ts
 * pythonInt(" +02"); // 2
 * pythonInt("1.5"); // undefined
 * ```
 */
export function pythonInt(s: string): number | undefined {
  // Plain ASCII digits (a page number): the same value, without the Unicode rules below.
  if (ASCII_INT.test(s)) return Number(s);
  const m = PY_INT.exec(s);
  if (!m) return undefined;
  let digits = "";
  for (const ch of m[2]) if (ch !== "_") digits += String(digitValue(ch));
  const n = Number(digits);
  const abs = Number.isSafeInteger(n) ? n : Infinity;
  return m[1] === "-" ? -abs : abs;
}
