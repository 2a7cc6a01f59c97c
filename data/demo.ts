/**
 * The demo database: deterministic, realistic Russian records written through
 * the same validation and insert path as imports.
 *
 * @module
 */
import { DatabaseSync } from "node:sqlite";
import { Agency, Competition, Vacancy } from "./schemas.ts";
import { migrate } from "./_migrations.ts";
import { CatalogWriter, inTransaction } from "./_store.ts";
import { generateAgencies, generateCompetition, generateVacancy, Rng } from "./_demo_gen.ts";

/** Options of {@linkcode createDemoDatabase}. */
export interface DemoOptions {
  /** Number of agencies (default 40). */
  agencies?: number;
  /** Number of vacancies (default 400, or 1,000,000 with `scale`). */
  vacancies?: number;
  /** Benchmark size: 1,000,000 vacancies unless `vacancies` is given. */
  scale?: boolean;
  /** Number of competitions (default 200). */
  competitions?: number;
  /** PRNG seed (default 1); equal seeds give identical records. */
  seed?: number;
  /** Called after each batch with records written so far and the total. */
  onProgress?: (done: number, total: number) => void;
}

/** What {@linkcode createDemoDatabase} produced. */
export interface DemoReport {
  agencies: number;
  vacancies: number;
  competitions: number;
  /** Wall time in milliseconds. */
  elapsedMs: number;
  /** Size of the database file in bytes. */
  bytes: number;
}

/** Records per transaction: big enough to amortize commits, small enough to report progress. */
const BATCH = 20_000;

/** The `--scale` size: one million vacancies. */
export const SCALE_VACANCIES = 1_000_000;

/**
 * Creates a new demo database at `path` (which must not exist), in WAL mode.
 * Ids have small gaps, as real data has. About 2% of records are unpublished.
 *
 * @example
 * ```ts
 * const report = createDemoDatabase("var/demo.db", { seed: 1 });
 * const big = createDemoDatabase("var/big.db", { scale: true }); // 1,000,000 vacancies
 * ```
 */
export function createDemoDatabase(path: string, opts: DemoOptions = {}): DemoReport {
  const started = performance.now();
  const nAgencies = opts.agencies ?? 40;
  const nVacancies = opts.vacancies ?? (opts.scale ? SCALE_VACANCIES : 400);
  const nCompetitions = opts.competitions ?? 200;
  if (nAgencies < 1) throw new RangeError("A demo database needs at least one agency.");
  try {
    Deno.statSync(path);
    throw new Error(`Refusing to overwrite ${path}: the demo database must be a new file.`);
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  const db = new DatabaseSync(path);
  try {
    // A fresh file has nothing to protect: keep the rollback journal in memory
    // while loading (OFF is refused in SQLite's defensive mode), then switch to
    // WAL for readers and later imports.
    db.exec("PRAGMA journal_mode = MEMORY");
    db.exec("PRAGMA synchronous = OFF");
    db.exec("PRAGMA cache_size = -262144");
    db.exec("PRAGMA temp_store = MEMORY");
    migrate(db);
    const rng = new Rng(opts.seed ?? 1);
    const agencies = generateAgencies(rng, nAgencies).map((a) => Agency.parse(a));
    const total = nAgencies + nVacancies + nCompetitions;
    inTransaction(db, () => {
      const w = new CatalogWriter(db);
      for (const a of agencies) w.putAgency(structuredClone(a));
      w.finish();
    });
    let done = nAgencies;
    const load = (n: number, put: (w: CatalogWriter, id: number) => void) => {
      let id = 0;
      for (let start = 0; start < n; start += BATCH) {
        inTransaction(db, () => {
          const w = new CatalogWriter(db);
          for (let i = start; i < Math.min(n, start + BATCH); i++) {
            id += rng.chance(0.1) ? 2 : 1;
            put(w, id);
          }
          w.finish();
        });
        done += Math.min(BATCH, n - start);
        opts.onProgress?.(done, total);
      }
    };
    load(nVacancies, (w, id) => w.putVacancy(Vacancy.parse(generateVacancy(rng, agencies, id))));
    load(
      nCompetitions,
      (w, id) => w.putCompetition(Competition.parse(generateCompetition(rng, agencies, id))),
    );
    // The batches are one logical import: revision 1.
    db.exec("UPDATE meta SET value = '1' WHERE key = 'revision'");
    // One FTS segment per table and fresh planner statistics make reads fast.
    db.exec("INSERT INTO vacancy_fts (vacancy_fts) VALUES ('optimize')");
    db.exec("INSERT INTO competition_fts (competition_fts) VALUES ('optimize')");
    // Sampled statistics: exact ones would read every index of a 5 GB file.
    db.exec("PRAGMA analysis_limit = 2000");
    db.exec("ANALYZE");
    db.exec("PRAGMA journal_mode = WAL");
  } catch (err) {
    db.close();
    for (const suffix of ["", "-wal", "-shm"]) {
      try {
        Deno.removeSync(path + suffix);
      } catch { /* already absent */ }
    }
    throw err;
  }
  db.close();
  return {
    agencies: nAgencies,
    vacancies: nVacancies,
    competitions: nCompetitions,
    elapsedMs: Math.round(performance.now() - started),
    bytes: Deno.statSync(path).size,
  };
}
