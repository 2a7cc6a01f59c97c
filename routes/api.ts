/**
 * The read-only JSON API under `/api/v1/`: agencies, vacancies and
 * competitions with Django REST Framework semantics (pagination links,
 * negotiation, errors), plus detail routes, filters, search, ordering,
 * conditional GET, CORS and the OpenAPI document.
 *
 * @module
 */
import { type Route, route, type RouteHandler, type RouteMatch } from "./router.ts";
import { PathPattern } from "../map/path_pattern.ts";
import { decodePathPart } from "../map/percent.ts";
import { baseUrl } from "./context.ts";
import type { ApiContext, ListCollection } from "./_api_data.ts";
import { pageQuery, parseQs, pythonInt, type QueryPairs } from "./_querystring.ts";
import {
  API_FACE,
  API_HEADERS,
  errorResponse,
  indentJson,
  jsonResponse,
  methodNotAllowed,
  negotiate,
  notFound,
  optionsBody,
  renderJson,
} from "./_drf.ts";
import {
  competitionFilterSchema,
  type FilterMemo,
  filterMemo,
  filtersOf,
  ORDERING_FIELDS,
  orderingOf,
  pageSizeOf,
  searchTermsOf,
  vacancyFilterSchema,
} from "./_api_params.ts";
import { conditional, validators } from "./_conditional.ts";
import { utf8 } from "./_bytes.ts";
import { COMMON_HEADERS, withAllCommonHeaders } from "./_common_headers.ts";
import { openApiDocument } from "./openapi.ts";

/** The API's URL prefix. */
export const API_PREFIX = "/api/v1/";

/** What a resource handler produces for GET: the body, or an error for `{"detail"}`. */
type Body = { body: Uint8Array } | { status: number; detail: string };

const NOT_FOUND: Body = { status: 404, detail: "Not found." };
const INVALID_PAGE: Body = { status: 404, detail: "Invalid page." };

interface Resource {
  path: string;
  optionsName: string;
  /**
   * `url` is the request's URL with the path Django would route (percent-decoded, re-escaped),
   * `base` the scheme and authority links start with.
   */
  get(
    req: Request,
    q: QueryPairs,
    match: RouteMatch,
    url: URL,
    base: string,
  ): Body | Promise<Body>;
}

/**
 * Builds the API's routes. Each resource answers GET, HEAD and OPTIONS;
 * every other method is 405. Negotiation errors come first, as in DRF.
 *
 * @example
 * ```ts
 * import type { ApiContext } from "./_api_data.ts";
 * declare const ctx: ApiContext;
 * const routes = apiRoutes(ctx); // pass to createRouter
 * ```
 */
export function apiRoutes(ctx: ApiContext): Route[] {
  // Validated filters by their values, per list (see FilterMemo).
  const memos: Record<ListCollection, FilterMemo> = {
    vacancy: filterMemo(),
    competition: filterMemo(),
  };
  const resources: Resource[] = [
    {
      path: "/api/v1/",
      optionsName: "Api Root",
      get: (_req, _q, _m, _url, base) => ({ body: utf8(renderJson(apiRoot(base))) }),
    },
    {
      path: "/api/v1/schema/",
      optionsName: "Schema",
      get: (_req, _q, _m, _url, base) => ({ body: utf8(renderJson(openApiDocument(base))) }),
    },
    {
      path: "/api/v1/agencies/for_vacancies/",
      optionsName: "Agencies For Vacancies",
      get: () => ({ body: ctx.data.agencies() }),
    },
    {
      path: "/api/v1/agencies/for_vacancies/:id([^/.]+)/",
      optionsName: "Agency Instance",
      get: (_req, _q, m) => detail(ctx, "agency", m),
    },
    {
      path: "/api/v1/vacancies/",
      optionsName: "Vacancy List",
      get: (_req, q, _m, url, base) => list(ctx, memos, "vacancy", q, url, base),
    },
    {
      path: "/api/v1/vacancies/:id([^/.]+)/",
      optionsName: "Vacancy Instance",
      get: (_req, _q, m) => detail(ctx, "vacancy", m),
    },
    {
      path: "/api/v1/competitions/",
      optionsName: "Competition List",
      get: (_req, q, _m, url, base) => list(ctx, memos, "competition", q, url, base),
    },
    {
      path: "/api/v1/competitions/:id([^/.]+)/",
      optionsName: "Competition Instance",
      get: (_req, _q, m) => detail(ctx, "competition", m),
    },
  ];
  const routes: Route[] = resources.map((res) => {
    const handler: RouteHandler = (req, match, _info, url) => serve(ctx, res, req, match, url);
    return route({
      path: res.path,
      face: API_FACE,
      methods: { GET: handler, HEAD: handler, OPTIONS: handler },
    });
  });
  // Django's APPEND_SLASH: a known path without its slash is a 301 for any method.
  const slashless = resources.map((r) => new PathPattern(r.path.slice(0, -1)));
  // "/api/*" however its letters and slash are spelled (`/%61pi%2F...`): Django decodes first.
  const anyApiPath: RouteHandler = (req, _match, _info, parsed) => {
    // Django routes the percent-decoded path (`/api/v1/%76acancies/` is the vacancies list)
    // and builds links and redirects from it re-escaped.
    const url = canonicalUrl(parsed);
    if (url.pathname !== parsed.pathname) {
      for (const [i, res] of resources.entries()) {
        const groups = routes[i].pattern.exec(url.pathname);
        if (groups) return serve(ctx, res, req, { pathname: { groups } }, url);
      }
    }
    if (!url.pathname.endsWith("/") && slashless.some((p) => p.test(url.pathname))) {
      return new Response(null, {
        status: 301,
        headers: {
          "location": url.pathname + "/" + url.search,
          "content-type": "text/html; charset=utf-8",
        },
      });
    }
    return notFound();
  };
  routes.push(route({
    path: "/((?:a|%61)(?:p|%70)(?:i|%69)(?:/|%2[Ff]).*)",
    face: API_FACE,
    methods: { "*": anyApiPath },
  }));
  return routes;
}

/** The URL with its path percent-decoded (as UTF-8) and re-escaped; unchanged if undecodable. */
function canonicalUrl(url: URL): URL {
  const decoded = decodePathPart(url.pathname);
  if (decoded === undefined) return url;
  const out = new URL(url);
  out.pathname = decoded;
  return out;
}

async function serve(
  ctx: ApiContext,
  res: Resource,
  req: Request,
  match: RouteMatch,
  url: URL,
): Promise<Response> {
  const q = parseQs(url.search.slice(1));
  const neg = negotiate(req.headers, q);
  if (!neg.ok) return neg.response;
  // Django upper-cases the method; DRF indents every response after negotiation.
  const method = req.method.toUpperCase();
  const indent = (json: string) => neg.indent ? indentJson(json, neg.indent) : json;
  // A preflight's CORS headers are added around the whole application (`_common_headers.ts`).
  if (method === "OPTIONS") return jsonResponse(200, indent(optionsBody(res.optionsName)));
  if (method !== "GET" && method !== "HEAD") return methodNotAllowed(method, neg.indent);

  // The revision and validators are read before the data, so an import in
  // between only makes the ETag (and the cache entry) stale, never wrong.
  const base = baseUrl(req, ctx, url);
  const variant = JSON.stringify([base, url.pathname, url.search, neg.indent ?? 0]);
  const revision = ctx.data.revision();
  let hit = ctx.responseCache?.get(variant, revision);
  if (!hit) {
    const v = validators(ctx.data, variant);
    const out = await res.get(req, q, match, url, base);
    // Preconditions apply to a 200 only: `If-None-Match: *` on a missing record is still a 404.
    if ("detail" in out) return errorResponse(out.status, out.detail, neg.indent);
    // Bodies stay UTF-8 bytes from SQLite to the socket; only pretty-printing decodes them.
    const body = neg.indent ? utf8(indent(new TextDecoder().decode(out.body))) : out.body;
    hit = { body, etag: v.etag, lastModified: v.lastModified };
    ctx.responseCache?.set(variant, revision, hit);
  }
  // A hit's body is a view into the cache's ring, valid until its next write: from here
  // to `new Response` (which copies it) nothing awaits.
  const early = conditional(req.headers, hit);
  if (early) return early;
  const body = hit.body;
  // Every header of the answer in one object: none is added to the response afterwards.
  const headers = {
    ...API_HEADERS,
    "etag": hit.etag,
    "last-modified": hit.lastModified,
    ...COMMON_HEADERS,
  };
  if (method === "HEAD") {
    return withAllCommonHeaders(
      new Response(null, {
        status: 200,
        headers: { ...headers, "content-length": String(body.byteLength) },
      }),
    );
  }
  ctx.onBody?.(body.byteLength);
  return withAllCommonHeaders(
    new Response(body as Uint8Array<ArrayBuffer>, { status: 200, headers }),
  );
}

function detail(ctx: ApiContext, collection: "agency" | ListCollection, m: RouteMatch): Body {
  // DRF looks the id up with Python's int() of the decoded path segment: " 1", "+1", "1_0" and
  // "١" find record 1 or 10; anything int() refuses is a 404, as is a number beyond any id.
  const raw = decodePathPart(m.pathname.groups.id ?? "");
  if (raw === undefined) return NOT_FOUND;
  const id = pythonInt(raw);
  if (id === undefined || !Number.isSafeInteger(id)) return NOT_FOUND;
  const doc = ctx.data.get(collection, id);
  return doc === null ? NOT_FOUND : { body: doc };
}

async function list(
  ctx: ApiContext,
  memos: Record<ListCollection, FilterMemo>,
  collection: ListCollection,
  q: QueryPairs,
  url: URL,
  base: string,
): Promise<Body> {
  const filters = filtersOf(
    q,
    collection === "vacancy" ? vacancyFilterSchema : competitionFilterSchema,
    memos[collection],
  );
  if (!filters.ok) return { status: 400, detail: filters.detail };
  const pageSize = pageSizeOf(q);
  const rawPage = q.get("page")?.at(-1);
  const query = {
    filters: filters.filters,
    search: searchTermsOf(q),
    ordering: orderingOf(
      q,
      collection === "vacancy"
        ? ORDERING_FIELDS
        : ORDERING_FIELDS.filter((f) => f !== "salary_from"),
    ),
  };
  // "last" needs the count first; a number can be checked against it after the query.
  let page: number | "last";
  if (rawPage === undefined) page = 1;
  else if (rawPage === "last") page = "last";
  else {
    const n = pythonInt(rawPage);
    // An integer beyond the safe range is past any last page.
    if (n === undefined || n < 1 || !Number.isSafeInteger(n)) return INVALID_PAGE;
    page = n;
  }
  const self = base + url.pathname;
  const pageQs = pageQuery(q);
  const link = (n: number) => {
    const qs = pageQs(n);
    return JSON.stringify(qs ? `${self}?${qs}` : self);
  };
  const result = await ctx.data.list(
    collection,
    { ...query, page, pageSize },
    ({ count, page, pages }) => ({
      head: `{"count":${count},"next":${page < pages ? link(page + 1) : "null"},"previous":${
        page > 1 ? link(page - 1) : "null"
      },"results":[`,
      tail: "]}",
    }),
  );
  return result === null ? INVALID_PAGE : { body: result.body };
}

function apiRoot(base: string): Record<string, string> {
  return {
    agencies: `${base}${API_PREFIX}agencies/for_vacancies/`,
    vacancies: `${base}${API_PREFIX}vacancies/`,
    competitions: `${base}${API_PREFIX}competitions/`,
    schema: `${base}${API_PREFIX}schema/`,
  };
}
