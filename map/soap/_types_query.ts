/**
 * Type table, part 3: queries and records, find/identify/hyperlink
 * results, legends and caches (spec §3 C, D, E, F).
 *
 * @module
 */
import { abstract, complex, ext, type TypeDef } from "./schema.ts";

/** Query input and output (§3-C). */
export const QUERY_TYPES: readonly TypeDef[] = [
  complex(
    "QueryFilter",
    "SubFields:string? WhereClause:string SpatialReferenceFieldName:string? Resolution:double " +
      "OutputSpatialReference:SpatialReference? FIDSet:FIDSet? PostfixClause:string? " +
      "FilterDefs:ArrayOfFilterDef? PrefixClause:string?",
  ),
  ext(
    "QueryFilter",
    "SpatialFilter",
    "SearchOrder:esriSearchOrder SpatialRel:esriSpatialRelEnum SpatialRelDescription:string " +
      "FilterGeometry:Geometry GeometryFieldName:string FilterOwnsGeometry:boolean",
  ),
  ext(
    "SpatialFilter",
    "TimeQueryFilter",
    "TimeValue:TimeValue OutputTimeReference:TimeReference TimeRelation:esriTimeRelation",
  ),
  ext("TimeQueryFilter", "ImageQueryFilter", "PixelSize:Point"),
  abstract("FilterDef"),
  ext("FilterDef", "XMLFilterDef", "FieldName:string Expression:string"),
  complex("FIDSet", "FIDArray:ArrayOfInt"),
  complex(
    "QueryResultOptions",
    "Format:esriQueryResultFormat FormatProperties:PropertySet? GeoTransformation:GeoTransformation?",
  ),
  complex("QueryResult", "MimeData:base64Binary? URL:string Object:anyType"),
  complex("RecordSet", "Fields:Fields Records:ArrayOfRecord"),
  complex("Record", "Values:ArrayOfValue"),
  complex("Fields", "FieldArray:ArrayOfField"),
  complex(
    "Field",
    "Name:string Type:esriFieldType IsNullable:boolean Length:int Precision:int Scale:int " +
      "Required:boolean? Editable:boolean?=true DomainFixed:boolean? GeometryDef:GeometryDef? " +
      "AliasName:string? ModelName:string? DefaultValue:anyType? Domain:Domain? RasterDef:RasterDef?",
  ),
  complex(
    "GeometryDef",
    "AvgNumPoints:int GeometryType:esriGeometryType HasM:boolean HasZ:boolean " +
      "SpatialReference:SpatialReference GridSize0:double? GridSize1:double? GridSize2:double?",
  ),
  complex(
    "RasterDef",
    "Description:string? IsByRef:boolean? SpatialReference:SpatialReference? " +
      "IsByFunction:boolean? IsInline:boolean?",
  ),
  abstract(
    "Domain",
    "DomainName:string FieldType:esriFieldType MergePolicy:esriMergePolicyType " +
      "SplitPolicy:esriSplitPolicyType Description:string? Owner:string?",
  ),
  ext("Domain", "CodedValueDomain", "CodedValues:ArrayOfCodedValue"),
  ext("CodedValueDomain", "BitMaskCodedValueDomain"),
  ext("Domain", "RangeDomain", "MaxValue:anyType MinValue:anyType"),
  complex("CodedValue", "Name:string Code:anyType"),
];

/** Find, identify and hyperlink results (§3-D). */
export const RESULT_TYPES: readonly TypeDef[] = [
  complex(
    "MapServerFindResult",
    "Value:string LayerID:int FeatureID:int FieldName:string Shape:Geometry? Properties:PropertySet?",
  ),
  complex(
    "MapServerIdentifyResult",
    "LayerID:int Name:string Properties:PropertySet? Shape:Geometry? " +
      "Relationships:ArrayOfMapServerRelationship? HTMLPopup:string? FeatureID:int?",
  ),
  complex("MapServerRelationship", "Name:string Rows:ArrayOfMapServerRow?"),
  complex(
    "MapServerRow",
    "Name:string Properties:PropertySet? Relationships:ArrayOfMapServerRelationship? FeatureID:int?",
  ),
  complex("MapServerHyperlink", "Location:Geometry? URL:string"),
];

/** Legend types (§3-E). */
export const LEGEND_TYPES: readonly TypeDef[] = [
  complex(
    "MapServerLegendPatch",
    "Width:double Height:double ImageDPI:double LinePatch:LinePatch? AreaPatch:AreaPatch?",
  ),
  complex("Patch", "Name:string? PreserveAspectRatio:boolean? Geometry:Geometry?"),
  ext("Patch", "LinePatch"),
  ext("Patch", "AreaPatch"),
  complex(
    "MapServerLegendInfo",
    "LayerID:int Name:string LegendGroups:ArrayOfMapServerLegendGroup?",
  ),
  complex("MapServerLegendGroup", "Heading:string LegendClasses:ArrayOfMapServerLegendClass?"),
  complex(
    "MapServerLegendClass",
    "Label:string Description:string SymbolImage:ImageResult? TransparentColor:Color?",
  ),
];

/** Cache types (§3-F). */
export const CACHE_TYPES: readonly TypeDef[] = [
  complex(
    "TileCacheInfo",
    "SpatialReference:SpatialReference? TileOrigin:Point? TileCols:int TileRows:int DPI:int " +
      "LODInfos:ArrayOfLODInfo? PreciseDPI:double?",
  ),
  complex("LODInfo", "LevelID:int Scale:double Resolution:double"),
  complex(
    "TileImageInfo",
    "CacheTileFormat:string CompressionQuality:int Antialiasing:string BandCount:int?=1 " +
      "LERCError:double?",
  ),
  complex("CacheControlInfo", "ClientCachingAllowed:boolean"),
];
