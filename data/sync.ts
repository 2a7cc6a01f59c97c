/**
 * Mirroring another instance (or the original service) over its public API,
 * through the same validation and write path as file imports.
 *
 * @module
 */
import type { Catalog } from "./catalog.ts";
import type { CollectionName } from "./collections.ts";
import { emptyCounts, type ImportReport, writableCatalog, writeRecords } from "./import.ts";
import { beginWrite, CatalogWriter } from "./_store.ts";
import { recordsOfJson, ShapeError } from "./_parse.ts";

/** Progress of a sync: pages fetched of a collection and the estimated total. */
export type SyncProgress = (
  collection: CollectionName,
  pagesDone: number,
  pagesTotal: number,
) => void;

/** Options of {@linkcode sync}. */
export interface SyncOptions {
  /** The catalogue to write into: an open read-write Catalog or a database path. */
  target: Catalog | string;
  /** Attempts per request after the first, on network errors, 429 and 5xx (default 3). */
  retries?: number;
  /** First retry delay in ms, doubled on each attempt (default 500). */
  retryDelayMs?: number;
  /** Per-request timeout in ms (default 30000). */
  timeoutMs?: number;
  /** A callback, or `true` (default) for a progress bar on stderr, `false` for silence. */
  progress?: boolean | SyncProgress;
  /** Time written to change_log and meta.last_modified (default: now). */
  now?: Date;
  /** HTTP client (default: global fetch). */
  fetch?: typeof fetch;
}

/** A sync failed; nothing was written. */
export class SyncError extends Error {
  /** `url` is the request that failed. */
  constructor(message: string, readonly url: string) {
    super(message);
    this.name = "SyncError";
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** GETs JSON with bounded retries on transient failures. */
async function getJson(url: string, opts: SyncOptions): Promise<unknown> {
  const retries = opts.retries ?? 3;
  const delay = opts.retryDelayMs ?? 500;
  const doFetch = opts.fetch ?? fetch;
  let last = "";
  for (let attempt = 0; attempt <= retries; attempt++) {
    if (attempt > 0) await sleep(delay * 2 ** (attempt - 1));
    let res: Response;
    try {
      res = await doFetch(url, {
        headers: { accept: "application/json" },
        signal: AbortSignal.timeout(opts.timeoutMs ?? 30_000),
      });
    } catch (err) {
      last = `request failed: ${(err as Error).message}`;
      continue;
    }
    if (res.status === 429 || res.status >= 500) {
      await res.body?.cancel();
      last = `the server answered ${res.status} ${res.statusText}`;
      continue;
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw new SyncError(`${url}: the server answered ${res.status} ${res.statusText}.`, url);
    }
    const text = await res.text();
    try {
      return JSON.parse(text);
    } catch {
      throw new SyncError(`${url}: the response is not JSON (${text.slice(0, 60)}...).`, url);
    }
  }
  throw new SyncError(`${url}: ${last}; gave up after ${retries + 1} attempts.`, url);
}

/** A progress bar on stderr: redrawn in place on a terminal, a line per 10% otherwise. */
function stderrProgress(): SyncProgress {
  const enc = new TextEncoder();
  const tty = Deno.stderr.isTerminal();
  let lastTenth = -1;
  return (collection, done, total) => {
    const t = Math.max(total, done, 1);
    const width = 30;
    const filled = Math.round(width * done / t);
    const line = `${collection.padEnd(12)} [${"#".repeat(filled)}${
      ".".repeat(width - filled)
    }] ${done}/${t} pages`;
    if (tty) {
      Deno.stderr.writeSync(enc.encode(`\r${line}${done >= t ? "\n" : ""}`));
    } else {
      const tenth = Math.floor(10 * done / t);
      if (tenth !== lastTenth || done >= t) Deno.stderr.writeSync(enc.encode(line + "\n"));
      lastTenth = tenth;
    }
  };
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

/**
 * Mirrors `{baseUrl}/api/v1/agencies/for_vacancies/`, then every page of
 * `/api/v1/vacancies/` and `/api/v1/competitions/` (walking `next` links), into
 * `opts.target` in one transaction: a failure leaves the catalogue unchanged.
 * Records are validated exactly as file imports are. Records missing remotely
 * are kept locally.
 *
 * @example
 * ```ts
 * await sync("http://127.0.0.1:8000", { target: "var/mirror.db" });
 * ```
 * @throws SyncError on HTTP failures, ImportError on invalid records.
 */
export async function sync(baseUrl: string, opts: SyncOptions): Promise<ImportReport> {
  let base: URL;
  try {
    base = new URL(baseUrl.endsWith("/") ? baseUrl : baseUrl + "/");
  } catch {
    throw new SyncError(`${baseUrl} is not an absolute URL (e.g. http://127.0.0.1:8000).`, baseUrl);
  }
  const progress = opts.progress === false
    ? () => {}
    : typeof opts.progress === "function"
    ? opts.progress
    : stderrProgress();
  const { catalog, owned } = writableCatalog(opts.target);
  const db = catalog.db;
  const counts = emptyCounts();
  try {
    beginWrite(db);
  } catch (err) {
    if (owned) catalog.close();
    throw err;
  }
  let writer: CatalogWriter;
  try {
    // Created inside the transaction: it reads the current seq state.
    writer = new CatalogWriter(db, opts.now);
    const agenciesUrl = new URL("api/v1/agencies/for_vacancies/", base).href;
    const agencies = await getJson(agenciesUrl, opts);
    if (!Array.isArray(agencies)) {
      throw new SyncError(`${agenciesUrl}: expected a JSON array of agencies.`, agenciesUrl);
    }
    writeRecords(
      writer,
      agenciesUrl,
      agencies.map((value, index) => ({ index, value })),
      "agencies",
      counts,
    );
    for (const collection of ["vacancies", "competitions"] as const) {
      let url: string | null = new URL(`api/v1/${collection}/`, base).href;
      const seen = new Set<string>();
      let done = 0;
      let total = 1;
      while (url !== null) {
        if (seen.has(url)) throw new SyncError(`${url}: the next links loop back.`, url);
        seen.add(url);
        const page = await getJson(url, opts) as Record<string, unknown>;
        let records: unknown[];
        try {
          records = recordsOfJson(page);
        } catch (err) {
          if (err instanceof ShapeError) throw new SyncError(`${url}: ${err.message}.`, url);
          throw err;
        }
        writeRecords(
          writer,
          url,
          records.map((value, index) => ({ index, value })),
          collection,
          counts,
        );
        done++;
        if (done === 1 && typeof page.count === "number" && records.length > 0) {
          total = Math.max(1, Math.ceil(page.count / records.length));
        }
        url = nextUrl(page.next, url, base);
        progress(collection, done, url === null ? done : Math.max(total, done + 1));
      }
    }
    writer.finish();
    db.exec("COMMIT");
  } catch (err) {
    db.exec("ROLLBACK");
    if (owned) catalog.close();
    throw err;
  }
  const report = { ...writer.stats, records: counts, revision: catalog.revision() };
  if (owned) catalog.close();
  return report;
}
