/**
 * The bounding box of a {@link Geometry}, as searches and results use it.
 *
 * @module
 */
import type { Extent, Geometry } from "../types.ts";

/**
 * Bounding box of any geometry, or null when it has no coordinates.
 *
 * @example
 * ```ts
 * import { geometryExtent } from "./_geometry_extent.ts";
 * geometryExtent({ type: "Point", x: 1, y: 2 }); // { xmin: 1, ymin: 2, xmax: 1, ymax: 2 }
 * ```
 */
export function geometryExtent(g: Geometry): Extent | null {
  if (g.type === "Envelope") return { xmin: g.xmin, ymin: g.ymin, xmax: g.xmax, ymax: g.ymax };
  if (g.type === "Point") return { xmin: g.x, ymin: g.y, xmax: g.x, ymax: g.y };
  const pts = g.type === "Multipoint"
    ? g.points
    : (g.type === "Polyline" ? g.paths : g.rings).flat();
  if (pts.length === 0) return null;
  let xmin = Infinity, ymin = Infinity, xmax = -Infinity, ymax = -Infinity;
  for (const [x, y] of pts) {
    if (x < xmin) xmin = x;
    if (x > xmax) xmax = x;
    if (y < ymin) ymin = y;
    if (y > ymax) ymax = y;
  }
  return { xmin, ymin, xmax, ymax };
}
