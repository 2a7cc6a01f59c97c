/**
 * Distances: geodesic on the WGS 84 ellipsoid (GeographicLib, Karney's
 * algorithm, accurate to nanometres) and planar in map units, converted to
 * any `esriUnits`. ComputeDistance is built on {@linkcode computeDistance}.
 *
 * @module
 */
import { InvalidRequestError } from "../errors.ts";
import geographiclib from "geographiclib-geodesic";
import type { Position } from "../types.ts";
import { isGeographic, normalizeWkid, projectPoint, unitsOfWkid, WGS84 } from "./projection.ts";
import { convertLength, type EsriUnits } from "./units.ts";

// The package is CommonJS: its named exports live on the default export at run time.
const { Geodesic } = geographiclib;

/** The solution of the inverse geodesic problem between two points. */
export interface GeodesicSolution {
  /** Distance along the ellipsoid, metres. */
  distanceMeters: number;
  /** Arc length on the auxiliary sphere, degrees (a distance "in degrees"). */
  arcDegrees: number;
  /** Azimuth at the first point, degrees clockwise from north. */
  azimuth1: number;
  /** Azimuth at the second point, degrees clockwise from north. */
  azimuth2: number;
}

function assertLonLat(p: Position, which: string): void {
  if (!Number.isFinite(p[0]) || !Number.isFinite(p[1])) {
    throw new InvalidRequestError(
      `The ${which} point has a coordinate that is not a finite number.`,
    );
  }
  if (Math.abs(p[1]) > 90) {
    throw new InvalidRequestError(
      `The ${which} point's latitude ${
        p[1]
      } is outside -90..90; geographic points are (longitude, latitude).`,
    );
  }
}

/**
 * Solves the inverse geodesic problem on WGS 84 between two
 * (longitude, latitude) points in degrees.
 *
 * @example
 * ```ts
 * geodesicInverse([-73.8, 40.6], [-0.5, 51.6]).distanceMeters; // 5551759.400…
 * ```
 */
export function geodesicInverse(from: Position, to: Position): GeodesicSolution {
  assertLonLat(from, "first");
  assertLonLat(to, "second");
  const r = Geodesic.WGS84.Inverse(from[1], from[0], to[1], to[0]);
  return {
    distanceMeters: r.s12 ?? 0,
    arcDegrees: r.a12 ?? 0,
    azimuth1: r.azi1 ?? 0,
    azimuth2: r.azi2 ?? 0,
  };
}

/**
 * Geodesic distance in metres between two (longitude, latitude) points.
 *
 * @example
 * ```ts
 * geodesicDistance([37.6173, 55.7558], [30.3351, 59.9343]); // ≈ 634 km
 * ```
 */
export function geodesicDistance(from: Position, to: Position): number {
  return geodesicInverse(from, to).distanceMeters;
}

/**
 * Geodesic length in metres of a path of (longitude, latitude) points.
 *
 * @example
 * ```ts
 * geodesicLength([[0, 0], [1, 0], [1, 1]]);
 * ```
 */
export function geodesicLength(path: Position[]): number {
  let total = 0;
  for (let i = 1; i < path.length; i++) total += geodesicDistance(path[i - 1], path[i]);
  return total;
}

/**
 * Straight-line distance in map units.
 *
 * @example
 * ```ts
 * planarDistance([0, 0], [3, 4]); // 5
 * ```
 */
export function planarDistance(from: Position, to: Position): number {
  return Math.hypot(to[0] - from[0], to[1] - from[1]);
}

/** How {@linkcode computeDistance} measures. */
export interface DistanceOptions {
  /** Spatial reference of both points. */
  wkid: number;
  /** Unit of the result. */
  units: EsriUnits;
  /**
   * `"auto"` (default): geodesic for geographic spatial references, planar
   * in map units for projected ones. `"geodesic"` always measures on the
   * ellipsoid (projected points are first converted to WGS 84).
   */
  method?: "auto" | "geodesic" | "planar";
}

/**
 * Distance between two points of one spatial reference in the requested
 * unit, as ComputeDistance reports it. Geodesic results in
 * `esriDecimalDegrees` are the arc length in degrees; planar results keep
 * the map unit when `units` is `esriUnknownUnits`. Impossible requests
 * (a planar degree distance in metres, an unknown spatial reference)
 * throw an InvalidRequestError that says why.
 *
 * @example
 * ```ts
 * computeDistance([37.6173, 55.7558], [30.3351, 59.9343], { wkid: 4326, units: "esriKilometers" });
 * // ≈ 634.6
 * ```
 */
export function computeDistance(from: Position, to: Position, opts: DistanceOptions): number {
  const wkid = normalizeWkid(opts.wkid);
  const method = opts.method ?? "auto";
  const geodesic = method === "geodesic" || (method === "auto" && isGeographic(wkid));
  if (geodesic) {
    const a = isGeographic(wkid) ? from : projectPoint(from, wkid, WGS84);
    const b = isGeographic(wkid) ? to : projectPoint(to, wkid, WGS84);
    const r = geodesicInverse(a, b);
    if (opts.units === "esriDecimalDegrees") return r.arcDegrees;
    if (opts.units === "esriUnknownUnits") return r.distanceMeters;
    return convertLength(r.distanceMeters, "esriMeters", opts.units);
  }
  for (const [p, which] of [[from, "first"], [to, "second"]] as const) {
    if (!Number.isFinite(p[0]) || !Number.isFinite(p[1])) {
      throw new InvalidRequestError(
        `The ${which} point has a coordinate that is not a finite number.`,
      );
    }
  }
  const d = planarDistance(from, to);
  const mapUnits = unitsOfWkid(wkid);
  if (opts.units === "esriUnknownUnits" || opts.units === mapUnits) return d;
  if (mapUnits === "esriUnknownUnits") {
    throw new InvalidRequestError(
      `Cannot express a distance in ${opts.units}: the units of spatial reference ${opts.wkid} are unknown.`,
    );
  }
  return convertLength(d, mapUnits, opts.units);
}
