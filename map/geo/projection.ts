/**
 * Spatial references and on-the-fly projection.
 *
 * WGS 84 (4326) ↔ Web Mercator (3857 and its ArcGIS aliases) is computed
 * here directly: it is two lines of exact math and runs on every drawn
 * vertex. Any other spatial reference goes through `proj4`, which earns its
 * place for GeoPackages stored in UTM or national grids: their
 * `gpkg_spatial_ref_sys` definitions are registered with
 * {@linkcode registerSpatialReference} and projected like the built-ins.
 *
 * @module
 */
import { InvalidRequestError } from "../errors.ts";
import proj4 from "proj4";
import type { Extent, Geometry, Position } from "../types.ts";
import type { EsriUnits } from "./units.ts";

/** WGS 84 longitude/latitude. */
export const WGS84 = 4326;
/** Web Mercator (auxiliary sphere). */
export const WEB_MERCATOR = 3857;
/** Radius of the Web Mercator sphere, metres. */
export const EARTH_RADIUS = 6378137;
/** Latitude limit of Web Mercator, degrees (where the square world ends). */
export const MAX_MERCATOR_LATITUDE = 85.0511287798066;
/** Half the width of the Web Mercator world, metres. */
export const MERCATOR_HALF_WORLD = Math.PI * EARTH_RADIUS;

const WEB_MERCATOR_ALIASES = new Set([3857, 102100, 102113, 900913, 3785, 3587, 41001, 54004]);

const DEG = Math.PI / 180;

/** ESRI WKT of the two built-in spatial references, as ArcGIS reports them. */
const ESRI_WKT: Readonly<Record<number, string>> = {
  4326: 'GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984",SPHEROID["WGS_1984",6378137.0,298.257223563]],' +
    'PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]]',
  3857:
    'PROJCS["WGS_1984_Web_Mercator_Auxiliary_Sphere",GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984",' +
    'SPHEROID["WGS_1984",6378137.0,298.257223563]],PRIMEM["Greenwich",0.0],' +
    'UNIT["Degree",0.0174532925199433]],PROJECTION["Mercator_Auxiliary_Sphere"],' +
    'PARAMETER["False_Easting",0.0],PARAMETER["False_Northing",0.0],' +
    'PARAMETER["Central_Meridian",0.0],PARAMETER["Standard_Parallel_1",0.0],' +
    'PARAMETER["Auxiliary_Sphere_Type",0.0],UNIT["Meter",1.0]]',
};

/** WKT registered for other spatial references (GeoPackage definitions). */
const registeredWkt = new Map<number, string>();

/**
 * Maps the ArcGIS and legacy aliases of Web Mercator (102100, 102113,
 * 900913, 3785, …) to 3857; every other id is returned unchanged.
 *
 * @example
 * ```ts
 * normalizeWkid(102100); // 3857
 * ```
 */
export function normalizeWkid(wkid: number): number {
  return WEB_MERCATOR_ALIASES.has(wkid) ? WEB_MERCATOR : wkid;
}

/**
 * The proj4 definition of a spatial reference, defining well-known
 * families (WGS 84 UTM zones, World Mercator) on first use.
 */
function proj4Def(wkid: number): proj4.ProjectionDefinition | undefined {
  const code = `EPSG:${wkid}`;
  const known = proj4.defs(code);
  if (known) return known;
  const zone = wkid % 100;
  if ((wkid >= 32601 && wkid <= 32660) || (wkid >= 32701 && wkid <= 32760)) {
    const south = wkid >= 32701 ? " +south" : "";
    proj4.defs(code, `+proj=utm +zone=${zone}${south} +datum=WGS84 +units=m +no_defs`);
  } else if (wkid === 3395) {
    proj4.defs(code, "+proj=merc +lon_0=0 +k=1 +x_0=0 +y_0=0 +datum=WGS84 +units=m +no_defs");
  } else if (wkid === 4258 || wkid === 4283 || wkid === 4167) {
    // ETRS89, GDA94, NZGD2000: geographic, within a metre of WGS 84.
    proj4.defs(code, "+proj=longlat +ellps=GRS80 +towgs84=0,0,0 +no_defs");
  } else {
    return undefined;
  }
  return proj4.defs(code);
}

/**
 * Registers a spatial reference for projection from its WKT (OGC or ESRI)
 * or a PROJ string, e.g. a GeoPackage's `gpkg_spatial_ref_sys.definition`.
 * Returns false (and registers nothing) when proj4 cannot understand it.
 *
 * @example
 * ```ts
 * registerSpatialReference(2154, "+proj=lcc +lat_1=49 +lat_2=44 +lat_0=46.5 +lon_0=3 +x_0=700000 +y_0=6600000 +ellps=GRS80 +units=m +no_defs");
 * ```
 */
export function registerSpatialReference(wkid: number, definition: string): boolean {
  const id = normalizeWkid(wkid);
  if (id === WGS84 || id === WEB_MERCATOR) return true;
  if (proj4Def(id)) return true;
  try {
    proj4.defs(`EPSG:${id}`, definition);
    // proj4 accepts some strings it cannot use; prove the definition works.
    proj4(`EPSG:${id}`, "EPSG:4326", [0, 0]);
  } catch {
    return false;
  }
  if (definition.trim().toUpperCase().startsWith("PROJCS[") || /^GEOGCS\[/i.test(definition)) {
    registeredWkt.set(id, definition.trim());
  }
  return true;
}

/**
 * Whether coordinates of this spatial reference are longitude/latitude degrees.
 *
 * @example
 * ```ts
 * isGeographic(4326); // true
 * isGeographic(102100); // false
 * ```
 */
export function isGeographic(wkid: number): boolean {
  const id = normalizeWkid(wkid);
  if (id === WGS84) return true;
  if (id === WEB_MERCATOR) return false;
  return proj4Def(id)?.projName === "longlat";
}

/**
 * Whether points can be projected between the two spatial references.
 *
 * @example
 * ```ts
 * canProject(4326, 102100); // true
 * ```
 */
export function canProject(fromWkid: number, toWkid: number): boolean {
  const a = normalizeWkid(fromWkid);
  const b = normalizeWkid(toWkid);
  if (a === b) return true;
  const builtIn = (id: number) => id === WGS84 || id === WEB_MERCATOR;
  return (builtIn(a) || proj4Def(a) !== undefined) && (builtIn(b) || proj4Def(b) !== undefined);
}

/**
 * The `esriUnits` of a spatial reference's coordinates.
 *
 * @example
 * ```ts
 * unitsOfWkid(4326); // "esriDecimalDegrees"
 * ```
 */
export function unitsOfWkid(wkid: number): EsriUnits {
  const id = normalizeWkid(wkid);
  if (id === WGS84) return "esriDecimalDegrees";
  if (id === WEB_MERCATOR) return "esriMeters";
  const def = proj4Def(id);
  if (!def) return "esriUnknownUnits";
  if (def.projName === "longlat") return "esriDecimalDegrees";
  const units = (def.units ?? "m").toLowerCase();
  if (units === "m" || units.startsWith("met")) return "esriMeters";
  if (units === "ft" || units === "us-ft" || units.startsWith("foot")) return "esriFeet";
  if (units === "km") return "esriKilometers";
  return "esriUnknownUnits";
}

/**
 * The WKT ArcGIS reports for a spatial reference: ESRI WKT for 4326 and
 * Web Mercator, the registered WKT for others, undefined when unknown.
 *
 * @example
 * ```ts
 * spatialReferenceWkt(102100)?.startsWith('PROJCS["WGS_1984_Web_Mercator_Auxiliary_Sphere"'); // true
 * ```
 */
export function spatialReferenceWkt(wkid: number): string | undefined {
  const id = normalizeWkid(wkid);
  return ESRI_WKT[id] ?? registeredWkt.get(id);
}

/**
 * A spatial reference given as WKT, as the engine projects and draws it: a
 * WKID, and for Web Mercator with its central meridian moved (how the
 * ArcGIS Maps SDK draws a view across 180°) the x offset of that frame in
 * metres: x in `wkid` = x in the WKT's frame + `xShift` (whole worlds
 * apart are the same place, drawn again across the antimeridian).
 */
export interface WktSpatialReference {
  wkid: number;
  xShift: number;
}

/** proj4's reading of a WKT, the members we look at. */
interface ParsedWkt {
  projName?: string;
  long0?: number;
  lat0?: number;
  lat_ts?: number;
  x0?: number;
  y0?: number;
  k0?: number;
  a?: number;
  b?: number;
  rf?: number;
  datumCode?: string;
  to_meter?: number;
  from_greenwich?: number;
}

const near = (a: number | undefined, b: number, tol = 1e-9) =>
  Math.abs((a ?? 0) - b) <= tol * Math.max(1, Math.abs(b));

/** WGS 84's ellipsoid (or GRS 80's, within a millimetre of it). */
function onWgs84(p: ParsedWkt): boolean {
  return p.datumCode === "wgs84" ||
    (near(p.a, 6378137) && p.rf !== undefined && Math.abs(p.rf - 298.257223563) < 1e-5);
}

function unsupportedWkt(what: string): InvalidRequestError {
  return new InvalidRequestError(
    `spatial reference WKT ${what} is not supported: send a WKID, or the WKT (Esri or OGC) of ` +
      "WGS 84, Web Mercator (any central meridian), World Mercator or a WGS 84 UTM zone.",
  );
}

/**
 * Resolves a spatial reference given as WKT (Esri or OGC flavour, read
 * by proj4's WKT parser) to one the engine knows: its EPSG authority when
 * the WKT names one the engine can project, else WGS 84, Web Mercator
 * (any central meridian: {@link WktSpatialReference.xShift}), World
 * Mercator or a WGS 84 UTM zone recognised by their parameters. Anything
 * else is an InvalidRequestError saying what is unsupported.
 *
 * @example
 * ```ts
 * wktSpatialReference('PROJCS["WGS_1984_Web_Mercator_Auxiliary_Sphere",GEOGCS["GCS_WGS_1984",' +
 *   'DATUM["D_WGS_1984",SPHEROID["WGS_1984",6378137.0,298.257223563]],PRIMEM["Greenwich",0.0],' +
 *   'UNIT["Degree",0.0174532925199433]],PROJECTION["Mercator_Auxiliary_Sphere"],' +
 *   'PARAMETER["False_Easting",0.0],PARAMETER["False_Northing",0.0],PARAMETER["Central_Meridian",180.0],' +
 *   'PARAMETER["Standard_Parallel_1",0.0],PARAMETER["Auxiliary_Sphere_Type",0.0],UNIT["Meter",1.0]]');
 * // { wkid: 3857, xShift: 20037508.34… }
 * ```
 */
export function wktSpatialReference(wkt: string): WktSpatialReference {
  const text = wkt.trim();
  // The outermost AUTHORITY closes the WKT (OGC flavour).
  const authority = /AUTHORITY\[\s*"EPSG"\s*,\s*"?(\d+)"?\s*\]\s*\]$/i.exec(text);
  if (authority) {
    const id = normalizeWkid(Number(authority[1]));
    if (canProject(id, WGS84)) return { wkid: id, xShift: 0 };
  }
  let p: ParsedWkt;
  try {
    p = new proj4.Proj(text) as unknown as ParsedWkt;
  } catch {
    throw unsupportedWkt("that cannot be read");
  }
  const name = (p.projName ?? "").toLowerCase();
  const shown = p.projName ?? "without a projection";
  const long0 = (p.long0 ?? 0) / DEG;
  const plain = near(p.x0, 0) && near(p.y0, 0) && (p.k0 === undefined || near(p.k0, 1)) &&
    near(p.lat_ts, 0) && (p.to_meter === undefined || near(p.to_meter, 1));
  if (name === "longlat") {
    if (onWgs84(p) && near(p.from_greenwich, 0)) return { wkid: WGS84, xShift: 0 };
    throw unsupportedWkt("of a geographic system other than WGS 84 (Greenwich)");
  }
  if (name === "mercator_auxiliary_sphere" || name === "merc" || name === "mercator_1sp") {
    const auxiliary = /Auxiliary_Sphere_Type"\s*,\s*([-\d.]+)/i.exec(text);
    const sphere = name === "mercator_auxiliary_sphere"
      ? auxiliary === null || Number(auxiliary[1]) === 0
      : near(p.a, EARTH_RADIUS) && near(p.b, EARTH_RADIUS);
    if (plain && sphere && near(p.a, EARTH_RADIUS)) {
      // Whole turns name the same meridian: keep the shift within one world.
      const meridian = ((long0 + 180) % 360 + 360) % 360 - 180;
      return { wkid: WEB_MERCATOR, xShift: EARTH_RADIUS * meridian * DEG };
    }
    if (plain && onWgs84(p) && near(long0, 0)) return { wkid: 3395, xShift: 0 };
    throw unsupportedWkt(`of a Mercator (${shown}) other than Web or World Mercator`);
  }
  if (name === "transverse_mercator" || name === "tmerc" || name === "utm") {
    const zone = Math.round((long0 + 183) / 6);
    const south = near(p.y0, 10000000);
    if (
      onWgs84(p) && zone >= 1 && zone <= 60 && near(long0, zone * 6 - 183) &&
      near(p.k0, 0.9996) && near(p.x0, 500000) && (south || near(p.y0, 0)) && near(p.lat0, 0)
    ) {
      return { wkid: (south ? 32700 : 32600) + zone, xShift: 0 };
    }
    throw unsupportedWkt(`of a transverse Mercator (${shown}) other than a WGS 84 UTM zone`);
  }
  throw unsupportedWkt(`of projection ${shown}`);
}

function unknownSr(wkid: number, other: number): InvalidRequestError {
  return new InvalidRequestError(
    `Cannot project between WKID ${wkid} and WKID ${other}: spatial reference ${wkid} is not ` +
      "supported (use 4326, 3857/102100, a WGS 84 UTM zone, or one defined by a GeoPackage).",
  );
}

function lonLatToMercator(p: Position): Position {
  const lat = Math.max(-MAX_MERCATOR_LATITUDE, Math.min(MAX_MERCATOR_LATITUDE, p[1]));
  return [
    EARTH_RADIUS * p[0] * DEG,
    EARTH_RADIUS * Math.log(Math.tan(Math.PI / 4 + (lat * DEG) / 2)),
  ];
}

function mercatorToLonLat(p: Position): Position {
  return [
    p[0] / EARTH_RADIUS / DEG,
    (2 * Math.atan(Math.exp(p[1] / EARTH_RADIUS)) - Math.PI / 2) / DEG,
  ];
}

/** A point projector between two normalized ids; throws when one is unknown. */
function projector(from: number, to: number): (p: Position) => Position {
  if (from === to) return (p) => [p[0], p[1]];
  if (from === WGS84 && to === WEB_MERCATOR) return lonLatToMercator;
  if (from === WEB_MERCATOR && to === WGS84) return mercatorToLonLat;
  for (const [id, other] of [[from, to], [to, from]]) {
    if (id !== WGS84 && id !== WEB_MERCATOR && !proj4Def(id)) throw unknownSr(id, other);
  }
  // Web Mercator through proj4 would not clamp; go via 4326 with our own math instead.
  if (from === WEB_MERCATOR) {
    const rest = projector(WGS84, to);
    return (p) => rest(mercatorToLonLat(p));
  }
  if (to === WEB_MERCATOR) {
    const first = projector(from, WGS84);
    return (p) => lonLatToMercator(first(p));
  }
  const converter = proj4(`EPSG:${from}`, `EPSG:${to}`);
  return (p) => {
    const out = converter.forward([p[0], p[1]]);
    if (!Number.isFinite(out[0]) || !Number.isFinite(out[1])) {
      throw new InvalidRequestError(
        `The point (${p[0]}, ${p[1]}) lies outside the area WKID ${from} → WKID ${to} can project.`,
      );
    }
    return [out[0], out[1]];
  };
}

/**
 * Projects one position. Latitudes beyond ±85.0511° are clamped when going
 * to Web Mercator. Throws an InvalidRequestError for unsupported spatial references.
 *
 * @example
 * ```ts
 * projectPoint([37.6173, 55.7558], 4326, 102100); // [4187591.9…, 7509137.4…]
 * ```
 */
export function projectPoint(p: Position, fromWkid: number, toWkid: number): Position {
  return projector(normalizeWkid(fromWkid), normalizeWkid(toWkid))(p);
}

/**
 * Projects a geometry vertex by vertex; an Envelope becomes the bounding
 * box of its densified outline (see {@linkcode projectExtent}).
 *
 * @example
 * ```ts
 * projectGeometry({ type: "Point", x: 0, y: 0 }, 4326, 3857); // { type: "Point", x: 0, y: 0 }
 * ```
 */
export function projectGeometry(g: Geometry, fromWkid: number, toWkid: number): Geometry {
  const from = normalizeWkid(fromWkid);
  const to = normalizeWkid(toWkid);
  if (from === to) return g;
  const f = projector(from, to);
  switch (g.type) {
    case "Point": {
      const [x, y] = f([g.x, g.y]);
      return { type: "Point", x, y };
    }
    case "Multipoint":
      return { type: "Multipoint", points: g.points.map(f) };
    case "Polyline":
      return { type: "Polyline", paths: g.paths.map((path) => path.map(f)) };
    case "Polygon":
      return { type: "Polygon", rings: g.rings.map((ring) => ring.map(f)) };
    case "Envelope":
      return { type: "Envelope", ...projectExtent(g, from, to) };
  }
}

/**
 * Projects an extent: each edge is densified into `segments` pieces and
 * the result is the bounding box of all projected points, so curved edges
 * (e.g. UTM) are covered.
 *
 * @example
 * ```ts
 * projectExtent({ xmin: -180, ymin: -85, xmax: 180, ymax: 85 }, 4326, 3857);
 * ```
 */
export function projectExtent(
  e: Extent,
  fromWkid: number,
  toWkid: number,
  segments = 16,
): Extent {
  const from = normalizeWkid(fromWkid);
  const to = normalizeWkid(toWkid);
  if (from === to) return { xmin: e.xmin, ymin: e.ymin, xmax: e.xmax, ymax: e.ymax };
  const f = projector(from, to);
  const n = Math.max(1, Math.floor(segments));
  let xmin = Infinity, ymin = Infinity, xmax = -Infinity, ymax = -Infinity;
  const add = (x: number, y: number) => {
    const [px, py] = f([x, y]);
    if (px < xmin) xmin = px;
    if (px > xmax) xmax = px;
    if (py < ymin) ymin = py;
    if (py > ymax) ymax = py;
  };
  for (let i = 0; i <= n; i++) {
    const x = e.xmin + ((e.xmax - e.xmin) * i) / n;
    const y = e.ymin + ((e.ymax - e.ymin) * i) / n;
    add(x, e.ymin);
    add(x, e.ymax);
    add(e.xmin, y);
    add(e.xmax, y);
  }
  return { xmin, ymin, xmax, ymax };
}

/** Esri's precision parameters for a spatial reference description. */
interface SrPrecision {
  XOrigin: number;
  YOrigin: number;
  XYScale: number;
  ZOrigin: number;
  ZScale: number;
  MOrigin: number;
  MScale: number;
  XYTolerance: number;
  ZTolerance: number;
  MTolerance: number;
  HighPrecision: boolean;
  LeftLongitude?: number;
}

const PRECISION: Readonly<Record<number, SrPrecision>> = {
  4326: {
    XOrigin: -400,
    YOrigin: -400,
    XYScale: 999999999.99999988,
    ZOrigin: -100000,
    ZScale: 10000,
    MOrigin: -100000,
    MScale: 10000,
    XYTolerance: 8.983152841195215e-9,
    ZTolerance: 0.001,
    MTolerance: 0.001,
    HighPrecision: true,
    LeftLongitude: -180,
  },
  3857: {
    XOrigin: -20037700,
    YOrigin: -30241100,
    XYScale: 10000,
    ZOrigin: -100000,
    ZScale: 10000,
    MOrigin: -100000,
    MScale: 10000,
    XYTolerance: 0.001,
    ZTolerance: 0.001,
    MTolerance: 0.001,
    HighPrecision: true,
  },
};

/**
 * A SpatialReference in the SOAP plain-object convention (`$type`, WKT,
 * precision members, WKID, LatestWKID) as ArcGIS writes it; Web Mercator
 * is reported as WKID 102100 with LatestWKID 3857.
 *
 * @example
 * ```ts
 * esriSpatialReference(3857).WKID; // 102100
 * ```
 */
export function esriSpatialReference(wkid: number): Record<string, unknown> {
  const id = normalizeWkid(wkid);
  const wkt = spatialReferenceWkt(id);
  const geographic = isGeographic(id);
  const $type = wkt === undefined && !canProject(id, WGS84)
    ? "UnknownCoordinateSystem"
    : geographic
    ? "GeographicCoordinateSystem"
    : "ProjectedCoordinateSystem";
  const reported = id === WEB_MERCATOR ? 102100 : id;
  return {
    $type,
    ...(wkt === undefined ? {} : { WKT: wkt }),
    ...(PRECISION[id] ?? {}),
    ...(id > 0 ? { WKID: reported, LatestWKID: id } : {}),
  };
}
