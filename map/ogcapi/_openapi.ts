/**
 * The OpenAPI 3.0 definition of one OGCFeatureServer (`/api`), written
 * from the same collections the answers come from: one path per
 * collection and resource, each items path with the parameters that
 * collection takes (its `limit` maximum, its CRSs, its queryables as
 * property filters), so the definition never drifts from the answers.
 *
 * @module
 */
import type { FieldInfo } from "../types.ts";
import { serviceLimits } from "../ops/mod.ts";
import { collectionCrs, dateField, queryableFields, type ServiceScope } from "./_collections.ts";
import { CRS84 } from "./_crs.ts";
import { DEFAULT_LIMIT } from "./_items.ts";
import { MEDIA } from "./_reply.ts";

type Json = Record<string, unknown>;

const EXCEPTION = {
  description: "An error",
  content: { [MEDIA.json]: { schema: { $ref: "#/components/schemas/exception" } } },
};

function responses(type: string, what: string, schema: Json = { type: "object" }): Json {
  return {
    "200": {
      description: what,
      content: { [type]: { schema }, [MEDIA.html]: { schema: { type: "string" } } },
    },
    "400": EXCEPTION,
    "404": EXCEPTION,
    "406": EXCEPTION,
    "500": EXCEPTION,
  };
}

function op(id: string, summary: string, parameters: Json[], res: Json): Json {
  return { get: { operationId: id, summary, parameters, responses: res } };
}

const F: Json = { $ref: "#/components/parameters/f" };

/** The JSON Schema type of a field's values. */
export function fieldSchema(f: FieldInfo): Json {
  switch (f.type) {
    case "OID":
    case "SmallInteger":
    case "Integer":
      return { type: "integer" };
    case "Single":
    case "Double":
      return { type: "number" };
    case "Date":
      return { type: "string", format: "date-time" };
    default:
      return { type: "string", ...(f.length > 0 ? { maxLength: f.length } : {}) };
  }
}

function itemsParameters(scope: ServiceScope, layerId: number): Json[] {
  const layer = scope.frame.layers.find((l) => l.id === layerId)!;
  const crs = collectionCrs(layer).map((c) => c.uri);
  const max = serviceLimits(scope.service).maxRecordCount;
  const date = dateField(layer);
  const crsParam = (name: string, description: string): Json => ({
    name,
    in: "query",
    required: false,
    description,
    schema: { type: "string", format: "uri", enum: crs, default: CRS84.uri },
    style: "form",
    explode: false,
  });
  return [
    F,
    {
      name: "bbox",
      in: "query",
      required: false,
      description:
        "Features intersecting minx,miny,maxx,maxy (or 6 numbers with heights) in bbox-crs.",
      schema: { type: "array", minItems: 4, maxItems: 6, items: { type: "number" } },
      style: "form",
      explode: false,
    },
    crsParam("bbox-crs", "CRS of bbox (default CRS84, longitude first)."),
    {
      name: "limit",
      in: "query",
      required: false,
      description: `Features per page; more than ${max} (the service's maxRecordCount) is ${max}.`,
      schema: { type: "integer", minimum: 1, maximum: max, default: Math.min(DEFAULT_LIMIT, max) },
      style: "form",
      explode: false,
    },
    {
      name: "offset",
      in: "query",
      required: false,
      description: "Features skipped before the page (the next and prev links set it).",
      schema: { type: "integer", minimum: 0, default: 0 },
    },
    ...(date
      ? [{
        name: "datetime",
        in: "query",
        required: false,
        description: `Instant or interval (start/end, ../end, start/..) on ${date.name}.`,
        schema: { type: "string" },
      }]
      : []),
    crsParam("crs", "CRS of the answer's coordinates (default CRS84)."),
    {
      name: "filter",
      in: "query",
      required: false,
      description: "A CQL2-text filter on the queryables.",
      schema: { type: "string" },
    },
    {
      name: "filter-lang",
      in: "query",
      required: false,
      schema: { type: "string", enum: ["cql2-text"], default: "cql2-text" },
    },
    crsParam("filter-crs", "CRS of geometries in the filter (default CRS84)."),
    ...queryableFields(layer).map((f) => ({
      name: f.name,
      in: "query",
      required: false,
      description: `Features whose ${f.alias || f.name} equals the value.`,
      schema: fieldSchema(f),
    })),
  ];
}

/**
 * The OpenAPI 3.0 document of a service's OGCFeatureServer.
 *
 * @example
 * ```ts ignore
 * openApiDocument(scope).openapi; // "3.0.3"
 * ```
 */
export function openApiDocument(scope: ServiceScope): Json {
  const paths: Json = {
    "/": op("getLandingPage", "Landing page", [F], responses(MEDIA.json, "The landing page")),
    "/conformance": op(
      "getConformance",
      "Conformance classes",
      [F],
      responses(MEDIA.json, "The conformance classes"),
    ),
    "/api": op("getApi", "This definition", [F], responses(MEDIA.openapi, "The API definition")),
    "/collections": op(
      "getCollections",
      "The collections (one per layer)",
      [F],
      responses(MEDIA.json, "The collections"),
    ),
  };
  for (const layer of scope.frame.layers) {
    const base = `/collections/${layer.id}`;
    paths[base] = op(
      `describeCollection${layer.id}`,
      `Collection ${layer.id}: ${layer.name}`,
      [F],
      responses(MEDIA.json, "The collection"),
    );
    paths[`${base}/items`] = op(
      `getFeatures${layer.id}`,
      `Features of ${layer.name}`,
      itemsParameters(scope, layer.id),
      responses(MEDIA.geojson, "A page of features", {
        $ref: "#/components/schemas/featureCollectionGeoJSON",
      }),
    );
    paths[`${base}/items/{featureId}`] = op(
      `getFeature${layer.id}`,
      `One feature of ${layer.name}`,
      [
        F,
        {
          name: "featureId",
          in: "path",
          required: true,
          description: "The feature's object id.",
          schema: { type: "integer" },
        },
        {
          name: "crs",
          in: "query",
          required: false,
          schema: { type: "string", format: "uri", enum: collectionCrs(layer).map((c) => c.uri) },
        },
      ],
      responses(MEDIA.geojson, "The feature", { $ref: "#/components/schemas/featureGeoJSON" }),
    );
    paths[`${base}/queryables`] = op(
      `getQueryables${layer.id}`,
      `Queryables of ${layer.name}`,
      [F],
      responses(MEDIA.schema, "A JSON Schema of the queryables"),
    );
  }
  return {
    openapi: "3.0.3",
    info: {
      title: `${scope.service.name} (OGCFeatureServer)`,
      description: scope.service.description ||
        `OGC API – Features of the map service ${scope.service.name}.`,
      version: "1.0.0",
    },
    servers: [{ url: scope.base }],
    paths,
    components: {
      parameters: {
        f: {
          name: "f",
          in: "query",
          required: false,
          description: "The format of the answer (else by Accept).",
          schema: { type: "string", enum: ["json", "geojson", "html"] },
        },
      },
      schemas: {
        exception: {
          type: "object",
          required: ["code"],
          properties: { code: { type: "string" }, description: { type: "string" } },
        },
        link: {
          type: "object",
          required: ["href", "rel"],
          properties: {
            href: { type: "string" },
            rel: { type: "string" },
            type: { type: "string" },
            title: { type: "string" },
          },
        },
        featureGeoJSON: {
          type: "object",
          required: ["type", "geometry", "properties"],
          properties: {
            type: { type: "string", enum: ["Feature"] },
            id: { type: "integer" },
            geometry: { type: "object", nullable: true },
            properties: { type: "object", nullable: true },
            links: { type: "array", items: { $ref: "#/components/schemas/link" } },
          },
        },
        featureCollectionGeoJSON: {
          type: "object",
          required: ["type", "features"],
          properties: {
            type: { type: "string", enum: ["FeatureCollection"] },
            features: { type: "array", items: { $ref: "#/components/schemas/featureGeoJSON" } },
            links: { type: "array", items: { $ref: "#/components/schemas/link" } },
            timeStamp: { type: "string", format: "date-time" },
            numberMatched: { type: "integer", minimum: 0 },
            numberReturned: { type: "integer", minimum: 0 },
          },
        },
      },
    },
  };
}
