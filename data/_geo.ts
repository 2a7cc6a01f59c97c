/**
 * Great-circle distance and the bounding boxes that prefilter it.
 *
 * @module
 */

/** Mean Earth radius (IUGG), kilometres. */
export const EARTH_RADIUS_KM = 6371.0088;

const RAD = Math.PI / 180;

/**
 * Haversine distance in kilometres between two points given in degrees.
 *
 * @example
 * ```ts
 * haversineKm(55.7558, 37.6173, 59.9343, 30.3351); // ≈ 633 km, Moscow to St Petersburg
 * ```
 */
export function haversineKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dLat = (lat2 - lat1) * RAD;
  const dLon = (lon2 - lon1) * RAD;
  const a = Math.sin(dLat / 2) ** 2 +
    Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** An axis-aligned box in degrees: [minLon, maxLon, minLat, maxLat]. */
export type Box = [number, number, number, number];

/**
 * Boxes (one, or two when the circle crosses the antimeridian) that contain
 * every point within `radiusKm` of (lat, lon). Slightly generous on purpose:
 * the exact haversine test follows.
 */
export function boundingBoxes(lat: number, lonIn: number, radiusKm: number): Box[] {
  const lon = ((lonIn + 180) % 360 + 360) % 360 - 180;
  const dLat = (radiusKm / EARTH_RADIUS_KM) / RAD * 1.0001;
  const minLat = Math.max(-90, lat - dLat);
  const maxLat = Math.min(90, lat + dLat);
  // Near a pole, or for huge radii, every longitude may be in reach.
  const maxAbsLat = Math.max(Math.abs(minLat), Math.abs(maxLat));
  if (maxAbsLat >= 89.9 || radiusKm >= Math.PI * EARTH_RADIUS_KM / 2) {
    return [[-180, 180, minLat, maxLat]];
  }
  const sinRatio = Math.sin(radiusKm / EARTH_RADIUS_KM) / Math.cos(lat * RAD);
  const dLon = sinRatio >= 1 ? 180 : Math.asin(sinRatio) / RAD * 1.0001 + 1e-6;
  if (dLon >= 180) return [[-180, 180, minLat, maxLat]];
  const west = lon - dLon;
  const east = lon + dLon;
  if (west < -180) return [[west + 360, 180, minLat, maxLat], [-180, east, minLat, maxLat]];
  if (east > 180) return [[west, 180, minLat, maxLat], [-180, east - 360, minLat, maxLat]];
  return [[west, east, minLat, maxLat]];
}
