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
import { beginWrite, CatalogWriter, rollback, type WriteStats } from "./_store.ts";
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
  /** Called after each batch of records with the number read so far. */
  onProgress?: (records: number) => void;
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

/** A record that passed validation, with its collection. */
export type ValidRecord =
  | { collection: "agencies"; record: Agency }
  | { collection: "vacancies"; record: Vacancy }
  | { collection: "competitions"; record: Competition };

/**
 * Validates records without writing them (sync validates a page before it
 * takes the write lock).
 * @throws ImportError naming the source, record index, field path and problem.
 */
export function validateRecords(
  source: string,
  records: Iterable<RawRecord>,
  forced: CollectionName | undefined,
): ValidRecord[] {
  const out: ValidRecord[] = [];
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
    out.push({ collection, record: parsed.data } as ValidRecord);
  }
  return out;
}

/** Writes validated records into an open writer, counting them per collection. */
export function putRecords(
  writer: CatalogWriter,
  records: readonly ValidRecord[],
  counts: Record<CollectionName, number>,
): void {
  for (const r of records) {
    if (r.collection === "agencies") writer.putAgency(r.record);
    else if (r.collection === "vacancies") writer.putVacancy(r.record);
    else writer.putCompetition(r.record);
    counts[r.collection]++;
  }
}

/**
 * Where each id of one import file was first seen, per collection, so that an id
 * given twice is refused rather than silently kept as its last copy (a
 * duplicate in an export usually means two different records share an id).
 * Positions are kept in flat arrays: a million records cost a few tens of MiB
 * while the file is read.
 */
export class ImportIds {
  readonly #first: Record<CollectionName, Map<unknown, number>> = {
    agencies: new Map(),
    vacancies: new Map(),
    competitions: new Map(),
  };
  readonly #files: string[] = [];
  readonly #file: number[] = [];
  readonly #index: number[] = [];
  readonly #line: number[] = [];

  /**
   * Notes the valid records of one batch of `source`; `raw` and `valid` are
   * parallel (as {@link validateRecords} returns them).
   * @throws ImportError naming both records when an id was seen before.
   */
  check(source: string, raw: readonly RawRecord[], valid: readonly ValidRecord[]): void {
    let file = this.#files.lastIndexOf(source);
    if (file < 0) file = this.#files.push(source) - 1;
    for (let i = 0; i < valid.length; i++) {
      const { collection, record } = valid[i];
      const seen = this.#first[collection];
      const before = seen.get(record.id);
      if (before === undefined) {
        seen.set(record.id, this.#index.length);
        this.#file.push(file);
        this.#index.push(raw[i].index);
        this.#line.push(raw[i].line ?? 0);
        continue;
      }
      const first = this.#where(
        this.#files[this.#file[before]],
        this.#index[before],
        this.#line[before],
      );
      const again = this.#where(source, raw[i].index, raw[i].line ?? 0);
      throw new ImportError(
        `${again}: ${
          COLLECTIONS[collection].table
        } id ${record.id} is already given by ${first}; ` +
          "each id may appear once per file.",
        source,
        raw[i].index,
        "id",
      );
    }
  }

  #where(source: string, index: number, line: number): string {
    return `${source}: record ${index}${line ? ` (line ${line})` : ""}`;
  }
}

/** Turns shape problems into ImportErrors naming the file. */
function shapeError(file: string, err: unknown): unknown {
  if (!(err instanceof ShapeError)) return err;
  const at = err.index === undefined
    ? ""
    : `: record ${err.index}${err.line ? ` (line ${err.line})` : ""}`;
  return new ImportError(`${file}${at}: ${err.message}`, file, err.index);
}

/** Records of a file, in batches; NDJSON streams, other shapes are parsed whole. */
async function* fileBatches(file: string): AsyncGenerator<RawRecord[]> {
  let lines: AsyncGenerator<string>;
  try {
    lines = readLines(await Deno.open(file));
  } catch (err) {
    throw new ImportError(`${file}: cannot read the file: ${(err as Error).message}`, file);
  }
  try {
    const first = await nextNonEmpty(lines);
    if (first === null) throw new ShapeError("the file is empty");
    const second = first.text.trimStart().startsWith("{") && parsesAsJson(first.text)
      ? await nextNonEmpty(lines, first.line)
      : null;
    if (second === null) {
      // One JSON document (array, envelope or record), possibly pretty-printed.
      const rest: string[] = [];
      for await (const l of lines) rest.push(l);
      yield [...recordsOfText([first.text, ...rest].join("\n"))];
      return;
    }
    // NDJSON: one record per line, streamed in batches so big files fit in memory.
    let batch: RawRecord[] = [];
    let index = 0;
    const push = (text: string, line: number) => {
      batch.push({ index, line, value: parseLine(text, index, line) });
      index++;
    };
    push(first.text, first.line);
    push(second.text, second.line);
    let line = second.line;
    for await (const l of lines) {
      line++;
      if (l.trim() === "") continue;
      push(l, line);
      if (batch.length >= 1000) {
        yield batch;
        batch = [];
      }
    }
    yield batch;
  } catch (err) {
    throw shapeError(file, err);
  } finally {
    await lines.return(undefined);
  }
}

function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function parseLine(text: string, index: number, line: number): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ShapeError(`not valid JSON: ${(err as Error).message}`, index, line);
  }
}

/** The next non-blank line after line number `after` (1-based), with its number. */
async function nextNonEmpty(
  lines: AsyncGenerator<string>,
  after = 0,
): Promise<{ text: string; line: number } | null> {
  let line = after;
  for (;;) {
    const r = await lines.next();
    if (r.done) return null;
    line++;
    const text = line === 1 ? r.value.replace(/^\uFEFF/, "") : r.value;
    if (text.trim() !== "") return { text, line };
  }
}

/** Lines of a file (without their "\n"), decoded as UTF-8; closes the file. */
async function* readLines(f: Deno.FsFile): AsyncGenerator<string> {
  let buf = "";
  try {
    for await (const chunk of f.readable.pipeThrough(new TextDecoderStream())) {
      buf += chunk;
      let start = 0;
      let nl: number;
      while ((nl = buf.indexOf("\n", start)) >= 0) {
        yield buf.slice(start, nl);
        start = nl + 1;
      }
      buf = buf.slice(start);
    }
    if (buf !== "") yield buf;
  } finally {
    try {
      f.close();
    } catch { /* the stream already closed it */ }
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
 * Ids already in the catalogue (or in an earlier file of the same import) are
 * updated; an id given twice in one file is refused, naming both records.
 * Agencies embedded in records are added when missing.
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
  const { catalog, owned } = writableCatalog(target);
  try {
    const counts = emptyCounts();
    const db = catalog.db;
    beginWrite(db, catalog.path);
    try {
      // Created inside the transaction: it reads the current seq state.
      const writer = new CatalogWriter(db, opts.now);
      for (const file of files) {
        // Per file: a later file of one import updates an earlier one's records, as a
        // later import would; within one file an id given twice is a mistake.
        const ids = new ImportIds();
        for await (const batch of fileBatches(file)) {
          const valid = validateRecords(file, batch, opts.collection);
          ids.check(file, batch, valid);
          putRecords(writer, valid, counts);
          opts.onProgress?.(counts.agencies + counts.vacancies + counts.competitions);
        }
      }
      writer.finish();
      db.exec("COMMIT");
      return { ...writer.stats, records: counts, revision: catalog.revision() };
    } catch (err) {
      rollback(db);
      throw err;
    }
  } finally {
    if (owned) catalog.close();
  }
}
