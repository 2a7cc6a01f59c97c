/**
 * `/collections/{id}/items` and `/items/{featureId}`: the query parameters
 * of OGC API – Features Parts 1–3 become one QueryFeatureSet request (the
 * LayerDescription and QueryFilter the REST query builds, so the layer's
 * definition expression applies and the answers agree), and the rows
 * become GeoJSON features in the requested CRS and axis order.
 *
 * - `bbox` (4 or 6 numbers) in `bbox-crs` (default CRS84) intersects;
 * - `limit` 1.. (default 10; larger than the service's maxRecordCount is
 *   that maximum, as the standard asks), `offset` 0.., `next`/`prev` links;
 * - `datetime` (instant, `start/end`, `../end`, `start/..`) on the
 *   layer's first date field; a date alone is that whole day (UTC);
 * - `{field}=value`: equality on a field, the value typed by the field;
 * - `filter` (CQL2-text, `filter-lang=cql2-text`, `filter-crs`);
 * - `crs`: the answer's CRS (`Content-Crs` says which).
 *
 * @module
 */
import type { Feature } from "../types.ts";
import type { MapLayer, QueryFeatureSetRequest, QueryFilter, RecordSet } from "../ops/mod.ts";
import {
  fieldValue,
  geoJsonGeometry,
  LAYER_QUERY_OPERATIONS,
  queryFeatureSet,
  serviceLimits,
} from "../ops/mod.ts";
import { projectGeometry } from "../geo/projection.ts";
import { axisOrder, type Crs } from "./_crs.ts";
import { crsParam, integer, itemsFilter } from "./_items_filter.ts";
import { collectionCrs, type Link, type ServiceScope } from "./_collections.ts";
import { MEDIA, OgcError } from "./_reply.ts";

/** Parameters of `/items/{featureId}`. */
export const FEATURE_PARAMETERS = ["f", "crs"] as const;

/** Features per page when `limit` is not given. */
export const DEFAULT_LIMIT = 10;

/** A GeoJSON feature as the face writes it. */
export interface GeoJsonFeature {
  type: "Feature";
  id: number;
  geometry: unknown;
  properties: Record<string, unknown>;
  links?: Link[];
}

/** One page of items, ready to write as JSON or HTML. */
export interface ItemsPage {
  type: "FeatureCollection";
  features: GeoJsonFeature[];
  links: Link[];
  timeStamp: string;
  numberMatched: number;
  numberReturned: number;
  /** The CRS of the coordinates (for the Content-Crs header). */
  crs: Crs;
}

/** The request of `/items` (or of one feature, with `featureId`) on `layer`. */
function request(
  scope: ServiceScope,
  layer: MapLayer,
  crs: Crs,
  filter: Partial<QueryFilter>,
): QueryFeatureSetRequest {
  return {
    MapName: scope.frame.name,
    LayerDescription: { LayerID: layer.id },
    QueryFilter: { SubFields: "*", OutputSpatialReference: crs.wkid, ...filter },
  };
}

/** A row as a GeoJSON feature: every attribute (dates as ISO 8601), coordinates in `crs`. */
function feature(f: Feature, r: RecordSet, crs: Crs): GeoJsonFeature {
  const properties: Record<string, unknown> = {};
  for (const field of r.fields) {
    if (field.type === "Geometry") continue;
    const v = field.type === "OID"
      ? f.id
      : fieldValue(f.attributes[field.name] ?? null, field.type);
    properties[field.name] = v instanceof Date ? v.toISOString() : v;
  }
  const geometry = f.geometry
    ? geoJsonGeometry(projectGeometry(f.geometry, r.wkid, crs.wkid), (p) => axisOrder(crs, p))
    : null;
  return { type: "Feature", id: f.id, geometry, properties };
}

/** The items URL with `params` and `offset` set (links keep every other parameter). */
function pageHref(href: string, params: URLSearchParams, offset: number, limit: number): string {
  const q = new URLSearchParams(params);
  q.set("offset", String(offset));
  q.set("limit", String(limit));
  return `${href}?${q}`;
}

/**
 * One page of a collection's features (`/collections/{id}/items`).
 *
 * @example
 * ```ts ignore
 * const page = itemsPage(scope, layer, new URLSearchParams("limit=5"));
 * ```
 */
export async function itemsPage(
  scope: ServiceScope,
  layer: MapLayer,
  params: URLSearchParams,
): Promise<ItemsPage> {
  const offered = collectionCrs(layer);
  const max = serviceLimits(scope.service).maxRecordCount;
  const limit = Math.min(integer(params, "limit", 1) ?? DEFAULT_LIMIT, max);
  const offset = integer(params, "offset", 0) ?? 0;
  const crs = crsParam(params, "crs", offered);
  const { where, spatial } = itemsFilter(params, layer, offered);
  const req = request(scope, layer, crs, {
    ...(where ? { WhereTree: where } : {}),
    ...(spatial ? { FilterGeometry: spatial, SpatialRel: "esriSpatialRelIntersects" } : {}),
  });
  const matched = await LAYER_QUERY_OPERATIONS.QueryFeatureCount2(req, scope.ctx);
  const rows = queryFeatureSet(
    { ...req, ResultOffset: offset, ResultRecordCount: limit },
    scope.ctx,
  );
  const href = `${scope.base}/collections/${layer.id}/items`;
  // Links name the GeoJSON page (no `f`) and its HTML alternate, whichever was asked for.
  const json = new URLSearchParams(params);
  json.delete("f");
  const html = new URLSearchParams(json);
  html.set("f", "html");
  const links: Link[] = [
    {
      href: `${href}${json.size ? `?${json}` : ""}`,
      rel: "self",
      type: MEDIA.geojson,
      title: "This page",
    },
    { href: `${href}?${html}`, rel: "alternate", type: MEDIA.html, title: "This page as HTML" },
  ];
  if (offset + rows.features.length < matched) {
    links.push({
      href: pageHref(href, json, offset + limit, limit),
      rel: "next",
      type: MEDIA.geojson,
      title: "Next page",
    });
  }
  if (offset > 0) {
    links.push({
      href: pageHref(href, json, Math.max(0, offset - limit), limit),
      rel: "prev",
      type: MEDIA.geojson,
      title: "Previous page",
    });
  }
  links.push({
    href: `${scope.base}/collections/${layer.id}`,
    rel: "collection",
    type: MEDIA.json,
    title: layer.name,
  });
  return {
    type: "FeatureCollection",
    features: rows.features.map((f) => feature(f, rows, crs)),
    links,
    timeStamp: new Date().toISOString(),
    numberMatched: matched,
    numberReturned: rows.features.length,
    crs,
  };
}

/**
 * One feature by its object id (`/collections/{id}/items/{featureId}`);
 * an unknown (or filtered out) one is a 404.
 *
 * @example
 * ```ts ignore
 * const { feature } = featureById(scope, layer, "3", new URLSearchParams());
 * ```
 */
export function featureById(
  scope: ServiceScope,
  layer: MapLayer,
  featureId: string,
  params: URLSearchParams,
): { feature: GeoJsonFeature; crs: Crs } {
  const crs = crsParam(params, "crs", collectionCrs(layer));
  const id = /^\d{1,15}$/.test(featureId) ? Number(featureId) : NaN;
  const rows = Number.isNaN(id)
    ? undefined
    : queryFeatureSet(request(scope, layer, crs, { FIDSet: [id] }), scope.ctx);
  const f = rows?.features[0];
  if (!rows || !f) {
    throw new OgcError(
      404,
      "NotFound",
      `Feature '${featureId}' does not exist in collection ${layer.id} (${layer.name}).`,
    );
  }
  const href = `${scope.base}/collections/${layer.id}/items/${f.id}`;
  return {
    crs,
    feature: {
      ...feature(f, rows, crs),
      links: [
        { href, rel: "self", type: MEDIA.geojson, title: "This feature" },
        { href: `${href}?f=html`, rel: "alternate", type: MEDIA.html, title: "As HTML" },
        {
          href: `${scope.base}/collections/${layer.id}`,
          rel: "collection",
          type: MEDIA.json,
          title: layer.name,
        },
      ],
    },
  };
}
