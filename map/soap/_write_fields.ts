/**
 * SOAP writers of the values records and layer descriptions share: a
 * field's `Field` description, an attribute value typed by its field, and
 * a PropertySet of named values.
 *
 * @module
 */
import type { AttributeValue, FieldInfo, FieldType, LayerGeometryType } from "../types.ts";
import type { Property } from "../ops/mod.ts";
import { ESRI_GEOMETRY_TYPE, fieldValue } from "../ops/mod.ts";
import { type SoapObject, spatialReferenceToSoap } from "./_write_geometry.ts";

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

/**
 * A `Field` of a RecordSet's or a MapLayerInfo's `Fields/FieldArray`; a
 * shape column carries its GeometryDef.
 *
 * @example
 * ```ts
 * import { fieldToSoap } from "./_write_fields.ts";
 * fieldToSoap({ name: "id", type: "OID", alias: "id", length: 4, nullable: false }, "Point", 4326).Type;
 * // "esriFieldTypeOID"
 * ```
 */
export function fieldToSoap(
  f: FieldInfo,
  geometryType: LayerGeometryType,
  wkid: number,
): SoapObject {
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
      GeometryType: ESRI_GEOMETRY_TYPE[geometryType] ?? "esriGeometryPoint",
      HasM: false,
      HasZ: false,
      SpatialReference: spatialReferenceToSoap(wkid),
    };
  }
  field.AliasName = f.alias || f.name;
  return field;
}

/** The XSD type of a whole number: the smallest of `types` that holds it. */
function wholeType(n: number, types: ("short" | "int" | "long")[]): string {
  const max = { short: 32767, int: 2147483647, long: Infinity };
  return types.find((t) => Math.abs(n) <= max[t])!;
}

/**
 * An attribute value in the anyType convention of the encoder, typed by
 * the field: OID/Integer -> int, SmallInteger -> short, Single -> float,
 * Double -> double (forced, so 5.0 stays a double), String -> string,
 * Date -> dateTime; null (or an unreadable value) -> xsi:nil.
 *
 * @example
 * ```ts
 * import { valueToSoap } from "./_write_fields.ts";
 * valueToSoap(5, "Double"); // { $xsd: "double", value: 5 }
 * ```
 */
export function valueToSoap(v: AttributeValue, type: FieldType): unknown {
  const value = fieldValue(v, type);
  if (value === null || typeof value !== "number") return value;
  switch (type) {
    case "OID":
    case "Integer":
      // 64-bit keys of some GeoPackages do not fit xs:int; anyType lets them travel as xs:long.
      return { $xsd: wholeType(value, ["int", "long"]), value };
    case "SmallInteger":
      // SQLite does not enforce SMALLINT; a wider value is written with the smallest type that holds it.
      return { $xsd: wholeType(value, ["short", "int", "long"]), value };
    default:
      return { $xsd: type === "Single" ? "float" : "double", value };
  }
}

/**
 * A PropertySet of named values.
 *
 * @example
 * ```ts
 * import { propertySetToSoap } from "./_write_fields.ts";
 * propertySetToSoap([{ key: "Title", value: "Map" }]).PropertyArray;
 * ```
 */
export function propertySetToSoap(properties: readonly Property<unknown>[]): SoapObject {
  return {
    PropertyArray: properties.map((p) => ({
      $type: "PropertySetProperty",
      Key: p.key,
      Value: p.value,
    })),
  };
}
