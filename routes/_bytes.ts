/**
 * Response bodies assembled from UTF-8 bytes: stored records are read from
 * SQLite as bytes and copied into one buffer, so a page is never decoded to
 * a JavaScript string and encoded again.
 *
 * @module
 */

const encoder = new TextEncoder();

/** UTF-8 bytes of a string. */
export function utf8(s: string): Uint8Array {
  return encoder.encode(s);
}

/** A piece of a body: ASCII text (written as it is) or UTF-8 bytes. */
type Piece = string | Uint8Array;

/** `s` as a piece: ASCII text stays text (no encoding step), other text is encoded. */
function piece(s: string): Piece {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return utf8(s);
  return s;
}

function put(out: Uint8Array, at: number, p: Piece): number {
  if (typeof p !== "string") {
    out.set(p, at);
    return at + p.length;
  }
  for (let i = 0; i < p.length; i++) out[at + i] = p.charCodeAt(i);
  return at + p.length;
}

/**
 * Concatenates byte arrays and strings (encoded as UTF-8), with `sep`
 * between the items of `items`, inside `prefix` ... `suffix`.
 *
 * @example
 * ```ts
 * joinBytes("[", [utf8("1"), utf8("2")], ",", "]"); // bytes of "[1,2]"
 * ```
 */
export function joinBytes(
  prefix: string,
  items: readonly Uint8Array[],
  sep: string,
  suffix: string,
): Uint8Array<ArrayBuffer> {
  const pre = piece(prefix), mid = piece(sep), post = piece(suffix);
  let size = pre.length + post.length + Math.max(0, items.length - 1) * mid.length;
  for (const it of items) size += it.length;
  const out = new Uint8Array(size);
  let at = put(out, 0, pre);
  for (let i = 0; i < items.length; i++) {
    if (i > 0) at = put(out, at, mid);
    out.set(items[i], at);
    at += items[i].length;
  }
  put(out, at, post);
  return out;
}
