/**
 * The one write path: every record (import, sync, demo data) goes through
 * {@linkcode CatalogWriter}, which renders the doc, fills the indexed columns,
 * the industry join tables, the search index, the R*Tree and the change log.
 *
 * The caller owns the transaction; `finish()` must run inside it.
 *
 * @module
 */
import type { DatabaseSync, SQLInputValue, StatementSync } from "node:sqlite";
import type { Agency, Competition, Vacancy } from "./schemas.ts";
import { normalizeAgency, normalizeCompetition, normalizeVacancy, toJson } from "./_json.ts";
import { filterTerm, htmlToText, indexTerms, type SearchField } from "./_text.ts";
import { refreshSearchBits, type TermChange } from "./_search_bits.ts";

/** What a `put` did. */
export type PutOutcome = "inserted" | "updated" | "unchanged";

/** Counters of one write session. */
export interface WriteStats {
  inserted: number;
  updated: number;
  unchanged: number;
}

/** A record table with a list table and a search index. */
export type Table = "vacancy" | "competition";

interface OldRow {
  doc: string;
  published: number;
  lat?: number | null;
  lon?: number | null;
}

/** Per-table bookkeeping of the dense `seq` of the list table. */
interface SeqState {
  maxId: number;
  maxSeq: number;
  /** Smallest id that entered or left the list out of append order; renumber from here. */
  renumberFrom: number | null;
}

function isPublished(r: { is_public: boolean; is_removed: boolean }): boolean {
  return r.is_public && !r.is_removed;
}

function coordinate(s: string): number | null {
  if (s === "") return null;
  const n = Number(s);
  return Number.isFinite(n) ? n : null;
}

function money(s: string | null): number | null {
  return s === null ? null : Number(s);
}

function vacancySearchFields(v: Vacancy): SearchField[] {
  return [
    [v.title, false],
    [v.experience_upgo, false],
    [v.experience_text, false],
    [v.education, false],
    [v.professions, true],
    [v.explanation_requirements, false],
    [v.job_responsibilities, true],
    [v.requirements_for_knowledge, true],
    [v.requirements_for_skills, true],
    [v.additional_info, true],
  ];
}

function competitionSearchFields(c: Competition): SearchField[] {
  return [
    [c.title, false],
    [c.experience_upgo, false],
    [c.experience_text, false],
    [c.experience_addition_info, false],
    [c.education, false],
    [c.professions, true],
    [c.explanation_requirements, false],
    [c.job_responsibilities, true],
    [c.requirements_for_knowledge, true],
    [c.requirements_for_skills, true],
    [c.additional_info, true],
    [c.document_reception_address, true],
    [c.competition_procedure, true],
  ];
}

/** The filter values of a record, as search terms (see `filterTerm`). */
function filterTerms(
  r: { agency: { id: number }; groups_of_positions: { id: number }; status: { id: number } },
  industries: readonly number[],
): string[] {
  return [
    filterTerm("agency", r.agency.id),
    filterTerm("group", r.groups_of_positions.id),
    filterTerm("status", r.status.id),
    ...new Set(industries.map((id) => filterTerm("industry", id))),
  ];
}

/** What a record's search entry is made of: equal inputs, equal terms (no stemming needed). */
function searchInputs(table: Table, record: Vacancy | Competition): string {
  const fields = table === "vacancy"
    ? vacancySearchFields(record as Vacancy)
    : competitionSearchFields(record as Competition);
  const industries = table === "vacancy"
    ? (record as Vacancy).industries.map((i) => i.id)
    : (record as Competition).industries;
  return JSON.stringify([fields, filterTerms(record, industries)]);
}

/** A record the writer touched: its terms before the transaction (see `CatalogWriter.finish`). */
interface Touched {
  /** Its terms before; null while only its stored doc is known (`wasDoc`). */
  was: string[] | null;
  wasDoc: string | null;
  /** Its terms now, or null when it is no longer listed. */
  now: string[] | null;
}

/**
 * A published record's search index entry: its stems (also listed in
 * `fts_term`, for prefix expansion) and the FTS5 body, stems then filter terms.
 */
export function searchEntry(
  table: Table,
  record: Vacancy | Competition,
): { stems: Set<string>; body: string } {
  const stems = table === "vacancy"
    ? indexTerms(vacancySearchFields(record as Vacancy))
    : indexTerms(competitionSearchFields(record as Competition));
  const industries = table === "vacancy"
    ? (record as Vacancy).industries.map((i) => i.id)
    : (record as Competition).industries;
  return { stems, body: [...stems, ...filterTerms(record, industries)].join(" ") };
}

/** Writes validated records into the catalogue. Create one per transaction. */
export class CatalogWriter {
  readonly stats: WriteStats = { inserted: 0, updated: 0, unchanged: 0 };
  readonly #db: DatabaseSync;
  readonly #stmts = new Map<string, StatementSync>();
  readonly #seq: Record<Table, SeqState>;
  readonly #knownAgencies = new Set<number>();
  readonly #now: string;
  #terms: Set<string> | null = null;
  /**
   * Ids whose listing or search entry changed, with their search-index terms
   * before this transaction and now (null: no longer listed), for the bitmap
   * index in `finish()`.
   */
  readonly #touched: Record<Table, Map<number, Touched>> = {
    vacancy: new Map(),
    competition: new Map(),
  };

  /** `now` stamps change_log rows and meta.last_modified (ISO 8601, UTC). */
  constructor(db: DatabaseSync, now: Date = new Date()) {
    this.#db = db;
    this.#now = now.toISOString();
    this.#seq = { vacancy: this.#seqState("vacancy"), competition: this.#seqState("competition") };
  }

  #stmt(sql: string): StatementSync {
    let s = this.#stmts.get(sql);
    if (!s) {
      s = this.#db.prepare(sql);
      this.#stmts.set(sql, s);
    }
    return s;
  }

  #run(sql: string, ...params: SQLInputValue[]): void {
    this.#stmt(sql).run(...params);
  }

  #seqState(table: Table): SeqState {
    const row = this.#db.prepare(
      `SELECT coalesce(max(id), 0) AS max_id, coalesce(max(seq), 0) AS max_seq FROM ${table}_list`,
    ).get() as { max_id: number; max_seq: number };
    return { maxId: row.max_id, maxSeq: row.max_seq, renumberFrom: null };
  }

  /** Adds a record's search body to `table`_fts and its new stems to fts_term. */
  #index(table: Table, record: Vacancy | Competition): void {
    const { stems: terms, body } = searchEntry(table, record);
    const now = body.split(" ");
    const t = this.#touched[table].get(record.id);
    if (!t) this.#touched[table].set(record.id, { was: [], wasDoc: null, now });
    else {
      t.now = now;
      if (t.was === null) {
        // Re-listed after #unlist: the old terms are needed only when its searched text or
        // filter values changed (a salary or date change keeps every term).
        const old = JSON.parse(t.wasDoc!) as Vacancy | Competition;
        t.was = searchInputs(table, old) === searchInputs(table, record)
          ? now
          : searchEntry(table, old).body.split(" ");
        t.wasDoc = null;
      }
    }
    this.#run(`INSERT INTO ${table}_fts (rowid, body) VALUES (?, ?)`, record.id, body);
    if (this.#terms === null) {
      const rows = this.#db.prepare("SELECT term FROM fts_term").all() as { term: string }[];
      this.#terms = new Set(rows.map((r) => r.term));
    }
    for (const term of terms) {
      if (this.#terms.has(term)) continue;
      this.#terms.add(term);
      this.#run("INSERT OR IGNORE INTO fts_term (term) VALUES (?)", term);
    }
  }

  #count(outcome: PutOutcome): PutOutcome {
    this.stats[outcome]++;
    return outcome;
  }

  /**
   * The seq of a row entering the list (published now, not listed before):
   * appended rows are numbered at once; others get a temporary negative value
   * and are renumbered in `finish()`.
   */
  #enterSeq(table: Table, id: number): number {
    const st = this.#seq[table];
    if (id > st.maxId && st.renumberFrom === null) {
      st.maxId = id;
      return ++st.maxSeq;
    }
    this.#leaveSeq(table, id);
    return -id;
  }

  /** Notes that a row left the list, so later rows need renumbering. */
  #leaveSeq(table: Table, id: number): void {
    const st = this.#seq[table];
    st.renumberFrom = st.renumberFrom === null ? id : Math.min(st.renumberFrom, id);
  }

  /**
   * Removes a previously published row (whose stored doc is `doc`) from the
   * list table and search index; returns its seq.
   */
  #unlist(table: Table, id: number, doc: string): number | undefined {
    const row = this.#stmt(`SELECT seq FROM ${table}_list WHERE id = ?`).get(id) as
      | { seq: number }
      | undefined;
    if (!row) return undefined;
    // The terms it was indexed with come from its stored doc (as the schema 3 migration
    // indexed it): only their bitmap blocks need its bit cleared. Touched twice in one
    // transaction, the bitmap index still holds the first state.
    const t = this.#touched[table].get(id);
    if (t) t.now = null;
    else this.#touched[table].set(id, { was: null, wasDoc: doc, now: null });
    this.#run(`DELETE FROM ${table}_list WHERE id = ?`, id);
    this.#run(`DELETE FROM ${table}_fts WHERE rowid = ?`, id);
    return row.seq;
  }

  /** Inserts or replaces an agency. */
  putAgency(a: Agency): PutOutcome {
    const doc = toJson(normalizeAgency(a));
    const old = this.#stmt("SELECT doc FROM agency WHERE id = ?").get(a.id) as
      | { doc: string }
      | undefined;
    this.#knownAgencies.add(a.id);
    if (old?.doc === doc) return this.#count("unchanged");
    this.#run(
      "INSERT OR REPLACE INTO agency (id, doc, published, title, inn) VALUES (?, ?, 1, ?, ?)",
      a.id,
      doc,
      a.title,
      a.inn,
    );
    return this.#count(old ? "updated" : "inserted");
  }

  /** Adds an agency embedded in a vacancy or competition unless one with its id exists. */
  #ensureAgency(a: Agency): void {
    if (this.#knownAgencies.has(a.id)) return;
    this.#knownAgencies.add(a.id);
    const exists = this.#stmt("SELECT 1 AS x FROM agency WHERE id = ?").get(a.id);
    if (exists) return;
    this.#run(
      "INSERT INTO agency (id, doc, published, title, inn) VALUES (?, ?, 1, ?, ?)",
      a.id,
      toJson(normalizeAgency(structuredClone(a))),
      a.title,
      a.inn,
    );
  }

  /** Inserts or replaces a vacancy. */
  putVacancy(v: Vacancy): PutOutcome {
    const doc = toJson(normalizeVacancy(v));
    const old = this.#stmt("SELECT doc, published FROM vacancy WHERE id = ?").get(v.id) as
      | OldRow
      | undefined;
    this.#ensureAgency(v.agency);
    if (old?.doc === doc) return this.#count("unchanged");
    const published = isPublished(v);
    let seq: number | undefined;
    if (old) {
      seq = old.published ? this.#unlist("vacancy", v.id, old.doc) : undefined;
      if (seq !== undefined && !published) this.#leaveSeq("vacancy", v.id);
      this.#run("DELETE FROM vacancy_industry WHERE vacancy_id = ?", v.id);
    }
    this.#run(
      `INSERT OR REPLACE INTO vacancy (id, published, title, agency_id, agency_title, group_id,
        group_title, status_id, salary_from, salary_to, publish_date, created_at, updated_at, doc)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      v.id,
      published ? 1 : 0,
      v.title,
      v.agency.id,
      v.agency.title,
      v.groups_of_positions.id,
      v.groups_of_positions.title,
      v.status.id,
      money(v.salary_from),
      money(v.salary_to),
      v.publish_date,
      v.created_at,
      v.updated_at,
      doc,
    );
    if (published) {
      for (const ind of new Set(v.industries.map((i) => i.id))) {
        this.#run(
          "INSERT INTO vacancy_industry (industry_id, vacancy_id) VALUES (?, ?)",
          ind,
          v.id,
        );
      }
      this.#run(
        `INSERT INTO vacancy_list (id, seq, agency_id, group_id, status_id, salary_from, salary_to,
          publish_date, created_at, updated_at, title) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        v.id,
        seq ?? this.#enterSeq("vacancy", v.id),
        v.agency.id,
        v.groups_of_positions.id,
        v.status.id,
        money(v.salary_from),
        money(v.salary_to),
        v.publish_date,
        v.created_at,
        v.updated_at,
        v.title,
      );
      this.#index("vacancy", v);
    }
    return this.#count(old ? "updated" : "inserted");
  }

  /** Inserts or replaces a competition, logging its move in `change_log`. */
  putCompetition(c: Competition): PutOutcome {
    const doc = toJson(normalizeCompetition(c));
    const old = this.#stmt(
      "SELECT doc, published, lat, lon FROM competition WHERE id = ?",
    ).get(c.id) as OldRow | undefined;
    this.#ensureAgency(c.agency);
    if (old?.doc === doc) return this.#count("unchanged");
    const published = isPublished(c);
    let seq: number | undefined;
    if (old) {
      if (old.published) {
        seq = this.#unlist("competition", c.id, old.doc);
        this.#run("DELETE FROM competition_rtree WHERE id = ?", c.id);
      }
      if (seq !== undefined && !published) this.#leaveSeq("competition", c.id);
      this.#run("DELETE FROM competition_industry WHERE competition_id = ?", c.id);
    }
    const lat = coordinate(c.document_reception_map_latitude);
    const lon = coordinate(c.document_reception_map_longitude);
    const located = lat !== null && lon !== null;
    this.#run(
      `INSERT OR REPLACE INTO competition (id, published, title, agency_id, agency_title, group_id,
        group_title, status_id, competition_type, publish_date, reception_finished, created_at,
        updated_at, lat, lon, address_text, site_link, doc)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      c.id,
      published ? 1 : 0,
      c.title,
      c.agency.id,
      c.agency.title,
      c.groups_of_positions.id,
      c.groups_of_positions.title,
      c.status.id,
      c.competition_type.title,
      c.publish_date,
      c.document_reception_finished,
      c.created_at,
      c.updated_at,
      located ? lat : null,
      located ? lon : null,
      htmlToText(c.document_reception_address),
      c.site_link,
      doc,
    );
    if (published) {
      for (const ind of new Set(c.industries)) {
        this.#run(
          "INSERT INTO competition_industry (industry_id, competition_id) VALUES (?, ?)",
          ind,
          c.id,
        );
      }
      this.#run(
        `INSERT INTO competition_list (id, seq, agency_id, group_id, status_id, publish_date,
          reception_finished, created_at, updated_at, lat, lon, title)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        c.id,
        seq ?? this.#enterSeq("competition", c.id),
        c.agency.id,
        c.groups_of_positions.id,
        c.status.id,
        c.publish_date,
        c.document_reception_finished,
        c.created_at,
        c.updated_at,
        located ? lat : null,
        located ? lon : null,
        c.title,
      );
      this.#index("competition", c);
      if (located) {
        this.#run(
          "INSERT INTO competition_rtree (id, min_lon, max_lon, min_lat, max_lat) VALUES (?, ?, ?, ?, ?)",
          c.id,
          lon,
          lon,
          lat,
          lat,
        );
      }
    }
    // collection is the table name ('competition'), as the tile cache reads it.
    // lat/lon: where the point is shown now; old_lat/old_lon: where it was shown
    // (NULL when not shown), so tile invalidation can clear both places.
    const shownOld = old && old.published && old.lat != null && old.lon != null;
    this.#run(
      `INSERT INTO change_log (collection, record_id, lat, lon, old_lat, old_lon, changed_at)
       VALUES ('competition', ?, ?, ?, ?, ?, ?)`,
      c.id,
      published && located ? lat : null,
      published && located ? lon : null,
      shownOld ? old.lat! : null,
      shownOld ? old.lon! : null,
      this.#now,
    );
    return this.#count(old ? "updated" : "inserted");
  }

  /**
   * Renumbers `seq` where needed and, when anything changed, bumps
   * `meta.revision` and sets `meta.last_modified`. Call once, inside the transaction.
   */
  finish(): void {
    for (const table of ["vacancy", "competition"] as const) {
      const from = this.#seq[table].renumberFrom;
      if (from === null) continue;
      renumber(this.#db, table, from);
      this.#seq[table] = this.#seqState(table);
    }
    for (const table of ["vacancy", "competition"] as const) {
      const changes = new Map<number, TermChange>();
      for (const [id, t] of this.#touched[table]) {
        const was = t.was ??
          searchEntry(table, JSON.parse(t.wasDoc!) as Vacancy | Competition).body.split(" ");
        changes.set(id, { was, now: t.now });
      }
      refreshSearchBits(this.#db, table, changes);
      this.#touched[table].clear();
    }
    if (this.stats.inserted + this.stats.updated === 0) return;
    this.#run("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'revision'");
    this.#run("UPDATE meta SET value = ? WHERE key = 'last_modified'", this.#now);
  }
}

/** Re-derives dense seq numbers of listed rows with id >= `fromId`. */
function renumber(db: DatabaseSync, table: Table, fromId: number): void {
  const base = db.prepare(`SELECT count(*) AS n FROM ${table}_list WHERE id < ?`).get(fromId) as {
    n: number;
  };
  // Negative first: the unique index must never see a seq twice mid-update.
  db.prepare(`UPDATE ${table}_list SET seq = -id WHERE id >= ?`).run(fromId);
  db.prepare(
    `UPDATE ${table}_list SET seq = r.rn + ? FROM (
       SELECT id, row_number() OVER (ORDER BY id) AS rn FROM ${table}_list WHERE id >= ?
     ) AS r WHERE ${table}_list.id = r.id`,
  ).run(base.n, fromId);
}

/**
 * Another import or sync holds the write lock (SQLite stayed busy for the
 * whole busy timeout). Nothing was written.
 */
export class WriterBusyError extends Error {
  /** `path` is the database file. */
  constructor(readonly path: string) {
    super(
      `another import is running (or a sync) on ${path}; nothing was written. Try again when it has finished.`,
    );
    this.name = "WriterBusyError";
  }
}

/**
 * Starts the write transaction, turning SQLite's "database is locked" (another
 * import or sync still writing after the busy timeout) into a
 * {@linkcode WriterBusyError}.
 */
export function beginWrite(db: DatabaseSync, path = "the catalogue database"): void {
  try {
    db.exec("BEGIN IMMEDIATE");
  } catch (err) {
    if (/locked|busy/i.test((err as Error).message)) throw new WriterBusyError(path);
    throw err;
  }
}

/**
 * Rolls back the open transaction, if there still is one: on errors such as
 * SQLITE_FULL ("database or disk is full") or SQLITE_IOERR SQLite has already
 * rolled back by itself, and a second ROLLBACK would fail with "no transaction
 * is active" and hide the real error.
 */
export function rollback(db: DatabaseSync): void {
  if (db.isTransaction) db.exec("ROLLBACK");
}

/**
 * Runs `fn` in one IMMEDIATE transaction; rolls back on any error so nothing is
 * half-written.
 */
export function inTransaction<T>(db: DatabaseSync, fn: () => T): T {
  beginWrite(db);
  try {
    const result = fn();
    db.exec("COMMIT");
    return result;
  } catch (err) {
    rollback(db);
    throw err;
  }
}
