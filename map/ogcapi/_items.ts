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
import type { Feature, FieldInfo, Geometry, Position } from "../types.ts";
import type { MapLayer, QueryFeatureSetRequest, QueryFilter, RecordSet } from "../ops/mod.ts";
import {
  fieldValue,
  geoJsonGeometry,
  LAYER_QUERY_OPERATIONS,
  queryFeatureSet,
  serviceLimits,
} from "../ops/mod.ts";
import { fieldLiteral, WhereClauseError, type WhereNode } from "../query/mod.ts";
import { projectGeometry } from "../geo/projection.ts";
import { axisOrder, type Crs, CRS84, findCrs } from "./_crs.ts";
import { Cql2Error, parseCql2Text } from "./_cql2.ts";
import {
  collectionCrs,
  dateField,
  type Link,
  queryableFields,
  type ServiceScope,
} from "./_collections.ts";
import { badParameter, MEDIA, OgcError } from "./_reply.ts";

/** Parameters of `/items` besides the property filters (`{field}=value`). */
export const ITEMS_PARAMETERS = [
  "f",
  "bbox",
  "bbox-crs",
  "limit",
  "offset",
  "datetime",
  "crs",
  "filter",
  "filter-lang",
  "filter-crs",
] as const;

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

function integer(params: URLSearchParams, name: string, min: number): number | undefined {
  const raw = params.get(name);
  if (raw === null) return undefined;
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < min || !Number.isSafeInteger(Number(raw))) {
    throw badParameter(name, `give a whole number of at least ${min}, not '${raw}'.`);
  }
  return Number(raw);
}

/** The CRS a parameter names among the layer's (default CRS84). */
function crsParam(params: URLSearchParams, name: string, offered: Crs[]): Crs {
  const raw = params.get(name);
  if (raw === null) return CRS84;
  const crs = findCrs(offered, raw);
  if (!crs) {
    throw badParameter(
      name,
      `'${raw}' is not offered; use one of ${offered.map((c) => c.uri).join(", ")}.`,
    );
  }
  return crs;
}

/** `bbox` as an envelope in its CRS's (x, y) order, with that CRS's WKID. */
function bboxFilter(params: URLSearchParams, offered: Crs[]): QueryFilter["FilterGeometry"] {
  const raw = params.get("bbox");
  const crs = crsParam(params, "bbox-crs", offered);
  if (raw === null) {
    if (params.has("bbox-crs")) throw badParameter("bbox-crs", "it needs a bbox.");
    return undefined;
  }
  const n = raw.split(",").map((s) => (s.trim() === "" ? NaN : Number(s)));
  if ((n.length !== 4 && n.length !== 6) || n.some((v) => !Number.isFinite(v))) {
    throw badParameter("bbox", "give 4 (or 6) comma-separated numbers: minx,miny,maxx,maxy.");
  }
  const [a, b, c, d] = n.length === 4 ? n : [n[0], n[1], n[3], n[4]];
  const [xmin, ymin] = axisOrder(crs, [a, b]);
  const [xmax, ymax] = axisOrder(crs, [c, d]);
  if (ymin > ymax) throw badParameter("bbox", "the lower corner is north of the upper one.");
  if (xmin > xmax) {
    throw badParameter(
      "bbox",
      "boxes crossing the antimeridian (minx > maxx) are not supported; ask for the two halves.",
    );
  }
  return { geometry: { type: "Envelope", xmin, ymin, xmax, ymax }, wkid: crs.wkid };
}

/** One end of a `datetime` interval as [first, last] epoch milliseconds it covers. */
function instant(text: string, name: string): [number, number] {
  const t = text.trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(t)) {
    const start = Date.parse(`${t}T00:00:00Z`);
    if (!Number.isNaN(start)) return [start, start + 86_400_000 - 1];
  } else if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i.test(t)) {
    const ms = Date.parse(t);
    if (!Number.isNaN(ms)) return [ms, ms];
  }
  throw badParameter(
    name,
    `'${text}' is not an RFC 3339 date (2020-01-31) or date-time (2020-01-31T12:00:00Z).`,
  );
}

function compare(field: FieldInfo, op: ">=" | "<=", ms: number): WhereNode {
  return {
    kind: "compare",
    op,
    left: { kind: "field", name: field.name },
    right: fieldLiteral(field, ms),
  };
}

/** `datetime` as conditions on the layer's date field. */
function datetimeFilter(params: URLSearchParams, layer: MapLayer): WhereNode[] {
  const raw = params.get("datetime");
  if (raw === null) return [];
  const field = dateField(layer);
  if (!field) {
    throw badParameter("datetime", `collection ${layer.id} (${layer.name}) has no date field.`);
  }
  const parts = raw.split("/");
  if (parts.length > 2) throw badParameter("datetime", "give an instant or start/end.");
  if (parts.length === 1) {
    const [lo, hi] = instant(parts[0], "datetime");
    return [compare(field, ">=", lo), compare(field, "<=", hi)];
  }
  const open = (s: string) => s.trim() === "" || s.trim() === "..";
  if (open(parts[0]) && open(parts[1])) {
    return [{ kind: "isNull", value: { kind: "field", name: field.name }, negated: true }];
  }
  const out: WhereNode[] = [];
  const lo = open(parts[0]) ? undefined : instant(parts[0], "datetime")[0];
  const hi = open(parts[1]) ? undefined : instant(parts[1], "datetime")[1];
  if (lo !== undefined && hi !== undefined && lo > hi) {
    throw badParameter("datetime", "the interval ends before it starts.");
  }
  if (lo !== undefined) out.push(compare(field, ">=", lo));
  if (hi !== undefined) out.push(compare(field, "<=", hi));
  return out;
}

/** `{field}=value` parameters as equalities; other unknown parameters are a 400. */
function propertyFilters(params: URLSearchParams, layer: MapLayer): WhereNode[] {
  const fields = queryableFields(layer);
  const out: WhereNode[] = [];
  for (const [name, value] of params) {
    if ((ITEMS_PARAMETERS as readonly string[]).includes(name)) continue;
    const field = fields.find((f) => f.name === name) ??
      fields.find((f) => f.name.toLowerCase() === name.toLowerCase());
    if (!field) {
      throw new OgcError(
        400,
        "InvalidParameterValue",
        `Unknown parameter '${name}'. Items take ${ITEMS_PARAMETERS.join(", ")} and the ` +
          `queryables of collection ${layer.id} as {name}=value: ${
            fields.map((f) => f.name).join(", ")
          }.`,
      );
    }
    try {
      out.push({
        kind: "compare",
        op: "=",
        left: { kind: "field", name: field.name },
        right: fieldLiteral(field, value),
      });
    } catch (e) {
      if (e instanceof WhereClauseError) {
        throw badParameter(name, e.message.replace(/ \(position \d+\)/, ""));
      }
      throw e;
    }
  }
  return out;
}

/** `filter` in CQL2-text: its where tree and its S_INTERSECTS geometry (in `filter-crs`). */
function cqlFilter(
  params: URLSearchParams,
  layer: MapLayer,
  offered: Crs[],
): { where?: WhereNode; spatial?: QueryFilter["FilterGeometry"] } {
  const text = params.get("filter");
  const lang = params.get("filter-lang");
  if (lang !== null && lang !== "cql2-text") {
    throw badParameter("filter-lang", `'${lang}' is not supported; use cql2-text.`);
  }
  const crs = crsParam(params, "filter-crs", offered);
  if (text === null) {
    if (lang !== null || params.has("filter-crs")) throw badParameter("filter", "it is missing.");
    return {};
  }
  try {
    const f = parseCql2Text(text, queryableFields(layer), ["geometry", "shape", "geom"]);
    const intersects = f.intersects ? swapAxes(f.intersects, crs) : undefined;
    return {
      where: f.where,
      spatial: intersects ? { geometry: intersects, wkid: crs.wkid } : undefined,
    };
  } catch (e) {
    if (e instanceof Cql2Error) throw badParameter("filter", e.message);
    throw e;
  }
}

/** A geometry read in `crs`'s axis order, in (x, y) order. */
function swapAxes(g: Geometry, crs: Crs): Geometry {
  if (!crs.latFirst) return g;
  const s = (p: Position): Position => [p[1], p[0]];
  switch (g.type) {
    case "Point":
      return { type: "Point", x: g.y, y: g.x };
    case "Multipoint":
      return { type: "Multipoint", points: g.points.map(s) };
    case "Polyline":
      return { type: "Polyline", paths: g.paths.map((p) => p.map(s)) };
    case "Polygon":
      return { type: "Polygon", rings: g.rings.map((r) => [...r].reverse().map(s)) };
    case "Envelope":
      return { type: "Envelope", xmin: g.ymin, ymin: g.xmin, xmax: g.ymax, ymax: g.xmax };
  }
}

function andAll(nodes: WhereNode[]): WhereNode | undefined {
  if (nodes.length === 0) return undefined;
  if (nodes.length === 1) return nodes[0];
  const mid = nodes.length >> 1;
  return { kind: "and", left: andAll(nodes.slice(0, mid))!, right: andAll(nodes.slice(mid))! };
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
  const bbox = bboxFilter(params, offered);
  const cql = cqlFilter(params, layer, offered);
  if (bbox && cql.spatial) {
    throw badParameter("filter", "give the area either as bbox or as S_INTERSECTS, not both.");
  }
  const where = andAll([
    ...datetimeFilter(params, layer),
    ...propertyFilters(params, layer),
    ...(cql.where ? [cql.where] : []),
  ]);
  const spatial = bbox ?? cql.spatial;
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
