/**
 * Importing agencies, vacancies and competitions from the API's own JSON
 * shapes, validated with the same zod schemas that describe the API.
 *
 * @module
 */
import type { z } from "zod";
import { Catalog, openCatalog } from "./catalog.ts";
import { type CollectionName, COLLECTIONS } from "./collections.ts";
import { Agency, Competition, Vacancy } from "./schemas.ts";
import { CatalogWriter, inTransaction, type WriteStats } from "./_store.ts";
import {
  detectCollection,
  normalizeTimestamps,
  type RawRecord,
  recordsOfText,
  ShapeError,
} from "./_parse.ts";

/** Options of {@linkcode importFiles}. */
export interface ImportOptions {
  /** Treat every record as this collection instead of detecting it from its fields. */
  collection?: CollectionName;
  /** Time written to change_log and meta.last_modified (default: now). */
  now?: Date;
}

/** Counts of one import call. */
export interface ImportReport extends WriteStats {
  /** Records read per collection. */
  records: Record<CollectionName, number>;
  /** meta.revision after the import. */
  revision: number;
}

/** An import was rejected; nothing was written. The message names file, record, field. */
export class ImportError extends Error {
  /** `source` is the file name or URL; `index` the 0-based record; `path` the field path. */
  constructor(
    message: string,
    readonly source: string,
    readonly index?: number,
    readonly path?: string,
  ) {
    super(message);
    this.name = "ImportError";
  }
}

/** Renders a zod issue path as `agency.universities[0].created_at`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const p of path) {
    if (typeof p === "number") out += `[${p}]`;
    else out += (out === "" ? "" : ".") + String(p);
  }
  return out;
}

const SCHEMAS = { agencies: Agency, vacancies: Vacancy, competitions: Competition } as const;

/**
 * Validates and writes records into an open writer. Shared by file import and sync.
 * @throws ImportError naming the source, record index, field path and problem.
 */
export function writeRecords(
  writer: CatalogWriter,
  source: string,
  records: Iterable<RawRecord>,
  forced: CollectionName | undefined,
  counts: Record<CollectionName, number>,
): void {
  for (const rec of records) {
    const where = `${source}: record ${rec.index}${rec.line ? ` (line ${rec.line})` : ""}`;
    const collection = forced ?? detectCollection(rec.value);
    if (collection === null) {
      throw new ImportError(
        `${where}: cannot tell whether it is an agency, vacancy or competition; pass the collection explicitly.`,
        source,
        rec.index,
      );
    }
    normalizeTimestamps(rec.value);
    const schema: z.ZodType = SCHEMAS[collection];
    const parsed = schema.safeParse(rec.value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const path = formatPath(issue.path);
      throw new ImportError(
        `${where}: ${COLLECTIONS[collection].table} field ${path || "(record)"}: ${issue.message}`,
        source,
        rec.index,
        path,
      );
    }
    if (collection === "agencies") writer.putAgency(parsed.data as Agency);
    else if (collection === "vacancies") writer.putVacancy(parsed.data as Vacancy);
    else writer.putCompetition(parsed.data as Competition);
    counts[collection]++;
  }
}

/** Reads a file's records, turning shape problems into ImportErrors. */
function* fileRecords(file: string, text: string): Generator<RawRecord> {
  try {
    yield* recordsOfText(text);
  } catch (err) {
    if (err instanceof ShapeError) {
      const at = err.index === undefined
        ? ""
        : `: record ${err.index}${err.line ? ` (line ${err.line})` : ""}`;
      throw new ImportError(`${file}${at}: ${err.message}`, file, err.index);
    }
    throw err;
  }
}

/** Opens `target` read-write when given a path; returns the catalogue and whether we own it. */
export function writableCatalog(target: Catalog | string): { catalog: Catalog; owned: boolean } {
  if (typeof target === "string") return { catalog: openCatalog(target), owned: true };
  if (target.readonly) {
    throw new Error(`The catalogue ${target.path} is open read-only; imports need read-write.`);
  }
  return { catalog: target, owned: false };
}

/** Empty per-collection counters. */
export function emptyCounts(): Record<CollectionName, number> {
  return { agencies: 0, vacancies: 0, competitions: 0 };
}

/**
 * Imports JSON files (bare array, envelope page, single record or NDJSON) in one
 * transaction: either every record of every file is written, or nothing is.
 * Re-imported ids are updated; agencies embedded in records are added when missing.
 *
 * @example
 * ```ts
 * const report = await importFiles("var/catalog.db", ["vacancies.json"]);
 * // report.inserted, report.updated, report.revision
 * ```
 * @throws ImportError e.g. `v.json: record 3: vacancy field salary_from: expected a decimal ...`
 */
export async function importFiles(
  target: Catalog | string,
  files: readonly string[],
  opts: ImportOptions = {},
): Promise<ImportReport> {
  const texts: [string, string][] = [];
  for (const file of files) {
    try {
      texts.push([file, await Deno.readTextFile(file)]);
    } catch (err) {
      throw new ImportError(`${file}: cannot read the file: ${(err as Error).message}`, file);
    }
  }
  const { catalog, owned } = writableCatalog(target);
  try {
    const counts = emptyCounts();
    const stats = inTransaction(catalog.db, () => {
      const writer = new CatalogWriter(catalog.db, opts.now);
      for (const [file, text] of texts) {
        writeRecords(writer, file, fileRecords(file, text), opts.collection, counts);
      }
      writer.finish();
      return writer.stats;
    });
    return { ...stats, records: counts, revision: catalog.revision() };
  } finally {
    if (owned) catalog.close();
  }
}
