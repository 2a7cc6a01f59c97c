/**
 * The query operations of the MapServer: QueryFeatureCount/IDs/Data (by
 * LayerID) and their `*2` forms (by LayerDescription) here; the map-wide
 * searches (Find, Identify, QueryHyperlinks) and the coordinate operations
 * (ComputeScale, ComputeDistance, To/FromMapPoints) are re-exported.
 *
 * Semantics (spec §2, §5.6, §5.7): the by-LayerID operations apply only
 * the request's QueryFilter (it overrides the layer's definition
 * expression, as ArcGIS documents); the `*2` operations AND the layer's
 * and the LayerDescription's definition expressions with it. Data, Find,
 * Identify and QueryHyperlinks stop at the service's MaximumRecordCount;
 * Count and IDs are not capped.
 *
 * @module
 */
import { unionExtent } from "../geo/relate.ts";
import type { Extent, Feature } from "../types.ts";
import type {
  LayerDescriptionQueryRequest,
  LayerQueryRequest,
  MapFrame,
  MapLayer,
  Operation,
  OperationContext,
  QueryFeatureData2Request,
  QueryFeatureSetRequest,
  QueryResult,
  RecordSet,
} from "./types.ts";
import { projectGeometry } from "../geo/projection.ts";
import { InvalidRequestError, member } from "../errors.ts";
import { serviceLimits } from "./metadata.ts";
import { findLayer, findMap } from "./_query_map_state.ts";
import { orderAndDistinct, type ParsedFilter, parseQueryFilter } from "./_query_filter.ts";
import { countLayer, queryLayer, queryLayerIds } from "./_query_exec.ts";
import { layerColumns } from "./_query_records.ts";
import { computeStatistics, planStatistics } from "./_query_statistics.ts";
import {
  applyShapeOptions,
  NO_SHAPE_OPTIONS,
  type ShapeOptions,
  shapeOptionsOf,
} from "./_query_shape_options.ts";
import { featuresKml, zipSingleFile } from "./_query_formats.ts";
import { featureSetObject } from "./_query_feature_json.ts";
import { geometryExtent } from "./_geometry_extent.ts";

/** A layer query resolved from a request. */
interface Target {
  frame: MapFrame;
  layer: MapLayer;
  parsed: ParsedFilter;
  /** LayerResultOptions.IncludeGeometry of a LayerDescription (default true). */
  includeGeometry: boolean;
  /** LayerResultOptions.GeometryResultOptions of a LayerDescription. */
  shapeOptions: ShapeOptions;
}

/** By LayerID: the QueryFilter alone (it overrides the layer's definition expression). */
function byLayerId(req: LayerQueryRequest, ctx: OperationContext): Target {
  const frame = findMap(ctx.service, req.MapName);
  const layer = findLayer(frame, req.LayerID);
  return {
    frame,
    layer,
    parsed: parseQueryFilter(frame, layer, req.QueryFilter),
    includeGeometry: true,
    shapeOptions: NO_SHAPE_OPTIONS,
  };
}

/** By LayerDescription: its and the layer's definition expressions AND the QueryFilter. */
function byDescription(req: LayerDescriptionQueryRequest, ctx: OperationContext): Target {
  const frame = findMap(ctx.service, req.MapName);
  const desc = req.LayerDescription;
  const layer = findLayer(frame, desc.LayerID);
  const definitionExpressions = [
    { text: layer.definitionExpression, what: "definition expression" },
    {
      text: desc.DefinitionExpression ?? "",
      what: member("layerDefinition"),
    },
  ];
  const opts = desc.LayerResultOptions;
  return {
    frame,
    layer,
    parsed: parseQueryFilter(frame, layer, req.QueryFilter, { definitionExpressions }),
    includeGeometry: opts?.IncludeGeometry !== false,
    shapeOptions: shapeOptionsOf(opts),
  };
}

function count(t: Target): number {
  return countLayer(t.layer, t.parsed.query);
}

function ids(t: Target): number[] {
  return queryLayerIds(t.layer, t.parsed.query);
}

/** A window of the ordered matches: `offset` skipped, at most `count` kept. */
interface Window {
  offset: number;
  count: number;
}

/**
 * Matching features, ordered, in a window capped at the service's
 * maxRecordCount, geometry projected to the output SR; `exceeded` says more
 * match beyond the window.
 */
function featureWindow(
  t: Target,
  ctx: OperationContext,
  window: Partial<Window> = {},
): { features: Feature[]; exceeded: boolean } {
  const max = serviceLimits(ctx.service).maxRecordCount;
  const offset = window.offset ?? 0;
  const count = Math.min(window.count ?? max, max);
  const p = t.parsed;
  const inMemory = p.orderBy.length > 0 || p.distinct;
  const returnGeometry = p.query.returnGeometry && t.includeGeometry;
  // One row past the window tells whether more match.
  const rows = queryLayer(t.layer, {
    ...p.query,
    returnGeometry,
    limit: inMemory ? undefined : offset + count + 1,
  });
  const ordered = inMemory ? orderAndDistinct(rows, p) : rows;
  const picked = ordered.slice(offset, offset + count);
  const from = t.layer.source.wkid;
  const features = picked.map((f) =>
    f.geometry
      ? {
        ...f,
        geometry: applyShapeOptions(
          projectGeometry(f.geometry!, from, p.outWkid),
          t.shapeOptions,
        ),
      }
      : f
  );
  return { features, exceeded: ordered.length > offset + count };
}

/** Matching features up to the service's maxRecordCount. */
function features(t: Target, ctx: OperationContext): Feature[] {
  return featureWindow(t, ctx).features;
}

/**
 * A window of the matches with the selected columns (the shape column only
 * when the rows carry shapes): what QueryFeatureData returns.
 */
function recordSet(t: Target, ctx: OperationContext, window: Partial<Window> = {}): RecordSet {
  const w = featureWindow(t, ctx, window);
  const columns = t.parsed.selection.columns;
  return {
    geometryType: t.layer.geometryType,
    displayField: t.layer.displayField,
    fields: t.includeGeometry ? columns : columns.filter((c) => c.type !== "Geometry"),
    objectIdField: layerColumns(t.layer).oid.name,
    features: w.features,
    wkid: t.parsed.outWkid,
    exceededTransferLimit: w.exceeded,
  };
}

/**
 * QueryFeatureSet (no SOAP operation has it; ArcGIS REST's query does): the
 * selection QueryFeatureData2 makes for the same LayerDescription and
 * filter, as a window (ResultOffset, ResultRecordCount, capped at
 * maxRecordCount) that says whether more match, or statistics over every
 * match. With a DISTINCT PrefixClause the rows are the distinct values of
 * the selected fields alone (no object id, no shape), as ArcGIS REST
 * `returnDistinctValues` answers.
 *
 * @example
 * ```ts ignore
 * const page = queryFeatureSet({ LayerDescription: { LayerID: 0 }, ResultOffset: 100 }, ctx);
 * page.exceededTransferLimit; // true when more than 100 + maxRecordCount match
 * ```
 */
export function queryFeatureSet(req: QueryFeatureSetRequest, ctx: OperationContext): RecordSet {
  const t = byDescription(req, ctx);
  if (req.OutStatistics && req.OutStatistics.length > 0) {
    const plan = planStatistics(t.layer, req.OutStatistics, req.GroupByFieldsForStatistics);
    const rows = queryLayer(t.layer, {
      ...t.parsed.query,
      attributeNames: plan.attributeNames,
      returnGeometry: false,
    });
    return {
      geometryType: t.layer.geometryType,
      displayField: t.layer.displayField,
      fields: plan.fields,
      features: computeStatistics(rows, plan, req.StatisticsOrderBy),
      wkid: t.parsed.outWkid,
      exceededTransferLimit: false,
    };
  }
  const rows = recordSet(t, ctx, { offset: req.ResultOffset, count: req.ResultRecordCount });
  if (!t.parsed.distinct) return rows;
  // Distinct rows are values, not features: only the selected fields, no id and no shape.
  return {
    ...rows,
    fields: rows.fields.filter((c) => c.type !== "Geometry" && c.type !== "OID"),
    objectIdField: undefined,
  };
}

/** The extent of a query's matches (null when none has a shape) in the output SR. */
export interface QueryExtent {
  extent: Extent | null;
  wkid: number;
}

/**
 * The bounding box of every feature the LayerDescription and QueryFilter
 * select (not capped at maxRecordCount, as counts and ids are not), in
 * the filter's output spatial reference: ArcGIS REST's `returnExtentOnly`.
 *
 * @example
 * ```ts ignore
 * const { extent } = queryFeatureExtent({ MapName: "Layers", LayerDescription: { LayerID: 0 } }, ctx);
 * ```
 */
export function queryFeatureExtent(
  req: LayerDescriptionQueryRequest,
  ctx: OperationContext,
): QueryExtent {
  const t = byDescription(req, ctx);
  const from = t.layer.source.wkid;
  const to = t.parsed.outWkid;
  let box: Extent | null = null;
  for (const f of queryLayer(t.layer, { ...t.parsed.query, returnGeometry: true })) {
    if (!f.geometry) continue;
    const e = geometryExtent(projectGeometry(f.geometry, from, to));
    if (!e) continue;
    box = unionExtent(box, e);
  }
  return { extent: box, wkid: to };
}

/** Writes `bytes` into the output directory and returns its public URL. */
async function publish(ctx: OperationContext, bytes: Uint8Array, ext: string): Promise<string> {
  await Deno.mkdir(ctx.outputDir, { recursive: true });
  const name = `_ags_${crypto.randomUUID().replaceAll("-", "")}.${ext}`;
  await Deno.writeFile(`${ctx.outputDir.replace(/\/+$/, "")}/${name}`, bytes);
  return `${ctx.outputUrl.replace(/\/+$/, "")}/${name}`;
}

/** QueryFeatureData2's result in the form QueryResultOptions.Format asks for. */
async function queryResult(
  t: Target,
  format: string,
  ctx: OperationContext,
): Promise<QueryResult> {
  switch (format) {
    case "esriQueryResultRecordSetAsObject":
      return { kind: "recordSet", recordSet: recordSet(t, ctx) };
    case "esriQueryResultJsonAsMime":
    case "esriQueryResultJsonAsURL": {
      const json = JSON.stringify(featureSetObject(recordSet(t, ctx)));
      const bytes = new TextEncoder().encode(json);
      return format.endsWith("Mime")
        ? { kind: "data", bytes }
        : { kind: "url", url: await publish(ctx, bytes, "json") };
    }
    case "esriQueryResultKMLAsMime":
    case "esriQueryResultKMLAsURL": {
      // KML is always WGS 84; the features are projected from the output SR there.
      const kml = featuresKml(t.layer, features(t, ctx), t.parsed.selection, t.parsed.outWkid);
      const kmz = await zipSingleFile("doc.kml", new TextEncoder().encode(kml));
      return format.endsWith("Mime")
        ? { kind: "data", bytes: kmz }
        : { kind: "url", url: await publish(ctx, kmz, "kmz") };
    }
    default:
      throw new InvalidRequestError(
        `QueryResultOptions/Format ${format} is not supported. Use esriQueryResultRecordSetAsObject, ` +
          "esriQueryResultJsonAsMime, esriQueryResultJsonAsURL, esriQueryResultKMLAsMime or esriQueryResultKMLAsURL.",
        { Format: format },
      );
  }
}

/** The layer query operations by their ArcGIS names, each with its request and result type. */
export interface LayerQueryOperations {
  QueryFeatureCount: Operation<LayerQueryRequest, number>;
  QueryFeatureIDs: Operation<LayerQueryRequest, number[]>;
  QueryFeatureData: Operation<LayerQueryRequest, RecordSet>;
  QueryFeatureCount2: Operation<LayerDescriptionQueryRequest, number>;
  QueryFeatureIDs2: Operation<LayerDescriptionQueryRequest, number[]>;
  QueryFeatureData2: Operation<QueryFeatureData2Request, QueryResult>;
}

/**
 * The layer query operations: count, ids and data of a layer's features,
 * by LayerID (the QueryFilter alone) or by LayerDescription.
 *
 * @example
 * ```ts ignore
 * const n = await LAYER_QUERY_OPERATIONS.QueryFeatureCount({ MapName: "Layers", LayerID: 0 }, ctx);
 * ```
 */
export const LAYER_QUERY_OPERATIONS: LayerQueryOperations = {
  QueryFeatureCount: (req, ctx) => count(byLayerId(req, ctx)),
  QueryFeatureIDs: (req, ctx) => ids(byLayerId(req, ctx)),
  QueryFeatureData: (req, ctx) => recordSet(byLayerId(req, ctx), ctx),
  QueryFeatureCount2: (req, ctx) => count(byDescription(req, ctx)),
  QueryFeatureIDs2: (req, ctx) => ids(byDescription(req, ctx)),
  QueryFeatureData2: (req, ctx) => queryResult(byDescription(req, ctx), req.Format, ctx),
};

export { SEARCH_OPERATIONS, type SearchOperations } from "./_query_search.ts";
export { COORDINATE_OPERATIONS, type CoordinateOperations } from "./_query_coords.ts";
