/**
 * `distance` and `units` of a layer query (esri-leaflet's
 * `query().nearby(latlng, radius)` sends a point, `distance` in metres and
 * `units=esriSRUnit_Meter`): the query point becomes the geodesic circle
 * of that radius around it, so "intersects" finds what lies within the
 * distance. A distance around another geometry type is refused with a
 * clear 400 rather than ignored.
 *
 * @module
 */
import geographiclib from "geographiclib-geodesic";
import type { SpatialGeometry } from "../ops/mod.ts";
import { isGeographic, projectPoint, unitsOfWkid, WGS84 } from "../geo/projection.ts";
import { convertLength, METERS_PER_DEGREE } from "../geo/units.ts";
import type { Position } from "../types.ts";
import { invalid, type RestParams } from "./params.ts";

// The package is CommonJS: its named exports live on the default export at run time.
const { Geodesic } = geographiclib;

/** Metres per unit of the `esriSRUnit_*` names (and their WKIDs) a query's `units` takes. */
const SR_UNITS: Record<string, number> = {
  esrisrunit_meter: 1,
  "9001": 1,
  esrisrunit_kilometer: 1000,
  "9036": 1000,
  esrisrunit_foot: 0.3048,
  "9002": 0.3048,
  esrisrunit_surveyfoot: 1200 / 3937,
  "9003": 1200 / 3937,
  esrisrunit_statutemile: 1609.344,
  "9093": 1609.344,
  esrisrunit_nauticalmile: 1852,
  "9030": 1852,
  esrisrunit_usnauticalmile: 1853.248,
  "109012": 1853.248,
};

/** Vertices of the circle (every 5°). */
const STEPS = 72;

/**
 * The query geometry widened by `distance` (in `units`, else the units of
 * its spatial reference); `geometry` itself when no positive distance is given.
 *
 * @example
 * ```ts ignore
 * const g = withinDistance(params, { geometry: { type: "Point", x: 37.6, y: 55.75 }, wkid: 4326 }, 4326);
 * ```
 */
export function withinDistance(
  params: RestParams,
  g: SpatialGeometry,
  mapWkid: number,
): SpatialGeometry {
  const distance = params.number("distance", { min: 0 });
  if (!distance) return g;
  const wkid = g.wkid ?? mapWkid;
  const unitsText = params.string("units")?.trim();
  let meters: number;
  if (unitsText) {
    const perUnit = SR_UNITS[unitsText.toLowerCase()];
    if (perUnit === undefined) {
      throw invalid("units", `one of ${Object.keys(SR_UNITS).join(", ")}`, unitsText);
    }
    meters = distance * perUnit;
  } else {
    meters = isGeographic(wkid)
      ? distance * METERS_PER_DEGREE
      : convertLength(distance, unitsOfWkid(wkid), "esriMeters");
  }
  if (g.geometry.type !== "Point") {
    throw invalid(
      "distance",
      "a distance around a point geometry (esriGeometryPoint)",
      `${distance} around a ${g.geometry.type}`,
    );
  }
  const [lon, lat] = projectPoint([g.geometry.x, g.geometry.y], wkid, WGS84);
  const ring: Position[] = [];
  for (let i = 0; i <= STEPS; i++) {
    const r = Geodesic.WGS84.Direct(lat, lon, (i % STEPS) * 360 / STEPS, meters);
    // Keep the ring continuous across 180°: longitudes near the centre's.
    const x = r.lon2 ?? lon;
    ring.push([x - 360 * Math.round((x - lon) / 360), r.lat2 ?? lat]);
  }
  return { geometry: { type: "Polygon", rings: [ring] }, wkid: WGS84 };
}
