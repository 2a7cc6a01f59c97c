/**
 * Reading SOAP geometry values (`{ $type: "PointN", X, Y }`, `{ $type:
 * "PolygonN", RingArray: [{ PointArray: [...] }] }`, ...) and spatial
 * references into the engine's {@link SpatialGeometry}: every concrete `*N`
 * form of the schema plus Line / CircularArc / BezierCurve segments
 * (densified); the binary `*B` forms and malformed values are refused with
 * an InvalidRequestError that says what to send.
 *
 * @module
 */
import type { Position } from "../types.ts";
import type { EnvelopeGeometry, PointGeometry, SpatialGeometry, Wkid } from "../ops/values.ts";
import { InvalidRequestError } from "../errors.ts";
import { closeRing } from "../geo/rings.ts";
import { wktSpatialReference } from "../geo/projection.ts";
import { envelopeFromCorners } from "../geo/envelope.ts";
import { isDecoded, list } from "./_decoded.ts";

/** Segments a circular arc or Bézier curve is split into when read. */
const CURVE_STEPS = 32;

/** Most control points of a Bézier segment. */
const MAX_BEZIER_POINTS = 16;

function fault(message: string): InvalidRequestError {
  return new InvalidRequestError(message);
}

function num(v: unknown, what: string): number {
  if (typeof v === "number" && Number.isFinite(v)) return v;
  if (typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v))) return Number(v);
  throw fault(`${what} must be a finite number.`);
}

/**
 * The WKID a SOAP SpatialReference denotes, or null when none is given.
 * WKID wins, then LatestWKID; a WKT without WKID is resolved as REST
 * resolves it (`wktSpatialReference`: WGS 84, Web Mercator, World Mercator,
 * WGS 84 UTM zones, or an EPSG authority we can project); other WKT faults.
 *
 * @example
 * wkidOfSpatialReference({ $type: "GeographicCoordinateSystem", WKID: 4326 }); // 4326
 */
export function wkidOfSpatialReference(sr: unknown): Wkid | null {
  if (!isDecoded(sr)) return null;
  for (const key of ["WKID", "LatestWKID"]) {
    const v = sr[key];
    if (v !== undefined && v !== null && v !== "" && v !== 0) {
      const n = num(v, `SpatialReference/${key}`);
      if (!Number.isInteger(n) || n <= 0) {
        throw fault(`SpatialReference/${key} must be a positive integer.`);
      }
      return n;
    }
  }
  const wkt = typeof sr.WKT === "string" ? sr.WKT.trim() : "";
  if (wkt === "") return null;
  // The WKT reader REST uses too, so both faces read the same WKT alike.
  let resolved;
  try {
    resolved = wktSpatialReference(wkt);
  } catch (e) {
    if (!(e instanceof InvalidRequestError)) throw e;
    throw fault(`SpatialReference/WKT: ${e.message}`);
  }
  if (resolved.xShift !== 0) {
    throw fault(
      "SpatialReference/WKT: a Web Mercator whose central meridian is moved is not supported here; " +
        "send its WKID (102100) instead.",
    );
  }
  return resolved.wkid;
}

function pointXY(p: unknown, what: string): Position {
  if (!isDecoded(p)) throw fault(`${what} must be a point.`);
  const t = p.$type;
  if (t === "PointB") throw binaryFault("PointB");
  if (t !== undefined && t !== "PointN" && t !== "Point") {
    throw fault(`${what} must be a PointN, got ${String(t)}.`);
  }
  return [num(p.X, `${what}/X`), num(p.Y, `${what}/Y`)];
}

function binaryFault(type: string): InvalidRequestError {
  return fault(
    `${type} (Esri binary shape buffer) is not supported; send the ${type.slice(0, -1)}N form.`,
  );
}

function pointArray(v: unknown, what: string): Position[] {
  return list(v).map((p, i) => pointXY(p, `${what}[${i}]`));
}

/** Densified points of a circular arc from `from` to `to` around `center`. */
function arcPoints(from: Position, to: Position, center: Position, ccw: boolean): Position[] {
  const r = Math.hypot(from[0] - center[0], from[1] - center[1]);
  const a0 = Math.atan2(from[1] - center[1], from[0] - center[0]);
  let a1 = Math.atan2(to[1] - center[1], to[0] - center[0]);
  const full = from[0] === to[0] && from[1] === to[1];
  if (ccw) {
    while (a1 <= a0) a1 += 2 * Math.PI;
    if (full) a1 = a0 + 2 * Math.PI;
  } else {
    while (a1 >= a0) a1 -= 2 * Math.PI;
    if (full) a1 = a0 - 2 * Math.PI;
  }
  const out: Position[] = [];
  for (let i = 1; i < CURVE_STEPS; i++) {
    const a = a0 + (a1 - a0) * i / CURVE_STEPS;
    out.push([center[0] + r * Math.cos(a), center[1] + r * Math.sin(a)]);
  }
  out.push(to);
  return out;
}

/** Densified points of a Bézier curve (any degree, de Casteljau). */
function bezierPoints(control: Position[]): Position[] {
  const out: Position[] = [];
  for (let i = 1; i <= CURVE_STEPS; i++) {
    const t = i / CURVE_STEPS;
    let pts = control.map((p) => [p[0], p[1]] as Position);
    while (pts.length > 1) {
      const next: Position[] = [];
      for (let k = 0; k + 1 < pts.length; k++) {
        next.push([
          pts[k][0] + (pts[k + 1][0] - pts[k][0]) * t,
          pts[k][1] + (pts[k + 1][1] - pts[k][1]) * t,
        ]);
      }
      pts = next;
    }
    out.push(pts[0]);
  }
  return out;
}

/** Points of a Path/Ring: its PointArray, or its SegmentArray densified. */
function pathPoints(path: unknown, what: string): Position[] {
  if (!isDecoded(path)) throw fault(`${what} must be a Path or Ring.`);
  const pts = list(path.PointArray);
  if (pts.length > 0) return pointArray(pts, `${what}/PointArray`);
  const out: Position[] = [];
  list(path.SegmentArray).forEach((seg, i) => {
    const where = `${what}/SegmentArray[${i}]`;
    if (!isDecoded(seg)) throw fault(`${where} must be a segment.`);
    const from = pointXY(seg.FromPoint, `${where}/FromPoint`);
    const to = pointXY(seg.ToPoint, `${where}/ToPoint`);
    const last = out[out.length - 1];
    if (!last || last[0] !== from[0] || last[1] !== from[1]) out.push(from);
    switch (seg.$type) {
      case undefined:
      case "Line":
        out.push(to);
        break;
      case "CircularArc":
        if (seg.IsLine === true) out.push(to);
        else {
          const center = pointXY(seg.CenterPoint, `${where}/CenterPoint`);
          out.push(...arcPoints(from, to, center, seg.IsCounterClockwise === true));
        }
        break;
      case "BezierCurve": {
        const control = pointArray(seg.ControlPointArray, `${where}/ControlPointArray`);
        // De Casteljau is quadratic in the degree; real curves are cubic.
        if (control.length > MAX_BEZIER_POINTS) {
          throw fault(
            `${where}: a BezierCurve may have at most ${MAX_BEZIER_POINTS} control points.`,
          );
        }
        out.push(...bezierPoints(control.length >= 2 ? control : [from, to]));
        break;
      }
      default:
        throw fault(`${where}: segment type ${String(seg.$type)} is not supported.`);
    }
  });
  return out;
}

/**
 * Reads any concrete SOAP geometry into the shared model.
 *
 * @param value the decoded element (`{ $type: "EnvelopeN", XMin, ... }`)
 * @param what the element's name, used in Fault messages
 * @throws InvalidRequestError for missing, binary or malformed geometry
 * @example
 * geometryFromSoap({ $type: "PointN", X: 1, Y: 2 }, "SearchShape").geometry;
 * // { type: "Point", x: 1, y: 2 }
 */
export function geometryFromSoap(value: unknown, what = "Geometry"): SpatialGeometry {
  if (!isDecoded(value)) throw fault(`${what} is required and must be a geometry.`);
  const t = value.$type;
  const wkid = wkidOfSpatialReference(value.SpatialReference);
  switch (t) {
    case "PointN": {
      const [x, y] = pointXY(value, what);
      return { geometry: { type: "Point", x, y }, wkid };
    }
    case "MultipointN": {
      const items = list(value.PointArray);
      // Some clients put the spatial reference on the member points instead of the multipoint.
      const first = items[0];
      const own = wkid ??
        (isDecoded(first) ? wkidOfSpatialReference(first.SpatialReference) : null);
      return {
        geometry: { type: "Multipoint", points: pointArray(items, `${what}/PointArray`) },
        wkid: own,
      };
    }
    case "PolylineN":
    case "Path":
    case "Line":
    case "CircularArc":
    case "BezierCurve": {
      const paths = t === "PolylineN"
        ? list(value.PathArray).map((p, i) => pathPoints(p, `${what}/PathArray[${i}]`))
        : [pathPoints(t === "Path" ? value : { SegmentArray: [value] }, what)];
      return { geometry: { type: "Polyline", paths: paths.filter((p) => p.length > 0) }, wkid };
    }
    case "PolygonN":
    case "Ring": {
      const rings = t === "PolygonN"
        ? list(value.RingArray).map((r, i) => pathPoints(r, `${what}/RingArray[${i}]`))
        : [pathPoints(value, what)];
      return {
        geometry: { type: "Polygon", rings: rings.filter((r) => r.length > 0).map(closeRing) },
        wkid,
      };
    }
    case "EnvelopeN": {
      const xmin = num(value.XMin, `${what}/XMin`);
      const ymin = num(value.YMin, `${what}/YMin`);
      const xmax = num(value.XMax, `${what}/XMax`);
      const ymax = num(value.YMax, `${what}/YMax`);
      // ArcGIS's envelope swaps the corners of an inverted one (IEnvelope.PutCoords).
      return { geometry: envelopeFromCorners(xmin, ymin, xmax, ymax), wkid };
    }
    case "PointB":
    case "MultipointB":
    case "PolylineB":
    case "PolygonB":
    case "EnvelopeB":
    case "MultiPatchB":
      throw binaryFault(t);
    case undefined:
    case "Geometry":
      throw fault(`${what} needs an xsi:type naming a concrete geometry (e.g. PointN, EnvelopeN).`);
    default:
      throw fault(`${what}: geometry type ${String(t)} is not supported.`);
  }
}

/**
 * Reads a `Point` parameter (PointN) with its spatial reference.
 *
 * @example
 * ```ts
 * pointFromSoap({ $type: "PointN", X: 3, Y: 4 }, "FromPoint");
 * // { geometry: { type: "Point", x: 3, y: 4 }, wkid: null }
 * ```
 */
export function pointFromSoap(value: unknown, what: string): SpatialGeometry<PointGeometry> {
  if (isDecoded(value) && value.$type === "PointB") throw binaryFault("PointB");
  if (!isDecoded(value)) throw fault(`${what} is required and must be a PointN.`);
  const [x, y] = pointXY(value, what);
  return {
    geometry: { type: "Point", x, y },
    wkid: wkidOfSpatialReference(value.SpatialReference),
  };
}

/**
 * Reads an `Envelope` parameter (EnvelopeN) with its spatial reference.
 *
 * @example
 * ```ts
 * envelopeFromSoap({ $type: "EnvelopeN", XMin: 0, YMin: 0, XMax: 1, YMax: 1 }, "MapArea/Extent");
 * ```
 */
export function envelopeFromSoap(value: unknown, what: string): SpatialGeometry<EnvelopeGeometry> {
  if (!isDecoded(value)) throw fault(`${what} is required and must be an EnvelopeN.`);
  const { geometry, wkid } = geometryFromSoap(value, what);
  if (geometry.type !== "Envelope") throw fault(`${what} must be an EnvelopeN.`);
  return { geometry, wkid };
}
