/**
 * Schema migrations, applied in order; `PRAGMA user_version` records how many ran.
 *
 * Never edit a migration that has shipped: append a new one.
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite";
import { beginWrite, rollback, searchEntry } from "./_store.ts";
import type { Competition, Vacancy } from "./schemas.ts";
import { bitsSchema, rebuildSearchBits } from "./_search_bits.ts";

/** A step in SQL, or in code when it needs the program (stemming); `notice` tells the user. */
type Migration = string | ((db: DatabaseSync, notice: (message: string) => void) => void);

const FTS_COLUMNS =
  `body, content = '', contentless_delete = 1, detail = 'none', tokenize = 'ascii'`;

/** Each entry moves the schema from version i to i + 1. */
const MIGRATIONS: readonly Migration[] = [
  // 1: the catalogue.
  `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
  INSERT INTO meta (key, value) VALUES ('revision', '0'), ('last_modified', '');

  -- Record tables: every stored record (published or not) with its exact API
  -- JSON. doc comes last: columns after a large value are reached only through
  -- its overflow pages.
  CREATE TABLE agency (
    id INTEGER PRIMARY KEY,
    published INTEGER NOT NULL DEFAULT 1,
    title TEXT NOT NULL,
    inn TEXT NOT NULL,
    doc TEXT NOT NULL
  );

  CREATE TABLE vacancy (
    id INTEGER PRIMARY KEY,
    published INTEGER NOT NULL,
    title TEXT NOT NULL,
    agency_id INTEGER NOT NULL,
    agency_title TEXT NOT NULL,
    group_id INTEGER NOT NULL,
    group_title TEXT NOT NULL,
    status_id INTEGER NOT NULL,
    salary_from REAL,
    salary_to REAL,
    publish_date TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    doc TEXT NOT NULL
  );
  CREATE INDEX vacancy_published ON vacancy (published, id);
  CREATE INDEX vacancy_agency ON vacancy (agency_id);

  CREATE TABLE competition (
    id INTEGER PRIMARY KEY,
    published INTEGER NOT NULL,
    title TEXT NOT NULL,
    agency_id INTEGER NOT NULL,
    agency_title TEXT NOT NULL,
    group_id INTEGER NOT NULL,
    group_title TEXT NOT NULL,
    status_id INTEGER NOT NULL,
    competition_type TEXT NOT NULL,
    publish_date TEXT NOT NULL,
    reception_finished TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    lat REAL,
    lon REAL,
    address_text TEXT NOT NULL,
    site_link TEXT NOT NULL,
    doc TEXT NOT NULL
  );
  CREATE INDEX competition_published ON competition (published, id);
  CREATE INDEX competition_agency ON competition (agency_id);
  CREATE INDEX competition_publish_date ON competition (publish_date);
  CREATE INDEX competition_reception_finished ON competition (reception_finished);

  -- Industries of published records only (like the list tables), so an
  -- industry-only count is an index range of this table.
  CREATE TABLE vacancy_industry (
    industry_id INTEGER NOT NULL,
    vacancy_id INTEGER NOT NULL,
    PRIMARY KEY (industry_id, vacancy_id)
  ) WITHOUT ROWID;
  CREATE INDEX vacancy_industry_vacancy ON vacancy_industry (vacancy_id);

  CREATE TABLE competition_industry (
    industry_id INTEGER NOT NULL,
    competition_id INTEGER NOT NULL,
    PRIMARY KEY (industry_id, competition_id)
  ) WITHOUT ROWID;
  CREATE INDEX competition_industry_competition ON competition_industry (competition_id);

  -- List tables: published records only, compact (no doc), so filters, counts
  -- and joins with search touch ~100-byte rows instead of ~5 KB ones.
  -- seq is the dense 1..n position in id order: a deep page in the default
  -- order is an index range, not an OFFSET.
  CREATE TABLE vacancy_list (
    id INTEGER PRIMARY KEY,
    seq INTEGER NOT NULL,
    agency_id INTEGER NOT NULL,
    group_id INTEGER NOT NULL,
    status_id INTEGER NOT NULL,
    salary_from REAL,
    salary_to REAL,
    publish_date TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    title TEXT NOT NULL
  );
  CREATE UNIQUE INDEX vacancy_list_seq ON vacancy_list (seq);
  CREATE INDEX vacancy_list_agency ON vacancy_list (agency_id, seq);
  CREATE INDEX vacancy_list_group ON vacancy_list (group_id, seq);
  CREATE INDEX vacancy_list_status ON vacancy_list (status_id, seq);
  CREATE INDEX vacancy_list_publish_date ON vacancy_list (publish_date, seq);
  CREATE INDEX vacancy_list_created_at ON vacancy_list (created_at, seq);
  CREATE INDEX vacancy_list_updated_at ON vacancy_list (updated_at, seq);
  CREATE INDEX vacancy_list_title ON vacancy_list (title, seq);
  CREATE INDEX vacancy_list_salary_from ON vacancy_list (salary_from, seq);
  -- Ascending salary with nulls last, served from an index instead of a full sort.
  CREATE INDEX vacancy_list_salary_nulls_last ON vacancy_list (salary_from IS NULL, salary_from, seq);
  -- Covers the salary overlap filter, so its count never reads the table.
  CREATE INDEX vacancy_list_salary_to ON vacancy_list (salary_to, salary_from, seq);

  CREATE TABLE competition_list (
    id INTEGER PRIMARY KEY,
    seq INTEGER NOT NULL,
    agency_id INTEGER NOT NULL,
    group_id INTEGER NOT NULL,
    status_id INTEGER NOT NULL,
    publish_date TEXT NOT NULL,
    reception_finished TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    lat REAL,
    lon REAL,
    title TEXT NOT NULL
  );
  CREATE UNIQUE INDEX competition_list_seq ON competition_list (seq);
  CREATE INDEX competition_list_agency ON competition_list (agency_id, seq);
  CREATE INDEX competition_list_group ON competition_list (group_id, seq);
  CREATE INDEX competition_list_status ON competition_list (status_id, seq);
  CREATE INDEX competition_list_publish_date ON competition_list (publish_date, seq);
  CREATE INDEX competition_list_reception_finished ON competition_list (reception_finished, seq);
  CREATE INDEX competition_list_created_at ON competition_list (created_at, seq);
  CREATE INDEX competition_list_updated_at ON competition_list (updated_at, seq);
  CREATE INDEX competition_list_title ON competition_list (title, seq);

  -- Published competitions with coordinates (the map layer and near= prefilter).
  CREATE VIRTUAL TABLE competition_rtree USING rtree (id, min_lon, max_lon, min_lat, max_lat);

  CREATE TABLE change_log (
    seq INTEGER PRIMARY KEY,
    collection TEXT NOT NULL,
    record_id INTEGER NOT NULL,
    lat REAL,
    lon REAL,
    old_lat REAL,
    old_lon REAL,
    changed_at TEXT NOT NULL
  );

  -- Every stem ever indexed, so a search prefix expands to exact terms
  -- (FTS5 prefix queries materialize whole doclists; exact terms stream).
  CREATE TABLE fts_term (term TEXT PRIMARY KEY) WITHOUT ROWID;

  -- Stemmed, de-duplicated tokens of published records only; rowid = record id.
  CREATE VIRTUAL TABLE vacancy_fts USING fts5 (
    body, content = '', contentless_delete = 1, detail = 'none', tokenize = 'ascii'
  );
  CREATE VIRTUAL TABLE competition_fts USING fts5 (
    body, content = '', contentless_delete = 1, detail = 'none', tokenize = 'ascii'
  );
  `,
  // 2: filter values (agency, group, status, industries) as search terms, so
  // a search with these filters is one FTS5 query instead of a join row by
  // row. Rebuilds both search indexes from the stored documents.
  (db, notice) => {
    for (const table of ["vacancy", "competition"] as const) {
      const { n } = db.prepare(`SELECT count(*) AS n FROM ${table}_list`).get() as { n: number };
      if (n > 0) {
        notice(
          `Migrating the catalogue to schema 2: re-indexing the search of ${n} ${table} records ` +
            `with their filter values (once; a few minutes per million records)...`,
        );
      }
      db.exec(`DROP TABLE ${table}_fts`);
      db.exec(`CREATE VIRTUAL TABLE ${table}_fts USING fts5 (${FTS_COLUMNS})`);
      const insert = db.prepare(`INSERT INTO ${table}_fts (rowid, body) VALUES (?, ?)`);
      const rows = db.prepare(
        `SELECT r.id AS id, r.doc AS doc FROM ${table}_list AS l JOIN ${table} AS r ON r.id = l.id
         ORDER BY l.id`,
      ).iterate() as Iterable<{ id: number; doc: string }>;
      for (const row of rows) {
        const record = JSON.parse(row.doc) as Vacancy | Competition;
        insert.run(row.id, searchEntry(table, record).body);
      }
      if (n > 0) db.exec(`INSERT INTO ${table}_fts (${table}_fts) VALUES ('optimize')`);
    }
  },
  // 3: a bitmap index of the common search terms and the range columns, so a
  // search with a salary or date range is counted without a join row by row
  // (see _search_bits.ts). Built from the list tables and search indexes.
  (db, notice) => {
    for (const table of ["vacancy", "competition"] as const) {
      db.exec(bitsSchema(table));
      const { n } = db.prepare(`SELECT count(*) AS n FROM ${table}_list`).get() as { n: number };
      if (n > 0) {
        notice(
          `Migrating the catalogue to schema 3: indexing the common search terms of ${n} ` +
            `${table} records as bitmaps (once; about two minutes per million records)...`,
        );
      }
      rebuildSearchBits(db, table);
    }
  },
];

/** The schema version this code reads and writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/** Reads `PRAGMA user_version`. */
export function schemaVersion(db: DatabaseSync): number {
  const row = db.prepare("PRAGMA user_version").get() as { user_version: number };
  return row.user_version;
}

/**
 * Brings the schema up to {@linkcode SCHEMA_VERSION}, each step in its own
 * transaction so a failed step leaves the previous version intact.
 */
export function migrate(db: DatabaseSync, notice: (message: string) => void = () => {}): void {
  const current = schemaVersion(db);
  if (current > SCHEMA_VERSION) {
    throw new Error(
      `The database has schema version ${current}, newer than this program's ${SCHEMA_VERSION}; upgrade the program.`,
    );
  }
  for (let v = current; v < SCHEMA_VERSION; v++) {
    beginWrite(db);
    try {
      // Another process (a second import) may have migrated while we waited for the lock.
      if (schemaVersion(db) > v) {
        db.exec("COMMIT");
        continue;
      }
      const step = MIGRATIONS[v];
      if (typeof step === "string") db.exec(step);
      else step(db, notice);
      db.exec(`PRAGMA user_version = ${v + 1}`);
      db.exec("COMMIT");
    } catch (err) {
      rollback(db);
      throw err;
    }
  }
}
