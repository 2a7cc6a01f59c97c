/**
 * Adapts the `data/` catalogue to the narrow `ApiData` view the API
 * handlers use: parameter names of the HTTP layer to the catalogue's query,
 * page resolution (`last`, past-the-end) and validators.
 *
 * @module
 */
import type { Catalog, ListQuery, ReaderPool } from "../data/mod.ts";
import { joinBytes } from "./_bytes.ts";
import type { ApiData, ListCollection, ListPage, ListRequest } from "./_api_data.ts";

const COLLECTION = { vacancy: "vacancies", competition: "competitions" } as const;

/** How long a read of the data revision is reused. */
const REVISION_TTL_MS = 5;

/** When the database has never been imported into, Last-Modified is the server's start. */
const STARTED = new Date(Math.floor(Date.now() / 1000) * 1000);

/**
 * Wraps an opened catalogue. With `readers`, the slow part of a list request
 * (a cold count, a deep page's id list) runs in a reader worker and the main
 * thread answers other requests meanwhile; without, everything runs here.
 *
 * @example
 * ```ts
 * const path = "var/catalog.db";
 * const data = catalogApiData(openCatalog(path, { readonly: true }), new ReaderPool({ path }));
 * ```
 */
export function catalogApiData(catalog: Catalog, readers?: ReaderPool): ApiData {
  let revision = "";
  let revisionAt = -Infinity;
  // Last-Modified moves only with the revision (one import commits both).
  let modified = STARTED;
  let modifiedRevision: string | undefined;
  return {
    agencies: () => joinBytes("[", catalog.agenciesBytes(), ",", "]"),
    get(collection, id) {
      return catalog.getBytes(collection === "agency" ? "agencies" : COLLECTION[collection], id);
    },
    async list(collection: ListCollection, req: ListRequest): Promise<ListPage | null> {
      const name = COLLECTION[collection];
      const q = toQuery(req);
      let page = req.page;
      if (page === "last") {
        await readers?.prepare(catalog, name, q);
        const count = catalog.count(name, q);
        page = Math.max(1, Math.ceil(count / req.pageSize));
      }
      await readers?.prepare(catalog, name, { ...q, page });
      const { count, docs } = catalog.listBytes(name, { ...q, page });
      const numPages = Math.max(1, Math.ceil(count / req.pageSize));
      if (page > numPages) return null;
      return { count, page, docs };
    },
    revision() {
      // One SQLite read costs about a quarter of a cached response; a
      // revision read at most every REVISION_TTL_MS is still seen within
      // milliseconds of an import's commit.
      const now = performance.now();
      if (now - revisionAt > REVISION_TTL_MS) {
        revision = String(catalog.revision());
        revisionAt = now;
      }
      return revision;
    },
    lastModified() {
      const rev = this.revision();
      if (rev !== modifiedRevision) {
        const iso = catalog.lastModified();
        const d = iso ? new Date(iso) : STARTED;
        modified = Number.isNaN(d.getTime()) ? STARTED : d;
        modifiedRevision = rev;
      }
      return modified;
    },
  };
}

function toQuery(req: ListRequest): ListQuery {
  const f = req.filters;
  return {
    pageSize: req.pageSize,
    ordering: req.ordering,
    agency: f.agency,
    group: f.group,
    industry: f.industry,
    status: f.status,
    salaryMin: f.salary_min,
    salaryMax: f.salary_max,
    publishDateFrom: f.publish_date_from,
    publishDateTo: f.publish_date_to,
    deadlineFrom: f.deadline_from,
    deadlineTo: f.deadline_to,
    near: f.near && f.radius_km !== undefined
      ? { lat: f.near[0], lon: f.near[1], radiusKm: f.radius_km }
      : undefined,
    search: req.search.length ? req.search.join(" ") : undefined,
  };
}
