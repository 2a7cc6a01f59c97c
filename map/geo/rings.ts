/**
 * Ring orientation. ArcGIS polygons list outer rings clockwise and holes
 * counter-clockwise; GeoJSON (RFC 7946) and most WKB writers do the
 * opposite or do not care, so sources normalise with these helpers.
 *
 * @module
 */
import type { Position } from "../types.ts";

/**
 * Signed area of a ring (shoelace): positive when counter-clockwise in a
 * y-up coordinate system. The ring may be open or closed.
 *
 * @example
 * ```ts
 * ringSignedArea([[0, 0], [1, 0], [1, 1], [0, 1]]); // 1
 * ```
 */
export function ringSignedArea(ring: Position[]): number {
  let sum = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    sum += (ring[j][0] - ring[i][0]) * (ring[j][1] + ring[i][1]);
  }
  return sum / 2;
}

/**
 * Whether a ring runs clockwise (ArcGIS's outer-ring direction).
 *
 * @example
 * ```ts
 * isClockwise([[0, 0], [0, 1], [1, 1], [1, 0], [0, 0]]); // true
 * ```
 */
export function isClockwise(ring: Position[]): boolean {
  return ringSignedArea(ring) < 0;
}

function closed(ring: Position[]): Position[] {
  const first = ring[0];
  const last = ring[ring.length - 1];
  return first[0] === last[0] && first[1] === last[1] ? ring : [...ring, first];
}

/**
 * Converts polygons given as [outer, ...holes] lists (GeoJSON, WKB) into
 * one ArcGIS ring list: rings closed, outer rings clockwise, holes
 * counter-clockwise. Rings with fewer than three distinct points are dropped.
 *
 * @example
 * ```ts
 * toArcgisRings([[[[0, 0], [1, 0], [1, 1], [0, 0]]]]); // [[[0, 0], [1, 1], [1, 0], [0, 0]]]
 * ```
 */
export function toArcgisRings(polygons: Position[][][]): Position[][] {
  const out: Position[][] = [];
  for (const polygon of polygons) {
    polygon.forEach((ring, i) => {
      if (ring.length < 3) return;
      const r = closed(ring);
      if (r.length < 4) return;
      const wantClockwise = i === 0;
      out.push(isClockwise(r) === wantClockwise ? r : [...r].reverse());
    });
  }
  return out;
}

/**
 * The ring closed: its first point repeated at the end when it is not
 * there already (an empty ring stays empty).
 *
 * @example
 * ```ts
 * closeRing([[0, 0], [1, 0], [1, 1]]); // [[0, 0], [1, 0], [1, 1], [0, 0]]
 * ```
 */
export function closeRing(ring: Position[]): Position[] {
  if (ring.length === 0) return ring;
  const a = ring[0], b = ring[ring.length - 1];
  return a[0] === b[0] && a[1] === b[1] ? ring : [...ring, [a[0], a[1]]];
}
