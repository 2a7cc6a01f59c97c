/**
 * The `text` parameter of a layer query, as ArcGIS Server reads it: a
 * literal searched in the layer's display field, shorthand for
 * `where <displayField> LIKE '%text%'`, ignored when `where` is given.
 *
 * @module
 */
import type { MapLayer } from "../ops/mod.ts";
import type { RestParams } from "./params.ts";

/**
 * The where clause `text` stands for on `layer`, or undefined when `text`
 * is absent or `where` is given.
 *
 * @example
 * ```ts ignore
 * textWhereClause(new RestParams(new URLSearchParams("text=O'Brien")), layer);
 * // `"name" LIKE '%O''Brien%'`
 * ```
 */
export function textWhereClause(params: RestParams, layer: MapLayer): string | undefined {
  const text = params.string("text");
  if (text === undefined || params.has("where")) return undefined;
  return `"${layer.displayField}" LIKE '%${text.replace(/'/g, "''")}%'`;
}
