/**
 * Scale, distance and pixel ↔ map conversion: ComputeScale,
 * ComputeDistance, ToMapPoints and FromMapPoints (§2, §5.3, §5.5).
 *
 * @module
 */
import type { Position } from "../types.ts";
import type { UntypedOperation } from "./types.ts";
import { toMap, toScreen } from "../geo/display.ts";
import { computeDistance } from "../geo/geodesic.ts";
import { esriSpatialReference } from "../geo/projection.ts";
import { isEsriUnits } from "../geo/units.ts";
import { InvalidRequestError } from "../errors.ts";
import { geometryFromSoap, geometryToSoap, pointFromSoap } from "./_geometry_xml.ts";
import { findMap, mapStateFrom, toWkid } from "./_query_map_state.ts";

/** ComputeScale: the scale ExportMapImage would draw this MapDescription + ImageDisplay at. */
export const computeScale: UntypedOperation = (req, ctx) => {
  const state = mapStateFrom(ctx.service, req.MapDescription, req.MapImageDisplay, {
    requireDisplay: true,
  });
  return { Result: state.display!.scale };
};

/**
 * ComputeDistance: geodesic on WGS 84 for geographic maps, planar in map
 * units for projected ones, in the requested esriUnits. Points carrying
 * their own SpatialReference are projected to the map's first.
 */
export const computeDistanceOp: UntypedOperation = (req, ctx) => {
  const frame = findMap(ctx.service, req.MapName);
  const units = req.Units === undefined || req.Units === null || req.Units === ""
    ? "esriUnknownUnits"
    : req.Units;
  if (!isEsriUnits(units)) {
    throw new InvalidRequestError(
      `Units must be an esriUnits value such as esriMeters; got "${String(units)}".`,
    );
  }
  const ends = (["FromPoint", "ToPoint"] as const).map((name): Position => {
    const p = pointFromSoap(req[name], name);
    const g = toWkid({ type: "Point", x: p.x, y: p.y }, p.wkid, frame.wkid);
    return g.type === "Point" ? [g.x, g.y] : [p.x, p.y];
  });
  const d = computeDistance(ends[0], ends[1], { wkid: frame.wkid, units });
  return { Result: d };
};

function intArray(v: unknown, what: string): number[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new InvalidRequestError(`${what} must be an array of Int.`);
  return v.map((n, i) => {
    if (typeof n !== "number" || !Number.isFinite(n)) {
      throw new InvalidRequestError(`${what}[${i}] must be an integer pixel coordinate.`);
    }
    return n;
  });
}

/** ToMapPoints: pixel coordinates (origin upper-left) to map points in the MapDescription's SR. */
export const toMapPoints: UntypedOperation = (req, ctx) => {
  const state = mapStateFrom(ctx.service, req.MapDescription, req.MapImageDisplay, {
    requireDisplay: true,
  });
  const xs = intArray(req.ScreenXValues, "ScreenXValues");
  const ys = intArray(req.ScreenYValues, "ScreenYValues");
  if (xs.length !== ys.length) {
    throw new InvalidRequestError(
      `ScreenXValues and ScreenYValues must have the same length (got ${xs.length} and ${ys.length}).`,
    );
  }
  const points = xs.map((x, i) => toMap(state.display!, [x, ys[i]]));
  return {
    Result: geometryToSoap({ type: "Multipoint", points }, esriSpatialReference(state.wkid)),
  };
};

/** FromMapPoints: map points to rounded pixel coordinates of the aspect-adjusted image. */
export const fromMapPoints: UntypedOperation = (req, ctx) => {
  const state = mapStateFrom(ctx.service, req.MapDescription, req.MapImageDisplay, {
    requireDisplay: true,
  });
  if (req.MapPoints === undefined || req.MapPoints === null) {
    return { ScreenXValues: [], ScreenYValues: [] };
  }
  const decoded = geometryFromSoap(req.MapPoints, "MapPoints");
  const g = toWkid(decoded.geometry, decoded.wkid, state.wkid);
  const points: Position[] = g.type === "Multipoint"
    ? g.points
    : g.type === "Point"
    ? [[g.x, g.y]]
    : [];
  if (g.type !== "Multipoint" && g.type !== "Point") {
    throw new InvalidRequestError("MapPoints must be a MultipointN.");
  }
  const screen = points.map((p, i) => {
    const px = toScreen(state.display!, p).map(Math.round);
    // Pixels travel as xs:int.
    if (!px.every((v) => Number.isFinite(v) && Math.abs(v) <= 2147483647)) {
      throw new InvalidRequestError(
        `MapPoints point ${i} lies too far outside the image to be expressed in pixels.`,
      );
    }
    return px;
  });
  return {
    ScreenXValues: screen.map((s) => s[0]),
    ScreenYValues: screen.map((s) => s[1]),
  };
};
