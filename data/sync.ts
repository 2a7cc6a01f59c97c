/**
 * Mirroring another instance (or the original service) over its public API,
 * through the same validation and write path as file imports.
 *
 * An upstream may misbehave: endless pages, `next` links in a cycle, a page
 * that repeats the previous one, a body of gigabytes. Sync stops on each
 * with a sentence naming the cap or the loop, and it writes in batches, each
 * its own short transaction taken only after the batch's pages were fetched
 * and validated, so an import can write between batches and the WAL stays
 * small.
 *
 * @module
 */
import type { Catalog } from "./catalog.ts";
import type { CollectionName } from "./collections.ts";
import {
  emptyCounts,
  type ImportReport,
  putRecords,
  validateRecords,
  type ValidRecord,
  writableCatalog,
} from "./import.ts";
import { beginWrite, CatalogWriter, rollback, WriterBusyError } from "./_store.ts";
import { recordsOfJson, ShapeError } from "./_parse.ts";
import { FetchJsonError, type FetchJsonOptions, getJson as fetchJson } from "./_http_json.ts";
import { type Progress, progressBar } from "./progress.ts";

/** Progress of a sync: pages fetched of a collection and the estimated total. */
export type SyncProgress = (
  collection: CollectionName,
  pagesDone: number,
  pagesTotal: number,
) => void;

/** Default caps of a sync (see {@linkcode SyncOptions}). */
export const SYNC_DEFAULTS = {
  maxPages: 10_000,
  maxRecords: 1_000_000,
  batchRecords: 1_000,
  writeWaitMs: 60_000,
} as const;

/** Options of {@linkcode sync}. */
export interface SyncOptions extends Omit<FetchJsonOptions, "maxBodyBytes"> {
  /** The catalogue to write into: an open read-write Catalog or a database path. */
  target: Catalog | string;
  /** A callback, or `true` (default) for a progress display on stderr, `false` for silence. */
  progress?: boolean | SyncProgress;
  /** Time written to change_log and meta.last_modified (default: now). */
  now?: Date;
  /** Pages read per collection at most (default 10000); more is an error. */
  maxPages?: number;
  /** Records read in all at most (default 1000000); more is an error. */
  maxRecords?: number;
  /** Largest page body in bytes (default 64 MiB); larger is an error. */
  maxPageBytes?: number;
  /** Records validated before they are written in one transaction (default 1000). */
  batchRecords?: number;
  /** How long a batch waits for another writer (an import) to finish, in ms (default 60000). */
  writeWaitMs?: number;
}

/** A sync failed. `committed` records of earlier batches were saved (0: nothing was written). */
export class SyncError extends Error {
  /** `url` is the request that failed; `committed` the records saved before the failure. */
  constructor(
    message: string,
    readonly url: string,
    readonly committed = 0,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = "SyncError";
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function getJson(url: string, opts: SyncOptions): Promise<unknown> {
  try {
    return await fetchJson(url, { ...opts, maxBodyBytes: opts.maxPageBytes });
  } catch (err) {
    if (err instanceof FetchJsonError) throw new SyncError(err.message, err.url);
    throw err;
  }
}

/** The next page's URL, kept on the base's origin (proxies often mislabel scheme or host). */
function nextUrl(next: unknown, current: string, base: URL): string | null {
  if (next === null || next === undefined) return null;
  if (typeof next !== "string") {
    throw new SyncError(`${current}: the envelope's next is not a string or null.`, current);
  }
  const u = new URL(next, current);
  return new URL(u.pathname + u.search, base.origin).href;
}

/** Validated records waiting for their transaction, and what was saved so far. */
class BatchWriter {
  readonly counts = emptyCounts();
  readonly stats = { inserted: 0, updated: 0, unchanged: 0 };
  committed = 0;
  #pending: ValidRecord[] = [];

  constructor(readonly catalog: Catalog, readonly opts: SyncOptions) {}

  get pending(): number {
    return this.#pending.length;
  }

  add(records: ValidRecord[]): void {
    for (const r of records) this.#pending.push(r);
  }

  /** Writes the pending records in one transaction, waiting politely for another writer. */
  async flush(): Promise<void> {
    if (this.#pending.length === 0) return;
    const db = this.catalog.db;
    const deadline = Date.now() + (this.opts.writeWaitMs ?? SYNC_DEFAULTS.writeWaitMs);
    for (;;) {
      try {
        beginWrite(db, this.catalog.path);
        break;
      } catch (err) {
        if (!(err instanceof WriterBusyError) || Date.now() > deadline) throw err;
        await sleep(250);
      }
    }
    try {
      // Created inside the transaction: it reads the current seq state.
      const writer = new CatalogWriter(db, this.opts.now);
      const counts = emptyCounts();
      putRecords(writer, this.#pending, counts);
      writer.finish();
      db.exec("COMMIT");
      for (const c of Object.keys(counts) as CollectionName[]) this.counts[c] += counts[c];
      this.stats.inserted += writer.stats.inserted;
      this.stats.updated += writer.stats.updated;
      this.stats.unchanged += writer.stats.unchanged;
    } catch (err) {
      rollback(db);
      throw err;
    }
    this.committed += this.#pending.length;
    this.#pending = [];
  }
}

function progressOf(opts: SyncOptions): {
  update: SyncProgress;
  finish: (c: CollectionName) => void;
  stop: () => void;
} {
  const none = () => {};
  if (opts.progress === false) return { update: none, finish: none, stop: none };
  if (typeof opts.progress === "function") {
    return { update: opts.progress, finish: none, stop: none };
  }
  const bars = new Map<CollectionName, Progress>();
  const bar = (c: CollectionName) => {
    let b = bars.get(c);
    if (!b) bars.set(c, b = progressBar(`sync ${c}`));
    return b;
  };
  return {
    update: (c, done, total) => bar(c).update(done, total, "pages"),
    finish: (c) => bar(c).finish(),
    // A failed sync ends a half-drawn bar's line before the error is printed.
    stop: () => bars.forEach((b) => b.stop()),
  };
}

/** Walks one collection's `next` links into `batch`, enforcing the caps. */
async function syncCollection(
  collection: "vacancies" | "competitions",
  base: URL,
  opts: SyncOptions,
  batch: BatchWriter,
  read: { records: number },
  progress: SyncProgress,
): Promise<void> {
  const maxPages = opts.maxPages ?? SYNC_DEFAULTS.maxPages;
  const maxRecords = opts.maxRecords ?? SYNC_DEFAULTS.maxRecords;
  const batchRecords = opts.batchRecords ?? SYNC_DEFAULTS.batchRecords;
  let url: string | null = new URL(`api/v1/${collection}/`, base).href;
  const seenUrls = new Map<string, number>();
  const seenIds = new Set<number>();
  let done = 0;
  let total = 1;
  while (url !== null) {
    const before = seenUrls.get(url);
    if (before !== undefined) {
      throw new SyncError(
        `${url}: the next links of ${collection} loop back to page ${before} (a cycle); stopped.`,
        url,
      );
    }
    if (done >= maxPages) {
      throw new SyncError(
        `${url}: ${collection} has more than ${maxPages} pages (the --max-pages cap); stopped. ` +
          `Raise --max-pages if the upstream really is that large.`,
        url,
      );
    }
    seenUrls.set(url, done + 1);
    const page = await getJson(url, opts) as Record<string, unknown>;
    let records: unknown[];
    try {
      records = recordsOfJson(page);
    } catch (err) {
      if (err instanceof ShapeError) throw new SyncError(`${url}: ${err.message}.`, url);
      throw err;
    }
    read.records += records.length;
    if (read.records > maxRecords) {
      throw new SyncError(
        `${url}: more than ${maxRecords} records (the --max-records cap); stopped. ` +
          `Raise --max-records if the upstream really is that large.`,
        url,
      );
    }
    const valid = validateRecords(
      url,
      records.map((value, index) => ({ index, value })),
      collection,
    );
    const next = nextUrl(page.next, url, base);
    const fresh = valid.filter((r) => !seenIds.has(r.record.id));
    if (next !== null && fresh.length === 0) {
      throw new SyncError(
        `${url}: the page ${
          valid.length === 0 ? "is empty" : "only repeats records already read"
        } ` +
          `but links to a next page, so the next links do not advance; stopped.`,
        url,
      );
    }
    for (const r of valid) seenIds.add(r.record.id);
    batch.add(valid);
    if (batch.pending >= batchRecords) await batch.flush();
    done++;
    if (done === 1 && typeof page.count === "number" && records.length > 0) {
      total = Math.max(1, Math.ceil(page.count / records.length));
    }
    url = next;
    progress(collection, done, url === null ? done : Math.max(total, done + 1));
  }
}

/**
 * Mirrors `{baseUrl}/api/v1/agencies/for_vacancies/`, then every page of
 * `/api/v1/vacancies/` and `/api/v1/competitions/` (walking `next` links), into
 * `opts.target`. Records are validated exactly as file imports are, a page
 * at a time, and written in batches of `batchRecords`, each in its own
 * transaction. A failure after some batches were committed keeps them (they
 * are upserts, so running the sync again completes it) and says how many in
 * `SyncError.committed`; a failure before the first commit writes nothing.
 * Records missing remotely are kept locally.
 *
 * @example
 * ```ts
 * await sync("http://127.0.0.1:8000", { target: "var/mirror.db", maxPages: 500 });
 * ```
 * @throws SyncError on HTTP failures, caps and loops; ImportError on invalid records
 *   (wrapped in a SyncError when earlier batches were committed).
 */
export async function sync(baseUrl: string, opts: SyncOptions): Promise<ImportReport> {
  let base: URL;
  try {
    base = new URL(baseUrl.endsWith("/") ? baseUrl : baseUrl + "/");
  } catch {
    throw new SyncError(`${baseUrl} is not an absolute URL (e.g. http://127.0.0.1:8000).`, baseUrl);
  }
  const progress = progressOf(opts);
  const { catalog, owned } = writableCatalog(opts.target);
  const batch = new BatchWriter(catalog, opts);
  try {
    const agenciesUrl = new URL("api/v1/agencies/for_vacancies/", base).href;
    const agencies = await getJson(agenciesUrl, opts);
    if (!Array.isArray(agencies)) {
      throw new SyncError(`${agenciesUrl}: expected a JSON array of agencies.`, agenciesUrl);
    }
    const read = { records: agencies.length };
    batch.add(validateRecords(
      agenciesUrl,
      agencies.map((value, index) => ({ index, value })),
      "agencies",
    ));
    for (const collection of ["vacancies", "competitions"] as const) {
      await syncCollection(collection, base, opts, batch, read, progress.update);
      progress.finish(collection);
    }
    await batch.flush();
    return { ...batch.stats, records: batch.counts, revision: catalog.revision() };
  } catch (err) {
    progress.stop();
    if (batch.committed === 0) throw err;
    const url = err instanceof SyncError ? err.url : baseUrl;
    throw new SyncError(
      `${(err as Error).message} ${batch.committed} records of earlier batches were saved; ` +
        `running the sync again completes it (records are updated in place).`,
      url,
      batch.committed,
      { cause: err },
    );
  } finally {
    if (owned) catalog.close();
  }
}
