/**
 * Query parameters of the list endpoints: pagination (DRF
 * `PageNumberPagination`), ordering (DRF `OrderingFilter`), search (DRF
 * `SearchFilter` semantics) and the filters, validated with zod.
 *
 * @module
 */
import { LRUCache } from "lru-cache";
import { z } from "zod";
import { pythonInt, type QueryPairs } from "./_querystring.ts";
import { calendarDate, latitude, longitude, salaryAmount } from "../data/values.ts";
import { searchTerms } from "../data/mod.ts";

/** Default and maximum page sizes. */
export const PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 100;

/** Fields `ordering=` accepts (with `-` for descending). */
export const ORDERING_FIELDS = [
  "publish_date",
  "created_at",
  "updated_at",
  "salary_from",
  "title",
  "id",
] as const;

/** One ordering term. */
export interface OrderTerm {
  field: (typeof ORDERING_FIELDS)[number];
  desc: boolean;
}

/** DRF `_positive_int(strict=True, cutoff=100)`, falling back to the default size. */
export function pageSizeOf(q: QueryPairs): number {
  const raw = q.get("page_size")?.at(-1);
  if (raw === undefined) return PAGE_SIZE;
  const n = pythonInt(raw);
  if (n === undefined || n <= 0) return PAGE_SIZE;
  return Math.min(n, MAX_PAGE_SIZE);
}

/**
 * DRF `OrderingFilter`: comma-separated terms, unknown ones silently
 * dropped; the last `ordering` parameter wins.
 */
export function orderingOf(q: QueryPairs, allowed: readonly string[]): OrderTerm[] {
  const raw = q.get("ordering")?.at(-1);
  if (!raw) return [];
  const terms: OrderTerm[] = [];
  for (const part of raw.split(",")) {
    const t = part.trim();
    const desc = t.startsWith("-");
    const field = desc ? t.slice(1) : t;
    if (allowed.includes(field)) terms.push({ field: field as OrderTerm["field"], desc });
  }
  return terms;
}

/**
 * DRF `SearchFilter.get_search_terms` of the last `search` parameter (see
 * `searchTerms`): split once here, handed to the catalogue as terms.
 */
export function searchTermsOf(q: QueryPairs): string[] {
  return searchTerms(q.get("search")?.at(-1) ?? "");
}

const idList = z.string().trim().regex(
  /^\d+(\s*,\s*\d+)*$/,
  "expected an id or a comma-separated list of ids",
)
  .transform((s) => s.split(",").map((x) => Number(x.trim())));
const decimal = z.string().trim().regex(/^[+-]?(\d+(\.\d*)?|\.\d+)$/, "expected a number")
  .transform(Number);
// Dates, coordinates and salaries follow the same rules as imported records
// (data/values.ts), so a filter can express every value the data can hold.
const isoDate = z.string().trim().regex(/^\d{4}-\d{2}-\d{2}$/, "expected a date YYYY-MM-DD")
  .refine(calendarDate.test, calendarDate.message);
const salary = z.string().trim().regex(/^[+-]?(\d+(\.\d*)?|\.\d+)$/, "expected a number")
  .refine(salaryAmount.test, salaryAmount.message).transform(Number);
const latLon = z.string().trim().regex(
  /^[+-]?\d+(\.\d+)?\s*,\s*[+-]?\d+(\.\d+)?$/,
  "expected 'latitude,longitude' in decimal degrees",
).transform((s) => s.split(",").map((x) => Number(x.trim())) as [number, number])
  .refine(([lat]) => latitude.test(lat), latitude.message)
  .refine(([, lon]) => longitude.test(lon), longitude.message);
const radius = decimal.refine(
  (r) => r > 0 && r <= 20037.5,
  "expected a radius in kilometres between 0 and 20037.5",
);

/** Filter parameters shared by vacancies and competitions. */
const commonFilters = {
  agency: idList.optional(),
  group: idList.optional(),
  industry: idList.optional(),
  status: idList.optional(),
  publish_date_from: isoDate.optional(),
  publish_date_to: isoDate.optional(),
};

/** Filters of `/api/v1/vacancies/`. */
export const vacancyFilterSchema = z.object({
  ...commonFilters,
  salary_min: salary.optional(),
  salary_max: salary.optional(),
});

/** Filters of `/api/v1/competitions/`. */
export const competitionFilterSchema = z.object({
  ...commonFilters,
  deadline_from: isoDate.optional(),
  deadline_to: isoDate.optional(),
  near: latLon.optional(),
  radius_km: radius.optional(),
});

/** Parsed filters of either collection. */
export type Filters = Partial<
  z.output<typeof vacancyFilterSchema> & z.output<typeof competitionFilterSchema>
>;

/** Result of reading filters: the values, or a message for a 400. */
export type FilterResult = { ok: true; filters: Filters } | { ok: false; detail: string };

const NO_FILTERS: FilterResult = Object.freeze({ ok: true, filters: Object.freeze({}) });

/**
 * Validates the filter parameters of a list request (last value wins, as
 * Django's `QueryDict.get`; empty values mean "no filter", as django-filter).
 */
export function filtersOf(
  q: QueryPairs,
  schema: z.ZodObject,
  memo?: FilterMemo,
): FilterResult {
  const input: Record<string, string> = {};
  let asked = false;
  for (const key of Object.keys(schema.shape)) {
    const v = q.get(key)?.at(-1);
    if (v !== undefined && v.trim() !== "") {
      input[key] = v;
      asked = true;
    }
  }
  // No filter asked (most requests): nothing to validate.
  if (!asked) return NO_FILTERS;
  if (memo === undefined) return validated(input, schema);
  const key = JSON.stringify(input);
  let result = memo.get(key);
  if (result === undefined) {
    result = validated(input, schema);
    memo.set(key, result);
  }
  return result;
}

/**
 * Results of {@linkcode filtersOf} for one schema by its input (clients repeat
 * a few filters over many pages; validating costs more than the lookup).
 * The results are shared: read them, never change them.
 */
export type FilterMemo = LRUCache<string, FilterResult>;

/** Inputs a {@linkcode FilterMemo} holds (the most recently used). */
export const FILTER_MEMO_MAX = 1024;

/**
 * An empty {@linkcode FilterMemo}, bounded by {@linkcode FILTER_MEMO_MAX}.
 *
 * @example
 * ```ts
 * import { filterMemo, filtersOf, vacancyFilterSchema } from "./_api_params.ts";
 * import { parseQs } from "./_querystring.ts";
 * const memo = filterMemo();
 * filtersOf(parseQs("agency=4"), vacancyFilterSchema, memo); // { ok: true, filters: { agency: [4] } }
 * ```
 */
export function filterMemo(): FilterMemo {
  return new LRUCache({ max: FILTER_MEMO_MAX });
}

function validated(input: Record<string, string>, schema: z.ZodObject): FilterResult {
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      detail: `Invalid value for '${String(issue.path[0])}': ${issue.message}.`,
    };
  }
  const filters = parsed.data as Filters;
  if ((filters.radius_km === undefined) !== (filters.near === undefined)) {
    return { ok: false, detail: "'near=latitude,longitude' and 'radius_km' go together." };
  }
  return { ok: true, filters };
}
