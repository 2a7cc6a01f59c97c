/**
 * The recruitment catalogue in SQLite: schema, queries, import, sync and demo data.
 *
 * Reading (the server):
 * ```ts
 * import { envelopeJson, openCatalog } from "./mod.ts";
 * declare const nextUrl: string | null, previousUrl: string | null;
 * const catalog = openCatalog("var/catalog.db", { readonly: true });
 * const { count, docs } = catalog.list("vacancies", { page: 2, pageSize: 10, agency: [3] });
 * const body = envelopeJson(count, nextUrl, previousUrl, docs); // no re-parsing
 * const one = catalog.get("competitions", 17); // JSON text or null
 * const last = Math.ceil(catalog.count("vacancies", { agency: [3] }) / 10); // page=last
 * const etag = `"${catalog.revision()}"`; // catalog.lastModified(): ISO string or null
 * ```
 *
 * Writing (CLI), each in its own process while the server serves (WAL; the
 * read-only connection sees every commit):
 * - `createDemoDatabase(path, { agencies?, vacancies?, competitions?, seed?, scale? })`
 * - `await importFiles(pathOrCatalog, files, { collection? })`: bare array, envelope
 *   page, single record or NDJSON; all files in one transaction; `ImportError`
 *   names file, record index (and line), field path and problem.
 * - `await sync(baseUrl, { target, progress?, retries? })`: agencies, then every
 *   `next` page of vacancies and competitions, validated a page at a time and
 *   committed in batches; caps on pages, records and page size; cycles stop it.
 *
 * Decisions stated in `docs/api.md`:
 * - Only published records (`is_public` and not `is_removed`) are listed or
 *   returned; others are stored and kept.
 * - Ordering: the requested terms, then id ascending; nulls last both ways;
 *   unknown or inapplicable fields are dropped (salary_from on competitions).
 * - salary_min/salary_max: range overlap, a missing bound is open; vacancies
 *   with neither bound never match a salary filter.
 * - search: see `FILTER_DOCS.search`; a value with no letters or digits filters nothing.
 * - near: haversine on a sphere of radius 6371.0088 km; records without
 *   coordinates never match.
 * - `meta.revision` changes only when an import changed something.
 * - `change_log` gets one row per changed competition, collection `'competition'`,
 *   lat/lon where it is shown now and old_lat/old_lon where it was (NULL when not shown).
 *
 * Tables: `agency`, `vacancy`, `competition` hold every record's exact API JSON
 * (`doc`) and the contract columns; `vacancy_list`/`competition_list` hold the
 * published rows' filter columns and a dense `seq` (id order) for fast pages;
 * `*_fts` hold stemmed search tokens; `competition_rtree` the published points.
 *
 * @module
 */
export {
  Catalog,
  CatalogOpenError,
  type ListBody,
  type ListPlan,
  type ListResult,
  type ListWork,
  type ListWorkResult,
  openCatalog,
  type OpenOptions,
  type PageFrame,
} from "./catalog.ts";
export { ReaderPool, type ReaderPoolOptions } from "./readers.ts";
export {
  type CollectionInfo,
  type CollectionName,
  COLLECTIONS,
  FILTER_DOCS,
  type FilterParam,
  type ListCollection,
  type OrderField,
} from "./collections.ts";
export {
  DEFAULT_PAGE_SIZE,
  type ListQuery,
  MAX_PAGE_SIZE,
  type Near,
  type OrderTerm,
} from "./_query.ts";
export { envelopeJson, jsonArray, toJson } from "./_json.ts";
export { searchTerms } from "./_text.ts";
export { createDemoDatabase, type DemoOptions, type DemoReport, SCALE_VACANCIES } from "./demo.ts";
export { haversineKm } from "./_geo.ts";
export { ImportError, importFiles, type ImportOptions, type ImportReport } from "./import.ts";
export { WriterBusyError } from "./_store.ts";
export {
  type Progress,
  progressBar,
  type ProgressOptions,
  type ProgressOutput,
} from "./progress.ts";
export { sync, SYNC_DEFAULTS, SyncError, type SyncOptions, type SyncProgress } from "./sync.ts";
export * as schemas from "./schemas.ts";

import { type Catalog, openCatalog as openCatalogFile } from "./catalog.ts";

/**
 * Opens the catalogue read-only for the map server's competitions layer:
 * what map documents call through {@link COMPETITION_CATALOG_MODULE} (a
 * render worker opens its own connection by path).
 *
 * @example
 * ```ts
 * const catalog = openCompetitionCatalog("var/catalog.db");
 * catalog.revision();
 * ```
 */
export function openCompetitionCatalog(path: string): Catalog {
  return openCatalogFile(path, { readonly: true });
}

/** The module URL a map document's loader imports to open the catalogue by path. */
export const COMPETITION_CATALOG_MODULE: string = import.meta.url;
