/**
 * The bounding box of a {@link Geometry}, as searches and results use it.
 *
 * @module
 */
import type { Extent, Geometry } from "../types.ts";
import { InvalidRequestError, say } from "../errors.ts";

/**
 * Most vertices a search or filter geometry (identify's shape, a query's
 * spatial filter) may have: each candidate feature is tested against it on
 * the server's one thread, so its size bounds how long one request holds it.
 */
export const MAX_SEARCH_VERTICES = 10_000;

/**
 * Rejects a search or filter geometry of more than
 * {@linkcode MAX_SEARCH_VERTICES} vertices.
 *
 * @example
 * ```ts
 * import { checkSearchVertices } from "./_geometry_extent.ts";
 * checkSearchVertices({ type: "Point", x: 1, y: 2 }, "identify geometry"); // fine
 * ```
 * @throws InvalidRequestError naming the count and the limit.
 */
export function checkSearchVertices(g: Geometry, what: string): void {
  const n = g.type === "Multipoint"
    ? g.points.length
    : g.type === "Polyline"
    ? g.paths.reduce((sum, p) => sum + p.length, 0)
    : g.type === "Polygon"
    ? g.rings.reduce((sum, r) => sum + r.length, 0)
    : 1;
  if (n > MAX_SEARCH_VERTICES) {
    throw new InvalidRequestError(
      say`The ${what} has ${n} vertices; at most ${MAX_SEARCH_VERTICES} are accepted. Simplify it or split the request.`,
    );
  }
}

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
