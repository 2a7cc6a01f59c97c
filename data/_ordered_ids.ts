/**
 * Every matching id of a list query, in page order, kept as a typed array so
 * that a deep page is a slice instead of an `OFFSET` walk.
 *
 * SQLite has no counted B-trees: `LIMIT 10 OFFSET 500000` steps over half a
 * million index entries (about 20 ms for a salary-ordered page at 1M rows),
 * and every random deep page pays it again. One `group_concat` of the ordered
 * ids costs about as much as two such walks and serves every later page of
 * the same query. Lists are valid for one data version (the caller clears
 * the cache when the data changes) and held within a byte budget, least
 * recently used first out.
 *
 * @module
 */
import { LRUCache } from "lru-cache";

/** An ordered id list: 4 bytes an id while every id fits, else 8. */
export type IdList = Uint32Array | Float64Array;

/**
 * Parses `group_concat(id)` output (decimal ids joined by commas; null when
 * nothing matched) without building a string per id.
 *
 * @example
 * ```ts
 * import { parseIdList } from "./_ordered_ids.ts";
 * parseIdList("3,1,2"); // Uint32Array [3, 1, 2]
 * ```
 */
export function parseIdList(text: string | null): IdList {
  if (text === null || text === "") return new Uint32Array(0);
  let n = 1;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 44) n++;
  const wide = new Float64Array(n);
  let k = 0;
  let cur = 0;
  let max = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 44) {
      wide[k++] = cur;
      if (cur > max) max = cur;
      cur = 0;
    } else if (c >= 48 && c <= 57) {
      cur = cur * 10 + (c - 48);
    } else {
      throw new Error(`Unexpected character in an id list at ${i}: ${JSON.stringify(text[i])}.`);
    }
  }
  wide[k] = cur;
  if (cur > max) max = cur;
  return max <= 0xffffffff ? Uint32Array.from(wide) : wide;
}

/**
 * Builds an id list one id at a time in a typed array grown in place: 4
 * bytes an id while every id fits, else 8. A list of a million ids costs
 * its own 4 MB, where `group_concat` then {@linkcode parseIdList} held
 * SQLite's text (up to twice its 8 MB while growing), the same text as a
 * JavaScript string, a Float64Array and the final copy at once (~36 MB in
 * the reader worker for each million ids).
 *
 * @example
 * ```ts
 * import { IdListBuilder } from "./_ordered_ids.ts";
 * const b = new IdListBuilder();
 * b.start(3);
 * for (const id of [3, 1, 2]) b.push(id);
 * b.finish(); // Uint32Array [3, 1, 2]
 * ```
 */
export class IdListBuilder {
  #ids: IdList = new Uint32Array(0);
  #n = 0;

  /** Starts a new list; `expected` ids (when known) size the array once. */
  start(expected = 1024): void {
    this.#ids = new Uint32Array(Math.max(16, Math.floor(expected)));
    this.#n = 0;
  }

  /** Appends `id` (a non-negative safe integer). */
  push(id: number): void {
    if (id > 0xffffffff && this.#ids instanceof Uint32Array) {
      this.#ids = Float64Array.from(this.#ids);
    }
    if (this.#n === this.#ids.length) {
      const grown = this.#ids instanceof Uint32Array
        ? new Uint32Array(this.#n * 2)
        : new Float64Array(this.#n * 2);
      grown.set(this.#ids);
      this.#ids = grown;
    }
    this.#ids[this.#n++] = id;
  }

  /** The list pushed since {@linkcode IdListBuilder.start}, exactly its length. */
  finish(): IdList {
    const ids = this.#ids;
    const n = this.#n;
    this.#ids = new Uint32Array(0);
    this.#n = 0;
    return n === ids.length ? ids : ids.slice(0, n);
  }
}

/** Ordered id lists by query key, within a byte budget (see {@linkcode orderedIdCache}). */
export type OrderedIdCache = LRUCache<string, IdList>;

/**
 * A cache of ordered id lists holding at most `maxBytes` of lists, least
 * recently used first out; a list larger than the budget is never kept.
 *
 * @example
 * ```ts
 * import { orderedIdCache } from "./_ordered_ids.ts";
 * const lists = orderedIdCache(32 * 2 ** 20);
 * lists.set("q", new Uint32Array([3, 1, 2]));
 * lists.get("q"); // Uint32Array [3, 1, 2]
 * lists.calculatedSize; // 12
 * ```
 */
export function orderedIdCache(maxBytes: number): OrderedIdCache {
  return new LRUCache<string, IdList>({
    maxSize: maxBytes,
    maxEntrySize: maxBytes,
    // lru-cache wants a positive size: an empty list counts one byte.
    sizeCalculation: (ids) => Math.max(1, ids.byteLength),
  });
}
