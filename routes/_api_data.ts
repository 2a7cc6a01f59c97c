/**
 * The narrow view of the catalogue the API handlers need. Keeping it here
 * lets the HTTP layer be tested against the real `data/` catalogue while
 * naming exactly what it relies on.
 *
 * @module
 */
import type { UrlOptions } from "./context.ts";
import type { Filters, OrderTerm } from "./_api_params.ts";
import type { Revisioned } from "./_conditional.ts";
import type { ResponseCache } from "./_response_cache.ts";

/** Collections served as paginated envelopes. */
export type ListCollection = "vacancy" | "competition";

/** One list request after parameter parsing. */
export interface ListRequest {
  filters: Filters;
  search: string[];
  ordering: OrderTerm[];
  page: number | "last";
  pageSize: number;
}

/**
 * Where a page lies in its list: the total count, the resolved page number
 * and the number of pages (at least 1), which its envelope is built from.
 */
export interface PageInfo {
  count: number;
  page: number;
  pages: number;
}

/** The text of a page's body before and after its records (joined by commas). */
export type PageEnvelope = (at: PageInfo) => { head: string; tail: string };

/** One page: where it lies, and its whole body as UTF-8 bytes. */
export interface ListPage extends PageInfo {
  body: Uint8Array;
}

/** Read access the API needs. */
export interface ApiData extends Revisioned {
  /** The agencies list as the UTF-8 bytes of a JSON array. */
  agencies(): Uint8Array;
  /** One published record's JSON as UTF-8 bytes, or null. */
  get(collection: "agency" | ListCollection, id: number): Uint8Array | null;
  /**
   * One page, its records inside `envelope`'s text, or null when the page
   * number is past the last page (a promise when slow work runs elsewhere first).
   */
  list(
    collection: ListCollection,
    req: ListRequest,
    envelope: PageEnvelope,
  ): ListPage | null | Promise<ListPage | null>;
}

/** What the API routes need. */
export interface ApiContext extends UrlOptions {
  data: ApiData;
  /** Rendered bodies by request variant, valid for one data revision (optional). */
  responseCache?: ResponseCache;
  /** Told the size of every 200 body sent to a GET (e.g. `YoungCollector.add`). */
  onBody?: (bytes: number) => void;
}
