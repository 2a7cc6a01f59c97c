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
  const pre = utf8(prefix), mid = utf8(sep), post = utf8(suffix);
  let size = pre.length + post.length + Math.max(0, items.length - 1) * mid.length;
  for (const it of items) size += it.length;
  const out = new Uint8Array(size);
  let at = 0;
  out.set(pre, at);
  at += pre.length;
  items.forEach((it, i) => {
    if (i > 0) {
      out.set(mid, at);
      at += mid.length;
    }
    out.set(it, at);
    at += it.length;
  });
  out.set(post, at);
  return out;
}
