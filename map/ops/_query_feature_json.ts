/**
 * Query results as JSON documents: the Esri JSON FeatureSet (what ArcGIS
 * REST `query?f=json` and SOAP's esriQueryResultJsonAsMime return) and an
 * RFC 7946 GeoJSON FeatureCollection (`f=geojson`, always WGS 84, outer
 * rings counter-clockwise).
 *
 * @module
 */
import type { AttributeValue, Extent, Feature, FieldInfo, Geometry, Position } from "../types.ts";
import type { RecordSet } from "./results.ts";
import { normalizeWkid, projectGeometry, WGS84 } from "../geo/projection.ts";

/** ArcGIS geometry type names by layer geometry type. */
export const ESRI_GEOMETRY_TYPE: Readonly<Record<string, string>> = {
  Point: "esriGeometryPoint",
  Multipoint: "esriGeometryMultipoint",
  Polyline: "esriGeometryPolyline",
  Polygon: "esriGeometryPolygon",
};

/** An ArcGIS JSON field description. */
export interface EsriFieldJson {
  name: string;
  /** esriFieldTypeString, esriFieldTypeOID, ... */
  type: string;
  alias: string;
  /** Text fields only. */
  length?: number;
}

/** ArcGIS JSON geometry (without its spatial reference). */
export type EsriGeometryJson =
  | { x: number; y: number }
  | { points: Position[] }
  | { paths: Position[][] }
  | { rings: Position[][] }
  | { xmin: number; ymin: number; xmax: number; ymax: number };

/** ArcGIS REST `{wkid, latestWkid}`. */
export interface EsriSpatialReferenceJson {
  wkid: number;
  latestWkid: number;
}

/** Attribute values by field name (JSON values: dates as epoch milliseconds). */
export type AttributesJson = Record<string, AttributeValue>;

/** The Esri JSON FeatureSet of a query (REST `query?f=json`). */
export interface EsriFeatureSetJson {
  displayFieldName: string;
  fieldAliases: Record<string, string>;
  /** Absent for statistics and distinct-value rows, as the next three. */
  objectIdFieldName?: string;
  globalIdFieldName?: string;
  geometryType?: string;
  spatialReference?: EsriSpatialReferenceJson;
  fields: EsriFieldJson[];
  features: { attributes: AttributesJson; geometry?: EsriGeometryJson }[];
  exceededTransferLimit?: true;
}

/** GeoJSON geometry (RFC 7946). */
export type GeoJsonGeometry =
  | { type: "Point"; coordinates: Position }
  | { type: "MultiPoint" | "LineString"; coordinates: Position[] }
  | { type: "MultiLineString" | "Polygon"; coordinates: Position[][] }
  | { type: "MultiPolygon"; coordinates: Position[][][] };

/** An RFC 7946 FeatureCollection of a query (REST `query?f=geojson`). */
export interface GeoJsonFeatureCollection {
  type: "FeatureCollection";
  features: {
    type: "Feature";
    /** The object id; absent on statistics and distinct-value rows, which are not features. */
    id?: number;
    geometry: GeoJsonGeometry | null;
    properties: AttributesJson;
  }[];
  exceededTransferLimit?: true;
}

/** Options of the writers. */
export interface FeatureJsonOptions {
  /** Decimal places kept in coordinates (ArcGIS `geometryPrecision`); default all. */
  geometryPrecision?: number;
}

function rounder(digits: number | undefined): (p: Position) => Position {
  if (digits === undefined) return (p) => p;
  const k = 10 ** digits;
  return (p) => [Math.round(p[0] * k) / k, Math.round(p[1] * k) / k];
}

/**
 * An ArcGIS JSON field description.
 *
 * @example
 * ```ts
 * import { fieldJson } from "./_query_feature_json.ts";
 * fieldJson({ name: "title", type: "String", alias: "Title", length: 255, nullable: true });
 * // { name: "title", type: "esriFieldTypeString", alias: "Title", length: 255 }
 * ```
 */
export function fieldJson(c: FieldInfo): EsriFieldJson {
  return {
    name: c.name,
    type: `esriFieldType${c.type}`,
    alias: c.alias || c.name,
    ...(c.type === "String" ? { length: c.length } : {}),
  };
}

/**
 * ArcGIS REST `{wkid, latestWkid}` (Web Mercator as 102100 / 3857, as ArcGIS writes it).
 *
 * @example
 * ```ts
 * import { esriSpatialReference } from "./_query_feature_json.ts";
 * esriSpatialReference(3857); // { wkid: 102100, latestWkid: 3857 }
 * ```
 */
export function esriSpatialReference(wkid: number): EsriSpatialReferenceJson {
  const id = normalizeWkid(wkid);
  return { wkid: id === 3857 ? 102100 : id, latestWkid: id };
}

/**
 * A geometry as Esri JSON (without its spatial reference), coordinates
 * rounded to `geometryPrecision` places when given.
 *
 * @example
 * ```ts
 * import { esriGeometryJson } from "./_query_feature_json.ts";
 * esriGeometryJson({ type: "Point", x: 1.26, y: 2 }, { geometryPrecision: 1 }); // { x: 1.3, y: 2 }
 * ```
 */
export function esriGeometryJson(g: Geometry, opts: FeatureJsonOptions = {}): EsriGeometryJson {
  return esriGeometry(g, rounder(opts.geometryPrecision));
}

function esriGeometry(g: Geometry, r: (p: Position) => Position): EsriGeometryJson {
  switch (g.type) {
    case "Point": {
      const [x, y] = r([g.x, g.y]);
      return { x, y };
    }
    case "Multipoint":
      return { points: g.points.map(r) };
    case "Polyline":
      return { paths: g.paths.map((p) => p.map(r)) };
    case "Polygon":
      return { rings: g.rings.map((ring) => ring.map(r)) };
    case "Envelope": {
      const [xmin, ymin] = r([g.xmin, g.ymin]), [xmax, ymax] = r([g.xmax, g.ymax]);
      return { xmin, ymin, xmax, ymax };
    }
  }
}

function attributeValue(f: Feature, field: FieldInfo): AttributeValue {
  if (field.type === "OID") return f.id;
  const v = f.attributes[field.name];
  if (v === undefined) return null;
  if (field.type === "Date" && typeof v === "string") {
    const t = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T00:00:00Z` : v);
    return Number.isNaN(t) ? v : t;
  }
  return v;
}

function attributes(f: Feature, fields: readonly FieldInfo[]): AttributesJson {
  return Object.fromEntries(fields.map((c) => [c.name, attributeValue(f, c)]));
}

/** The attribute columns of rows, and whether the rows carry shapes (a shape column). */
function attributeColumns(r: RecordSet): { fields: FieldInfo[]; withShapes: boolean } {
  return {
    fields: r.fields.filter((c) => c.type !== "Geometry"),
    withShapes: r.fields.some((c) => c.type === "Geometry"),
  };
}

/**
 * The Esri JSON FeatureSet of query rows (geometry already in their `wkid`).
 *
 * @example
 * ```ts ignore
 * featureSetObject(queryFeatureSet(req, ctx)).features.length;
 * ```
 */
export function featureSetObject(
  r: RecordSet,
  opts: FeatureJsonOptions = {},
): EsriFeatureSetJson {
  const { fields, withShapes } = attributeColumns(r);
  const round = rounder(opts.geometryPrecision);
  // Statistics and distinct-value rows are values, not features of the layer.
  const valuesOnly = r.objectIdField === undefined;
  return {
    displayFieldName: valuesOnly ? "" : r.displayField,
    fieldAliases: Object.fromEntries(fields.map((c) => [c.name, c.alias || c.name])),
    ...(valuesOnly ? {} : {
      objectIdFieldName: r.objectIdField,
      globalIdFieldName: "",
      geometryType: ESRI_GEOMETRY_TYPE[r.geometryType] ?? "esriGeometryPoint",
      spatialReference: esriSpatialReference(r.wkid),
    }),
    fields: fields.map(fieldJson),
    features: r.features.map((f) => ({
      attributes: attributes(f, fields),
      ...(withShapes && f.geometry ? { geometry: esriGeometry(f.geometry, round) } : {}),
    })),
    ...(r.exceededTransferLimit ? { exceededTransferLimit: true as const } : {}),
  };
}

/** An envelope as a clockwise (ArcGIS outer) polygon ring. */
export function envelopePolygon(e: Extent): Geometry {
  return {
    type: "Polygon",
    rings: [[[e.xmin, e.ymin], [e.xmin, e.ymax], [e.xmax, e.ymax], [e.xmax, e.ymin], [
      e.xmin,
      e.ymin,
    ]]],
  };
}

/** The signed area of a ring (positive counter-clockwise). */
export function signedArea(ring: readonly Position[]): number {
  let a = 0;
  for (let i = 0; i + 1 < ring.length; i++) {
    a += ring[i][0] * ring[i + 1][1] - ring[i + 1][0] * ring[i][1];
  }
  return a / 2;
}

/** ArcGIS rings (clockwise outer rings, each followed by its holes) as GeoJSON polygons. */
function polygons(rings: readonly Position[][]): Position[][][] {
  const out: Position[][][] = [];
  for (const ring of rings) {
    const ccw = signedArea(ring) > 0;
    if (!ccw || out.length === 0) out.push([ccw ? ring : [...ring].reverse()]);
    else out[out.length - 1].push([...ring].reverse());
  }
  return out;
}

/**
 * A geometry as GeoJSON (outer rings counter-clockwise, holes clockwise),
 * each position written through `r` (rounding, projection, axis order).
 *
 * @example
 * ```ts
 * import { geoJsonGeometry } from "./_query_feature_json.ts";
 * geoJsonGeometry({ type: "Point", x: 37.6, y: 55.7 }, ([x, y]) => [y, x]);
 * // { type: "Point", coordinates: [55.7, 37.6] }
 * ```
 */
export function geoJsonGeometry(g: Geometry, r: (p: Position) => Position): GeoJsonGeometry {
  switch (g.type) {
    case "Point":
      return { type: "Point", coordinates: r([g.x, g.y]) };
    case "Multipoint":
      return { type: "MultiPoint", coordinates: g.points.map(r) };
    case "Polyline":
      return g.paths.length === 1
        ? { type: "LineString", coordinates: g.paths[0].map(r) }
        : { type: "MultiLineString", coordinates: g.paths.map((p) => p.map(r)) };
    case "Polygon": {
      const polys = polygons(g.rings).map((p) => p.map((ring) => ring.map(r)));
      return polys.length === 1
        ? { type: "Polygon", coordinates: polys[0] }
        : { type: "MultiPolygon", coordinates: polys };
    }
    case "Envelope":
      return geoJsonGeometry(envelopePolygon(g), r);
  }
}

/**
 * An RFC 7946 FeatureCollection of a query result: geometry projected from
 * `outWkid` to WGS 84, the object id as each feature's `id` (none on
 * statistics and distinct-value rows: they are values, not features).
 *
 * @example
 * ```ts ignore
 * featureCollection(result).type; // "FeatureCollection"
 * ```
 */
export function featureCollection(
  r: RecordSet,
  opts: FeatureJsonOptions = {},
): GeoJsonFeatureCollection {
  const round = rounder(opts.geometryPrecision);
  const { fields, withShapes } = attributeColumns(r);
  const valuesOnly = r.objectIdField === undefined;
  return {
    type: "FeatureCollection",
    features: r.features.map((f) => ({
      type: "Feature",
      ...(valuesOnly ? {} : { id: f.id }),
      geometry: withShapes && f.geometry
        ? geoJsonGeometry(projectGeometry(f.geometry, r.wkid, WGS84), round)
        : null,
      properties: attributes(f, fields),
    })),
    ...(r.exceededTransferLimit ? { exceededTransferLimit: true as const } : {}),
  };
}
