/**
 * The one place where ArcGIS REST parameters become the typed requests of
 * the `map/ops` operations (the same requests the SOAP decoder builds):
 * REST geometry JSON (and the short `x,y` / `xmin,ymin,xmax,ymax` forms)
 * becomes the geometry (with its WKID) a QueryFilter carries, `where`,
 * `objectIds`, `outFields`, `outSR`, `orderByFields` and the rest become a
 * LayerDescription and a QueryFilter. When the nested request types change,
 * only this module changes.
 *
 * @module
 */
import type {
  LayerDescription,
  MapLayer,
  OutStatistic,
  QueryFeatureSetRequest,
  QueryFilter,
  SpatialGeometry,
} from "../ops/mod.ts";
import { layerColumns } from "../ops/mod.ts";
import { InvalidRequestError } from "../errors.ts";
import { SPATIAL_RELATIONS } from "../geo/relate.ts";
import type { RestParams } from "./params.ts";
import {
  fromFrame,
  parseGeometry,
  parseGeometryType,
  parseSpatialReferenceValue,
  type SpatialReferenceValue,
} from "./_geometry_json.ts";
import { textWhereClause } from "./_text_search.ts";
import { withinDistance } from "./_distance.ts";

function bad(name: string, message: string): InvalidRequestError {
  return new InvalidRequestError(`Invalid value of parameter '${name}': ${message}`, {}, [
    `'${name}' parameter is invalid`,
  ]);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A spatial reference from `4326`, `{"wkid": 4326}`, `{"latestWkid": 3857}` or `{"wkt": ...}`. */
function srParam(params: RestParams, name: string): SpatialReferenceValue | undefined {
  const raw = params.string(name);
  return raw === undefined ? undefined : parseSpatialReferenceValue(name, raw);
}

/** REST geometry JSON (or one of its short text forms) with its spatial reference (else `inSR`). */
function geometryValue(params: RestParams, name: string): SpatialGeometry | undefined {
  const raw = params.string(name);
  if (raw === undefined) return undefined;
  const typeText = params.string("geometryType");
  const type = typeText === undefined ? undefined : parseGeometryType("geometryType", typeText);
  const inSR = srParam(params, "inSR");
  const g = parseGeometry(name, raw, type);
  if (g.wkid !== null || inSR === undefined) return g;
  return { geometry: fromFrame(g.geometry, inSR), wkid: inSR.wkid };
}

const STATISTIC_TYPES = ["count", "sum", "min", "max", "avg", "stddev", "var"] as const;

function outStatistics(params: RestParams): OutStatistic[] | undefined {
  const v = params.json("outStatistics");
  if (v === undefined) return undefined;
  if (!Array.isArray(v) || v.length === 0) {
    throw bad("outStatistics", "give a non-empty JSON array of statistic definitions.");
  }
  return v.map((s): OutStatistic => {
    if (
      !isObject(s) || typeof s.statisticType !== "string" || typeof s.onStatisticField !== "string"
    ) {
      throw bad(
        "outStatistics",
        'each statistic is {"statisticType": "count", "onStatisticField": "field", "outStatisticFieldName": "name"}.',
      );
    }
    const type = STATISTIC_TYPES.find((t) => t === (s.statisticType as string).toLowerCase());
    if (!type) {
      throw bad("outStatistics", `statisticType must be one of ${STATISTIC_TYPES.join(", ")}.`);
    }
    const name = s.outStatisticFieldName;
    if (
      name !== undefined && (typeof name !== "string" || !/^[\p{L}_][\p{L}\p{N}_]*$/u.test(name))
    ) {
      throw bad(
        "outStatistics",
        "outStatisticFieldName must be a field name (letters, digits, _).",
      );
    }
    return {
      statisticType: type,
      onStatisticField: s.onStatisticField,
      outStatisticFieldName: name,
    };
  });
}

/** `a ASC, b DESC` as sort keys. */
function orderBy(params: RestParams): { field: string; descending: boolean }[] {
  return (params.list("orderByFields") ?? []).map((item) => {
    const m = /^("?)([\p{L}_][\p{L}\p{N}_]*)\1(?:\s+(ASC|DESC))?$/iu.exec(item);
    if (!m) throw bad("orderByFields", `'${item}' is not "field [ASC|DESC]".`);
    return { field: m[2], descending: (m[3] ?? "").toUpperCase() === "DESC" };
  });
}

/** What the query endpoint asks besides the request: the form of the answer. */
export interface QueryAnswerOptions {
  returnIdsOnly: boolean;
  returnCountOnly: boolean;
  /** Only the extent of the matches (with the count when returnCountOnly is also set). */
  returnExtentOnly: boolean;
  /** `outSR` when it is a frame with a moved central meridian (results are moved into it). */
  outFrame?: SpatialReferenceValue;
  /** Decimal places of returned coordinates. */
  geometryPrecision?: number;
}

/**
 * The QueryFeatureSet request (a LayerDescription and a QueryFilter, the
 * shapes QueryFeatureCount2/IDs2/Data2 take) of a REST `query` on `layer`.
 *
 * @example
 * ```ts ignore
 * const { request } = queryRequest(call.params, layer, frame.wkid);
 * ```
 */
export function queryRequest(
  params: RestParams,
  layer: MapLayer,
  mapWkid: number,
): { request: QueryFeatureSetRequest; answer: QueryAnswerOptions } {
  const returnGeometry = params.boolean("returnGeometry") ?? true;
  const outFields = params.list("outFields");
  const fieldList = outFields === undefined
    ? []
    : outFields.some((f) => f === "*")
    ? ["*"]
    : outFields;
  const subFields = [...fieldList, ...(returnGeometry ? ["Shape"] : [])].join(",");
  const given = geometryValue(params, "geometry");
  const geometry = given && withinDistance(params, given, mapWkid);
  const filter: QueryFilter = {
    WhereClause: params.string("where") ?? textWhereClause(params, layer) ?? "",
    // Only the OID (and the shape) when no outFields are named, as ArcGIS answers.
    SubFields: subFields === "" ? layerColumns(layer).oid.name : subFields,
  };
  const ids = params.numbers("objectIds", { integer: true });
  if (ids !== undefined) filter.FIDSet = ids;
  if (geometry) {
    filter.FilterGeometry = geometry;
    filter.SpatialRel = params.choice("spatialRel", SPATIAL_RELATIONS) ??
      "esriSpatialRelIntersects";
    const relation = params.string("relationParam");
    if (relation !== undefined) filter.SpatialRelDescription = relation;
  }
  const outSR = srParam(params, "outSR");
  if (outSR !== undefined) filter.OutputSpatialReference = outSR.wkid;
  const statistics = outStatistics(params);
  const order = orderBy(params);
  if (!statistics && order.length > 0) {
    filter.PostfixClause = `ORDER BY ${
      order.map((o) => `${o.field} ${o.descending ? "DESC" : "ASC"}`).join(", ")
    }`;
  }
  if (params.boolean("returnDistinctValues")) filter.PrefixClause = "DISTINCT";
  const offset = params.number("maxAllowableOffset", { min: 0 });
  const description: LayerDescription = {
    LayerID: layer.id,
    LayerResultOptions: {
      IncludeGeometry: returnGeometry,
      ...(offset
        ? { GeometryResultOptions: { GeneralizeGeometries: true, MaximumAllowableOffset: offset } }
        : {}),
    },
  };
  const request: QueryFeatureSetRequest = {
    LayerDescription: description,
    QueryFilter: filter,
    ResultOffset: params.number("resultOffset", { integer: true, min: 0 }),
    ResultRecordCount: params.number("resultRecordCount", { integer: true, min: 1 }),
  };
  if (statistics) {
    request.OutStatistics = statistics;
    request.GroupByFieldsForStatistics = params.list("groupByFieldsForStatistics");
    request.StatisticsOrderBy = order;
  } else if (params.has("groupByFieldsForStatistics")) {
    throw bad("groupByFieldsForStatistics", "it needs outStatistics.");
  }
  return {
    request,
    answer: {
      returnIdsOnly: params.boolean("returnIdsOnly") ?? false,
      returnCountOnly: params.boolean("returnCountOnly") ?? false,
      returnExtentOnly: params.boolean("returnExtentOnly") ?? false,
      ...(outSR && outSR.xShift !== 0 ? { outFrame: outSR } : {}),
      geometryPrecision: params.number("geometryPrecision", { integer: true, min: 0, max: 17 }),
    },
  };
}
