/**
 * `/services/{Service}/MapServer/{layerId}/query`: counts through
 * QueryFeatureCount2, ids through QueryFeatureIDs2 and features (a window
 * with `exceededTransferLimit`, or statistics) through QueryFeatureSet,
 * the selection QueryFeatureData2 makes: the same operations SOAP calls.
 * Answers `f=json` (an Esri JSON FeatureSet) and `f=geojson` (RFC 7946).
 *
 * @module
 */
import {
  featureCollection,
  featureSetObject,
  LAYER_QUERY_OPERATIONS,
  layerColumns,
  queryFeatureSet,
} from "../ops/mod.ts";
import {
  frameOf,
  layerOf,
  operationContext,
  type RestCall,
  type RestEndpoint,
  serviceOf,
} from "./endpoint.ts";
import { queryRequest } from "./_requests.ts";

async function query(call: RestCall): Promise<unknown> {
  const service = serviceOf(call);
  const frame = frameOf(call, service);
  const layer = layerOf(call, frame);
  const ctx = operationContext(call, service);
  const { request, answer } = queryRequest(call.params, layer);
  const byDescription = {
    MapName: frame.name,
    LayerDescription: request.LayerDescription,
    QueryFilter: request.QueryFilter,
  };
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
  return call.format === "geojson"
    ? featureCollection(result, opts)
    : featureSetObject(result, opts);
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
