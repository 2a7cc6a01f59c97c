/**
 * Envelopes as ArcGIS builds them: from two opposite corners in any order.
 * ArcObjects' `IEnvelope.PutCoords` "properly reassigns the Min and Max
 * values" when XMin > XMax or YMin > YMax, and ArcGIS Server reads every
 * envelope a client sends that way (REST `bbox`, `mapExtent`, envelope
 * geometries; SOAP `EnvelopeN`). Clients rely on it: esri-leaflet sends
 * `bbox=xmin,ymax,xmax,ymin` (Leaflet's y-down corners). Both faces read
 * envelopes through this one helper, so they stay consistent.
 *
 * @module
 */
import type { Geometry } from "../types.ts";

/**
 * The envelope spanned by corners (x1, y1) and (x2, y2), whatever their order.
 *
 * @example
 * ```ts
 * envelopeFromCorners(2739503, 12856096, 18393806, 3072157);
 * // { type: "Envelope", xmin: 2739503, ymin: 3072157, xmax: 18393806, ymax: 12856096 }
 * ```
 */
export function envelopeFromCorners(
  x1: number,
  y1: number,
  x2: number,
  y2: number,
): Extract<Geometry, { type: "Envelope" }> {
  return {
    type: "Envelope",
    xmin: Math.min(x1, x2),
    ymin: Math.min(y1, y2),
    xmax: Math.max(x1, x2),
    ymax: Math.max(y1, y2),
  };
}
