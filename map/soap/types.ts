/**
 * The ArcGIS MapServer type table: every type the 35 operations can carry
 * (spec §3, §4) and the operations' request/response elements (spec §2),
 * assembled into one {@link Schema}. Decoder, encoder and WSDL generator
 * all read this object.
 *
 * @module
 */
import { Schema } from "./schema.ts";
import { GEOMETRY_TYPES, SPATIAL_REFERENCE_TYPES, TIME_TYPES } from "./_types_geometry.ts";
import { MAP_DESCRIPTION_TYPES, METADATA_TYPES } from "./_types_map.ts";
import { CACHE_TYPES, LEGEND_TYPES, QUERY_TYPES, RESULT_TYPES } from "./_types_query.ts";
import { COLOR_TYPES, ELEMENT_TYPES, SCALE_BAR_TYPES, SYMBOL_TYPES } from "./_types_symbols.ts";
import { DYNAMIC_LAYER_TYPES } from "./_types_dynamic.ts";
import { ARRAY_TYPES, ENUM_TYPES } from "./_types_arrays.ts";
import { MAPSERVER_OPERATIONS } from "./_operations.ts";

/**
 * The MapServer schema.
 *
 * @example
 * ```ts
 * MAPSERVER_SCHEMA.elementsOf("PointN").map((e) => e.name); // ["X", "Y", "M", "Z", "ID", "SpatialReference"]
 * ```
 */
export const MAPSERVER_SCHEMA: Schema = new Schema(
  [
    ...MAP_DESCRIPTION_TYPES,
    ...METADATA_TYPES,
    ...QUERY_TYPES,
    ...RESULT_TYPES,
    ...LEGEND_TYPES,
    ...CACHE_TYPES,
    ...SCALE_BAR_TYPES,
    ...COLOR_TYPES,
    ...SYMBOL_TYPES,
    ...ELEMENT_TYPES,
    ...DYNAMIC_LAYER_TYPES,
    ...GEOMETRY_TYPES,
    ...SPATIAL_REFERENCE_TYPES,
    ...TIME_TYPES,
    ...ARRAY_TYPES,
    ...ENUM_TYPES,
  ],
  MAPSERVER_OPERATIONS,
);

/** Names of the 35 MapServer operations, in WSDL order. */
export const MAPSERVER_OPERATION_NAMES: readonly string[] = MAPSERVER_OPERATIONS.map((o) => o.name);
