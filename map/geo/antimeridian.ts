/**
 * Cutting polygons at the antimeridian. Spherical data (world-atlas,
 * d3) draws Chukotka or Fiji as rings whose edges jump from +180° to
 * −180°; read as flat lon/lat polygons those jumps become edges across
 * the whole map and the ring swallows a band of the world (Finland would
 * be "in" Russia). The ring is unwrapped into continuous longitudes and
 * clipped into the [−180°, 180°] windows it spans, each piece shifted
 * back into range.
 *
 * @module
 */
import type { Position } from "../types.ts";

/** Counts the jumps (|Δlon| > 180°) of a ring. */
function jumps(ring: Position[]): { count: number } {
  let count = 0;
  for (let i = 1; i < ring.length; i++) {
    if (Math.abs(ring[i][0] - ring[i - 1][0]) > 180) count++;
  }
  return { count };
}

function unwrap(ring: Position[]): Position[] {
  const out: Position[] = [[ring[0][0], ring[0][1]]];
  let offset = 0;
  for (let i = 1; i < ring.length; i++) {
    const dx = ring[i][0] - ring[i - 1][0];
    if (dx > 180) offset -= 360;
    else if (dx < -180) offset += 360;
    out.push([ring[i][0] + offset, ring[i][1]]);
  }
  return out;
}

/** Sutherland–Hodgman clip of a closed ring to x >= limit (keepAbove) or x <= limit. */
function clipX(ring: Position[], limit: number, keepAbove: boolean): Position[] {
  const out: Position[] = [];
  const inside = (p: Position) => (keepAbove ? p[0] >= limit : p[0] <= limit);
  for (let i = 0; i + 1 < ring.length; i++) {
    const p = ring[i], q = ring[i + 1];
    if (inside(p)) out.push(p);
    if (inside(p) !== inside(q)) {
      const t = (limit - p[0]) / (q[0] - p[0]);
      out.push([limit, p[1] + t * (q[1] - p[1])]);
    }
  }
  if (out.length > 0) out.push(out[0]);
  return out;
}

function area(ring: Position[]): number {
  let sum = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    sum += (ring[j][0] - ring[i][0]) * (ring[j][1] + ring[i][1]);
  }
  return sum / 2;
}

/** Pieces of one ring inside each [−180, 180] window it spans, shifted into range. */
function cutRing(ring: Position[]): Position[][] {
  const closed = ring[0][0] === ring[ring.length - 1][0] && ring[0][1] === ring[ring.length - 1][1]
    ? ring
    : [...ring, ring[0]];
  const u = unwrap(closed);
  const net = u[u.length - 1][0] - u[0][0];
  if (net !== 0) {
    // The ring circles a pole: close it along the pole itself, then cut as usual.
    const pole = u.reduce((sum, p) => sum + p[1], 0) < 0 ? -90 : 90;
    const [x0, y0] = u[0];
    u.push([x0 + net, pole], [x0, pole], [x0, y0]);
  }
  const xs = u.map((p) => p[0]);
  const k0 = Math.floor((Math.min(...xs) + 180) / 360);
  const k1 = Math.ceil((Math.max(...xs) + 180) / 360) - 1;
  const pieces: Position[][] = [];
  for (let k = k0; k <= k1; k++) {
    const lo = -180 + 360 * k;
    const piece = clipX(clipX(u, lo, true), lo + 360, false);
    if (piece.length >= 4 && area(piece) !== 0) {
      pieces.push(piece.map(([x, y]) => [x - 360 * k, y]));
    }
  }
  return pieces;
}

/**
 * Splits a polygon given as [outer, ...holes] into polygons that stay
 * within [−180°, 180°]. Polygons without jumps come back unchanged; a
 * ring that circles a pole (Antarctica) is closed along the pole.
 *
 * @example
 * ```ts
 * cutPolygonAtAntimeridian([[[170, 0], [-170, 0], [-170, 10], [170, 10], [170, 0]]]);
 * // two polygons: 170..180 and -180..-170
 * ```
 */
export function cutPolygonAtAntimeridian(polygon: Position[][]): Position[][][] {
  if (polygon.length === 0 || polygon[0].length < 4) return [polygon];
  if (jumps(polygon[0]).count === 0) return [polygon];
  const outers = cutRing(polygon[0]).map((r): Position[][] => [r]);
  if (outers.length === 0) return [];
  for (const hole of polygon.slice(1)) {
    const parts = jumps(hole).count > 0 ? cutRing(hole) : [hole];
    for (const part of parts) {
      const [x, y] = part[0];
      // Attach each hole piece to the outer piece whose box holds it.
      const owner = outers.find(([outer]) => {
        const xs = outer.map((p) => p[0]), ys = outer.map((p) => p[1]);
        return x >= Math.min(...xs) && x <= Math.max(...xs) && y >= Math.min(...ys) &&
          y <= Math.max(...ys);
      }) ?? outers[0];
      owner.push(part);
    }
  }
  return outers;
}
