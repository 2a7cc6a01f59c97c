/**
 * DescribeFeatureType: the GML application schema of one or more feature
 * types (GML 3.2 for WFS 2.0.0, GML 3.1.1 for 1.1.0), each attribute typed
 * from its field type and the geometry property typed by the layer's
 * geometry (multi-geometries for lines and polygons, as GetFeature writes
 * them). Attributes with no value are left out of a feature, so every
 * attribute is `minOccurs="0"`.
 *
 * @module
 */
import type { FieldType, LayerGeometryType } from "../types.ts";
import { escapeAttr } from "../xml_text.ts";
import type { FeatureType, WfsScope } from "./_feature_types.ts";
import { type WfsReply, XML } from "./_reply.ts";

/** XML Schema type of each field type. */
const XSD_TYPES: Record<Exclude<FieldType, "Geometry">, string> = {
  OID: "xsd:int",
  SmallInteger: "xsd:short",
  Integer: "xsd:int",
  Single: "xsd:float",
  Double: "xsd:double",
  String: "xsd:string",
  Date: "xsd:dateTime",
};

/** The GML property type of each geometry type. */
export const GEOMETRY_PROPERTY: Record<LayerGeometryType, string> = {
  Point: "gml:PointPropertyType",
  Multipoint: "gml:MultiPointPropertyType",
  Polyline: "gml:MultiCurvePropertyType",
  Polygon: "gml:MultiSurfacePropertyType",
};

function complexType(t: FeatureType, v2: boolean): string {
  const fields = t.fields.map((f) =>
    `<xsd:element name="${escapeAttr(f.xml)}" type="${
      XSD_TYPES[f.field.type as Exclude<FieldType, "Geometry">] ?? "xsd:string"
    }" minOccurs="${f.field.type === "OID" ? 1 : 0}" maxOccurs="1"${
      f.field.nullable ? ' nillable="true"' : ""
    }/>`
  );
  fields.splice(
    1,
    0,
    `<xsd:element name="${escapeAttr(t.geometryName)}" type="${
      GEOMETRY_PROPERTY[t.layer.geometryType]
    }" minOccurs="0" maxOccurs="1" nillable="true"/>`,
  );
  return `<xsd:element name="${escapeAttr(t.local)}" type="${t.name}Type" substitutionGroup="gml:${
    v2 ? "AbstractFeature" : "_Feature"
  }"/>
  <xsd:complexType name="${escapeAttr(t.local)}Type">
    <xsd:complexContent>
      <xsd:extension base="gml:AbstractFeatureType">
        <xsd:sequence>
          ${fields.join("\n          ")}
        </xsd:sequence>
      </xsd:extension>
    </xsd:complexContent>
  </xsd:complexType>`;
}

/**
 * The application schema of `types` (every feature type when empty).
 *
 * @example
 * ```ts ignore
 * describeFeatureType(scope, [], "2.0.0").body.startsWith("<?xml"); // true
 * ```
 */
export function describeFeatureType(
  scope: WfsScope,
  types: FeatureType[],
  version: "2.0.0" | "1.1.0",
): WfsReply {
  const v2 = version === "2.0.0";
  const gml = v2 ? "http://www.opengis.net/gml/3.2" : "http://www.opengis.net/gml";
  const gmlSchema = v2
    ? "http://schemas.opengis.net/gml/3.2.1/gml.xsd"
    : "http://schemas.opengis.net/gml/3.1.1/base/gml.xsd";
  const ns = escapeAttr(scope.endpoint);
  const body = `<?xml version="1.0" encoding="UTF-8"?>
<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:gml="${gml}" xmlns:${scope.prefix}="${ns}" targetNamespace="${ns}" elementFormDefault="qualified" attributeFormDefault="unqualified">
  <xsd:import namespace="${gml}" schemaLocation="${gmlSchema}"/>
  ${(types.length ? types : scope.types).map((t) => complexType(t, v2)).join("\n  ")}
</xsd:schema>
`;
  return {
    status: 200,
    contentType: XML,
    body,
  };
}
