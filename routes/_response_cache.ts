/**
 * A byte-bounded cache of rendered API bodies, keyed by the request variant
 * and valid for one data revision (like Django's `cache_page`, with the
 * import revision as the version). A hit costs a map lookup instead of a
 * query and a body assembly; any import moves the revision on, so nothing
 * stale is ever served.
 *
 * Bodies are copied into one buffer of the cache's size, written as a ring:
 * a new body overwrites the oldest ones. Kept as separate arrays, every
 * evicted body was garbage in V8's old generation, collected only at its next
 * full collection: with uncached traffic the main thread's external memory
 * swung by 60-180 MiB over the cache's own 32 (bench/README.md history in git, "Uncached API
 * traffic (issue 10, fourth step)"). The ring's memory is the cache's size,
 * and stays so.
 *
 * @module
 */

/** One cached 200 response. */
export interface CachedBody {
  body: Uint8Array;
  etag: string;
  lastModified: string;
}

interface Entry {
  /** Offset of the body in the ring. */
  at: number;
  size: number;
  etag: string;
  lastModified: string;
  revision: string;
}

/**
 * A cache bounded by its size in bytes. Entries leave oldest first; an entry
 * read while it is among the next quarter of the ring to be overwritten is
 * written again at the head, so often-read bodies stay.
 *
 * A body returned by {@linkcode ResponseCache.get} is a view into the ring,
 * valid until the next {@linkcode ResponseCache.set} or `get`: copy it
 * (`new Response(body)` does) before awaiting anything.
 *
 * @example
 * ```ts
 * const cache = new ResponseCache(32 * 2 ** 20);
 * const body = new TextEncoder().encode("{}");
 * cache.set("k", "7", { body, etag: '"1"', lastModified: "" });
 * cache.get("k", "7"); // the entry; cache.get("k", "8") is undefined
 * ```
 */
export class ResponseCache {
  /** In write order: the first entries are the next to be overwritten. */
  readonly #entries = new Map<string, Entry>();
  #ring: Uint8Array | null = null;
  #head = 0;
  #bytes = 0;

  /** `maxBytes` bounds the sum of body sizes; a body over an eighth of it is not kept. */
  constructor(readonly maxBytes: number) {}

  /** The entry for `key` if it was made at `revision`. */
  get(key: string, revision: string): CachedBody | undefined {
    let e = this.#entries.get(key);
    if (!e) return undefined;
    if (e.revision !== revision) {
      this.#drop(key, e);
      return undefined;
    }
    // Bytes the head writes before it reaches this entry.
    const ahead = (e.at - this.#head + this.maxBytes) % this.maxBytes;
    if (ahead < this.maxBytes / 4) {
      const body = this.#ring!.slice(e.at, e.at + e.size);
      this.set(key, revision, { body, etag: e.etag, lastModified: e.lastModified });
      e = this.#entries.get(key)!;
    }
    return {
      body: this.#ring!.subarray(e.at, e.at + e.size),
      etag: e.etag,
      lastModified: e.lastModified,
    };
  }

  /** Stores a copy of a body made at `revision`, overwriting the oldest ones. */
  set(key: string, revision: string, value: CachedBody): void {
    const size = value.body.byteLength;
    if (size > this.maxBytes / 8) return;
    // Allocated at first use; its pages become resident as they are written.
    this.#ring ??= new Uint8Array(this.maxBytes);
    const old = this.#entries.get(key);
    if (old) this.#drop(key, old);
    if (this.#head + size > this.maxBytes) {
      // Wrapping round: the bodies after the head are the oldest, and go first.
      for (const [k, e] of this.#entries) {
        if (e.at < this.#head) break;
        this.#drop(k, e);
      }
      this.#head = 0;
    }
    const end = this.#head + size;
    for (const [k, e] of this.#entries) {
      if (e.at >= end || e.at + e.size <= this.#head) break;
      this.#drop(k, e);
    }
    this.#ring.set(value.body, this.#head);
    this.#entries.set(key, {
      at: this.#head,
      size,
      etag: value.etag,
      lastModified: value.lastModified,
      revision,
    });
    this.#head = end;
    this.#bytes += size;
  }

  /** Bytes of the bodies held. */
  get bytes(): number {
    return this.#bytes;
  }

  #drop(key: string, e: Entry): void {
    this.#entries.delete(key);
    this.#bytes -= e.size;
  }
}
