/**
 * Field lists and value encoding for query results: `SubFields` parsing,
 * RecordSet `Fields`/`Records` with the xsi:type of every value as ArcGIS
 * writes it, and the string `Properties` of Find/Identify results.
 *
 * @module
 */
import type { AttributeValue, Feature, FieldInfo, FieldType, Geometry } from "../types.ts";
import type { MapLayer } from "./types.ts";
import { esriSpatialReference } from "../geo/projection.ts";
import { InvalidRequestError } from "../errors.ts";
import { ESRI_GEOMETRY_TYPE } from "./_query_feature_json.ts";
import { geometryToSoap, type SoapObject } from "./_geometry_xml.ts";

/** Name used for the geometry column when the layer's field list has none. */
const DEFAULT_SHAPE_FIELD = "Shape";

/** A layer's columns as queries expose them: attribute fields plus the shape field, in order. */
export interface LayerColumns {
  /** Every column in layer order, shape included. */
  all: FieldInfo[];
  /** The OID field. */
  oid: FieldInfo;
  /** The geometry column. */
  shape: FieldInfo;
}

/** The columns a query returns. */
export interface ColumnSelection {
  /** Columns in layer order (OID always included). */
  columns: FieldInfo[];
  /** Attribute names to read from the source (shape excluded). */
  attributeNames: string[];
  /** Whether the shape column was selected. */
  geometry: boolean;
}

/**
 * The layer's columns: its fields, with a geometry field synthesised right
 * after the OID when the document lists none.
 *
 * @example
 * ```ts ignore
 * layerColumns(layer).all.map((f) => f.name); // ["OBJECTID", "Shape", "title", ...]
 * ```
 */
export function layerColumns(layer: MapLayer): LayerColumns {
  const fields = layer.fields;
  const idName = layer.source.idField.toLowerCase();
  const oid = fields.find((f) => f.type === "OID") ??
    fields.find((f) => f.name.toLowerCase() === idName) ??
    {
      name: layer.source.idField,
      type: "OID",
      alias: layer.source.idField,
      length: 4,
      nullable: false,
    };
  let shape = fields.find((f) => f.type === "Geometry");
  let all = fields.includes(oid) ? [...fields] : [oid, ...fields];
  if (!shape) {
    shape = {
      name: DEFAULT_SHAPE_FIELD,
      type: "Geometry",
      alias: DEFAULT_SHAPE_FIELD,
      length: 0,
      nullable: true,
    };
    const at = all.indexOf(oid) + 1;
    all = [...all.slice(0, at), shape, ...all.slice(at)];
  }
  return { all, oid, shape };
}

/**
 * Finds a column by name, case-insensitively (ArcGIS field names are).
 *
 * @throws InvalidRequestError naming the layer's fields when unknown
 */
export function findColumn(layer: MapLayer, name: string, what: string): FieldInfo {
  const cols = layerColumns(layer);
  const wanted = name.trim().toLowerCase();
  const hit = cols.all.find((f) => f.name.toLowerCase() === wanted);
  if (hit) return hit;
  throw new InvalidRequestError(
    `${what}: layer ${layer.id} (${layer.name}) has no field "${name.trim()}". ` +
      `Its fields are: ${cols.all.map((f) => f.name).join(", ")}.`,
    { LayerID: layer.id, Field: name.trim() },
  );
}

/**
 * Parses `SubFields`: empty, missing or `*` mean all columns; otherwise a
 * comma list of field names (validated). The OID column is always returned.
 *
 * @example
 * selectColumns(layer, "NAME, Shape").geometry; // true
 */
export function selectColumns(layer: MapLayer, subFields: string | undefined): ColumnSelection {
  const cols = layerColumns(layer);
  const text = subFields?.trim() ?? "";
  let picked: Set<FieldInfo>;
  if (text === "" || text === "*") picked = new Set(cols.all);
  else {
    picked = new Set([cols.oid]);
    for (const part of text.split(",")) {
      const name = part.trim();
      if (name === "") continue;
      if (name === "*") {
        cols.all.forEach((f) => picked.add(f));
        continue;
      }
      // Clients write the ArcGIS default shape name whatever the source calls its geometry column.
      if (name.toLowerCase() === "shape") picked.add(cols.shape);
      else picked.add(findColumn(layer, name, "SubFields"));
    }
  }
  const columns = cols.all.filter((f) => picked.has(f));
  return {
    columns,
    attributeNames: columns.filter((f) => f.type !== "Geometry").map((f) => f.name),
    geometry: picked.has(cols.shape),
  };
}

const FIELD_LENGTH: Readonly<Record<FieldType, number>> = {
  OID: 4,
  SmallInteger: 2,
  Integer: 4,
  Single: 4,
  Double: 8,
  String: 0,
  Date: 8,
  Geometry: 0,
};

/** A `Field` object of a RecordSet's `Fields/FieldArray`. */
export function fieldToSoap(f: FieldInfo, layer: MapLayer, outWkid: number): SoapObject {
  const field: SoapObject = {
    Name: f.name,
    Type: `esriFieldType${f.type}`,
    IsNullable: f.type === "OID" ? false : f.nullable,
    Length: f.type === "String" ? f.length : FIELD_LENGTH[f.type],
    Precision: 0,
    Scale: 0,
    Required: f.type === "OID" || f.type === "Geometry",
    Editable: f.type !== "OID",
    DomainFixed: false,
  };
  if (f.type === "Geometry") {
    field.GeometryDef = {
      AvgNumPoints: 0,
      GeometryType: ESRI_GEOMETRY_TYPE[layer.geometryType] ?? "esriGeometryPoint",
      HasM: false,
      HasZ: false,
      SpatialReference: esriSpatialReference(outWkid),
    };
  }
  field.AliasName = f.alias || f.name;
  return field;
}

/** Epoch milliseconds (or an ISO date string) as a Date, or null when unreadable. */
function toDate(v: AttributeValue): Date | null {
  if (typeof v === "number") return Number.isFinite(v) ? new Date(v) : null;
  if (typeof v === "string") {
    const t = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T00:00:00Z` : v);
    return Number.isNaN(t) ? null : new Date(t);
  }
  return null;
}

function toNumber(v: AttributeValue): number | null {
  if (typeof v === "number") return Number.isFinite(v) ? v : null;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v))) return Number(v);
  return null;
}

/**
 * An attribute value in the anyType convention of the encoder, typed by
 * the field: OID/Integer -> int, SmallInteger -> short, Single -> float,
 * Double -> double (forced, so 5.0 stays a double), String -> string,
 * Date -> dateTime; null (or an unreadable value) -> xsi:nil.
 */
export function valueToSoap(v: AttributeValue, type: FieldType): unknown {
  if (v === null || v === undefined) return null;
  switch (type) {
    case "OID":
    case "Integer": {
      const n = toNumber(v);
      if (n === null) return null;
      const i = Math.trunc(n);
      // 64-bit keys of some GeoPackages do not fit xs:int; anyType lets them travel as xs:long.
      return { $xsd: Math.abs(i) <= 2147483647 ? "int" : "long", value: i };
    }
    case "SmallInteger": {
      const n = toNumber(v);
      if (n === null) return null;
      // SQLite does not enforce SMALLINT; a wider value is written with the smallest type that holds it.
      const i = Math.trunc(n);
      return {
        $xsd: Math.abs(i) <= 32767 ? "short" : Math.abs(i) <= 2147483647 ? "int" : "long",
        value: i,
      };
    }
    case "Single":
    case "Double": {
      const n = toNumber(v);
      return n === null ? null : { $xsd: type === "Single" ? "float" : "double", value: n };
    }
    case "Date":
      return toDate(v);
    case "String":
      return String(v);
    case "Geometry":
      return null;
  }
}

/** Options of {@linkcode recordSetToSoap}. */
export interface RecordSetOptions {
  /** WKID the features' geometry is in (already projected). */
  outWkid: number;
}

/**
 * A `RecordSet` (Fields + Records) of `features` restricted to `selection`.
 * Geometry values carry the `*N` type of the shape.
 */
export function recordSetToSoap(
  layer: MapLayer,
  features: readonly Feature[],
  selection: ColumnSelection,
  opts: RecordSetOptions,
): SoapObject {
  const fieldArray = selection.columns.map((f) => fieldToSoap(f, layer, opts.outWkid));
  const records = features.map((feat) => ({
    Values: selection.columns.map((f) => {
      if (f.type === "Geometry") return feat.geometry ? geometryToSoap(feat.geometry) : null;
      if (f.type === "OID") return valueToSoap(feat.id, "OID");
      return valueToSoap(feat.attributes[f.name] ?? null, f.type);
    }),
  }));
  return { $type: "RecordSet", Fields: { FieldArray: fieldArray }, Records: records };
}

/** A value as the display string Find and Identify report (ArcGIS writes "Null" for nulls). */
export function formatValue(v: AttributeValue, type: FieldType): string {
  if (v === null || v === undefined) return "Null";
  if (type === "Date") {
    const d = toDate(v);
    if (!d) return String(v);
    const iso = d.toISOString();
    return iso.endsWith("T00:00:00.000Z") ? iso.slice(0, 10) : iso.replace(".000Z", "Z");
  }
  return String(v);
}

/** Name of a geometry's kind as Identify reports the shape field ("Point", "Polygon"...). */
function shapeLabel(g: Geometry | null): string {
  return g ? g.type : "Null";
}

/**
 * A `PropertySet` of every column of `feature` as strings, keyed by alias
 * (or by field name when `byName`), in layer order.
 */
export function propertiesToSoap(layer: MapLayer, feature: Feature, byName = false): SoapObject {
  const cols = layerColumns(layer);
  return {
    PropertyArray: cols.all.map((f) => ({
      Key: byName ? f.name : (f.alias || f.name),
      Value: f.type === "Geometry"
        ? shapeLabel(feature.geometry)
        : f.type === "OID"
        ? String(feature.id)
        : formatValue(feature.attributes[f.name] ?? null, f.type),
    })),
  };
}
