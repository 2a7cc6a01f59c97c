/**
 * The published collections and what each can be filtered and ordered by.
 * Routes read this table to parse query parameters; the OpenAPI document reads
 * it to list them, so parameters and documentation agree.
 *
 * @module
 */
import { Agency, Competition, Vacancy } from "./schemas.ts";

/** Name of a collection as it appears in the API path. */
export type CollectionName = "agencies" | "vacancies" | "competitions";

/** A collection that is served as a paginated, filterable list. */
export type ListCollection = "vacancies" | "competitions";

/** Fields accepted by `ordering=` (with `-` for descending). */
export type OrderField =
  | "publish_date"
  | "created_at"
  | "updated_at"
  | "salary_from"
  | "title"
  | "id";

/** Query parameters of the filters, as the HTTP layer should name them. */
export type FilterParam =
  | "agency"
  | "group"
  | "industry"
  | "status"
  | "salary_min"
  | "salary_max"
  | "publish_date_from"
  | "publish_date_to"
  | "deadline_from"
  | "deadline_to"
  | "near"
  | "radius_km"
  | "search";

/** Description of one collection. */
export interface CollectionInfo {
  /** SQLite table holding the records. */
  table: "agency" | "vacancy" | "competition";
  /** zod schema of one record. */
  schema: typeof Agency | typeof Vacancy | typeof Competition;
  /** Filter query parameters the list accepts. */
  filters: readonly FilterParam[];
  /** Fields `ordering=` accepts; others are dropped silently, as DRF does. */
  ordering: readonly OrderField[];
}

/** Every collection, keyed by its API name. */
export const COLLECTIONS: Readonly<Record<CollectionName, CollectionInfo>> = {
  agencies: { table: "agency", schema: Agency, filters: [], ordering: [] },
  vacancies: {
    table: "vacancy",
    schema: Vacancy,
    filters: [
      "agency",
      "group",
      "industry",
      "status",
      "salary_min",
      "salary_max",
      "publish_date_from",
      "publish_date_to",
      "search",
    ],
    ordering: ["publish_date", "created_at", "updated_at", "salary_from", "title", "id"],
  },
  competitions: {
    table: "competition",
    schema: Competition,
    filters: [
      "agency",
      "group",
      "industry",
      "status",
      "publish_date_from",
      "publish_date_to",
      "deadline_from",
      "deadline_to",
      "near",
      "radius_km",
      "search",
    ],
    ordering: ["publish_date", "created_at", "updated_at", "title", "id"],
  },
};

/** Documentation of each filter parameter, for `docs/api.md` and OpenAPI. */
export const FILTER_DOCS: Readonly<Record<FilterParam, string>> = {
  agency: "Agency id; repeat the parameter or separate ids with commas for several (any of).",
  group: "Group-of-positions id (groups_of_positions.id); several allowed (any of).",
  industry: "Industry id; several allowed (records having any of them).",
  status: "Status id; several allowed (any of).",
  salary_min:
    "Vacancies whose salary range reaches at least this amount (salary_to >= value, or open upper bound). Vacancies with no salary at all are excluded when a salary filter is given.",
  salary_max:
    "Vacancies whose salary range starts at or below this amount (salary_from <= value, or open lower bound).",
  publish_date_from: "Publication date on or after this date (YYYY-MM-DD).",
  publish_date_to: "Publication date on or before this date (YYYY-MM-DD).",
  deadline_from: "Document reception ends on or after this date (YYYY-MM-DD).",
  deadline_to: "Document reception ends on or before this date (YYYY-MM-DD).",
  near:
    "lat,lon in decimal degrees (WGS 84); needs radius_km. Competitions without coordinates never match.",
  radius_km: "Great-circle (haversine, mean Earth radius 6371.0088 km) distance limit for near.",
  search:
    "Full-text search: terms split on spaces and commas, all must match; case-, ё/е- and word-form-insensitive (Russian and English stemming); terms of 3+ letters also match as prefixes.",
};
