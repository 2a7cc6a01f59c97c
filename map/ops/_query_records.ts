/**
 * Field lists and values of query results: `SubFields` parsing, attribute
 * values coerced to their field's type, and the display text of the
 * properties Find and Identify report.
 *
 * @module
 */
import type { AttributeValue, Feature, FieldInfo, FieldType, Geometry } from "../types.ts";
import type { MapLayer, Property } from "./types.ts";
import { InvalidRequestError, member, type MemberRef, say } from "../errors.ts";

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
export function findColumn(layer: MapLayer, name: string, what: string | MemberRef): FieldInfo {
  const cols = layerColumns(layer);
  const wanted = name.trim().toLowerCase();
  const hit = cols.all.find((f) => f.name.toLowerCase() === wanted);
  if (hit) return hit;
  throw new InvalidRequestError(
    say`${what}: layer ${layer.id} (${layer.name}) has no field "${name.trim()}". Its fields are: ${
      cols.all.map((f) => f.name).join(", ")
    }.`,
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
      else picked.add(findColumn(layer, name, member("outFields")));
    }
  }
  const columns = cols.all.filter((f) => picked.has(f));
  return {
    columns,
    attributeNames: columns.filter((f) => f.type !== "Geometry").map((f) => f.name),
    geometry: picked.has(cols.shape),
  };
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
 * An attribute value as its field's type holds it: OID, Integer and
 * SmallInteger -> a whole number, Single and Double -> a number, Date -> a
 * Date, String -> text; null for nulls, unreadable values and shapes.
 *
 * @example
 * ```ts ignore
 * fieldValue("12.7", "Integer"); // 12
 * fieldValue("2024-02-29", "Date"); // 2024-02-29T00:00:00.000Z
 * ```
 */
export function fieldValue(v: AttributeValue, type: FieldType): number | string | Date | null {
  if (v === null || v === undefined) return null;
  switch (type) {
    case "OID":
    case "Integer":
    case "SmallInteger": {
      const n = toNumber(v);
      return n === null ? null : Math.trunc(n);
    }
    case "Single":
    case "Double":
      return toNumber(v);
    case "Date":
      return toDate(v);
    case "String":
      return String(v);
    case "Geometry":
      return null;
  }
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

/** Options of {@link featureProperties}. */
export interface PropertyOptions {
  /** Key by field name instead of alias. */
  byName?: boolean;
  /**
   * Whether the feature's geometry was read; when not (a Find without
   * geometry), the shape field says the layer's geometry type, not "Null".
   */
  geometryRead?: boolean;
}

/**
 * Every column of `feature` as stored (numbers as numbers, dates as epoch
 * milliseconds, NULL as null), keyed by alias (or by field name when
 * `byName`), in layer order: what ArcGIS REST's
 * `returnUnformattedValues=true` answers. The shape field names the
 * geometry's kind.
 *
 * @example
 * ```ts ignore
 * featureValues(layer, feature, { byName: true }); // [{ key: "pop", value: 12000 }, ...]
 * ```
 */
export function featureValues(
  layer: MapLayer,
  feature: Feature,
  opts: PropertyOptions = {},
): Property<AttributeValue>[] {
  return columnValues(layer, feature, opts).map(({ field, value }) => ({
    key: opts.byName ? field.name : (field.alias || field.name),
    value,
  }));
}

/**
 * Every column of `feature` as display text, keyed as {@link featureValues}
 * keys them: what Find and Identify report.
 */
export function featureProperties(
  layer: MapLayer,
  feature: Feature,
  opts: PropertyOptions = {},
): Property<string>[] {
  return columnValues(layer, feature, opts).map(({ field, value }) => ({
    key: opts.byName ? field.name : (field.alias || field.name),
    value: field.type === "Geometry" || field.type === "OID"
      ? String(value)
      : formatValue(value, field.type),
  }));
}

/** Each column with its stored value (the shape field: the geometry's kind). */
function columnValues(
  layer: MapLayer,
  feature: Feature,
  opts: PropertyOptions,
): { field: FieldInfo; value: AttributeValue }[] {
  const shape = opts.geometryRead === false ? layer.geometryType : shapeLabel(feature.geometry);
  return layerColumns(layer).all.map((field) => ({
    field,
    value: field.type === "Geometry"
      ? shape
      : field.type === "OID"
      ? feature.id
      : feature.attributes[field.name] ?? null,
  }));
}
