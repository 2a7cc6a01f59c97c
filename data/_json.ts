/**
 * Serialization in DRF's byte form: compact JSON, raw UTF-8, U+2028/U+2029
 * escaped, keys in schema order, nested lists ordered by id.
 *
 * @module
 */
import type { Agency, Competition, Vacancy } from "./schemas.ts";

const LINE_SEPARATORS = /[\u2028\u2029]/g;

function escapeSeparator(c: string): string {
  return c === "\u2028" ? "\\u2028" : "\\u2029";
}

/**
 * Compact JSON as Python's `json.dumps(ensure_ascii=False)` behind DRF writes it:
 * like `JSON.stringify`, but U+2028 and U+2029 escaped.
 *
 * @example
 * ```ts
 * toJson({ a: "x\u2028y" }); // '{"a":"x\\u2028y"}'
 * ```
 */
export function toJson(value: unknown): string {
  return JSON.stringify(value).replace(LINE_SEPARATORS, escapeSeparator);
}

function byId<T extends { id: number }>(a: T, b: T): number {
  return a.id - b.id;
}

/** Sorts an agency's nested lists in place (universities by id). */
export function normalizeAgency(a: Agency): Agency {
  a.universities.sort(byId);
  return a;
}

/** Sorts a vacancy's nested lists in place (industries and agency universities by id). */
export function normalizeVacancy(v: Vacancy): Vacancy {
  normalizeAgency(v.agency);
  v.industries.sort(byId);
  return v;
}

/** Sorts a competition's nested lists in place (industry ids ascending). */
export function normalizeCompetition(c: Competition): Competition {
  normalizeAgency(c.agency);
  c.industries.sort((x, y) => x - y);
  return c;
}

/**
 * A JSON array of already serialized documents, by concatenation.
 *
 * @example
 * ```ts
 * jsonArray(['{"id":1}', '{"id":2}']); // '[{"id":1},{"id":2}]'
 * ```
 */
export function jsonArray(docs: readonly string[]): string {
  return "[" + docs.join(",") + "]";
}

/**
 * The paginated envelope `{"count":..,"next":..,"previous":..,"results":[..]}`
 * assembled from serialized documents without re-parsing them.
 *
 * @example
 * ```ts
 * envelopeJson(12, "http://h/api/v1/vacancies/?page=2", null, ['{"id":1}']);
 * ```
 */
export function envelopeJson(
  count: number,
  next: string | null,
  previous: string | null,
  docs: readonly string[],
): string {
  return `{"count":${count},"next":${toJson(next)},"previous":${toJson(previous)},"results":${
    jsonArray(docs)
  }}`;
}
