/**
 * `/services/{Service}/MapServer/{layerId}/query`: counts through
 * QueryFeatureCount2, ids through QueryFeatureIDs2 and features (a window
 * with `exceededTransferLimit`, or statistics) through QueryFeatureSet,
 * the selection QueryFeatureData2 makes: the same operations SOAP calls.
 * `returnExtentOnly` answers `{extent}` (`{count, extent}` with
 * `returnCountOnly`), the bounding box of every match in `outSR`.
 * Answers `f=json` (an Esri JSON FeatureSet) and `f=geojson` (RFC 7946).
 *
 * @module
 */
import {
  featureCollection,
  featureSetObject,
  LAYER_QUERY_OPERATIONS,
  layerColumns,
  queryFeatureExtent,
  queryFeatureSet,
} from "../ops/mod.ts";
import type { Extent } from "../types.ts";
import { restExtent } from "./_services.ts";
import {
  frameOf,
  layerOf,
  operationContext,
  type RestCall,
  type RestEndpoint,
  serviceOf,
} from "./endpoint.ts";
import { queryRequest } from "./_requests.ts";
import { frameSpatialReference, type SpatialReferenceValue, toFrame } from "./_geometry_json.ts";

/**
 * The extent of the matches; with none, ArcGIS Server's MapServer answers
 * an empty envelope, its coordinates the string "NaN" (JSON has no NaN).
 */
function extentJson(
  extent: Extent | null,
  wkid: number,
  outFrame: SpatialReferenceValue | undefined,
): Record<string, unknown> {
  if (extent === null) {
    return { ...restExtent({ xmin: 0, ymin: 0, xmax: 0, ymax: 0 }, wkid), ...EMPTY_EXTENT };
  }
  if (outFrame === undefined) return restExtent(extent, wkid);
  const { type: _, ...moved } = toFrame({ type: "Envelope", ...extent }, outFrame) as Extent & {
    type: string;
  };
  return { ...moved, spatialReference: frameSpatialReference(outFrame) };
}

const EMPTY_EXTENT = { xmin: "NaN", ymin: "NaN", xmax: "NaN", ymax: "NaN" } as const;

async function query(call: RestCall): Promise<unknown> {
  const service = serviceOf(call);
  const frame = frameOf(call, service);
  const layer = layerOf(call, frame);
  const ctx = operationContext(call, service);
  const { request, answer } = queryRequest(call.params, layer, frame.wkid);
  const byDescription = {
    MapName: frame.name,
    LayerDescription: request.LayerDescription,
    QueryFilter: request.QueryFilter,
  };
  if (answer.returnExtentOnly) {
    const { extent, wkid } = queryFeatureExtent(byDescription, ctx);
    const json = extentJson(extent, wkid, answer.outFrame);
    return answer.returnCountOnly
      ? { count: await LAYER_QUERY_OPERATIONS.QueryFeatureCount2(byDescription, ctx), extent: json }
      : { extent: json };
  }
  if (answer.returnCountOnly) {
    return { count: await LAYER_QUERY_OPERATIONS.QueryFeatureCount2(byDescription, ctx) };
  }
  if (answer.returnIdsOnly) {
    return {
      objectIdFieldName: layerColumns(layer).oid.name,
      objectIds: await LAYER_QUERY_OPERATIONS.QueryFeatureIDs2(byDescription, ctx),
    };
  }
  const result = queryFeatureSet({ ...request, MapName: frame.name }, ctx);
  const opts = { geometryPrecision: answer.geometryPrecision };
  if (call.format === "geojson") return featureCollection(result, opts);
  const out = answer.outFrame;
  if (out === undefined) return featureSetObject(result, opts);
  // outSR with a moved central meridian: the features written in its frame.
  const features = result.features.map((f) =>
    f.geometry ? { ...f, geometry: toFrame(f.geometry, out) } : f
  );
  return {
    ...featureSetObject({ ...result, features }, opts),
    spatialReference: frameSpatialReference(out),
  };
}

/** The layer query endpoint. */
export const QUERY_ENDPOINTS: readonly RestEndpoint[] = [
  {
    path: "/services/:service/MapServer/:layer(\\d+)/query",
    formats: ["geojson"],
    title: (call) => `ArcGIS REST: ${call.path.service} (MapServer) layer ${call.path.layer} query`,
    handle: query,
  },
];
