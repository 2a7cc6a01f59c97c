/**
 * `/collections/{id}/queryables` (OGC API – Features Part 3): the layer's
 * attribute fields and its geometry as a JSON Schema, the names a `filter`
 * and the `{field}=value` parameters may use.
 *
 * @module
 */
import type { MapLayer } from "../ops/mod.ts";
import { queryableFields, type ServiceScope } from "./_collections.ts";
import { fieldSchema } from "./_openapi.ts";

/** GeoJSON geometry formats of the JSON Schema by layer geometry type. */
const GEOMETRY_FORMAT: Readonly<Record<string, string>> = {
  Point: "geometry-point",
  Multipoint: "geometry-multipoint",
  Polyline: "geometry-linestring-or-multilinestring",
  Polygon: "geometry-polygon-or-multipolygon",
};

/** One queryable: its title and JSON Schema type. */
export interface Queryable {
  title: string;
  type?: string;
  format?: string;
  maxLength?: number;
  "x-ogc-role"?: string;
}

/**
 * The JSON Schema of a layer's queryables; the geometry is `geometry`.
 *
 * @example
 * ```ts ignore
 * Object.keys(queryablesSchema(scope, layer).properties); // ["OBJECTID", "NAME", ..., "geometry"]
 * ```
 */
export function queryablesSchema(
  scope: ServiceScope,
  layer: MapLayer,
): { $id: string; properties: Record<string, Queryable> } & Record<string, unknown> {
  const properties: Record<string, Queryable> = {};
  for (const f of queryableFields(layer)) {
    properties[f.name] = { title: f.alias || f.name, ...fieldSchema(f) } as Queryable;
    if (f.type === "OID") properties[f.name]["x-ogc-role"] = "id";
  }
  properties.geometry = {
    title: "Geometry",
    format: GEOMETRY_FORMAT[layer.geometryType] ?? "geometry-any",
    "x-ogc-role": "primary-geometry",
  };
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: `${scope.base}/collections/${layer.id}/queryables`,
    type: "object",
    title: layer.name,
    properties,
    additionalProperties: false,
  };
}
