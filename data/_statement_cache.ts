/**
 * Prepared statements of one SQLite connection kept for reuse, bounded in
 * bytes (least recently used dropped first).
 *
 * Why bounded: a statement's SQL varies with the request (an `IN` list has
 * one `?` per id asked for), and SQLite's compiled program grows with it:
 * measured ~58 bytes of RSS per character of SQL, so 2,000 lists of 1 to
 * 2,000 agencies kept ~710 MiB of statements for good (issue 20). A dropped
 * statement's memory goes with its JavaScript object at the next collection.
 *
 * @module
 */
import type { DatabaseSync, StatementSync } from "node:sqlite";
import { LRUCache } from "lru-cache";

/** Default budget: the estimated compiled size of the statements kept. */
export const STATEMENT_CACHE_BYTES = 16 * 2 ** 20;

/**
 * Estimated memory of one prepared statement: a fixed part (the statement
 * and its column metadata) plus the compiled program, which grows with the
 * SQL (measured on the catalogue's list queries: ~58 bytes a character).
 *
 * @example
 * ```ts
 * import { statementBytes } from "./_statement_cache.ts";
 * statementBytes("SELECT 1"); // 4608
 * ```
 */
export function statementBytes(sql: string): number {
  return 4096 + 64 * sql.length;
}

/**
 * A byte-bounded cache of prepared statements. A statement estimated over
 * an eighth of the budget is prepared for its caller and not kept.
 *
 * @example
 * ```ts
 * import { DatabaseSync } from "node:sqlite";
 * import { StatementCache } from "./_statement_cache.ts";
 * const cache = new StatementCache(new DatabaseSync(":memory:"));
 * cache.get("SELECT 1 AS x").get(); // { x: 1 }
 * ```
 */
export class StatementCache {
  readonly #db: DatabaseSync;
  readonly #statements: LRUCache<string, StatementSync>;

  /** `maxBytes` bounds the sum of {@link statementBytes} of the statements kept. */
  constructor(db: DatabaseSync, readonly maxBytes = STATEMENT_CACHE_BYTES) {
    this.#db = db;
    this.#statements = new LRUCache<string, StatementSync>({
      maxSize: maxBytes,
      maxEntrySize: maxBytes / 8,
      sizeCalculation: (_, sql) => statementBytes(sql),
    });
  }

  /** The estimated bytes held (see {@link statementBytes}). */
  get bytes(): number {
    return this.#statements.calculatedSize;
  }

  /** How many statements are kept. */
  get size(): number {
    return this.#statements.size;
  }

  /** The statement for `sql`, prepared now unless it is kept. */
  get(sql: string): StatementSync {
    let s = this.#statements.get(sql);
    if (s === undefined) {
      s = this.#db.prepare(sql);
      // Not kept when over an eighth of the budget: prepared for this caller only.
      this.#statements.set(sql, s);
    }
    return s;
  }

  /** Forgets every statement. */
  clear(): void {
    this.#statements.clear();
  }
}
