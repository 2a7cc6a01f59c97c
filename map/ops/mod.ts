/**
 * The MapServer operations, protocol-neutral: metadata, query and drawing.
 * The SOAP face (map/soap/handlers.ts) puts them behind its request readers
 * and result writers; the REST face (map/rest/) builds the same requests and
 * writes the same typed results (./results.ts) as JSON.
 *
 * @module
 */
export {
  DEFAULT_LIMITS,
  layerExtent,
  type ServiceLimits,
  serviceLimits,
  supportedImageFormatTypes,
} from "./metadata.ts";
export { METADATA_OPERATIONS, type MetadataOperations } from "./metadata.ts";
export {
  COORDINATE_OPERATIONS,
  type CoordinateOperations,
  LAYER_QUERY_OPERATIONS,
  type LayerQueryOperations,
  type QueryExtent,
  queryFeatureExtent,
  queryFeatureSet,
  SEARCH_OPERATIONS,
  type SearchOperations,
} from "./query.ts";
export {
  DRAW_OPERATIONS,
  type DrawOperations,
  TILE_OPERATIONS,
  type TileOperations,
} from "./draw.ts";
export type * from "./types.ts";
export { fieldValue, type LayerColumns, layerColumns } from "./_query_records.ts";
export { geometryExtent } from "./_geometry_extent.ts";
export {
  ESRI_GEOMETRY_TYPE,
  esriGeometryJson,
  esriSpatialReference,
  featureCollection,
  type FeatureJsonOptions,
  featureSetObject,
  fieldJson,
  type GeoJsonGeometry,
  geoJsonGeometry,
} from "./_query_feature_json.ts";
