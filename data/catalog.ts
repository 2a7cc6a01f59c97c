/**
 * Opening the catalogue database and reading from it.
 *
 * @module
 */
import { DatabaseSync, type SQLInputValue, type StatementSync } from "node:sqlite";
import { pathToFileURL } from "node:url";
import { LRUCache } from "lru-cache";
import type { CollectionName, ListCollection } from "./collections.ts";
import { COLLECTIONS } from "./collections.ts";
import { migrate, SCHEMA_VERSION, schemaVersion } from "./_migrations.ts";
import { buildList, listAtPage, type ListQuery, type ListSql } from "./_query.ts";
import { haversineKm } from "./_geo.ts";
import { type IdList, IdListBuilder, type OrderedIdCache, orderedIdCache } from "./_ordered_ids.ts";
import { type BitsPlan, countByBits, RangeColumns } from "./_search_bits.ts";
import { StatementCache } from "./_statement_cache.ts";

/** Options of {@linkcode openCatalog}. */
export interface OpenOptions {
  /** Open for reading only (the server). The schema must already be current. */
  readonly?: boolean;
  /** Page cache in KiB (default 16 MiB read-only, 64 MiB read-write). */
  cacheKiB?: number;
  /**
   * Where to say that a read-only database is served as immutable, or that a
   * migration takes a while (default `console.warn`).
   */
  onNotice?: (message: string) => void;
  /**
   * Bytes of ordered id lists kept for deep pages of filtered, searched or
   * re-ordered lists (default 32 MiB, about 8 million ids: the issue-10 mix on 1M rows needs
   * ~24 MiB, and a list evicted is rebuilt by a full scan; 0 = always OFFSET).
   */
  idListBytes?: number;
  /**
   * Keep the range columns of the search bitmap index in memory once read
   * (about 10 bytes a vacancy; a reader worker), instead of reading them for
   * each count of a search with a salary or date range (default false).
   */
  keepRangeColumns?: boolean;
  /**
   * Read-only only: statements run until the current event-loop turn ends
   * share one read transaction (a server answering a burst of requests),
   * instead of each taking and dropping SQLite's WAL read lock (~10 us per
   * statement). Commits of other connections become visible from the next
   * turn (default false: every statement sees the latest commit).
   */
  shareReads?: boolean;
}

/** The catalogue database cannot be opened; the message says why and what to do. */
export class CatalogOpenError extends Error {
  /** `path` is the database file. */
  constructor(message: string, readonly path: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "CatalogOpenError";
  }
}

/**
 * Opens `path` read-only. A WAL database needs its `-shm` file, which SQLite
 * cannot create in a read-only directory (a read-only mount): there, with no
 * pending `-wal` content, the file is opened `immutable=1`, which reads it
 * without any locking or shared memory. Nothing can change it while the
 * mount is read-only, so no update is missed.
 */
function openReadonly(path: string, notice: (message: string) => void): DatabaseSync {
  let first: Error;
  try {
    const db = new DatabaseSync(path, { readOnly: true, timeout: 5000 });
    try {
      // Reading the schema opens the WAL index: this is where a read-only directory fails.
      db.prepare("SELECT count(*) AS n FROM sqlite_schema").get();
      return db;
    } catch (err) {
      db.close();
      throw err;
    }
  } catch (err) {
    first = err as Error;
  }
  if (!/unable to open|readonly|read-only/i.test(first.message)) {
    throw new CatalogOpenError(
      `The catalogue database ${path} cannot be opened: ${first.message}.`,
      path,
      { cause: first },
    );
  }
  let walBytes = 0;
  try {
    walBytes = Deno.statSync(`${path}-wal`).size;
  } catch { /* no WAL file: nothing pending */ }
  if (walBytes > 0) {
    throw new CatalogOpenError(
      `The catalogue database ${path} cannot be opened read-only: ${first.message}, and its ` +
        `write-ahead log (${path}-wal) holds changes that need a writable directory. Open it ` +
        `once where it can be written (e.g. run an import of nothing) or make the directory writable.`,
      path,
      { cause: first },
    );
  }
  const uri = pathToFileURL(path);
  uri.search = "?immutable=1";
  try {
    const db = new DatabaseSync(uri, { readOnly: true });
    db.prepare("SELECT count(*) AS n FROM sqlite_schema").get();
    notice(
      `${path} is in a read-only directory: serving it as immutable; its data cannot change ` +
        `while the server runs.`,
    );
    return db;
  } catch (err) {
    throw new CatalogOpenError(
      `The catalogue database ${path} cannot be opened: ${first.message} (check the path and ` +
        `that the file is readable).`,
      path,
      { cause: err },
    );
  }
}

/** One page of a list: the total count and the page's serialized records. */
export interface ListResult {
  /** Number of records matching the filters (all pages). */
  count: number;
  /** The page's records, each the exact JSON of the API. */
  docs: string[];
}

/**
 * The text around a page's records in its body, given the list's count; null
 * when the page does not exist (past the last page).
 */
export type PageFrame = (count: number) => { head: string; tail: string } | null;

/** One page as a single body (see {@linkcode Catalog.listBody}). */
export interface ListBody {
  /** Number of records matching the filters (all pages). */
  count: number;
  /** `head`, the page's records joined by commas, `tail`, as UTF-8; null when there is no such page. */
  body: Uint8Array | null;
}

const encoder = new TextEncoder();

/** `ids` as a JSON array (a loop: Array.prototype.join on a typed array is several times slower). */
function jsonArray(ids: ArrayLike<number>): string {
  let out = "[";
  for (let i = 0; i < ids.length; i++) out += i === 0 ? ids[i] : "," + ids[i];
  return out + "]";
}

/** Distinct filtered counts kept per data version (least recently used out). */
const COUNT_CACHE_MAX = 4096;
/** A list whose cold count is at most this also gets its id list built (sparse matches). */
const SMALL_LIST_MAX = 50_000;
/** Matches above which a non-default order reads along its own index (see ListSql.idsOrdered). */
const ORDERED_WALK_MIN_MATCHES = 2000;
/** Offsets from which a filtered, searched or re-ordered page is sliced from its id list. */
const DEEP_PAGE_OFFSET = 500;
/** More indexed terms than this under one search prefix fall back to FTS5's prefix query. */
const MAX_EXPANSION = 32;

/** What {@link Catalog.competitionMovesSince} reports. */
export interface CompetitionMoves {
  /** The last change read: pass it as `since` next time. */
  lastSeq: number;
  /** False when changes after `since` were pruned from the log (only a full refresh is safe). */
  complete: boolean;
  /** Old and new places (`[lon, lat]`, WGS 84) of the competitions that changed. */
  places: [number, number][];
}

/**
 * The slow part of a list request, as plain data (it crosses to a worker):
 * see {@linkcode Catalog.listWork}.
 */
export interface ListWork {
  /** The count query (`SELECT count(*) AS n ...`). */
  count: string;
  /** Every matching id in page order. */
  allIds: string;
  params: SQLInputValue[];
  needCount: boolean;
  /** Build the id list when the count is at most this (Infinity: always; 0: never). */
  idsUpTo: number;
  /** The request for the bitmap index, when it can count it (see ListSql.bits). */
  bits?: BitsPlan;
  /** True when the bitmap index's ids (id order) are the page order. */
  bitsInOrder?: boolean;
  /**
   * The page's offset when the list is not counted yet: the ids are built
   * only when the count shows the page exists (a page past the end is a 404
   * that needs no id list).
   */
  pageOffset?: number;
  /** The list's count when the asking connection knew it (sizes the id list once). */
  knownCount?: number;
}

/** What {@linkcode Catalog.runListWork} found, in the data revision it names. */
export interface ListWorkResult {
  revision: number;
  count?: number;
  ids?: IdList;
}

/**
 * A list request's SQL, built once (a search's prefixes expanded once) for
 * every step of the request: its work ({@linkcode Catalog.listWork}), its
 * count and its page. Made by {@linkcode Catalog.plan}; used after the data
 * changed, it is built again.
 */
export interface ListPlan {
  readonly collection: ListCollection;
  readonly query: ListQuery;
  /** @internal The built SQL. */
  readonly sql: ListSql;
  /** @internal The data version it was built in. */
  readonly version: string;
  /** @internal Keys of its count and its id list in the catalogue's caches. */
  readonly countKey: string;
  /** @internal */
  readonly idsKey: string;
}

/** `(collection, q)` or a plan: what the list methods take. */
function isPlan(x: ListCollection | ListPlan): x is ListPlan {
  return typeof x !== "string";
}

function countKey(sql: Pick<ListSql, "count" | "params">): string {
  return sql.count + "\u0000" + JSON.stringify(sql.params);
}

function idListKey(sql: Pick<ListSql, "allIds" | "params">): string {
  return sql.allIds + "\u0000" + JSON.stringify(sql.params);
}

/** Plans kept per data version, by query shape (see Catalog.plan). */
const PLAN_CACHE_MAX = 1024;
/**
 * Text the kept plans may hold (SQL and cache keys, estimated): a plan grows
 * with its IN lists, and thousands of distinct long lists must not pile up
 * (issue 20); a plan over a 32nd of this (long IN lists) is built for its
 * request only.
 */
const PLAN_CACHE_CHARS = 256 * 2 ** 10;

/** Characters of a plan's kept text (see PLAN_CACHE_CHARS). */
function planChars(key: string, plan: ListPlan): number {
  const page = plan.sql.ids.length + (plan.sql.idsOrdered?.length ?? 0);
  return key.length + plan.countKey.length + plan.idsKey.length + 3 * page;
}

/** A record's JSON as stored (text) or as its UTF-8 bytes, read without decoding. */
type DocForm = "text" | "bytes";

/** The SQL reading one collection's documents in one form, written once. */
class DocSql {
  /** A default-order page by its `seq` range. */
  readonly page: string;
  /** One published record by id. */
  readonly published: string;
  /** A default-order page joined into one body: head `?1`, records, tail `?2`; `n` rows. */
  readonly pageBody: string;
  /** The records of a JSON array of ids (`?3`) in its order, joined as {@linkcode pageBody}. */
  readonly idsBody: string;
  readonly #byIds: string[] = [];
  readonly #doc: string;
  readonly #table: string;

  constructor(table: string, form: DocForm) {
    this.#table = table;
    this.#doc = form === "bytes" ? "CAST(r.doc AS BLOB)" : "r.doc";
    this.page = `SELECT ${this.#doc} AS doc FROM ${table}_list AS l JOIN ${table} AS r ` +
      `ON r.id = l.id WHERE l.seq > ? AND l.seq <= ? ORDER BY l.seq`;
    this.published = `SELECT ${this.#doc} AS doc FROM ${table} AS r WHERE r.id = ? AND ` +
      `r.published = 1`;
    // SQLite concatenates the body: no record becomes a JavaScript buffer of its own, and no
    // JavaScript copy joins them. The head and the tail are rows of their own, around the
    // records, so the body is built in one pass: group_concat puts each row's own separator
    // before it (none before the head, the first record and the tail; a comma before every
    // other record). Rows come in the order they are read: the compound's parts in turn (it
    // is never flattened into an aggregate), the seq range ordered by its index, and the id
    // array in its order (json_each kept as the outer loop by CROSS JOIN).
    const joined = (records: string) =>
      `SELECT CAST(group_concat(part, sep) AS BLOB) AS body, count(*) - 2 AS n FROM (` +
      `SELECT ?1 AS part, '' AS sep UNION ALL SELECT * FROM (${records}) ` +
      `UNION ALL SELECT ?2, '')`;
    this.pageBody = joined(
      `SELECT r.doc, CASE WHEN l.seq > ?3 + 1 THEN ',' ELSE '' END FROM ${table}_list AS l ` +
        `JOIN ${table} AS r ON r.id = l.id WHERE l.seq > ?3 AND l.seq <= ?4 ORDER BY l.seq`,
    );
    this.idsBody = joined(
      `SELECT r.doc, CASE WHEN j.key > 0 THEN ',' ELSE '' END FROM json_each(?3) AS j ` +
        `CROSS JOIN ${table} AS r ON r.id = j.value`,
    );
  }

  /** `n` records by id, in id order (one statement instead of `n`). */
  byIds(n: number): string {
    return this.#byIds[n] ??= `SELECT r.id AS id, ${this.#doc} AS doc FROM ${this.#table} AS r ` +
      `WHERE r.id IN (${Array(n).fill("?").join(", ")}) ORDER BY r.id`;
  }
}

/** What {@linkcode Catalog.cacheSizes} reports. */
export interface CatalogCacheSizes {
  /** Filtered counts kept (at most `COUNT_CACHE_MAX`). */
  counts: number;
  /** List plans kept (at most `PLAN_CACHE_MAX`)... */
  plans: number;
  /** ...and their estimated text (at most `PLAN_CACHE_CHARS`). */
  planChars: number;
  /** Search prefix expansions kept (at most `PLAN_CACHE_MAX`). */
  expansions: number;
  /** Bytes of the ordered id lists kept (at most the `idListBytes` the catalogue was opened with). */
  idListBytes: number;
}

/** The recruitment catalogue over one SQLite database. */
export class Catalog {
  /** The underlying connection (shared contract: other modules may query it). */
  readonly db: DatabaseSync;
  /** Path of the database file. */
  readonly path: string;
  /** Whether the connection is read-only. */
  readonly readonly: boolean;
  readonly #stmts: StatementCache;
  /** Counts of filtered lists, valid while the data is unchanged (see #checkFresh). */
  readonly #counts = new LRUCache<string, number>({ max: COUNT_CACHE_MAX });
  /** Ordered ids of lists read deep, valid while the data is unchanged (see #checkFresh). */
  readonly #idLists: OrderedIdCache | null;
  /** Range columns of the search bitmap index kept in memory (see OpenOptions.keepRangeColumns). */
  readonly #rangeColumns: RangeColumns | undefined;
  #dataVersion = "";
  /** Whether reads share a transaction per event-loop turn (see OpenOptions.shareReads). */
  readonly #shareReads: boolean;
  /** A shared read transaction is open (ended by a timer at the end of the turn). */
  #sharing = false;
  /** The data version was checked in the shared read transaction open now (see #checkFresh). */
  #checkedShared = false;
  /** Where `catalog_keep_id()` puts the ids of the list being read (see #readIds). */
  readonly #idBuilder = new IdListBuilder();
  /**
   * Plans of this data version by query shape, at page 1 (see #checkFresh),
   * bounded in number and in text; a plan over a 32nd of the text (long IN
   * lists) is built for its request only.
   */
  readonly #plans = new LRUCache<string, ListPlan>({
    max: PLAN_CACHE_MAX,
    maxSize: PLAN_CACHE_CHARS,
    maxEntrySize: PLAN_CACHE_CHARS / 32,
    sizeCalculation: (plan, key) => planChars(key, plan),
  });
  /** Prefix expansions of this data version (false: too many to list; see #expand). */
  readonly #expansions = new LRUCache<string, string[] | false>({ max: PLAN_CACHE_MAX });
  /** Document reads by form and table. */
  readonly #docs: Record<DocForm, Record<string, DocSql>> = { text: {}, bytes: {} };

  /** Use {@linkcode openCatalog}. */
  constructor(
    db: DatabaseSync,
    path: string,
    readonly: boolean,
    idListBytes = 32 * 2 ** 20,
    keepRangeColumns = false,
    shareReads = false,
  ) {
    this.db = db;
    this.path = path;
    this.readonly = readonly;
    this.#stmts = new StatementCache(db);
    this.#idLists = idListBytes > 0 ? orderedIdCache(idListBytes) : null;
    this.#rangeColumns = keepRangeColumns ? new RangeColumns(db, true) : undefined;
    this.#shareReads = shareReads && readonly;
    db.function("catalog_keep_id", { deterministic: false }, (id) => {
      this.#idBuilder.push(Number(id));
      return null;
    });
  }

  /**
   * Every id of the `allIds` query in its order, read one at a time into a
   * typed array (`expected` ids when known), never as one long text.
   */
  #readIds(allIds: string, params: SQLInputValue[], expected?: number): IdList {
    this.#idBuilder.start(expected);
    // group_concat keeps the subquery's ORDER BY (it is never flattened into an aggregate
    // that depends on order); catalog_keep_id() returns null, so nothing is concatenated.
    this.#stmt(`SELECT group_concat(catalog_keep_id(id)) AS none FROM (${allIds})`)
      .get(...params);
    return this.#idBuilder.finish();
  }

  /**
   * Reads the kept range columns now (a reader worker at start), so the first
   * search with a salary or date range does not wait for them.
   */
  preloadRangeColumns(): void {
    if (!this.#rangeColumns) return;
    this.db.exec("SAVEPOINT catalog_preload");
    try {
      this.#checkFresh();
      this.#rangeColumns.preload();
    } finally {
      this.db.exec("RELEASE catalog_preload");
    }
  }

  /** Opens the shared read transaction of this event-loop turn, if reads are shared. */
  #read(): void {
    if (!this.#shareReads || this.#sharing || this.db.isTransaction) return;
    this.db.exec("BEGIN");
    this.#sharing = true;
    this.#checkedShared = false;
    setTimeout(() => this.#endShared(), 0);
  }

  #endShared(): void {
    if (!this.#sharing) return;
    this.#sharing = false;
    // Run from a timer, where a throw would end the process; a read transaction that could
    // not end is rolled back (the next turn's reads begin a fresh one).
    try {
      if (this.db.isOpen && this.db.isTransaction) this.db.exec("COMMIT");
    } catch (err) {
      console.error("Ending the shared read transaction failed:", err);
      try {
        if (this.db.isOpen && this.db.isTransaction) this.db.exec("ROLLBACK");
      } catch { /* the connection is unusable; the next statement says so */ }
    }
  }

  #stmt(sql: string): StatementSync {
    this.#read();
    return this.#stmts.get(sql);
  }

  /** Indexed terms starting with `prefix`, or null when there are too many to list. */
  #expand(prefix: string): string[] | null {
    let terms = this.#expansions.get(prefix);
    if (terms === undefined) {
      const rows = this.#stmt(
        "SELECT term FROM fts_term WHERE term >= ? AND term < ? ORDER BY term LIMIT ?",
      ).all(prefix, prefix + "\u{10FFFF}", MAX_EXPANSION + 1) as { term: string }[];
      terms = rows.length > MAX_EXPANSION ? false : rows.map((r) => r.term);
      this.#expansions.set(prefix, terms);
    }
    return terms || null;
  }

  #docSql(form: DocForm, table: string): DocSql {
    return this.#docs[form][table] ??= new DocSql(table, form);
  }

  /**
   * Drops cached counts when the data may have changed: `data_version` moves on
   * commits of other connections (an import process), `total_changes()` on
   * writes through this one.
   */
  #checkFresh(): void {
    // Within one shared read transaction the snapshot cannot move: one check per transaction.
    this.#read();
    if (this.#sharing && this.#checkedShared) return;
    this.#checkedShared = this.#sharing;
    const r = this.#stmt(
      "SELECT data_version AS v, total_changes() AS c FROM pragma_data_version",
    ).get() as { v: number; c: number };
    const version = `${r.v}:${r.c}`;
    if (version !== this.#dataVersion) {
      this.#counts.clear();
      this.#plans.clear();
      this.#expansions.clear();
      this.#idLists?.clear();
      this.#rangeColumns?.clear();
      this.#dataVersion = version;
    }
  }

  /**
   * A page of published vacancies or competitions.
   *
   * @example
   * ```ts
   * declare const catalog: Catalog;
   * const { count, docs } = catalog.list("vacancies", { page: 2, agency: [3] });
   * ```
   * @throws RangeError when `q.page` is not a positive integer.
   */
  list(collection: ListCollection, q?: ListQuery): ListResult;
  list(plan: ListPlan): ListResult;
  list(of: ListCollection | ListPlan, q: ListQuery = {}): ListResult {
    return this.#list(isPlan(of) ? of : this.plan(of, q));
  }

  /**
   * The SQL of a list request, built once for all its steps: pass it to
   * {@linkcode Catalog.listWork}, {@linkcode Catalog.count},
   * {@linkcode Catalog.list} and {@linkcode Catalog.listBody} instead of the query.
   *
   * @example
   * ```ts
   * declare const catalog: Catalog;
   * const plan = catalog.plan("vacancies", { search: ["аудит"], page: 3 });
   * const { count, docs } = catalog.list(plan);
   * ```
   * @throws RangeError when `q.page` is not a positive integer.
   */
  plan(collection: ListCollection, q: ListQuery = {}): ListPlan {
    this.#checkFresh();
    // Built at page 1 once per shape and data version; a page is only an offset away.
    const key = collection + JSON.stringify({ ...q, page: undefined });
    let first = this.#plans.get(key);
    if (first === undefined) {
      const sql = buildList(collection, { ...q, page: 1 }, (prefix) => this.#expand(prefix));
      first = {
        collection,
        query: { ...q, page: 1 },
        sql,
        version: this.#dataVersion,
        countKey: countKey(sql),
        idsKey: idListKey(sql),
      };
      this.#plans.set(key, first);
    }
    return q.page === undefined || q.page === 1 ? first : this.atPage(first, q.page);
  }

  /**
   * The same plan for another page (`page=last` once the count is known):
   * nothing is built again.
   *
   * @example
   * ```ts
   * declare const catalog: Catalog;
   * const plan = catalog.plan("vacancies", { agency: [3] });
   * const last = catalog.atPage(plan, Math.ceil(catalog.count(plan) / 10));
   * ```
   */
  atPage(plan: ListPlan, page: number): ListPlan {
    return { ...plan, query: { ...plan.query, page }, sql: listAtPage(plan.sql, page) };
  }

  /** The plan, built again when the data changed since it was made. */
  #fresh(plan: ListPlan): ListPlan {
    this.#checkFresh();
    return plan.version === this.#dataVersion ? plan : this.plan(plan.collection, plan.query);
  }

  #list(of: ListPlan): ListResult {
    return this.#inList(of, (plan, count) => {
      const sql = plan.sql;
      if (sql.offset >= count) return { count, docs: [] };
      const docSql = this.#docSql("text", COLLECTIONS[of.collection].table);
      if (sql.plain) {
        // Default order, no filter: the dense seq makes any page an index range.
        const rows = this.#stmt(docSql.page).all(sql.offset, sql.offset + sql.limit) as {
          doc: string;
        }[];
        return { count, docs: rows.map((r) => r.doc) };
      }
      // Docs are fetched by id after ordering, so sorting never drags them along.
      const ids = this.#pageIds(plan, count);
      return { count, docs: this.#docsByIds(docSql, ids) };
    });
  }

  /**
   * A page as one UTF-8 body that SQLite assembles: `frame(count)`'s head, the
   * page's records joined by commas, its tail, for an HTTP body: no record
   * is decoded or copied into a buffer of its own.
   *
   * @example
   * ```ts
   * declare const catalog: Catalog;
   * const plan = catalog.plan("vacancies", { agency: [3], page: 2 });
   * const { count, body } = catalog.listBody(plan, (n) => ({ head: `{"count":${n},"results":[`, tail: "]}" }));
   * ```
   */
  listBody(plan: ListPlan, frame: PageFrame): ListBody {
    return this.#inList(plan, (plan, count) => {
      const f = frame(count);
      if (f === null) return { count, body: null };
      const sql = plan.sql;
      if (sql.offset >= count) return { count, body: encoder.encode(f.head + f.tail) };
      const docSql = this.#docSql("bytes", COLLECTIONS[plan.collection].table);
      if (sql.plain) {
        const row = this.#stmt(docSql.pageBody).get(
          f.head,
          f.tail,
          sql.offset,
          sql.offset + sql.limit,
        ) as { body: Uint8Array };
        return { count, body: row.body };
      }
      const ids = this.#pageIds(plan, count);
      const row = this.#stmt(docSql.idsBody).get(f.head, f.tail, jsonArray(ids)) as {
        body: Uint8Array;
        n: number;
      };
      if (row.n !== ids.length) {
        throw new Error(`${ids.length - row.n} record(s) of a listed page are missing`);
      }
      return { count, body: row.body };
    });
  }

  /**
   * Runs `read` with the plan made fresh and its count, in one read transaction:
   * count and page come from the same snapshot even while an import commits.
   */
  #inList<R>(of: ListPlan, read: (plan: ListPlan, count: number) => R): R {
    // The turn's shared read transaction is such a transaction; else SAVEPOINT rather than
    // BEGIN: it also nests inside a caller's transaction.
    this.#read();
    const own = !this.#sharing;
    if (own) this.db.exec("SAVEPOINT catalog_list");
    try {
      const plan = this.#fresh(of);
      return read(plan, this.#countOf(plan));
    } finally {
      if (own) this.db.exec("RELEASE catalog_list");
    }
  }

  /** The records of `ids` in their order, read in one statement. */
  #docsByIds(docSql: DocSql, ids: ArrayLike<number>): string[] {
    if (ids.length === 0) return [];
    const rows = this.#stmt(docSql.byIds(ids.length)).all(...Array.from(ids)) as {
      id: number;
      doc: string;
    }[];
    // Rows come in id order: each id of the page is found by bisection.
    return Array.from(ids, (id) => {
      let lo = 0, hi = rows.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (rows[mid].id < id) lo = mid + 1;
        else hi = mid;
      }
      if (rows[lo]?.id !== id) throw new Error(`record ${id} of a listed page is missing`);
      return rows[lo].doc;
    });
  }

  /** The ids of a filtered, searched or re-ordered page, in page order. */
  #pageIds(plan: ListPlan, count: number): ArrayLike<number> {
    const sql = plan.sql;
    // A list built for a deep page (or by a reader worker) serves every page.
    const built = this.#idLists?.get(plan.idsKey);
    if (built) return built.subarray(sql.offset, sql.offset + sql.limit);
    if (sql.offset >= DEEP_PAGE_OFFSET && this.#idLists) {
      return this.#idList(plan, count).subarray(sql.offset, sql.offset + sql.limit);
    }
    const params: SQLInputValue[] = [...sql.params, sql.limit, sql.offset];
    // Many matches in a non-default order: walk the ordering's index and
    // stop after the page instead of sorting every match.
    const walk = sql.idsOrdered !== undefined &&
      count >= ORDERED_WALK_MIN_MATCHES &&
      sql.offset + sql.limit <= count / 2;
    const rows = this.#stmt(walk ? sql.idsOrdered! : sql.ids).all(...params) as { id: number }[];
    return rows.map((r) => r.id);
  }

  /** Every id of a list query in page order, built once per data version. */
  #idList(plan: ListPlan, count: number): IdList {
    let ids = this.#idLists!.get(plan.idsKey);
    if (!ids) {
      ids = this.#readIds(plan.sql.allIds, plan.sql.params, count);
      this.#idLists!.set(plan.idsKey, ids);
    }
    return ids;
  }

  /**
   * The number of records a list request matches (its page is ignored), e.g.
   * to resolve `page=last`.
   *
   * @example
   * ```ts
   * declare const catalog: Catalog;
   * const q = { agency: [3] }, pageSize = 10;
   * const last = Math.max(1, Math.ceil(catalog.count("vacancies", q) / pageSize));
   * ```
   */
  count(collection: ListCollection, q?: ListQuery): number;
  count(plan: ListPlan): number;
  count(of: ListCollection | ListPlan, q: ListQuery = {}): number {
    return this.#countOf(this.#fresh(isPlan(of) ? of : this.plan(of, { ...q, page: 1 })));
  }

  /** Count of a planned list, cached per data version (max(seq) when unfiltered). */
  #countOf(plan: ListPlan): number {
    const sql = plan.sql;
    const key = plan.countKey;
    let count = this.#counts.get(key);
    if (count === undefined && sql.plain) {
      count = (this.#stmt(sql.count).get() as { n: number }).n;
      this.#counts.set(key, count);
    } else if (count === undefined) {
      count = sql.bits ? countByBits(this.db, sql.bits, 0, this.#rangeColumns)?.count : undefined;
      count ??= (this.#stmt(sql.count).get(...sql.params) as { n: number }).n;
      this.#counts.set(key, count);
    }
    return count;
  }

  /**
   * What a list request still needs that may take long (a count, or the
   * ordered ids of a deep page), or null when it can be answered from cached
   * facts and index walks. Run the work on another connection with
   * {@linkcode Catalog.runListWork} and hand the result to
   * {@linkcode Catalog.primeList}, so the slow query never runs here.
   *
   * @example
   * ```ts
   * declare const catalog: Catalog, otherCatalog: Catalog;
   * const work = catalog.listWork("vacancies", { search: "аудит", agency: [3] });
   * if (work) catalog.primeList(work, otherCatalog.runListWork(work));
   * ```
   */
  listWork(collection: ListCollection, q?: ListQuery): ListWork | null;
  listWork(plan: ListPlan): ListWork | null;
  listWork(of: ListCollection | ListPlan, q: ListQuery = {}): ListWork | null {
    const plan = this.#fresh(isPlan(of) ? of : this.plan(of, q));
    const sql = plan.sql;
    if (sql.plain) return null;
    let known = this.#counts.get(plan.countKey);
    const needCount = !sql.cheapCount && known === undefined;
    if (known === undefined && sql.cheapCount) known = this.#countOf(plan);
    // A page past the end is answered from the count alone (a 404): no id list for it.
    const pastEnd = known !== undefined && sql.offset >= known;
    const wantIds = this.#idLists !== null && !pastEnd &&
      (sql.offset >= DEEP_PAGE_OFFSET || sql.sortsAll === true);
    const needIds = wantIds && this.#idLists!.get(plan.idsKey) === undefined;
    if (!needCount && !needIds) return null;
    return {
      count: sql.count,
      allIds: sql.allIds,
      params: sql.params,
      needCount,
      // A cold count may reveal a sparse list; its ids then come along (see SMALL_LIST_MAX).
      idsUpTo: needIds ? Infinity : needCount && this.#idLists !== null ? SMALL_LIST_MAX : 0,
      bits: sql.bits,
      bitsInOrder: sql.bitsInOrder,
      // Not counted yet and not the first page: the page may be past the end.
      pageOffset: needCount && needIds && sql.offset > 0 ? sql.offset : undefined,
      knownCount: known,
    };
  }

  /**
   * Runs {@linkcode ListWork} on this connection (a reader worker's), in one
   * snapshot, and says which data revision it saw.
   */
  runListWork(work: ListWork): ListWorkResult {
    this.db.exec("SAVEPOINT catalog_work");
    try {
      // Kept range columns (a reader worker) must be those of the revision read here.
      this.#checkFresh();
      const revision = this.revision();
      // The bitmap index counts a search with range filters without a join
      // row by row, and lists the ids on the way when they are in page order.
      // The bitmap index lists ids in the same pass as its count; SQL lists them in a query of
      // its own, run only when the count shows the page exists (see ListWork.pageOffset).
      const bitIds = work.bitsInOrder === true ? work.idsUpTo : 0;
      const byBits = work.bits && (work.needCount || bitIds > 0)
        ? countByBits(this.db, work.bits, bitIds, this.#rangeColumns)
        : null;
      const count = work.needCount
        ? byBits?.count ?? (this.#stmt(work.count).get(...work.params) as { n: number }).n
        : undefined;
      let ids: IdList | undefined;
      const pageExists = work.pageOffset === undefined ||
        (count !== undefined && count > work.pageOffset);
      const idsWanted = pageExists &&
        (work.idsUpTo === Infinity || (count !== undefined && count <= work.idsUpTo));
      if (idsWanted && byBits?.ids) {
        ids = byBits.ids;
      } else if (idsWanted) {
        ids = this.#readIds(work.allIds, work.params, count ?? work.knownCount);
      }
      return { revision, count, ids };
    } finally {
      this.db.exec("RELEASE catalog_work");
    }
  }

  /**
   * Keeps the facts another connection computed for `work`, unless the data
   * changed since (its revision differs). Returns whether they were kept.
   */
  primeList(work: ListWork, result: ListWorkResult): boolean {
    this.#checkFresh();
    if (this.revision() !== result.revision) return false;
    const key = countKey(work);
    if (result.count !== undefined) this.#counts.set(key, result.count);
    if (result.ids !== undefined && this.#idLists) {
      this.#idLists.set(idListKey(work), result.ids);
      if (result.count === undefined) this.#counts.set(key, result.ids.length);
    }
    return true;
  }

  /**
   * One published record's JSON text, or null when absent or unpublished.
   *
   * @example
   * ```ts
   * declare const catalog: Catalog;
   * catalog.get("competitions", 17); // '{"id":17,...}' or null
   * ```
   */
  get(collection: CollectionName, id: number): string | null {
    return this.#get<string>(collection, id, "text");
  }

  /** Like {@linkcode Catalog.get}, as UTF-8 bytes (no decoding). */
  getBytes(collection: CollectionName, id: number): Uint8Array | null {
    return this.#get<Uint8Array>(collection, id, "bytes");
  }

  #get<T>(collection: CollectionName, id: number, form: DocForm): T | null {
    if (!Number.isSafeInteger(id)) return null;
    const sql = this.#docSql(form, COLLECTIONS[collection].table).published;
    const row = this.#stmt(sql).get(id) as { doc: T } | undefined;
    return row?.doc ?? null;
  }

  /** Every agency's JSON text, by id (the bare list of `/agencies/for_vacancies/`). */
  agencies(): string[] {
    return this.#agencies<string>("doc");
  }

  /** Like {@linkcode Catalog.agencies}, as UTF-8 bytes (no decoding). */
  agenciesBytes(): Uint8Array[] {
    return this.#agencies<Uint8Array>("CAST(doc AS BLOB)");
  }

  #agencies<T>(docExpr: string): T[] {
    const rows = this.#stmt(`SELECT ${docExpr} AS doc FROM agency WHERE published = 1 ORDER BY id`)
      .all() as { doc: T }[];
    return rows.map((r) => r.doc);
  }

  /** One agency's JSON text, or null. */
  agency(id: number): string | null {
    return this.get("agencies", id);
  }

  /** `meta.revision`: bumped by every import that changed something (for ETags). */
  revision(): number {
    const row = this.#stmt("SELECT value FROM meta WHERE key = 'revision'").get() as {
      value: string;
    };
    return Number(row.value);
  }

  /** `meta.last_modified`: ISO 8601 UTC time of the last changing import, or null if none. */
  lastModified(): string | null {
    const row = this.#stmt("SELECT value FROM meta WHERE key = 'last_modified'").get() as {
      value: string;
    };
    return row.value === "" ? null : row.value;
  }

  /** Number of the last row of `change_log` (0 when it is empty). */
  lastChangeSeq(): number {
    const r = this.#stmt("SELECT coalesce(max(seq), 0) AS s FROM change_log").get() as {
      s: number;
    };
    return Number(r.s);
  }

  /**
   * The places of competitions that moved (or appeared, or went) after change
   * `since` of the change log, so a tile cache can drop just the tiles there.
   */
  competitionMovesSince(since: number): CompetitionMoves {
    const first = this.#stmt("SELECT min(seq) AS s FROM change_log").get() as { s: number | null };
    if (first.s !== null && Number(first.s) > since + 1) {
      // Rows after `since` were pruned from the log: the caller must refresh everything.
      return { lastSeq: this.lastChangeSeq(), complete: false, places: [] };
    }
    const rows = this.#stmt(
      "SELECT seq, lat, lon, old_lat, old_lon FROM change_log WHERE seq > ? AND collection = 'competition' ORDER BY seq",
    ).all(since) as {
      seq: number;
      lat: number | null;
      lon: number | null;
      old_lat: number | null;
      old_lon: number | null;
    }[];
    let lastSeq = since;
    const places: [number, number][] = [];
    for (const r of rows) {
      lastSeq = Math.max(lastSeq, Number(r.seq));
      for (const [lat, lon] of [[r.lat, r.lon], [r.old_lat, r.old_lon]]) {
        if (lat !== null && lon !== null && Number.isFinite(lat) && Number.isFinite(lon)) {
          places.push([lon, lat]);
        }
      }
    }
    return { lastSeq, complete: true, places };
  }

  /**
   * What the catalogue's caches hold now (diagnostics and tests); each is
   * bounded, see the constants `COUNT_CACHE_MAX`, `PLAN_CACHE_MAX` and
   * `PLAN_CACHE_CHARS`, and the `idListBytes` of {@linkcode OpenOptions}.
   *
   * @example
   * ```ts
   * import { openCatalog } from "./catalog.ts";
   * const catalog = openCatalog("var/catalog.db", { readonly: true });
   * catalog.cacheSizes(); // { counts: 12, plans: 9, planChars: 4180, expansions: 3, idListBytes: 0 }
   * ```
   */
  cacheSizes(): CatalogCacheSizes {
    return {
      counts: this.#counts.size,
      plans: this.#plans.size,
      planChars: this.#plans.calculatedSize,
      expansions: this.#expansions.size,
      idListBytes: this.#idLists?.calculatedSize ?? 0,
    };
  }

  /**
   * Empties SQLite's page cache of every page no statement is reading.
   *
   * SQLite as Deno builds it (`SQLITE_ENABLE_MEMORY_MANAGEMENT`) keeps one
   * page cache for all the connections of a process, in which a connection
   * whose own share is full can take the least recently used pages of the
   * others. A reader worker's long reads (cold counts, whole id lists) ended
   * up holding the pages of the server's own connection, which then kept
   * almost none: on 200,000 vacancies, after 20 s of the uncached API mix at
   * 256 connections, a default page took 16.4 read calls instead of 10.6,
   * until a restart (docs/benchmarks.md). A reader calls this after each job;
   * the main connection reads back what it needs.
   *
   * @example
   * ```ts
   * declare const catalog: Catalog;
   * catalog.releaseCachedPages();
   * ```
   */
  releaseCachedPages(): void {
    this.db.exec("PRAGMA shrink_memory");
  }

  /** Closes the connection. */
  close(): void {
    this.#endShared();
    this.#stmts.clear();
    this.db.close();
  }
}

/**
 * Opens (and, unless read-only, creates and migrates) a catalogue database in
 * WAL mode. A read-only catalogue sees commits made by other processes.
 *
 * @example
 * ```ts
 * const catalog = openCatalog("var/catalog.db", { readonly: true });
 * const page = catalog.list("vacancies", { page: 1 });
 * ```
 */
export function openCatalog(path: string, opts: OpenOptions = {}): Catalog {
  const readonly = opts.readonly ?? false;
  if (readonly) {
    try {
      Deno.statSync(path);
    } catch {
      throw new CatalogOpenError(
        `The catalogue database ${path} does not exist; create it first.`,
        path,
      );
    }
  }
  const db = readonly
    ? openReadonly(path, opts.onNotice ?? ((m) => console.warn(m)))
    : new DatabaseSync(path, { timeout: 5000 });
  try {
    const cacheKiB = opts.cacheKiB ?? (readonly ? 16 * 1024 : 64 * 1024);
    db.exec(`PRAGMA cache_size = -${Math.max(1024, Math.floor(cacheKiB))}`);
    // mmap pages count towards RSS; the page cache is enough.
    db.exec("PRAGMA mmap_size = 0");
    db.exec("PRAGMA temp_store = MEMORY");
    if (readonly) {
      const v = schemaVersion(db);
      if (v !== SCHEMA_VERSION) {
        throw new CatalogOpenError(
          `The catalogue database ${path} has schema version ${v}, expected ${SCHEMA_VERSION}; open it once read-write (e.g. run an import) to migrate.`,
          path,
        );
      }
      db.exec("PRAGMA query_only = ON");
    } else {
      db.exec("PRAGMA journal_mode = WAL");
      db.exec("PRAGMA synchronous = NORMAL");
      db.exec("PRAGMA foreign_keys = ON");
      migrate(db, opts.onNotice ?? ((m) => console.warn(m)));
    }
    db.function(
      "haversine_km",
      { deterministic: true },
      (lat1, lon1, lat2, lon2) =>
        lat1 === null || lon1 === null
          ? null
          : haversineKm(Number(lat1), Number(lon1), Number(lat2), Number(lon2)),
    );
  } catch (err) {
    db.close();
    throw err;
  }
  return new Catalog(db, path, readonly, opts.idListBytes, opts.keepRangeColumns, opts.shareReads);
}
