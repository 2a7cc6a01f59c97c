/**
 * ArcGIS REST geometry and spatial-reference parameters: Esri JSON
 * geometries (`{"x","y"}`, `{"xmin",...}`, `{"rings"}`, `{"paths"}`,
 * `{"points"}`, each with an optional `spatialReference`) and the short
 * forms `x,y` and `xmin,ymin,xmax,ymax` (envelope corners in any order,
 * as ArcGIS reads them), read into the shared
 * {@link Geometry} model (written back as Esri JSON by `map/ops`'s
 * `esriGeometryJson`, the one writer REST and SOAP's JSON results share).
 * Spatial references are a WKID (`4326`), JSON (`{"wkid":3857}`,
 * `{"latestWkid":3857}`) or WKT (`{"wkt":"PROJCS[...]"}`, Esri or OGC,
 * resolved by `wktSpatialReference`).
 *
 * @module
 */
import type { Geometry, LayerGeometryType, Position } from "../types.ts";
import { ESRI_GEOMETRY_TYPE, esriSpatialReference, type SpatialGeometry } from "../ops/mod.ts";
import { moveIntoWorld, shiftGeometry, worldPeriod } from "../geo/wrap.ts";
import { InvalidRequestError } from "../errors.ts";
import { closeRing } from "../geo/rings.ts";
import { wktSpatialReference } from "../geo/projection.ts";
import { envelopeFromCorners } from "../geo/envelope.ts";
import { decimalNumber, invalid, jsonValue } from "./params.ts";

/** The Esri geometry type names, by the shared model's names (a layer's, and envelopes). */
const ESRI_GEOMETRY_TYPES: Readonly<Record<Geometry["type"], string>> = {
  ...ESRI_GEOMETRY_TYPE as Record<LayerGeometryType, string>,
  Envelope: "esriGeometryEnvelope",
};

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function finite(v: unknown): v is number {
  return typeof v === "number" && Number.isFinite(v);
}

/**
 * A spatial-reference parameter as the engine uses it: a WKID and, for a
 * WKT Web Mercator with its central meridian moved, the x shift of its
 * frame (see `wktSpatialReference`); `wkt` is the WKT as sent.
 */
export interface SpatialReferenceValue {
  wkid: number;
  xShift: number;
  wkt?: string;
}

const SR_FORMS = 'a WKID such as 4326, or JSON such as {"wkid":4326} or {"wkt":"PROJCS[...]"}';

/** A WKT's spatial reference; what it cannot be is the parameter's error. */
function fromWkt(name: string, wkt: string): SpatialReferenceValue {
  try {
    return { ...wktSpatialReference(wkt), wkt };
  } catch (e) {
    if (!(e instanceof InvalidRequestError)) throw e;
    throw new InvalidRequestError(`Parameter '${name}': ${e.message}`, {}, [
      `'${name}' parameter is invalid`,
    ]);
  }
}

/**
 * Reads a spatial-reference parameter value (text as sent, or the
 * `spatialReference` member of a JSON geometry): a WKID, `{"wkid"}`,
 * `{"latestWkid"}`, or WKT (`{"wkt": "..."}` or the bare WKT text).
 *
 * @example
 * ```ts
 * import { parseSpatialReferenceValue } from "./_geometry_json.ts";
 * parseSpatialReferenceValue("bboxSR", "{wkid: 102100, latestWkid: 3857}"); // { wkid: 3857, xShift: 0 }
 * ```
 */
export function parseSpatialReferenceValue(name: string, value: unknown): SpatialReferenceValue {
  let v = value;
  if (typeof v === "string") {
    const t = v.trim();
    if (/^\d+$/.test(t)) v = Number(t);
    else if (/^(PROJCS|GEOGCS)\s*\[/i.test(t)) return fromWkt(name, t);
    else v = jsonValue(name, t, SR_FORMS);
  }
  if (typeof v === "number" && Number.isInteger(v) && v > 0) return { wkid: v, xShift: 0 };
  if (isObject(v)) {
    for (const key of ["latestWkid", "wkid"]) {
      const n = v[key];
      if (typeof n === "number" && Number.isInteger(n) && n > 0) return { wkid: n, xShift: 0 };
    }
    if (typeof v.wkt === "string") return fromWkt(name, v.wkt);
  }
  throw invalid(
    name,
    SR_FORMS,
    typeof value === "string" ? value : JSON.stringify(value) ?? String(value),
  );
}

/**
 * A geometry given in the frame of `sr`, in its WKID's coordinates (moved
 * by the frame's x shift; the engine finds and draws world copies).
 *
 * @example
 * ```ts
 * import { fromFrame } from "./_geometry_json.ts";
 * fromFrame({ type: "Point", x: 0, y: 0 }, { wkid: 3857, xShift: 1000 }); // x 1000
 * ```
 */
export function fromFrame(g: Geometry, sr: SpatialReferenceValue): Geometry {
  return shiftGeometry(g, sr.xShift);
}

/**
 * A geometry in WKID coordinates written in the frame of `sr` (moved back,
 * and into the frame's one world).
 *
 * @example
 * ```ts
 * import { toFrame } from "./_geometry_json.ts";
 * toFrame({ type: "Point", x: 1000, y: 0 }, { wkid: 3857, xShift: 1000 }); // x 0
 * ```
 */
export function toFrame(g: Geometry, sr: SpatialReferenceValue): Geometry {
  return sr.xShift === 0 ? g : moveIntoWorld(g, -sr.xShift, worldPeriod(sr.wkid));
}

/**
 * The `spatialReference` JSON of a frame: its WKID's, or its WKT when its
 * central meridian is moved.
 *
 * @example
 * ```ts
 * import { frameSpatialReference } from "./_geometry_json.ts";
 * frameSpatialReference({ wkid: 4326, xShift: 0 }); // { wkid: 4326, latestWkid: 4326 }
 * ```
 */
export function frameSpatialReference(sr: SpatialReferenceValue): unknown {
  return sr.xShift === 0 ? esriSpatialReference(sr.wkid) : { wkt: sr.wkt };
}

function positions(v: unknown, name: string, what: string): Position[] {
  if (!Array.isArray(v)) {
    throw invalid(name, `${what} as [x, y] points of finite numbers`, JSON.stringify(v));
  }
  return v.map((p) => {
    if (!Array.isArray(p) || p.length < 2 || !finite(p[0]) || !finite(p[1])) {
      throw invalid(
        name,
        `${what} as [x, y] points of finite numbers`,
        JSON.stringify(p) ?? String(p),
      );
    }
    return [p[0], p[1]];
  });
}

function parts(v: unknown, name: string, what: string): Position[][] {
  if (!Array.isArray(v) || v.length === 0) {
    throw invalid(name, `${what} as a non-empty array of point arrays`, JSON.stringify(v));
  }
  return v.map((p) => positions(p, name, what));
}

function closedRing(ring: Position[], name: string): Position[] {
  if (ring.length < 3) {
    throw invalid(name, "rings of at least three points", JSON.stringify(ring));
  }
  return closeRing(ring);
}

/** The Esri JSON geometry types by their REST names, and what their JSON must carry. */
const TYPE_BY_NAME: Readonly<Record<string, Geometry["type"]>> = {
  esrigeometrypoint: "Point",
  esrigeometrymultipoint: "Multipoint",
  esrigeometrypolyline: "Polyline",
  esrigeometrypolygon: "Polygon",
  esrigeometryenvelope: "Envelope",
};

/**
 * Reads a `geometryType` value (`esriGeometryPoint`, ...; any case).
 *
 * @example
 * ```ts
 * import { parseGeometryType } from "./_geometry_json.ts";
 * parseGeometryType("geometryType", "esriGeometryEnvelope"); // "Envelope"
 * ```
 */
export function parseGeometryType(name: string, value: string): Geometry["type"] {
  const t = TYPE_BY_NAME[value.trim().toLowerCase()];
  if (!t) throw invalid(name, `one of ${Object.values(ESRI_GEOMETRY_TYPES).join(", ")}`, value);
  return t;
}

function fromObject(o: Record<string, unknown>, name: string): Geometry {
  if ("rings" in o) {
    return {
      type: "Polygon",
      rings: parts(o.rings, name, "rings").map((r) => closedRing(r, name)),
    };
  }
  if ("paths" in o) return { type: "Polyline", paths: parts(o.paths, name, "paths") };
  if ("points" in o) {
    const points = positions(o.points, name, "points");
    if (points.length === 0) throw invalid(name, "at least one point", JSON.stringify(o));
    return { type: "Multipoint", points };
  }
  if ("xmin" in o) {
    const { xmin, ymin, xmax, ymax } = o;
    if (!finite(xmin) || !finite(ymin) || !finite(xmax) || !finite(ymax)) {
      throw invalid(
        name,
        "an envelope of finite numbers xmin, ymin, xmax, ymax",
        JSON.stringify(o),
      );
    }
    // Corners in any order, as ArcGIS reads envelopes.
    return envelopeFromCorners(xmin, ymin, xmax, ymax);
  }
  if ("x" in o || "y" in o) {
    if (finite(o.x) && finite(o.y)) return { type: "Point", x: o.x, y: o.y };
    throw invalid(name, "a point of finite numbers x and y", JSON.stringify(o));
  }
  throw invalid(
    name,
    "an Esri JSON geometry (x/y, xmin/ymin/xmax/ymax, rings, paths or points)",
    JSON.stringify(o),
  );
}

/**
 * Reads a geometry parameter: Esri JSON, or the short `x,y` (point) and
 * `xmin,ymin,xmax,ymax` (envelope) forms. When `type` is given, the
 * geometry must be of that type.
 *
 * @example
 * ```ts
 * import { parseGeometry } from "./_geometry_json.ts";
 * parseGeometry("geometry", "37.6,55.7").geometry; // { type: "Point", x: 37.6, y: 55.7 }
 * parseGeometry("geometry", '{"x":1,"y":2,"spatialReference":{"wkid":4326}}').wkid; // 4326
 * ```
 */
export function parseGeometry(
  name: string,
  text: string,
  type?: Geometry["type"],
): SpatialGeometry {
  const t = text.trim();
  let geometry: Geometry;
  let wkid: number | null = null;
  if (t.startsWith("{")) {
    const o = jsonValue(name, t, "Esri JSON");
    if (!isObject(o)) throw invalid(name, "an Esri JSON geometry object", t);
    geometry = fromObject(o, name);
    if (o.spatialReference !== undefined && o.spatialReference !== null) {
      const sr = parseSpatialReferenceValue(`${name}.spatialReference`, o.spatialReference);
      geometry = fromFrame(geometry, sr);
      wkid = sr.wkid;
    }
  } else {
    const nums = t.split(",").map((s) => s.trim());
    const values = nums.map((p) => decimalNumber(p));
    if (nums.some((s) => s === "") || values.some((n) => !Number.isFinite(n))) {
      throw invalid(name, "x,y or xmin,ymin,xmax,ymax or Esri JSON", t);
    }
    if (values.length === 2) geometry = { type: "Point", x: values[0], y: values[1] };
    else if (values.length === 4) {
      geometry = fromObject({
        xmin: values[0],
        ymin: values[1],
        xmax: values[2],
        ymax: values[3],
      }, name);
    } else throw invalid(name, "x,y or xmin,ymin,xmax,ymax or Esri JSON", t);
  }
  if (type && geometry.type !== type) {
    throw new InvalidRequestError(
      `Parameter '${name}' is ${ESRI_GEOMETRY_TYPES[geometry.type]} but geometryType says ${
        ESRI_GEOMETRY_TYPES[type]
      }; send a matching geometryType.`,
      { [name]: geometry.type },
      [`'${name}' parameter is invalid`],
    );
  }
  return { geometry, wkid };
}
