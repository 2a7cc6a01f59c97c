/**
 * The recruitment catalogue in SQLite: schema, queries, import, sync and demo data.
 *
 * Reading (the server):
 * ```ts
 * import { envelopeJson, openCatalog } from "./data/mod.ts";
 * const catalog = openCatalog("var/catalog.db", { readonly: true });
 * const { count, docs } = catalog.list("vacancies", { page: 2, pageSize: 10, agency: [3] });
 * const body = envelopeJson(count, nextUrl, previousUrl, docs); // no re-parsing
 * const one = catalog.get("competitions", 17); // JSON text or null
 * const etag = `"${catalog.revision()}"`;
 * ```
 *
 * Writing (CLI): `createDemoDatabase(path, opts)`, `importFiles(pathOrCatalog, files, opts)`,
 * `sync(baseUrl, opts)`. Writers open the database read-write in their own process;
 * the server's read-only connection sees their commits (WAL).
 *
 * Records are stored as their exact API JSON (`doc`) next to indexed columns;
 * only published records (`is_public` and not `is_removed`) are listed or returned.
 *
 * @module
 */
export { Catalog, type ListResult, openCatalog, type OpenOptions } from "./catalog.ts";
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
export { createDemoDatabase, type DemoOptions, type DemoReport, SCALE_VACANCIES } from "./demo.ts";
export { haversineKm } from "./_geo.ts";
export { ImportError, importFiles, type ImportOptions, type ImportReport } from "./import.ts";
export { sync, SyncError, type SyncOptions, type SyncProgress } from "./sync.ts";
export * as schemas from "./schemas.ts";
