/**
 * The one test for "a complex ArcGIS value" (a decoded MapDescription,
 * symbol, geometry, ...): a plain object, not an array or text.
 *
 * @module
 */
import type { ArcgisObject } from "./types.ts";

/**
 * Whether `v` is a complex ArcGIS value (members by name).
 *
 * @example
 * ```ts
 * import { isArcgisObject } from "./arcgis_value.ts";
 * isArcgisObject({ $type: "PointN", X: 1, Y: 2 }); // true
 * isArcgisObject([1, 2]); // false
 * ```
 */
export function isArcgisObject(v: unknown): v is ArcgisObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
