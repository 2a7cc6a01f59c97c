/**
 * Helpers shared by the data tests: temp databases and an independent oracle
 * (every published record parsed in JS) to compare queries against.
 *
 * @module
 */
import { DatabaseSync } from "node:sqlite";
import { createDemoDatabase, type DemoOptions } from "../data/demo.ts";
import { generateAgencies, generateCompetition, generateVacancy, Rng } from "../data/_demo_gen.ts";
import type { Competition, Vacancy } from "../data/schemas.ts";

/** A fresh temp directory, removed by the returned cleanup. */
export async function tempDir(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await Deno.makeTempDir({ prefix: "catalog_test_" });
  return { dir, cleanup: () => Deno.remove(dir, { recursive: true }) };
}

/** Creates a demo database in `dir` and returns its path. */
export function demoDb(dir: string, opts: DemoOptions = {}, name = "demo.db"): string {
  const path = `${dir}/${name}`;
  createDemoDatabase(path, opts);
  return path;
}

/** Every stored record of a table, parsed, by id (published or not). */
export function allRecords(path: string, table: string): Record<string, unknown>[] {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    const rows = db.prepare(`SELECT doc FROM ${table} ORDER BY id`).all() as { doc: string }[];
    return rows.map((r) => JSON.parse(r.doc));
  } finally {
    db.close();
  }
}

/** Published records only (is_public and not is_removed). */
export function publishedRecords(path: string, table: string): Record<string, unknown>[] {
  return allRecords(path, table).filter((r) => r.is_public === true && r.is_removed === false);
}

/** Ids of serialized docs. */
export function idsOf(docs: readonly string[]): number[] {
  return docs.map((d) => (JSON.parse(d) as { id: number }).id);
}

/** A valid vacancy record (generated), with overrides applied. */
export function sampleVacancy(id: number, overrides: Partial<Vacancy> = {}): Vacancy {
  const rng = new Rng(id);
  const v = generateVacancy(rng, generateAgencies(new Rng(1), 3), id);
  return { ...v, is_public: true, is_removed: false, comment_rejection: "", ...overrides };
}

/** A valid competition record (generated), with overrides applied. */
export function sampleCompetition(id: number, overrides: Partial<Competition> = {}): Competition {
  const rng = new Rng(id);
  const c = generateCompetition(rng, generateAgencies(new Rng(1), 3), id);
  return { ...c, is_public: true, is_removed: false, comment_rejection: "", ...overrides };
}

/** Writes `value` as JSON to `dir/name` and returns the path. */
export async function writeJson(dir: string, name: string, value: unknown): Promise<string> {
  const path = `${dir}/${name}`;
  await Deno.writeTextFile(path, JSON.stringify(value));
  return path;
}
