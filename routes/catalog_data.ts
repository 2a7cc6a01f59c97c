/**
 * Adapts the `data/` catalogue to the narrow `ApiData` view the API
 * handlers use: parameter names of the HTTP layer to the catalogue's query,
 * page resolution (`last`, past-the-end) and validators.
 *
 * @module
 */
import type { Catalog, ListPlan, ListQuery, ReaderPool } from "../data/mod.ts";
import { joinBytes } from "./_bytes.ts";
import type {
  ApiData,
  ListCollection,
  ListPage,
  ListRequest,
  PageEnvelope,
  PageInfo,
} from "./_api_data.ts";

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
 * import { openCatalog, ReaderPool } from "../data/mod.ts";
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
  let modifiedHttp = "";
  let modifiedHttpOf: Date | undefined;
  return {
    agencies: () => joinBytes("[", catalog.agenciesBytes(), ",", "]"),
    get(collection, id) {
      return catalog.getBytes(collection === "agency" ? "agencies" : COLLECTION[collection], id);
    },
    list(
      collection: ListCollection,
      req: ListRequest,
      envelope: PageEnvelope,
    ): ListPage | null | Promise<ListPage | null> {
      // Built once: the work, the count and the page all read this plan.
      const plan = catalog.plan(
        COLLECTION[collection],
        toQuery(req, req.page === "last" ? 1 : req.page),
      );
      const page = (plan: ListPlan): ListPage | null => {
        const page = plan.query.page ?? 1;
        let at: PageInfo | undefined;
        const { body } = catalog.listBody(plan, (count) => {
          const pages = pagesOf(count, req.pageSize);
          if (page > pages) return null;
          at = { count, page, pages };
          return envelope(at);
        });
        return body && at ? { ...at, body } : null;
      };
      // Slow work goes to a reader first; without any (the usual case) the page is read now.
      const prepared = (plan: ListPlan) =>
        readers && catalog.listWork(plan) ? readers.prepare(catalog, plan) : undefined;
      if (req.page === "last") {
        return (async () => {
          await prepared(plan);
          const last = catalog.atPage(plan, pagesOf(catalog.count(plan), req.pageSize));
          await prepared(last);
          return page(last);
        })();
      }
      const work = prepared(plan);
      return work ? work.then(() => page(plan)) : page(plan);
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
    lastModifiedHttp() {
      // Formatted once per revision, not once per response.
      const d = this.lastModified();
      if (d !== modifiedHttpOf) {
        modifiedHttp = d.toUTCString();
        modifiedHttpOf = d;
      }
      return modifiedHttp;
    },
  };
}

/** DRF's page count: at least one page, even of nothing. */
function pagesOf(count: number, pageSize: number): number {
  return Math.max(1, Math.ceil(count / pageSize));
}

function toQuery(req: ListRequest, page: number): ListQuery {
  const f = req.filters;
  return {
    page,
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
    // The terms as the HTTP layer split them: not joined to be split again.
    search: req.search.length ? req.search : undefined,
  };
}
