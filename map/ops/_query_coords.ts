/**
 * Scale, distance and pixel ↔ map conversion: ComputeScale,
 * ComputeDistance, ToMapPoints and FromMapPoints (§2, §5.3, §5.5).
 *
 * @module
 */
import type { Position } from "../types.ts";
import type {
  ComputeDistanceRequest,
  FromMapPointsRequest,
  MapPoints,
  MapViewRequest,
  Operation,
  ScreenPoints,
  ToMapPointsRequest,
} from "./types.ts";
import { toMap, toScreen } from "../geo/display.ts";
import { computeDistance } from "../geo/geodesic.ts";
import { InvalidRequestError } from "../errors.ts";
import { findMap, mapStateFrom, toWkid } from "./_query_map_state.ts";

/** The coordinate operations by their ArcGIS names, each with its request and result type. */
export interface CoordinateOperations {
  ComputeScale: Operation<MapViewRequest, number>;
  ComputeDistance: Operation<ComputeDistanceRequest, number>;
  ToMapPoints: Operation<ToMapPointsRequest, MapPoints>;
  FromMapPoints: Operation<FromMapPointsRequest, ScreenPoints>;
}

/** ComputeScale: the scale ExportMapImage would draw this MapDescription + ImageDisplay at. */
const computeScale: CoordinateOperations["ComputeScale"] = (req, ctx) => {
  const state = mapStateFrom(ctx.service, req.MapDescription, req.MapImageDisplay, {
    requireDisplay: true,
  });
  return state.display!.scale;
};

/**
 * ComputeDistance: geodesic on WGS 84 for geographic maps, planar in map
 * units for projected ones, in the requested esriUnits. Points carrying
 * their own SpatialReference are projected to the map's first.
 */
const computeDistanceOp: CoordinateOperations["ComputeDistance"] = (req, ctx) => {
  const frame = findMap(ctx.service, req.MapName);
  const ends = [req.FromPoint, req.ToPoint].map((p): Position => {
    const g = toWkid(p.geometry, p.wkid, frame.wkid);
    return g.type === "Point" ? [g.x, g.y] : [p.geometry.x, p.geometry.y];
  });
  return computeDistance(ends[0], ends[1], { wkid: frame.wkid, units: req.Units });
};

/** ToMapPoints: pixel coordinates (origin upper-left) to map points in the MapDescription's SR. */
const toMapPoints: CoordinateOperations["ToMapPoints"] = (req, ctx) => {
  const state = mapStateFrom(ctx.service, req.MapDescription, req.MapImageDisplay, {
    requireDisplay: true,
  });
  const xs = req.ScreenXValues, ys = req.ScreenYValues;
  if (xs.length !== ys.length) {
    throw new InvalidRequestError(
      `ScreenXValues and ScreenYValues must have the same length (got ${xs.length} and ${ys.length}).`,
    );
  }
  const points = xs.map((x, i) => toMap(state.display!, [x, ys[i]]));
  return { geometry: { type: "Multipoint", points }, wkid: state.wkid };
};

/** FromMapPoints: map points to rounded pixel coordinates of the aspect-adjusted image. */
const fromMapPoints: CoordinateOperations["FromMapPoints"] = (req, ctx) => {
  const state = mapStateFrom(ctx.service, req.MapDescription, req.MapImageDisplay, {
    requireDisplay: true,
  });
  if (req.MapPoints === undefined) return [];
  const g = toWkid(req.MapPoints.geometry, req.MapPoints.wkid, state.wkid);
  const points: Position[] = g.type === "Multipoint"
    ? g.points
    : g.type === "Point"
    ? [[g.x, g.y]]
    : [];
  return points.map((p, i): Position => {
    const px = toScreen(state.display!, p).map(Math.round) as Position;
    // Pixels travel as xs:int.
    if (!px.every((v) => Number.isFinite(v) && Math.abs(v) <= 2147483647)) {
      throw new InvalidRequestError(
        `MapPoints point ${i} lies too far outside the image to be expressed in pixels.`,
      );
    }
    return px;
  });
};

/**
 * The coordinate operations: scale, distance and pixel/map conversion.
 *
 * @example
 * ```ts ignore
 * const scale = await COORDINATE_OPERATIONS.ComputeScale({ MapDescription, MapImageDisplay }, ctx);
 * ```
 */
export const COORDINATE_OPERATIONS: CoordinateOperations = {
  ComputeScale: computeScale,
  ComputeDistance: computeDistanceOp,
  ToMapPoints: toMapPoints,
  FromMapPoints: fromMapPoints,
};
