/**
 * GetCapabilities of the WFS face, in WFS 2.0.0 (OWS 1.1, FES 2.0) or
 * 1.1.0 (OWS 1.0, Filter Encoding 1.1): the service, its operations and
 * constraints (basic WFS with result paging; CountDefault is the service's
 * maxRecordCount), one feature type per layer with its default CRS (the
 * layer's), EPSG:4326 and EPSG:3857 besides, its WGS 84 bounding box, and
 * the filter capabilities the FES reader (`_fes.ts`) implements.
 *
 * @module
 */
import { projectExtent } from "../geo/projection.ts";
import { serviceLimits } from "../ops/mod.ts";
import { escapeAttr, escapeText } from "../xml_text.ts";
import { urnCrs } from "./_crs.ts";
import type { FeatureType, WfsScope } from "./_feature_types.ts";
import { COMPARISON_OPERATORS } from "./_fes.ts";
import { type WfsReply, XML } from "./_reply.ts";

/** Output formats of GetFeature, by version. */
export const OUTPUT_FORMATS = {
  "2.0.0": ["application/gml+xml; version=3.2", "text/xml; subtype=gml/3.2", "application/json"],
  "1.1.0": ["text/xml; subtype=gml/3.1.1", "application/json"],
} as const;

/** The CRSs a feature type is offered in besides its own. */
const OTHER_CRS = [4326, 3857];

function wgs84Box(t: FeatureType): [number, number, number, number] {
  const e = t.layer.source.extent();
  if (!e) return [-180, -90, 180, 90];
  try {
    const g = projectExtent(e, t.layer.source.wkid, 4326);
    return [g.xmin, g.ymin, g.xmax, g.ymax];
  } catch {
    return [-180, -90, 180, 90];
  }
}

function featureType(t: FeatureType, v2: boolean): string {
  const own = urnCrs(t.layer.source.wkid);
  const others = OTHER_CRS.filter((w) => w !== own.wkid).map((w) => urnCrs(w).urn);
  const [w, s, e, n] = wgs84Box(t);
  const def = v2 ? "DefaultCRS" : "DefaultSRS", other = v2 ? "OtherCRS" : "OtherSRS";
  const formats = (v2 ? OUTPUT_FORMATS["2.0.0"] : OUTPUT_FORMATS["1.1.0"]).map((f) =>
    `<wfs:Format>${escapeText(f)}</wfs:Format>`
  ).join("");
  return `<wfs:FeatureType>
      <wfs:Name>${escapeText(t.name)}</wfs:Name>
      <wfs:Title>${escapeText(t.layer.name)}</wfs:Title>
      <wfs:Abstract>${escapeText(t.layer.description)}</wfs:Abstract>
      <wfs:${def}>${own.urn}</wfs:${def}>
      ${others.map((u) => `<wfs:${other}>${u}</wfs:${other}>`).join("")}
      <wfs:OutputFormats>${formats}</wfs:OutputFormats>
      <ows:WGS84BoundingBox><ows:LowerCorner>${w} ${s}</ows:LowerCorner><ows:UpperCorner>${e} ${n}</ows:UpperCorner></ows:WGS84BoundingBox>
    </wfs:FeatureType>`;
}

function constraint(name: string, value: string | boolean | number): string {
  return `<ows:Constraint name="${name}"><ows:NoValues/><ows:DefaultValue>${
    typeof value === "boolean" ? (value ? "TRUE" : "FALSE") : value
  }</ows:DefaultValue></ows:Constraint>`;
}

function operation(
  name: string,
  url: string,
  params: Record<string, readonly string[]> = {},
): string {
  const href = escapeAttr(url);
  return `<ows:Operation name="${name}"><ows:DCP><ows:HTTP><ows:Get xlink:href="${href}?"/><ows:Post xlink:href="${href}"/></ows:HTTP></ows:DCP>${
    Object.entries(params).map(([k, vs]) =>
      `<ows:Parameter name="${k}"><ows:AllowedValues>${
        vs.map((v) => `<ows:Value>${escapeText(v)}</ows:Value>`).join("")
      }</ows:AllowedValues></ows:Parameter>`
    ).join("")
  }</ows:Operation>`;
}

function serviceIdentification(scope: WfsScope, version: string): string {
  return `<ows:ServiceIdentification>
    <ows:Title>${escapeText(scope.service.name)}</ows:Title>
    <ows:Abstract>${escapeText(scope.service.description)}</ows:Abstract>
    <ows:ServiceType>WFS</ows:ServiceType>
    <ows:ServiceTypeVersion>${version}</ows:ServiceTypeVersion>
    <ows:Fees>none</ows:Fees>
    <ows:AccessConstraints>${
    escapeText(scope.service.copyrightText || "none")
  }</ows:AccessConstraints>
  </ows:ServiceIdentification>
  <ows:ServiceProvider><ows:ProviderName>${
    escapeText(scope.service.name)
  }</ows:ProviderName><ows:ServiceContact/></ows:ServiceProvider>`;
}

const SPATIAL_OPERANDS = [
  "Envelope",
  "Point",
  "LineString",
  "Polygon",
  "MultiPoint",
  "MultiCurve",
  "MultiSurface",
];

function filterCapabilities20(): string {
  const yes = [
    "ImplementsQuery",
    "ImplementsAdHocQuery",
    "ImplementsResourceId",
    "ImplementsMinStandardFilter",
    "ImplementsStandardFilter",
    "ImplementsMinSpatialFilter",
    "ImplementsSorting",
  ];
  const no = [
    "ImplementsFunctions",
    "ImplementsSpatialFilter",
    "ImplementsMinTemporalFilter",
    "ImplementsTemporalFilter",
    "ImplementsVersionNav",
    "ImplementsExtendedOperators",
    "ImplementsMinimumXPath",
    "ImplementsSchemaElementFunc",
  ];
  return `<fes:Filter_Capabilities>
    <fes:Conformance>${yes.map((c) => constraint(c, true)).join("")}${
    no.map((c) => constraint(c, false)).join("")
  }</fes:Conformance>
    <fes:Id_Capabilities><fes:ResourceIdentifier name="fes:ResourceId"/></fes:Id_Capabilities>
    <fes:Scalar_Capabilities>
      <fes:LogicalOperators/>
      <fes:ComparisonOperators>${
    COMPARISON_OPERATORS.map((o) => `<fes:ComparisonOperator name="${o}"/>`).join("")
  }</fes:ComparisonOperators>
    </fes:Scalar_Capabilities>
    <fes:Spatial_Capabilities>
      <fes:GeometryOperands>${
    SPATIAL_OPERANDS.map((g) => `<fes:GeometryOperand name="gml:${g}"/>`).join("")
  }</fes:GeometryOperands>
      <fes:SpatialOperators><fes:SpatialOperator name="BBOX"/><fes:SpatialOperator name="Intersects"/></fes:SpatialOperators>
    </fes:Spatial_Capabilities>
  </fes:Filter_Capabilities>`;
}

function filterCapabilities11(): string {
  const ops = COMPARISON_OPERATORS.filter((o) => o !== "PropertyIsNil").map((o) =>
    o.replace(/^PropertyIs/, "").replace(/^Equal/, "EqualTo").replace(/^EqualToTo$/, "EqualTo")
  );
  const names: Record<string, string> = {
    EqualTo: "EqualTo",
    NotEqualTo: "NotEqualTo",
    LessThan: "LessThan",
    GreaterThan: "GreaterThan",
    LessThanOrEqualTo: "LessThanEqualTo",
    GreaterThanOrEqualTo: "GreaterThanEqualTo",
    Like: "Like",
    Null: "NullCheck",
    Between: "Between",
  };
  return `<ogc:Filter_Capabilities>
    <ogc:Spatial_Capabilities>
      <ogc:GeometryOperands>${
    SPATIAL_OPERANDS.map((g) => `<ogc:GeometryOperand>gml:${g}</ogc:GeometryOperand>`).join("")
  }</ogc:GeometryOperands>
      <ogc:SpatialOperators><ogc:SpatialOperator name="BBOX"/><ogc:SpatialOperator name="Intersects"/></ogc:SpatialOperators>
    </ogc:Spatial_Capabilities>
    <ogc:Scalar_Capabilities>
      <ogc:LogicalOperators/>
      <ogc:ComparisonOperators>${
    ops.map((o) => `<ogc:ComparisonOperator>${names[o] ?? o}</ogc:ComparisonOperator>`).join("")
  }</ogc:ComparisonOperators>
    </ogc:Scalar_Capabilities>
    <ogc:Id_Capabilities><ogc:FID/></ogc:Id_Capabilities>
  </ogc:Filter_Capabilities>`;
}

/**
 * The capabilities document of `scope` in `version`.
 *
 * @example
 * ```ts ignore
 * getCapabilities(scope, "2.0.0").body.includes("<wfs:FeatureTypeList>"); // true
 * ```
 */
export function getCapabilities(scope: WfsScope, version: "2.0.0" | "1.1.0"): WfsReply {
  const v2 = version === "2.0.0";
  const url = scope.endpoint;
  const max = serviceLimits(scope.service).maxRecordCount;
  const typeNames = scope.types.map((t) => t.name);
  const formats = v2 ? OUTPUT_FORMATS["2.0.0"] : OUTPUT_FORMATS["1.1.0"];
  const ops = [
    operation("GetCapabilities", url, {
      AcceptVersions: ["2.0.0", "1.1.0"],
      AcceptFormats: ["text/xml"],
    }),
    operation("DescribeFeatureType", url, {
      outputFormat: [v2 ? "application/gml+xml; version=3.2" : "text/xml; subtype=gml/3.1.1"],
    }),
    operation("GetFeature", url, {
      resultType: ["results", "hits"],
      outputFormat: formats,
      ...(v2 ? {} : { typeName: typeNames }),
    }),
    ...(v2 ? [operation("ListStoredQueries", url), operation("DescribeStoredQueries", url)] : []),
  ].join("\n    ");
  const constraints = v2
    ? [
      constraint("ImplementsBasicWFS", true),
      constraint("ImplementsTransactionalWFS", false),
      constraint("ImplementsLockingWFS", false),
      constraint("KVPEncoding", true),
      constraint("XMLEncoding", true),
      constraint("SOAPEncoding", false),
      constraint("ImplementsInheritance", false),
      constraint("ImplementsRemoteResolve", false),
      constraint("ImplementsResultPaging", true),
      constraint("ImplementsStandardJoins", false),
      constraint("ImplementsSpatialJoins", false),
      constraint("ImplementsTemporalJoins", false),
      constraint("ImplementsFeatureVersioning", false),
      constraint("ManageStoredQueries", false),
      constraint("CountDefault", max),
      `<ows:Constraint name="QueryExpressions"><ows:AllowedValues><ows:Value>wfs:Query</ows:Value><ows:Value>wfs:StoredQuery</ows:Value></ows:AllowedValues></ows:Constraint>`,
    ].join("")
    : "";
  const ows = v2 ? "http://www.opengis.net/ows/1.1" : "http://www.opengis.net/ows";
  const wfs = v2 ? "http://www.opengis.net/wfs/2.0" : "http://www.opengis.net/wfs";
  const gml = v2 ? "http://www.opengis.net/gml/3.2" : "http://www.opengis.net/gml";
  const schema = v2
    ? "http://www.opengis.net/wfs/2.0 http://schemas.opengis.net/wfs/2.0/wfs.xsd"
    : "http://www.opengis.net/wfs http://schemas.opengis.net/wfs/1.1.0/wfs.xsd";
  const body = `<?xml version="1.0" encoding="UTF-8"?>
<wfs:WFS_Capabilities version="${version}" xmlns:wfs="${wfs}" xmlns:ows="${ows}" xmlns:gml="${gml}" xmlns:fes="http://www.opengis.net/fes/2.0" xmlns:ogc="http://www.opengis.net/ogc" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:${scope.prefix}="${
    escapeAttr(url)
  }" xsi:schemaLocation="${schema}">
  ${serviceIdentification(scope, version)}
  <ows:OperationsMetadata>
    ${ops}
    ${constraints}
  </ows:OperationsMetadata>
  <wfs:FeatureTypeList>
    ${v2 ? "" : "<wfs:Operations><wfs:Operation>Query</wfs:Operation></wfs:Operations>"}
    ${scope.types.map((t) => featureType(t, v2)).join("\n    ")}
  </wfs:FeatureTypeList>
  ${v2 ? filterCapabilities20() : filterCapabilities11()}
</wfs:WFS_Capabilities>
`;
  return { status: 200, contentType: XML, body };
}
