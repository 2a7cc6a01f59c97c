/**
 * Writing result geometry in the plain-object form the encoder takes for
 * ArcGIS geometry values (`{ $type: "PointN", X, Y }`, `{ $type:
 * "PolygonN", RingArray: [...] }`): the `*N` forms ArcGIS emits (HasID,
 * HasZ and HasM false, an Extent, an optional SpatialReference). Reading
 * request geometry is `_read_geometry.ts`'s work.
 *
 * @module
 */
import type { Extent, Geometry, Position } from "../types.ts";
import { geometryExtent } from "../ops/mod.ts";
import { esriSpatialReference } from "../geo/projection.ts";
import type { Decoded } from "./_decoded.ts";

/** A value in the encoder's plain-object convention (members by ArcGIS name, `$type` = xsi:type). */
export type SoapObject = Decoded;

/**
 * The SpatialReference object of a WKID (a geographic or projected coordinate system).
 *
 * @example
 * ```ts
 * import { spatialReferenceToSoap } from "./_write_geometry.ts";
 * spatialReferenceToSoap(4326).WKID; // 4326
 * ```
 */
export function spatialReferenceToSoap(wkid: number): SoapObject {
  return esriSpatialReference(wkid);
}

/**
 * `EnvelopeN` object for an extent, with a SpatialReference when `wkid` is given.
 *
 * @example
 * ```ts
 * import { envelopeToSoap } from "./_write_geometry.ts";
 * envelopeToSoap({ xmin: 1, ymin: 2, xmax: 3, ymax: 4 }).XMax; // 3
 * ```
 */
export function envelopeToSoap(e: Extent, wkid?: number): SoapObject {
  const out: SoapObject = {
    $type: "EnvelopeN",
    XMin: e.xmin,
    YMin: e.ymin,
    XMax: e.xmax,
    YMax: e.ymax,
  };
  if (wkid !== undefined) out.SpatialReference = spatialReferenceToSoap(wkid);
  return out;
}

/** A `PointN` object. */
export function pointToSoap([x, y]: Position): SoapObject {
  return { $type: "PointN", X: x, Y: y };
}

/**
 * Writes a geometry in the `*N` form ArcGIS emits, with a SpatialReference when `wkid` is given.
 *
 * @example
 * ```ts
 * import { geometryToSoap } from "./_write_geometry.ts";
 * geometryToSoap({ type: "Point", x: 1, y: 2 }); // { $type: "PointN", X: 1, Y: 2 }
 * ```
 */
export function geometryToSoap(g: Geometry, wkid?: number): SoapObject {
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
      out = pointToSoap([g.x, g.y]);
      break;
    case "Envelope":
      out = envelopeToSoap(g);
      break;
    case "Multipoint":
      out = { ...head("MultipointN"), PointArray: g.points.map(pointToSoap) };
      break;
    case "Polyline":
      out = {
        ...head("PolylineN"),
        PathArray: g.paths.map((p) => ({ $type: "Path", PointArray: p.map(pointToSoap) })),
      };
      break;
    case "Polygon":
      out = {
        ...head("PolygonN"),
        RingArray: g.rings.map((r) => ({ $type: "Ring", PointArray: r.map(pointToSoap) })),
      };
      break;
  }
  if (wkid !== undefined) out.SpatialReference = spatialReferenceToSoap(wkid);
  return out;
}
