/**
 * Writing the shared {@link Geometry} model in the plain-object form of
 * ArcGIS geometry values (`{ $type: "PointN", X, Y }`, `{ $type: "PolygonN",
 * RingArray: [...] }`): `geometryToSoap` writes the `*N` form ArcGIS emits
 * (HasID/HasZ/HasM false, an Extent, optional SpatialReference). Reading
 * request geometry is the protocol faces' work (map/soap/_read_geometry.ts).
 *
 * @module
 */
import type { Extent, Geometry, Position } from "../types.ts";

/** A result value in the plain-object convention (members by ArcGIS name, `$type` = xsi:type). */
export type SoapObject = Record<string, unknown>;

/** Bounding box of any geometry, or null when it has no coordinates. */
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

/** `EnvelopeN` object for an extent. */
export function envelopeToSoap(e: Extent, spatialReference?: SoapObject): SoapObject {
  const out: SoapObject = {
    $type: "EnvelopeN",
    XMin: e.xmin,
    YMin: e.ymin,
    XMax: e.xmax,
    YMax: e.ymax,
  };
  if (spatialReference) out.SpatialReference = spatialReference;
  return out;
}

function pointsToSoap(points: Position[]): SoapObject[] {
  return points.map(([x, y]) => ({ $type: "PointN", X: x, Y: y }));
}

/**
 * Writes a geometry in the `*N` form ArcGIS emits.
 *
 * @param g the geometry
 * @param spatialReference a SOAP SpatialReference object to attach, if any
 * @example
 * geometryToSoap({ type: "Point", x: 1, y: 2 }); // { $type: "PointN", X: 1, Y: 2 }
 */
export function geometryToSoap(g: Geometry, spatialReference?: SoapObject): SoapObject {
  const extent = geometryExtent(g);
  const head = (type: string): SoapObject => ({
    $type: type,
    HasID: false,
    HasZ: false,
    HasM: false,
    ...(extent ? { Extent: envelopeToSoap(extent) } : {}),
  });
  let out: SoapObject;
  switch (g.type) {
    case "Point":
      out = { $type: "PointN", X: g.x, Y: g.y };
      break;
    case "Envelope":
      out = envelopeToSoap(g);
      break;
    case "Multipoint":
      out = { ...head("MultipointN"), PointArray: pointsToSoap(g.points) };
      break;
    case "Polyline":
      out = {
        ...head("PolylineN"),
        PathArray: g.paths.map((p) => ({ $type: "Path", PointArray: pointsToSoap(p) })),
      };
      break;
    case "Polygon":
      out = {
        ...head("PolygonN"),
        RingArray: g.rings.map((r) => ({ $type: "Ring", PointArray: pointsToSoap(r) })),
      };
      break;
  }
  if (spatialReference) out.SpatialReference = spatialReference;
  return out;
}
