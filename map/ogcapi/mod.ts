/**
 * OGC API – Features 1.0 (Parts 1 Core, 2 CRS, 3 Filtering with CQL2-text)
 * at ArcGIS Enterprise's URL, `/arcgis/rest/services/{Service}/OGCFeatureServer`:
 * the landing page, `/conformance`, the OpenAPI 3.0 definition at `/api`,
 * `/collections` (one per layer of the service's default map, the layer id
 * as collection id), `/collections/{id}`, `/items`, `/items/{featureId}`
 * and `/queryables`, each as JSON (GeoJSON for features) and HTML, over the
 * same query operations as SOAP and ArcGIS REST. A face beside the others:
 * it uses the neutral front (`services`, `service`, `operationContext`) and
 * the engine, never another face.
 *
 * @module
 */
import type { MapService, OperationContext } from "../ops/mod.ts";
import { InvalidRequestError } from "../errors.ts";
import { markup } from "../markup.ts";
import {
  collectionJson,
  collectionLayer,
  collectionsJson,
  type Link,
  type ServiceScope,
} from "./_collections.ts";
import { FEATURE_PARAMETERS, featureById, itemsPage } from "./_items.ts";
import { openApiDocument } from "./_openapi.ts";
import { queryablesSchema } from "./_queryables.ts";
import {
  errorPage,
  featureBody,
  htmlPage,
  itemsBody,
  propertiesTable,
  recordsTable,
} from "./_html.ts";
import { type Format, jsonReply, MEDIA, negotiate, OgcError, type OgcReply } from "./_reply.ts";

export type { OgcReply } from "./_reply.ts";

/** What the face needs of the map server (the neutral front). */
export interface FeatureServerFront {
  readonly services: readonly MapService[];
  service(name: string): MapService | undefined;
  operationContext(service: MapService, urls: { baseUrl: string }): OperationContext;
}

/** One request to an OGCFeatureServer. */
export interface OgcFeaturesRequest {
  /** The service name from the URL. */
  service: string;
  /** The path below `.../OGCFeatureServer` (`""`, `/collections/0/items`, ...). */
  path: string;
  params: URLSearchParams;
  accept: string | null;
  /** Public base URL (`http://host:port`). */
  baseUrl: string;
}

/** Conformance classes this face implements. */
export const CONFORMANCE = [
  "http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core",
  "http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/oas30",
  "http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/html",
  "http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/geojson",
  "http://www.opengis.net/spec/ogcapi-features-2/1.0/conf/crs",
  "http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/queryables",
  "http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/queryables-query-parameters",
  "http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/filter",
  "http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/features-filter",
  "http://www.opengis.net/spec/cql2/1.0/conf/cql2-text",
  "http://www.opengis.net/spec/cql2/1.0/conf/basic-cql2",
  "http://www.opengis.net/spec/cql2/1.0/conf/advanced-comparison-operators",
  "http://www.opengis.net/spec/cql2/1.0/conf/property-property",
  "http://www.opengis.net/spec/cql2/1.0/conf/basic-spatial-functions",
  "http://www.opengis.net/spec/cql2/1.0/conf/basic-spatial-functions-plus",
] as const;

/** The face: answers one request. */
export interface OgcFeaturesApi {
  handle(req: OgcFeaturesRequest): Promise<OgcReply>;
}

/** What a resource answers: its JSON value (and media type), its HTML page. */
interface Answer {
  json: unknown;
  type: string;
  headers?: Record<string, string>;
  html: () => string;
}

function checkParams(params: URLSearchParams, allowed: readonly string[]): void {
  for (const name of params.keys()) {
    if (!allowed.includes(name)) {
      throw new OgcError(
        400,
        "InvalidParameterValue",
        `Unknown parameter '${name}'; this resource takes ${allowed.join(", ")}.`,
      );
    }
  }
}

function landing(scope: ServiceScope): Answer {
  const b = scope.base;
  const links: Link[] = [
    { href: b, rel: "self", type: MEDIA.json, title: "This document" },
    { href: `${b}?f=html`, rel: "alternate", type: MEDIA.html, title: "This document as HTML" },
    { href: `${b}/api`, rel: "service-desc", type: MEDIA.openapi, title: "The API definition" },
    {
      href: `${b}/api?f=html`,
      rel: "service-doc",
      type: MEDIA.html,
      title: "The API documentation",
    },
    {
      href: `${b}/conformance`,
      rel: "conformance",
      type: MEDIA.json,
      title: "Conformance classes",
    },
    {
      href: `${b}/conformance`,
      rel: "http://www.opengis.net/def/rel/ogc/1.0/conformance",
      type: MEDIA.json,
      title: "Conformance classes",
    },
    { href: `${b}/collections`, rel: "data", type: MEDIA.json, title: "Collections" },
    {
      href: `${b}/collections`,
      rel: "http://www.opengis.net/def/rel/ogc/1.0/data",
      type: MEDIA.json,
      title: "Collections",
    },
  ];
  const title = `${scope.service.name} (OGCFeatureServer)`;
  const description = scope.service.description;
  return {
    json: { title, description, links },
    type: MEDIA.json,
    html: () => htmlPage(title, links, markup`<p>${description}</p>`),
  };
}

function conformance(scope: ServiceScope): Answer {
  const links: Link[] = [
    { href: `${scope.base}/conformance`, rel: "self", type: MEDIA.json, title: "This document" },
    { href: scope.base, rel: "up", type: MEDIA.json, title: "Landing page" },
  ];
  return {
    json: { conformsTo: CONFORMANCE },
    type: MEDIA.json,
    html: () =>
      htmlPage(
        "Conformance",
        links,
        markup`<ul>${CONFORMANCE.map((c) => markup`<li>${c}</li>`)}</ul>`,
      ),
  };
}

function api(scope: ServiceScope): Answer {
  const doc = openApiDocument(scope);
  const paths = doc.paths as Record<
    string,
    { get: { summary: string; parameters: { name?: string }[] } }
  >;
  const rows = Object.entries(paths).map(([path, p]) => ({
    path,
    summary: p.get.summary,
    parameters: p.get.parameters.map((q) => q.name ?? "f").join(", "),
  }));
  return {
    json: doc,
    type: MEDIA.openapi,
    html: () =>
      htmlPage(
        `${scope.service.name} (OGCFeatureServer): API`,
        [{
          href: `${scope.base}/api`,
          rel: "service-desc",
          type: MEDIA.openapi,
          title: "OpenAPI 3.0 (JSON)",
        }],
        markup`<p>Paths under ${scope.base}:</p>${
          recordsTable(["path", "summary", "parameters"], rows)
        }`,
      ),
  };
}

function collections(scope: ServiceScope): Answer {
  const json = collectionsJson(scope);
  return {
    json,
    type: MEDIA.json,
    html: () =>
      htmlPage(
        `${scope.service.name}: collections`,
        json.links,
        recordsTable(
          ["id", "title", "description"],
          json.collections,
          (r) => `${scope.base}/collections/${r.id}?f=html`,
        ),
      ),
  };
}

function collection(scope: ServiceScope, id: string): Answer {
  const json = collectionJson(scope, collectionLayer(scope, id));
  const { links, ...rest } = json as { links: Link[] };
  return {
    json,
    type: MEDIA.json,
    html: () => htmlPage(`Collection ${id}`, links, propertiesTable(rest)),
  };
}

async function items(scope: ServiceScope, id: string, params: URLSearchParams): Promise<Answer> {
  const layer = collectionLayer(scope, id);
  const { crs, ...page } = await itemsPage(scope, layer, params);
  return {
    json: page,
    type: MEDIA.geojson,
    headers: { "content-crs": `<${crs.uri}>` },
    html: () =>
      htmlPage(
        `${layer.name}: features`,
        page.links,
        itemsBody({ ...page, crs }, `${scope.base}/collections/${layer.id}/items`),
      ),
  };
}

function single(scope: ServiceScope, id: string, fid: string, params: URLSearchParams): Answer {
  checkParams(params, FEATURE_PARAMETERS);
  const layer = collectionLayer(scope, id);
  const { feature, crs } = featureById(scope, layer, fid, params);
  return {
    json: feature,
    type: MEDIA.geojson,
    headers: { "content-crs": `<${crs.uri}>` },
    html: () =>
      htmlPage(`${layer.name}: feature ${feature.id}`, feature.links ?? [], featureBody(feature)),
  };
}

function queryables(scope: ServiceScope, id: string): Answer {
  const layer = collectionLayer(scope, id);
  const json = queryablesSchema(scope, layer);
  const rows = Object.entries(json.properties).map(([name, s]) => ({ name, ...s }));
  return {
    json,
    type: MEDIA.schema,
    html: () =>
      htmlPage(
        `${layer.name}: queryables`,
        [{ href: json.$id, rel: "self", type: MEDIA.schema, title: "As JSON Schema" }],
        recordsTable(["name", "title", "type", "format"], rows),
      ),
  };
}

function decodePart(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw new OgcError(
      404,
      "NotFound",
      `The path segment '${part}' is not valid percent-encoding.`,
    );
  }
}

/** The resource a path names, answered. */
function route(
  scope: ServiceScope,
  path: string,
  params: URLSearchParams,
): Answer | Promise<Answer> {
  const parts = path.split("/").filter((p) => p !== "").map(decodePart);
  // Resources other than the items take `f` alone (feature: also `crs`, checked there).
  const only = <T>(answer: () => T): T => {
    checkParams(params, ["f"]);
    return answer();
  };
  const [first, id, sub, fid] = parts;
  if (parts.length === 0) return only(() => landing(scope));
  if (parts.length === 1 && first === "conformance") return only(() => conformance(scope));
  if (parts.length === 1 && first === "api") return only(() => api(scope));
  if (first === "collections") {
    if (parts.length === 1) return only(() => collections(scope));
    if (parts.length === 2) return only(() => collection(scope, id));
    if (parts.length === 3 && sub === "items") return items(scope, id, params);
    if (parts.length === 3 && sub === "queryables") return only(() => queryables(scope, id));
    if (parts.length === 4 && sub === "items") return single(scope, id, fid, params);
  }
  throw new OgcError(
    404,
    "NotFound",
    `No resource at ${path}; the OGCFeatureServer has /, /conformance, /api, /collections, ` +
      "/collections/{id}, /collections/{id}/items[/{featureId}] and /collections/{id}/queryables.",
  );
}

/** The format of a request whose parameters are checked later (`f` itself may be bad). */
function formatOf(req: OgcFeaturesRequest): Format {
  return negotiate(req.params.get("f"), req.accept);
}

function errorReply(e: OgcError, format: Format): OgcReply {
  return format === "html"
    ? {
      status: e.status,
      contentType: `${MEDIA.html}; charset=utf-8`,
      body: errorPage(e.status, e.code, e.message),
    }
    : {
      status: e.status,
      contentType: MEDIA.json,
      body: JSON.stringify({ code: e.code, description: e.message }),
    };
}

/**
 * The OGC API – Features face over the map server's front.
 *
 * @example
 * ```ts ignore
 * const ogc = createOgcFeaturesApi(maps);
 * const reply = await ogc.handle({ service: "World", path: "/collections", params, accept: null, baseUrl });
 * ```
 */
export function createOgcFeaturesApi(
  front: FeatureServerFront,
  opts: { onError?: (error: unknown, path: string) => void } = {},
): OgcFeaturesApi {
  return {
    async handle(req) {
      let format: Format = "json";
      try {
        format = formatOf(req);
        const service = front.service(req.service);
        if (!service) {
          throw new OgcError(
            404,
            "NotFound",
            `Service '${req.service}' does not exist; services: ${
              front.services.map((s) => s.name).join(", ") || "none"
            }.`,
          );
        }
        const frame = service.maps.find((m) => m.name === service.defaultMapName) ??
          service.maps[0];
        const scope: ServiceScope = {
          service,
          frame,
          base: `${req.baseUrl}/arcgis/rest/services/${
            encodeURIComponent(service.name)
          }/OGCFeatureServer`,
          ctx: front.operationContext(service, { baseUrl: req.baseUrl }),
        };
        const answer = await route(scope, req.path, req.params);
        if (format === "html") {
          return {
            status: 200,
            contentType: `${MEDIA.html}; charset=utf-8`,
            body: answer.html(),
            headers: answer.headers,
          };
        }
        return jsonReply(answer.json, answer.type, answer.headers);
      } catch (e) {
        if (e instanceof OgcError) return errorReply(e, format);
        if (e instanceof InvalidRequestError) {
          return errorReply(new OgcError(400, "InvalidParameterValue", e.message), format);
        }
        opts.onError?.(e, req.path);
        return errorReply(
          new OgcError(500, "ServerError", "The server failed to answer; the error is logged."),
          format,
        );
      }
    },
  };
}
