/**
 * A byte-bounded LRU of rendered API bodies, keyed by the request variant
 * and valid for one data revision (like Django's `cache_page`, with the
 * import revision as the version). A hit costs a map lookup instead of a
 * query and a body assembly; any import moves the revision on, so nothing
 * stale is ever served.
 *
 * @module
 */

/** One cached 200 response. */
export interface CachedBody {
  body: Uint8Array;
  etag: string;
  lastModified: string;
}

interface Entry extends CachedBody {
  revision: string;
}

/**
 * LRU cache bounded by the total size of its bodies.
 *
 * @example
 * ```ts
 * const cache = new ResponseCache(32 * 2 ** 20);
 * cache.set("k", "7", { body, etag, lastModified });
 * cache.get("k", "7"); // the entry; cache.get("k", "8") is undefined
 * ```
 */
export class ResponseCache {
  readonly #entries = new Map<string, Entry>();
  #bytes = 0;

  /** `maxBytes` bounds the sum of body sizes; a single larger body is not kept. */
  constructor(readonly maxBytes: number) {}

  /** The entry for `key` if it was made at `revision`. */
  get(key: string, revision: string): CachedBody | undefined {
    const e = this.#entries.get(key);
    if (!e) return undefined;
    if (e.revision !== revision) {
      this.#drop(key, e);
      return undefined;
    }
    // Refresh recency: Map keeps insertion order.
    this.#entries.delete(key);
    this.#entries.set(key, e);
    return e;
  }

  /** Stores a body made at `revision`, evicting the least recently used ones. */
  set(key: string, revision: string, value: CachedBody): void {
    const size = value.body.byteLength + key.length;
    if (size > this.maxBytes / 8) return;
    const old = this.#entries.get(key);
    if (old) this.#drop(key, old);
    this.#entries.set(key, { ...value, revision });
    this.#bytes += size;
    for (const [k, e] of this.#entries) {
      if (this.#bytes <= this.maxBytes) break;
      this.#drop(k, e);
    }
  }

  /** Bytes held. */
  get bytes(): number {
    return this.#bytes;
  }

  #drop(key: string, e: Entry): void {
    this.#entries.delete(key);
    this.#bytes -= e.body.byteLength + key.length;
  }
}
