/**
 * Type table, part 2: map and layer descriptions, images, service and
 * layer metadata (spec §3 A, B).
 *
 * @module
 */
import { abstract, complex, ext, type TypeDef } from "./schema.ts";

/** Map description, layer description, image types (§3-A). */
export const MAP_DESCRIPTION_TYPES: readonly TypeDef[] = [
  complex(
    "MapDescription",
    "Name:string MapArea:MapArea? LayerDescriptions:ArrayOfLayerDescription? Rotation:double " +
      "SpatialReference:SpatialReference? TransparentColor:Color? SelectionColor:Color? " +
      "BackgroundSymbol:FillSymbol? CustomGraphics:ArrayOfGraphicElement? " +
      "GeoTransformation:GeoTransformation? TimeReference:TimeReference? TimeValue:TimeValue? " +
      "HonorLayerReordering:boolean? TimeRelation:esriTimeRelation?",
  ),
  abstract("MapArea", "Extent:Envelope?"),
  ext("MapArea", "MapExtent"),
  ext(
    "MapArea",
    "CenterAndScale",
    "Center:Point? Scale:double DPI:double? DevBottom:int? DevLeft:int? DevTop:int? DevRight:int?",
  ),
  ext("MapArea", "CenterAndSize", "Center:Point? Height:double Width:double Units:string"),
  ext(
    "MapArea",
    "FeatureExtent",
    "DefaultScale:double ExpandRatio:double=1.0 FeatureIDs:ArrayOfInt? LayerID:int MapName:string",
  ),
  ext("MapArea", "MapServerBookmark", "Name:string"),
  abstract("MapTableDescription"),
  ext(
    "MapTableDescription",
    "LayerDescription",
    "LayerID:int Visible:boolean ShowLabels:boolean ScaleSymbols:boolean " +
      "SelectionFeatures:ArrayOfInt? SelectionColor:Color? SelectionSymbol:Symbol? " +
      "SetSelectionSymbol:boolean SelectionBufferDistance:double ShowSelectionBuffer:boolean " +
      "DefinitionExpression:string SourceID:string? SelectionBufferSymbol:FillSymbol? " +
      "LayerResultOptions:LayerResultOptions? UseTime:boolean? TimeDataCumulative:boolean? " +
      "TimeOffset:double? TimeOffsetUnits:esriTimeUnits? " +
      "DrawingDescription:LayerDrawingDescription? Source:MapServerSourceDescription?",
  ),
  ext(
    "MapTableDescription",
    "StandaloneTableDescription",
    "ID:int DefinitionExpression:string? SourceID:string? UseTime:boolean? " +
      "TimeDataCumulative:boolean? TimeOffset:double? TimeOffsetUnits:esriTimeUnits? " +
      "Source:MapServerSourceDescription?",
  ),
  complex(
    "LayerResultOptions",
    "IncludeGeometry:boolean?=true GeometryResultOptions:GeometryResultOptions? " +
      "ReturnFieldNamesInResults:boolean?=false FormatValuesInResults:boolean?=true",
  ),
  complex(
    "GeometryResultOptions",
    "DensifyGeometries:boolean?=false MaximumSegmentLength:double?=-1.0 " +
      "MaximumDeviation:double?=0.0 GeneralizeGeometries:boolean?=false " +
      "MaximumAllowableOffset:double?=0.0",
  ),
  complex("GeoTransformation", "WKT:string? WKID:int?"),
  complex("ImageDescription", "ImageType:ImageType? ImageDisplay:ImageDisplay?"),
  complex("ImageType", "ImageFormat:esriImageFormat ImageReturnType:esriImageReturnType"),
  complex(
    "ImageDisplay",
    "ImageHeight:int ImageWidth:int ImageDPI:double TransparentColor:Color?",
  ),
  complex(
    "MapImage",
    "ImageData:base64Binary? ImageURL:string Extent:Envelope? VisibleLayerIDs:ArrayOfInt? " +
      "MapScale:double ImageHeight:int ImageWidth:int ImageDPI:double ImageType:string?",
  ),
  complex(
    "ImageResult",
    "ImageData:base64Binary? ImageURL:string ImageHeight:int ImageWidth:int ImageDPI:double " +
      "ImageType:string?",
  ),
];

/** Service and layer metadata (§3-B). */
export const METADATA_TYPES: readonly TypeDef[] = [
  complex(
    "MapServerInfo",
    "Name:string Description:string FullExtent:Envelope? Extent:Envelope? " +
      "SpatialReference:SpatialReference? MapLayerInfos:ArrayOfMapLayerInfo? BackgroundColor:Color? " +
      "Bookmarks:ArrayOfMapServerBookmark? DefaultMapDescription:MapDescription? Units:esriUnits " +
      "SupportedImageReturnTypes:esriImageReturnType BackgroundSymbol:FillSymbol? " +
      "CopyrightText:string StandaloneTableInfos:ArrayOfStandaloneTableInfo? " +
      "StandaloneTableDescriptions:ArrayOfStandaloneTableDescription? FullTimeExtent:TimeExtent? " +
      "DefaultTimeStepInterval:double? DefaultTimeStepIntervalUnits:esriTimeUnits? " +
      "DefaultTimeWindow:double? SupportsDynamicLayers:boolean? HasLiveData:boolean? " +
      "MinScale:double? MaxScale:double?",
  ),
  abstract("MapTableInfo"),
  ext(
    "MapTableInfo",
    "MapLayerInfo",
    "LayerID:int Name:string Description:string LayerType:string SourceDescription:string " +
      "HasLabels:boolean CanSelect:boolean CanScaleSymbols:boolean MinScale:double MaxScale:double " +
      "Extent:Envelope? HasHyperlinks:boolean HasAttributes:boolean CanIdentify:boolean " +
      "CanFind:boolean IsFeatureLayer:boolean Fields:Fields? DisplayField:string IDField:string " +
      "IsComposite:boolean SubLayerIDs:ArrayOfInt? ParentLayerID:int FieldAliases:ArrayOfString? " +
      "CopyrightText:string RelateInfos:ArrayOfRelateInfo? SupportsTime:boolean? " +
      "StartTimeFieldName:string? EndTimeFieldName:string? TimeValueFormat:string? " +
      "TrackIDFieldName:string? TimeReference:TimeReference? FullTimeExtent:TimeExtent? " +
      "TimeInterval:double?=0.0 TimeIntervalUnits:esriTimeUnits? HasAttachments:boolean? " +
      "HTMLPopupType:esriServerHTMLPopupType? HasLayerDrawingDescription:boolean? " +
      "HasSubtype:boolean? CanModifyDrawingDescription:boolean? SupportsStatistics:boolean? " +
      "SupportsAdvancedQueries:boolean? HasLiveData:boolean?",
  ),
  ext(
    "MapTableInfo",
    "StandaloneTableInfo",
    "ID:int Name:string Fields:Fields? RelateInfos:ArrayOfRelateInfo? SupportsTime:boolean? " +
      "StartTimeFieldName:string? EndTimeFieldName:string? TimeValueFormat:string? " +
      "TrackIDFieldName:string? TimeReference:TimeReference? FullTimeExtent:TimeExtent? " +
      "TimeInterval:double?=0.0 TimeIntervalUnits:esriTimeUnits? HasAttachments:boolean? " +
      "DisplayField:string? Description:string? IDField:string? HasSubtype:boolean? " +
      "SupportsStatistics:boolean? SupportsAdvancedQueries:boolean?",
  ),
  complex(
    "RelateInfo",
    "Name:string RelationshipID:int RelatedTableID:int Role:esriRelRole? " +
      "Cardinality:esriRelCardinality? KeyField:string? IsComposite:boolean? " +
      "RelationshipTableId:int? KeyFieldInRelationshipTable:string?",
  ),
  complex(
    "SQLSyntaxInfo",
    "FunctionNames:PropertySet? SpecialCharacters:PropertySet? SupportedPredicates:ArrayOfString? " +
      "SupportedClauses:ArrayOfString? IdentifierCase:boolean DelimitedIdentifierCase:boolean " +
      "StringComparisonCase:boolean Keywords:ArrayOfString? InvalidCharacters:string " +
      "InvalidStartingCharacters:string",
  ),
  complex("PropertySet", "PropertyArray:ArrayOfPropertySetProperty"),
  complex("PropertySetProperty", "Key:string Value:anyType?~"),
];
