/**
 * The filtering parameters of `/items` as the engine's filter: `bbox` (in
 * `bbox-crs`), `datetime` on the layer's first date field, `{field}=value`
 * equalities and a CQL2-text `filter` (in `filter-crs`) become one where
 * tree (ANDed) and at most one spatial filter. Also the integer and CRS
 * parameters the items and feature resources share.
 *
 * @module
 */
import type { FieldInfo, Geometry, Position } from "../types.ts";
import type { MapLayer, QueryFilter } from "../ops/mod.ts";
import { fieldLiteral, WhereClauseError, type WhereNode } from "../query/mod.ts";
import { axisOrder, type Crs, CRS84, findCrs } from "./_crs.ts";
import { Cql2Error, parseCql2Text } from "./_cql2.ts";
import { dateField, queryableFields } from "./_collections.ts";
import { badParameter, OgcError } from "./_reply.ts";

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

/** A whole-number parameter of at least `min`, or undefined when absent. */
export function integer(params: URLSearchParams, name: string, min: number): number | undefined {
  const raw = params.get(name);
  if (raw === null) return undefined;
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < min || !Number.isSafeInteger(Number(raw))) {
    throw badParameter(name, `give a whole number of at least ${min}, not '${raw}'.`);
  }
  return Number(raw);
}

/** The CRS a parameter names among the layer's (default CRS84). */
export function crsParam(params: URLSearchParams, name: string, offered: Crs[]): Crs {
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
    // Across the antimeridian (OGC API Part 1, 7.15.3): the two halves, as one two-part polygon.
    const edge = ANTIMERIDIAN_X[crs.wkid];
    if (edge === undefined) {
      throw badParameter(
        "bbox",
        `minx is east of maxx, which crosses the antimeridian only in a CRS of the whole world (CRS84, EPSG:4326, EPSG:3857), not in ${crs.uri}.`,
      );
    }
    const box = (x0: number, x1: number) =>
      [[x0, ymin], [x0, ymax], [x1, ymax], [x1, ymin], [
        x0,
        ymin,
      ]] as Position[];
    return {
      geometry: { type: "Polygon", rings: [box(xmin, edge), box(-edge, xmax)] },
      wkid: crs.wkid,
    };
  }
  return { geometry: { type: "Envelope", xmin, ymin, xmax, ymax }, wkid: crs.wkid };
}

/** Where the antimeridian is, by WKID, in the CRSs a bbox may cross it in. */
const ANTIMERIDIAN_X: Record<number, number> = { 4326: 180, 3857: 20037508.342789244 };

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

/** The filter of an items request: a where tree and a spatial filter, each optional. */
export interface ItemsFilter {
  where?: WhereNode;
  spatial?: QueryFilter["FilterGeometry"];
}

/**
 * Every filtering parameter of an items request on `layer`, checked and
 * combined; an unknown parameter is a 400.
 *
 * @example
 * ```ts ignore
 * const { where, spatial } = itemsFilter(new URLSearchParams("bbox=30,50,60,60&NAME=Kazan"), layer, crs);
 * ```
 */
export function itemsFilter(params: URLSearchParams, layer: MapLayer, offered: Crs[]): ItemsFilter {
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
  return { where, spatial: bbox ?? cql.spatial };
}
