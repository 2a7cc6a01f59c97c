/**
 * The OpenAPI 3.1 document of the JSON API, generated from the same zod
 * schemas that validate imported records and list parameters, so the
 * document cannot drift from what is served.
 *
 * @module
 */
import { z } from "zod";
import {
  Agency,
  Competition,
  CompetitionType,
  envelope,
  ErrorBody,
  Experience,
  GroupOfPositions,
  Industry,
  Status,
  University,
  Vacancy,
} from "../data/schemas.ts";
import { FILTER_DOCS, type FilterParam } from "../data/collections.ts";
import {
  competitionFilterSchema,
  MAX_PAGE_SIZE,
  ORDERING_FIELDS,
  PAGE_SIZE,
  vacancyFilterSchema,
} from "./_api_params.ts";

let cached: { base: string; doc: Record<string, unknown> } | undefined;

/**
 * The OpenAPI 3.1 document with `servers` pointing at `base`.
 *
 * @example
 * ```ts
 * openApiDocument("http://127.0.0.1:8000").openapi; // "3.1.0"
 * ```
 */
export function openApiDocument(base: string): Record<string, unknown> {
  if (cached?.base === base) return cached.doc;
  const registry = z.registry<{ id: string }>();
  const named: Record<string, z.ZodType> = {
    University,
    Agency,
    GroupOfPositions,
    Status,
    Experience,
    CompetitionType,
    Industry,
    Vacancy,
    Competition,
    VacancyPage: envelope(Vacancy, "vacancies"),
    CompetitionPage: envelope(Competition, "competitions"),
    Error: ErrorBody,
  };
  for (const [id, schema] of Object.entries(named)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    uri: (id) => `#/components/schemas/${id}`,
    target: "draft-2020-12",
  });
  for (const s of Object.values(schemas)) {
    delete (s as Record<string, unknown>).$schema;
    delete (s as Record<string, unknown>).$id;
  }

  const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });
  const errors = {
    "404": { description: "Not found, or invalid page.", content: json(ref("Error")) },
    "405": { description: "Method not allowed.", content: json(ref("Error")) },
    "406": { description: "Accept header cannot be satisfied.", content: json(ref("Error")) },
  };
  const common = [
    param("format", "Renderer: `json` or `api` (both return JSON).", {
      type: "string",
      enum: ["json", "api"],
    }),
  ];
  const listParams = (filters: z.ZodObject, ordering: readonly string[]) => [
    ...common,
    param("page", "Page number (1-based) or `last`.", { type: "string" }),
    param("page_size", `Records per page (default ${PAGE_SIZE}, at most ${MAX_PAGE_SIZE}).`, {
      type: "integer",
      minimum: 1,
    }),
    param("search", FILTER_DOCS.search, { type: "string" }),
    param(
      "ordering",
      `Comma-separated fields, '-' for descending: ${
        ordering.join(", ")
      }. Unknown fields are ignored.`,
      { type: "string" },
    ),
    ...Object.keys(filters.shape).map((k) =>
      param(k, FILTER_DOCS[k as FilterParam] ?? k, { type: "string" })
    ),
  ];
  const idParam = { name: "id", in: "path", required: true, schema: { type: "integer" } };
  const op = (summary: string, schema: unknown, parameters: unknown[]) => ({
    get: {
      summary,
      parameters,
      responses: {
        "200": { description: "OK", content: json(schema) },
        "304": { description: "Not modified (ETag / Last-Modified matched)." },
        ...(parameters.length > common.length
          ? { "400": { description: "Invalid filter value.", content: json(ref("Error")) } }
          : {}),
        ...errors,
      },
    },
  });
  const doc = {
    openapi: "3.1.0",
    info: {
      title: "Civil-service recruitment catalogue",
      version: "1",
      description:
        "Read-only catalogue of agencies, vacancies and competitions (Django REST Framework semantics).",
    },
    servers: [{ url: base }],
    paths: {
      "/api/v1/agencies/for_vacancies/": op("Agencies that accept interns", {
        type: "array",
        items: ref("Agency"),
      }, common),
      "/api/v1/agencies/for_vacancies/{id}/": op("One agency", ref("Agency"), [...common, idParam]),
      "/api/v1/vacancies/": op(
        "Published vacancies",
        ref("VacancyPage"),
        listParams(vacancyFilterSchema, ORDERING_FIELDS),
      ),
      "/api/v1/vacancies/{id}/": op("One published vacancy", ref("Vacancy"), [...common, idParam]),
      "/api/v1/competitions/": op(
        "Published competitions",
        ref("CompetitionPage"),
        listParams(competitionFilterSchema, ORDERING_FIELDS.filter((f) => f !== "salary_from")),
      ),
      "/api/v1/competitions/{id}/": op("One published competition", ref("Competition"), [
        ...common,
        idParam,
      ]),
    },
    components: { schemas },
  };
  cached = { base, doc };
  return doc;
}

function json(schema: unknown) {
  return { "application/json": { schema } };
}

function param(name: string, description: string, schema: Record<string, unknown>) {
  return { name, in: "query", required: false, description, schema };
}
