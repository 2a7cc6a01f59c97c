/**
 * World copies across the antimeridian ("wrap around"), one rule for
 * drawing and for queries. In a spatial reference that wraps (geographic:
 * 360° of longitude; Web Mercator: its full x range) a view may reach past
 * ±180°, and the features of the world are then drawn again, shifted by a
 * whole number of worlds. Whatever is drawn there must also be found there
 * by Identify and spatial queries, so both ask {@link worldShifts} which
 * copies meet a window.
 *
 * @module
 */
import type { Extent, Geometry, Position } from "../types.ts";
import { isGeographic, MERCATOR_HALF_WORLD, normalizeWkid, WEB_MERCATOR } from "./projection.ts";
import { bboxOf } from "./_shape.ts";

/** World copies farther than this many worlds away are never drawn nor searched. */
export const MAX_WORLD_COPIES = 3;

/**
 * Width of one world in x units of `wkid`, or 0 when the spatial reference
 * does not wrap (projected systems other than Web Mercator).
 *
 * @example
 * ```ts
 * worldPeriod(4326); // 360
 * ```
 */
export function worldPeriod(wkid: number): number {
  const id = normalizeWkid(wkid);
  if (isGeographic(id)) return 360;
  return id === WEB_MERCATOR ? 2 * MERCATOR_HALF_WORLD : 0;
}

/**
 * The shifts (whole multiples of `period`, at most {@link MAX_WORLD_COPIES}
 * worlds either way) at which x range [a0, a1] moved by the shift meets x
 * range [b0, b1]; just [0] when `period` is 0.
 *
 * @example
 * ```ts
 * worldShifts(-180, -170, 160, 200, 360); // [360]: drawn again at 180..190
 * ```
 */
export function worldShifts(
  a0: number,
  a1: number,
  b0: number,
  b1: number,
  period: number,
): number[] {
  if (period <= 0) return [0];
  const out: number[] = [];
  const kMax = lastWorldCopy(a0, b1, period);
  for (let k = firstWorldCopy(a1, b0, period); k <= kMax; k++) {
    out.push(k === 0 ? 0 : k * period); // never -0
  }
  return out;
}

/**
 * The first k of {@link worldShifts} (shift k * `period`, `period` > 0):
 * without building the list, for hot loops over single points.
 *
 * @example
 * ```ts
 * firstWorldCopy(-170, 160, 360); // 1
 * ```
 */
export function firstWorldCopy(a1: number, b0: number, period: number): number {
  return Math.max(Math.ceil((b0 - a1) / period), -MAX_WORLD_COPIES);
}

/**
 * The last k of {@link worldShifts} (shift k * `period`, `period` > 0).
 *
 * @example
 * ```ts
 * lastWorldCopy(-180, 200, 360); // 1
 * ```
 */
export function lastWorldCopy(a0: number, b1: number, period: number): number {
  return Math.min(Math.floor((b1 - a0) / period), MAX_WORLD_COPIES);
}

/**
 * Where a window in `wkid` coordinates (an Identify box, a query envelope)
 * finds the world's features: the shifts to subtract from the window so it
 * meets the one stored world, [0] alone for a window inside it.
 *
 * @example
 * ```ts
 * windowShifts({ xmin: 175, ymin: 0, xmax: 185, ymax: 1 }, 4326); // [0, 360]
 * ```
 */
export function windowShifts(window: Extent, wkid: number): number[] {
  const period = worldPeriod(wkid);
  const half = period / 2;
  if (period <= 0 || (window.xmin >= -half && window.xmax <= half)) return [0];
  return worldShifts(-half, half, window.xmin, window.xmax, period);
}

function shiftPositions(pts: Position[], dx: number): Position[] {
  return pts.map((p) => {
    const q = p.slice() as Position;
    q[0] += dx;
    return q;
  });
}

/**
 * A copy of a geometry moved by `dx` along x.
 *
 * @example
 * ```ts
 * shiftGeometry({ type: "Point", x: 185, y: -15 }, -360); // x -175
 * ```
 */
export function shiftGeometry(g: Geometry, dx: number): Geometry {
  if (dx === 0) return g;
  switch (g.type) {
    case "Point":
      return { ...g, x: g.x + dx };
    case "Multipoint":
      return { ...g, points: shiftPositions(g.points, dx) };
    case "Polyline":
      return { ...g, paths: g.paths.map((p) => shiftPositions(p, dx)) };
    case "Polygon":
      return { ...g, rings: g.rings.map((r) => shiftPositions(r, dx)) };
    case "Envelope":
      return { ...g, xmin: g.xmin + dx, xmax: g.xmax + dx };
  }
}

/**
 * An extent moved by `dx` along x.
 *
 * @example
 * ```ts
 * shiftExtent({ xmin: 175, ymin: 0, xmax: 185, ymax: 1 }, -360); // xmin -185, xmax -175
 * ```
 */
export function shiftExtent(e: Extent, dx: number): Extent {
  return dx === 0 ? e : { ...e, xmin: e.xmin + dx, xmax: e.xmax + dx };
}

/**
 * A geometry moved by `dx` along x, then by whole worlds (`period`) so the
 * middle of its extent lies in the central world: how a result is written
 * in a frame whose central meridian is moved (a line across that frame's
 * edge stays whole, as drawn).
 *
 * @example
 * ```ts
 * moveIntoWorld({ type: "Point", x: -170, y: 0 }, -100, 360); // x 90 (-270 is 90 a world on)
 * ```
 */
export function moveIntoWorld(g: Geometry, dx: number, period: number): Geometry {
  const moved = shiftGeometry(g, dx);
  const box = bboxOf(moved);
  if (box === null || period <= 0) return moved;
  const k = Math.round((box.xmin + box.xmax) / 2 / period);
  return k === 0 ? moved : shiftGeometry(moved, -k * period);
}
