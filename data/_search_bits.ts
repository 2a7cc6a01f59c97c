/**
 * A bitmap index beside the search index, so that a search combined with
 * filters (salary and date ranges included) is counted in a few milliseconds
 * instead of by a join row by row.
 *
 * Ids are cut into chunks of 65,536. For every chunk holding listed rows the
 * table `<table>_chunk` keeps one row per common search term (a bitset of the
 * ids whose search body has it: the term's doclist as bits) and one per range
 * column (salaries as whole kopecks in 32 bits, dates as days since 1970 in 16
 * bits: 10 bytes a vacancy). A count ANDs the terms' bitsets and checks the
 * range columns of the ids left, exactly as the SQL conditions do; a value the
 * compact form cannot hold exactly makes the index decline (the SQL answers).
 *
 * Common terms (`<table>_chunk_term`) are those in at least `min_docs`
 * records when chosen; rarer terms are read from the search index itself
 * (their ids are few). The choice is made again when the number of listed
 * records has doubled or halved since. Writers rebuild the chunks their
 * changes touched, in the same transaction, from the list table and the
 * search index (so the bitsets never disagree with the SQL truth).
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite";
import { parseIdList } from "./_ordered_ids.ts";

/** A record table with a search index. */
export type BitsTable = "vacancy" | "competition";

/** log2 of the ids per chunk. */
const CHUNK_SHIFT = 16;
const CHUNK_IDS = 1 << CHUNK_SHIFT;
const CHUNK_WORDS = CHUNK_IDS / 32;
/** Terms in fewer records than this are read from the search index when counting. */
export const DEFAULT_MIN_DOCS = 4096;

const COLUMNS: Record<BitsTable, readonly { name: string; kind: "money" | "date" }[]> = {
  vacancy: [
    { name: "salary_from", kind: "money" },
    { name: "salary_to", kind: "money" },
    { name: "publish_date", kind: "date" },
  ],
  competition: [
    { name: "publish_date", kind: "date" },
    { name: "reception_finished", kind: "date" },
  ],
};

/** A date range condition of a {@linkcode BitsPlan}. */
export interface BitsDateRange {
  column: "publish_date" | "reception_finished";
  op: ">=" | "<=";
  /** `YYYY-MM-DD`. */
  value: string;
}

/**
 * What a list request asks, for the bitmap index: an AND of OR-groups of
 * search-index terms (search stems and filter terms), plus range conditions.
 * Plain data (it crosses to a reader worker).
 */
export interface BitsPlan {
  table: BitsTable;
  groups: string[][];
  salaryMin?: number;
  salaryMax?: number;
  dates: BitsDateRange[];
}

/** The SQL of the tables (schema 3). */
export function bitsSchema(table: BitsTable): string {
  return `
  CREATE TABLE ${table}_chunk (
    name TEXT NOT NULL,
    chunk INTEGER NOT NULL,
    data BLOB NOT NULL,
    UNIQUE (name, chunk)
  );
  CREATE INDEX ${table}_chunk_chunk ON ${table}_chunk (chunk);
  CREATE TABLE ${table}_chunk_term (term TEXT PRIMARY KEY) WITHOUT ROWID;
  -- rows: listed records when the common terms were chosen; min_docs: what makes one common.
  CREATE TABLE ${table}_chunk_state (key TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
  INSERT INTO ${table}_chunk_state (key, value) VALUES ('rows', 0), ('min_docs', ${DEFAULT_MIN_DOCS});
  `;
}

/** No value (NULL, or no listed record at this id). */
const MONEY_NULL = 0xffffffff;
/** A salary the 32-bit kopeck form cannot hold exactly: the index declines. */
const MONEY_WIDE = 0xfffffffe;
/** A date the 16-bit day form cannot hold (not `YYYY-MM-DD`, or before 1970). */
const DATE_NONE = 0xffff;
const DAY_MS = 86_400_000;

/** A salary as whole kopecks, or one of the markers above. */
function moneyKey(v: unknown): number {
  if (v === null || v === undefined) return MONEY_NULL;
  const n = Number(v);
  const k = Math.round(n * 100);
  return k >= 0 && k < MONEY_WIDE && k / 100 === n ? k : MONEY_WIDE;
}

/** `YYYY-MM-DD` as days since 1970-01-01 (same order), or {@linkcode DATE_NONE}. */
function dayKey(s: unknown): number {
  const m = typeof s === "string" ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(s) : null;
  if (!m) return DATE_NONE;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  const day = ms / DAY_MS;
  // Only real dates round-trip; SQL compares the text, which orders like the day for them.
  if (new Date(ms).toISOString().slice(0, 10) !== s || day < 0 || day >= DATE_NONE) {
    return DATE_NONE;
  }
  return day;
}

function state(db: DatabaseSync, table: BitsTable, key: string): number {
  const row = db.prepare(`SELECT value FROM ${table}_chunk_state WHERE key = ?`).get(key) as
    | { value: number }
    | undefined;
  return row ? Number(row.value) : 0;
}

function setState(db: DatabaseSync, table: BitsTable, key: string, value: number): void {
  db.prepare(`INSERT OR REPLACE INTO ${table}_chunk_state (key, value) VALUES (?, ?)`)
    .run(key, value);
}

function listedCount(db: DatabaseSync, table: BitsTable): number {
  return (db.prepare(`SELECT count(*) AS n FROM ${table}_list`).get() as { n: number }).n;
}

/**
 * Rebuilds chunk `chunk` of `table` from the list table and the search index.
 * Call inside the writer's transaction.
 */
function rebuildChunk(db: DatabaseSync, table: BitsTable, chunk: number, terms: string[]): void {
  db.prepare(`DELETE FROM ${table}_chunk WHERE chunk = ?`).run(chunk);
  const lo = chunk * CHUNK_IDS;
  const hi = lo + CHUNK_IDS;
  const cols = COLUMNS[table];
  const rows = db.prepare(
    `SELECT id, ${cols.map((c) => c.name).join(", ")} FROM ${table}_list
     WHERE id >= ? AND id < ?`,
  ).all(lo, hi) as Record<string, unknown>[];
  if (rows.length === 0) return;
  const insert = db.prepare(`INSERT INTO ${table}_chunk (name, chunk, data) VALUES (?, ?, ?)`);
  for (const c of cols) {
    const values = c.kind === "money"
      ? new Uint32Array(CHUNK_IDS).fill(MONEY_NULL)
      : new Uint16Array(CHUNK_IDS).fill(DATE_NONE);
    for (const r of rows) {
      const v = r[c.name];
      values[Number(r.id) - lo] = c.kind === "money" ? moneyKey(v) : dayKey(v);
    }
    insert.run(`c:${c.name}`, chunk, new Uint8Array(values.buffer));
  }
  const ids = db.prepare(
    `SELECT group_concat(rowid) AS ids FROM ${table}_fts
     WHERE ${table}_fts MATCH ? AND rowid >= ? AND rowid < ?`,
  );
  for (const term of terms) {
    const row = ids.get(`"${term}"`, lo, hi) as { ids: string | null };
    if (row.ids === null) continue;
    const bits = new Uint32Array(CHUNK_WORDS);
    for (const id of parseIdList(row.ids)) {
      const k = id - lo;
      bits[k >>> 5] |= 1 << (k & 31);
    }
    insert.run(`t:${term}`, chunk, new Uint8Array(bits.buffer));
  }
}

/**
 * Chooses the common terms of `table` again (those in at least `minDocs`
 * records; default: the value kept with the index) and rebuilds every chunk. Call
 * inside a write transaction. Seconds per million records.
 *
 * @example
 * ```ts
 * import { DatabaseSync } from "node:sqlite";
 * import { rebuildSearchBits } from "./_search_bits.ts";
 * const db = new DatabaseSync("var/catalog.db");
 * db.exec("BEGIN IMMEDIATE");
 * rebuildSearchBits(db, "vacancy");
 * db.exec("COMMIT");
 * ```
 */
export function rebuildSearchBits(db: DatabaseSync, table: BitsTable, minDocs?: number): void {
  if (minDocs !== undefined) setState(db, table, "min_docs", minDocs);
  const min = state(db, table, "min_docs") || DEFAULT_MIN_DOCS;
  db.exec(`DELETE FROM ${table}_chunk; DELETE FROM ${table}_chunk_term`);
  db.exec(`CREATE VIRTUAL TABLE temp.chunk_vocab USING fts5vocab(main, ${table}_fts, 'row')`);
  let terms: string[];
  try {
    terms = (db.prepare("SELECT term FROM temp.chunk_vocab WHERE doc >= ? ORDER BY term")
      .all(min) as { term: string }[]).map((r) => r.term);
  } finally {
    db.exec("DROP TABLE temp.chunk_vocab");
  }
  const addTerm = db.prepare(`INSERT INTO ${table}_chunk_term (term) VALUES (?)`);
  for (const t of terms) addTerm.run(t);
  const range = db.prepare(`SELECT min(id) AS lo, max(id) AS hi FROM ${table}_list`).get() as {
    lo: number | null;
    hi: number | null;
  };
  if (range.lo !== null && range.hi !== null) {
    for (let c = range.lo >>> CHUNK_SHIFT; c <= Math.floor(range.hi / CHUNK_IDS); c++) {
      rebuildChunk(db, table, c, terms);
    }
  }
  setState(db, table, "rows", listedCount(db, table));
}

/** A listed record's search-index terms before and after a writer's change. */
export interface TermChange {
  /** Its terms when the bitmap index was last brought up to date ([] when it was not listed). */
  was: readonly string[];
  /** Its terms now, or null when it is no longer listed. */
  now: readonly string[] | null;
}

/**
 * Brings the bitmap index of `table` up to date after a writer changed the
 * listed records in `changes`. Only their bits and column values change, and
 * only the blocks of the terms they had or now have are read (rebuilding a
 * whole block from FTS5 took ~14 s at 1M records; reading every term's block
 * of a touched chunk, ~2 MB a chunk); everything is rebuilt when the number
 * of listed records doubled or halved since the common terms were chosen.
 * Call inside the writer's transaction.
 */
export function refreshSearchBits(
  db: DatabaseSync,
  table: BitsTable,
  changes: ReadonlyMap<number, TermChange>,
): void {
  if (changes.size === 0) return;
  const chosenAt = state(db, table, "rows");
  const n = listedCount(db, table);
  if (n > 2 * chosenAt + 1000 || n < chosenAt / 2) {
    rebuildSearchBits(db, table);
    return;
  }
  const isCommon = db.prepare(`SELECT 1 AS x FROM ${table}_chunk_term WHERE term = ?`);
  const common = new Map<string, boolean>();
  const commonTerm = (term: string) => {
    let c = common.get(term);
    if (c === undefined) common.set(term, c = isCommon.get(term) !== undefined);
    return c;
  };
  const byChunk = new Map<number, number[]>();
  for (const id of changes.keys()) {
    const c = Math.floor(id / CHUNK_IDS);
    let ids = byChunk.get(c);
    if (!ids) byChunk.set(c, ids = []);
    ids.push(id);
  }
  for (const [c, ids] of byChunk) updateChunk(db, table, c, ids, changes, commonTerm);
}

/** Applies `changes` of the ids `ids` (all in chunk `chunk`) to the chunk's rows. */
function updateChunk(
  db: DatabaseSync,
  table: BitsTable,
  chunk: number,
  ids: readonly number[],
  changes: ReadonlyMap<number, TermChange>,
  common: (term: string) => boolean,
): void {
  const lo = chunk * CHUNK_IDS;
  const listed = db.prepare(`SELECT 1 AS x FROM ${table}_list WHERE id >= ? AND id < ? LIMIT 1`)
    .get(lo, lo + CHUNK_IDS);
  if (!listed) {
    db.prepare(`DELETE FROM ${table}_chunk WHERE chunk = ?`).run(chunk);
    return;
  }
  const put = db.prepare(
    `INSERT OR REPLACE INTO ${table}_chunk (name, chunk, data) VALUES (?, ?, ?)`,
  );
  // Range columns: the touched ids' values from the list table (markers when unlisted).
  const cols = COLUMNS[table];
  const read = db.prepare(`SELECT data FROM ${table}_chunk WHERE name = ? AND chunk = ?`);
  const row = db.prepare(
    `SELECT ${cols.map((c) => c.name).join(", ")} FROM ${table}_list WHERE id = ?`,
  );
  const values = ids.map((id) => row.get(id) as Record<string, unknown> | undefined);
  for (const c of cols) {
    const old = read.get(`c:${c.name}`, chunk) as { data: Uint8Array } | undefined;
    const money = c.kind === "money";
    const col = money
      ? (old
        ? new Uint32Array(old.data.slice().buffer)
        : new Uint32Array(CHUNK_IDS).fill(MONEY_NULL))
      : (old
        ? new Uint16Array(old.data.slice().buffer)
        : new Uint16Array(CHUNK_IDS).fill(DATE_NONE));
    ids.forEach((id, i) => {
      const v = values[i];
      col[id - lo] = v === undefined
        ? (money ? MONEY_NULL : DATE_NONE)
        : money
        ? moneyKey(v[c.name])
        : dayKey(v[c.name]);
    });
    put.run(`c:${c.name}`, chunk, new Uint8Array(col.buffer));
  }
  // Terms: the touched ids' bits cleared in the common terms they had and no longer have, set in
  // those they have and did not have; no other term's block is read.
  const blocks = new Map<string, { bits: Uint32Array; changed: boolean }>();
  const block = (term: string) => {
    let b = blocks.get(term);
    if (!b) {
      const r = read.get(`t:${term}`, chunk) as { data: Uint8Array } | undefined;
      const bits = r ? new Uint32Array(r.data.slice().buffer) : new Uint32Array(CHUNK_WORDS);
      blocks.set(term, b = { bits, changed: false });
    }
    return b;
  };
  for (const id of ids) {
    const k = id - lo;
    const m = 1 << (k & 31);
    const { was, now } = changes.get(id)!;
    const kept = new Set(now ?? []);
    for (const term of was) {
      if (kept.has(term) || !common(term)) continue;
      const b = block(term);
      if (b.bits[k >>> 5] & m) {
        b.bits[k >>> 5] &= ~m;
        b.changed = true;
      }
    }
    const had = new Set(was);
    for (const term of now ?? []) {
      if (had.has(term) || !common(term)) continue;
      const b = block(term);
      if (b.bits[k >>> 5] & m) continue;
      b.bits[k >>> 5] |= m;
      b.changed = true;
    }
  }
  const drop = db.prepare(`DELETE FROM ${table}_chunk WHERE name = ? AND chunk = ?`);
  for (const [term, b] of blocks) {
    if (!b.changed) continue;
    if (b.bits.some((w) => w !== 0)) put.run(`t:${term}`, chunk, new Uint8Array(b.bits.buffer));
    else drop.run(`t:${term}`, chunk);
  }
}

/** Bits of one chunk, by chunk number. */
type ChunkBits = Map<number, Uint32Array>;

/** `data`'s bytes as `T` (no copy when SQLite's buffer is aligned). */
function view<T>(
  data: Uint8Array,
  of: { new (b: ArrayBufferLike, o: number, n: number): T; BYTES_PER_ELEMENT: number },
): T {
  const size = of.BYTES_PER_ELEMENT;
  const b = data.byteOffset % size === 0 ? data : data.slice();
  return new of(b.buffer, b.byteOffset, b.byteLength / size);
}

function words(data: Uint8Array): Uint32Array {
  return view(data, Uint32Array);
}

/**
 * The ids of every record having `term` (any term, common or not), as chunk
 * bits: of the chunks in `only` when given (a later group of an AND reads just
 * the chunks still in play), else of every chunk.
 */
function termBits(
  db: DatabaseSync,
  table: BitsTable,
  term: string,
  only: ReadonlySet<number> | null,
): ChunkBits {
  const out: ChunkBits = new Map();
  const common = db.prepare(`SELECT 1 AS x FROM ${table}_chunk_term WHERE term = ?`).get(term);
  if (common) {
    if (only === null) {
      const rows = db.prepare(`SELECT chunk, data FROM ${table}_chunk WHERE name = ?`)
        .all(`t:${term}`) as { chunk: number; data: Uint8Array }[];
      for (const r of rows) out.set(r.chunk, words(r.data));
      return out;
    }
    const one = db.prepare(`SELECT data FROM ${table}_chunk WHERE name = ? AND chunk = ?`);
    for (const c of only) {
      const r = one.get(`t:${term}`, c) as { data: Uint8Array } | undefined;
      if (r) out.set(c, words(r.data));
    }
    return out;
  }
  const row = db.prepare(
    `SELECT group_concat(rowid) AS ids FROM ${table}_fts WHERE ${table}_fts MATCH ?`,
  ).get(`"${term}"`) as { ids: string | null };
  for (const id of parseIdList(row.ids)) {
    const c = Math.floor(id / CHUNK_IDS);
    if (only !== null && !only.has(c)) continue;
    let bits = out.get(c);
    if (!bits) out.set(c, bits = new Uint32Array(CHUNK_WORDS));
    const k = id - c * CHUNK_IDS;
    bits[k >>> 5] |= 1 << (k & 31);
  }
  return out;
}

/**
 * The range columns of the bitmap index, by chunk. With `keep`, a column read
 * once stays (about 4 bytes a record for each salary column, 2 for a date)
 * until {@linkcode RangeColumns.clear} (the data changed).
 *
 * @example
 * ```ts
 * import { DatabaseSync } from "node:sqlite";
 * import { RangeColumns } from "./_search_bits.ts";
 * const db = new DatabaseSync("var/catalog.db", { readOnly: true });
 * const columns = new RangeColumns(db, true);
 * columns.get("vacancy", "salary_to", 0); // Uint32Array of kopecks, or undefined
 * ```
 */
export class RangeColumns {
  readonly #db: DatabaseSync;
  readonly #keep: boolean;
  readonly #columns = new Map<string, Map<number, Uint32Array | Uint16Array>>();

  /** Reads from `db`; keeps what it read when `keep`. */
  constructor(db: DatabaseSync, keep: boolean) {
    this.#db = db;
    this.#keep = keep;
  }

  /** Column `name` of `table` in chunk `chunk`, or undefined when that chunk lists nothing. */
  get(table: BitsTable, name: string, chunk: number): Uint32Array | Uint16Array | undefined {
    const key = `${table}.${name}`;
    let chunks = this.#columns.get(key);
    if (!chunks) {
      chunks = new Map();
      const money = name.startsWith("salary");
      const rows = this.#keep
        ? this.#db.prepare(`SELECT chunk, data FROM ${table}_chunk WHERE name = ?`).all(`c:${name}`)
        : this.#db.prepare(`SELECT chunk, data FROM ${table}_chunk WHERE name = ? AND chunk = ?`)
          .all(`c:${name}`, chunk);
      for (const r of rows as { chunk: number; data: Uint8Array }[]) {
        chunks.set(r.chunk, money ? view(r.data, Uint32Array) : view(r.data, Uint16Array));
      }
      if (this.#keep) this.#columns.set(key, chunks);
    }
    return chunks.get(chunk);
  }

  /** Every column of both tables, read now (a reader worker at start). */
  preload(): void {
    for (const [table, cols] of Object.entries(COLUMNS) as [BitsTable, typeof COLUMNS.vacancy][]) {
      for (const c of cols) this.get(table, c.name, 0);
    }
  }

  /** Drops what was kept. */
  clear(): void {
    this.#columns.clear();
  }
}

/** Smallest whole-kopeck value v with v / 100 >= m. */
function kopecksFrom(m: number): number {
  // Past the compact range (and past 2^53, where k - 1 === k would never end the loops).
  if (m * 100 >= MONEY_WIDE) return MONEY_WIDE;
  let k = Math.max(0, Math.ceil(m * 100));
  while (k > 0 && (k - 1) / 100 >= m) k--;
  while (k / 100 < m) k++;
  return Math.min(k, MONEY_WIDE);
}

/** Largest whole-kopeck value v with v / 100 <= m (-1 when none). */
function kopecksUpTo(m: number): number {
  if (m < 0) return -1;
  let k = Math.min(MONEY_WIDE - 1, Math.floor(m * 100));
  while (k / 100 > m) k--;
  while (k + 1 < MONEY_WIDE && (k + 1) / 100 <= m) k++;
  return k;
}

/** The state of one count over the chunks (one object, so the hot loop stays monomorphic). */
interface Scan {
  count: number;
  /** 4 bytes an id unless the last chunk's ids may pass 2^32 - 1. */
  ids: Uint32Array | Float64Array | null;
  idsUpTo: number;
  /** First id of the chunk. */
  base: number;
  /** Salary columns when a salary filter applies. */
  from: Uint32Array | null;
  to: Uint32Array | null;
  minK: number;
  maxK: number;
  /** Up to two date columns with their day bounds. */
  d1: Uint16Array | null;
  lo1: number;
  hi1: number;
  d2: Uint16Array | null;
  lo2: number;
  hi2: number;
}

function popcount(x: number): number {
  x = x - ((x >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/**
 * Counts (and lists) the candidates of one chunk that pass the range checks.
 * False when a value the compact columns cannot hold is met.
 */
function scanChunk(bits: Uint32Array, s: Scan): boolean {
  const { from, to, minK, maxK, d1, lo1, hi1, d2, lo2, hi2, base } = s;
  const checks = from !== null || d1 !== null;
  for (let w = 0; w < CHUNK_WORDS; w++) {
    const cand = bits[w];
    if (cand === 0) continue;
    let keep = cand;
    if (checks) {
      // The word's 32 ids checked without branches, then masked by the candidates:
      // cheaper than visiting each candidate bit when most of them are set.
      let ok = 0;
      let bad = 0;
      const k0 = w << 5;
      if (from !== null && to !== null) {
        for (let b = 0; b < 32; b++) {
          const f = from[k0 + b];
          const t = to[k0 + b];
          const pass = +(t >= minK) & (+(f <= maxK) | +(f === MONEY_NULL)) &
            (+(f !== MONEY_NULL) | +(t !== MONEY_NULL));
          ok |= pass << b;
          bad |= (+(f === MONEY_WIDE) | +(t === MONEY_WIDE)) << b;
        }
      } else ok = -1;
      if (d1 !== null) {
        let dates = 0;
        for (let b = 0; b < 32; b++) {
          const v = d1[k0 + b];
          dates |= (+(v >= lo1) & +(v <= hi1)) << b;
          bad |= +(v === DATE_NONE) << b;
        }
        if (d2 !== null) {
          for (let b = 0; b < 32; b++) {
            const v = d2[k0 + b];
            if (v < lo2 || v > hi2) dates &= ~(1 << b);
            bad |= +(v === DATE_NONE) << b;
          }
        }
        ok &= dates;
      }
      if ((bad & cand) !== 0) return false;
      keep = cand & ok;
    }
    if (keep === 0) continue;
    const n = popcount(keep);
    if (s.ids !== null && s.count + n > s.idsUpTo) s.ids = null; // more than wanted: count only
    if (s.ids !== null) {
      if (s.count + n > s.ids.length) {
        const grown = s.ids instanceof Uint32Array
          ? new Uint32Array(Math.max(s.count + n, s.ids.length * 2))
          : new Float64Array(Math.max(s.count + n, s.ids.length * 2));
        grown.set(s.ids);
        s.ids = grown;
      }
      let x = keep;
      let i = s.count;
      while (x !== 0) {
        const low = x & -x;
        x ^= low;
        s.ids[i++] = base + ((w << 5) | (31 - Math.clz32(low)));
      }
    }
    s.count += n;
  }
  return true;
}

/** What {@linkcode countByBits} found. */
export interface BitsMatch {
  count: number;
  /** Matching ids in ascending order, when asked for. */
  ids?: Uint32Array | Float64Array;
}

/**
 * Counts the listed records matching `plan`, and lists their ids in id order
 * when there are at most `idsUpTo` of them (0: never; Infinity: always), or returns null when the bitmap index cannot answer exactly (a
 * prefix query, a value the compact columns cannot hold). Run it inside one
 * read transaction. `columns` keeps the range columns between calls (else
 * they are read for this call only).
 *
 * @example
 * ```ts
 * import { DatabaseSync } from "node:sqlite";
 * import { countByBits } from "./_search_bits.ts";
 * const db = new DatabaseSync("var/catalog.db", { readOnly: true });
 * const m = countByBits(db, {
 *   table: "vacancy",
 *   groups: [["специалист"]],
 *   salaryMin: 80000,
 *   dates: [],
 * }, 0);
 * console.log(m?.count);
 * ```
 */
export function countByBits(
  db: DatabaseSync,
  plan: BitsPlan,
  idsUpTo: number,
  columns?: RangeColumns,
): BitsMatch | null {
  if (plan.groups.length === 0 || plan.groups.some((g) => g.some((t) => t.endsWith("*")))) {
    return null;
  }
  const { table } = plan;
  // AND of groups, each the OR of its terms' bits; after the first group only
  // the chunks with candidates left are read.
  let acc: ChunkBits | null = null;
  for (const group of plan.groups) {
    const only = acc === null ? null : new Set(acc.keys());
    const or: ChunkBits = new Map();
    for (const term of new Set(group)) {
      for (const [c, bits] of termBits(db, table, term, only)) {
        const into = or.get(c);
        if (!into) or.set(c, bits);
        else for (let i = 0; i < CHUNK_WORDS; i++) into[i] |= bits[i];
      }
    }
    if (acc !== null) {
      for (const [c, bits] of or) {
        const a = acc.get(c)!;
        let any = 0;
        for (let i = 0; i < CHUNK_WORDS; i++) any |= bits[i] &= a[i];
        if (any === 0) or.delete(c);
      }
    }
    acc = or;
    if (acc.size === 0) break;
  }
  const salary = plan.salaryMin !== undefined || plan.salaryMax !== undefined;
  // Whole-kopeck bounds: to >= minK and from <= maxK say exactly what
  // to / 100 >= salaryMin and from / 100 <= salaryMax say of the stored values.
  const minK = plan.salaryMin === undefined ? 0 : kopecksFrom(plan.salaryMin);
  const maxK = plan.salaryMax === undefined ? MONEY_WIDE - 1 : kopecksUpTo(plan.salaryMax);
  // Day bounds: lo <= day <= hi, for each date column.
  const bounds = new Map<string, [number, number]>();
  for (const d of plan.dates) {
    const day = dayKey(d.value);
    if (day === DATE_NONE) return null;
    const b = bounds.get(d.column) ?? [0, DATE_NONE - 1];
    if (d.op === ">=") b[0] = Math.max(b[0], day);
    else b[1] = Math.min(b[1], day);
    bounds.set(d.column, b);
  }
  const dateCols = [...bounds];
  const source = columns ?? new RangeColumns(db, false);
  const chunks = [...acc!.keys()].sort((a, b) => a - b);
  const scan: Scan = {
    count: 0,
    ids: idsUpTo > 0 ? idArray(acc!, chunks, idsUpTo) : null,
    idsUpTo,
    base: 0,
    from: null,
    to: null,
    minK,
    maxK,
    d1: null,
    lo1: 0,
    hi1: 0,
    d2: null,
    lo2: 0,
    hi2: 0,
  };
  for (const c of chunks) {
    scan.base = c * CHUNK_IDS;
    if (salary) {
      scan.from = (source.get(table, "salary_from", c) as Uint32Array | undefined) ?? null;
      scan.to = (source.get(table, "salary_to", c) as Uint32Array | undefined) ?? null;
      // A term without its chunk's columns: cannot be exact.
      if (scan.from === null || scan.to === null) return null;
    }
    for (const [i, [name, [lo, hi]]] of dateCols.entries()) {
      const col = (source.get(table, name, c) as Uint16Array | undefined) ?? null;
      if (col === null) return null;
      if (i === 0) [scan.d1, scan.lo1, scan.hi1] = [col, lo, hi];
      else [scan.d2, scan.lo2, scan.hi2] = [col, lo, hi];
    }
    if (!scanChunk(acc!.get(c)!, scan)) return null;
  }
  const { count, ids } = scan;
  if (ids === null) return { count };
  // Without range filters the candidates are the matches: the array is exactly full.
  if (ids.length === count) return { count, ids };
  return { count, ids: ids.slice(0, count) };
}

/**
 * The array a count lists its ids into: sized for every candidate (at most
 * `idsUpTo` and a word more), so a list without range filters is filled in
 * place, never grown nor copied; 8 bytes an id only when ids may pass 2^32 - 1.
 */
function idArray(acc: ChunkBits, chunks: number[], idsUpTo: number): Uint32Array | Float64Array {
  let candidates = 0;
  for (const c of chunks) {
    const bits = acc.get(c)!;
    for (let w = 0; w < CHUNK_WORDS; w++) candidates += popcount(bits[w]);
  }
  const size = Math.max(1, Math.min(candidates, idsUpTo + 32));
  const last = chunks.length > 0 ? (chunks[chunks.length - 1] + 1) * CHUNK_IDS - 1 : 0;
  return last > 0xffffffff ? new Float64Array(size) : new Uint32Array(size);
}
