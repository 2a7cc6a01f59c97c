/**
 * Plain types shared by everything geographic: geometry, extents, fields,
 * features and the feature-source plug-in interface.
 *
 * Coordinates are always `[x, y]` in the source's own spatial reference
 * (for geographic ones x = longitude, y = latitude, in degrees).
 *
 * @module
 */

/** A coordinate pair `[x, y]`. */
export type Position = [number, number];

/** An axis-aligned rectangle in map units. */
export interface Extent {
  xmin: number;
  ymin: number;
  xmax: number;
  ymax: number;
}

/** Geometry in the ArcGIS model (rings: outer clockwise, holes counter-clockwise). */
export type Geometry =
  | { type: "Point"; x: number; y: number }
  | { type: "Multipoint"; points: Position[] }
  | { type: "Polyline"; paths: Position[][] }
  | { type: "Polygon"; rings: Position[][] }
  | { type: "Envelope"; xmin: number; ymin: number; xmax: number; ymax: number };

/** Geometry kinds a layer can hold. */
export type LayerGeometryType = "Point" | "Multipoint" | "Polyline" | "Polygon";

/** Attribute field kinds, named after `esriFieldType` without the prefix. */
export type FieldType =
  | "OID"
  | "SmallInteger"
  | "Integer"
  | "Single"
  | "Double"
  | "String"
  | "Date"
  | "Geometry";

/** The field types whose values are numbers (the object id included). */
export const NUMERIC_FIELD_TYPES: ReadonlySet<FieldType> = new Set<FieldType>([
  "OID",
  "SmallInteger",
  "Integer",
  "Single",
  "Double",
]);

/** One attribute field of a layer. */
export interface FieldInfo {
  name: string;
  type: FieldType;
  alias: string;
  /** Maximum length for strings; 0 when not applicable. */
  length: number;
  nullable: boolean;
}

/** An attribute value as it comes out of a source (dates as epoch milliseconds). */
export type AttributeValue = string | number | boolean | null;

/** One feature: object id, attributes by field name, geometry. */
export interface Feature {
  id: number;
  attributes: Record<string, AttributeValue>;
  geometry: Geometry | null;
}
