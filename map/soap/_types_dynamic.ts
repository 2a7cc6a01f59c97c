/**
 * Type table, part 5: dynamic layers — drawing descriptions, renderers,
 * labeling and source descriptions (spec §3-N).
 *
 * @module
 */
import { abstract, complex, ext, type TypeDef } from "./schema.ts";

const RASTER_LEGEND = "LegendGroupsCount:int? LegendGroups:ArrayOfLegendGroup?";

/** Dynamic-layer types (§3-N). */
export const DYNAMIC_LAYER_TYPES: readonly TypeDef[] = [
  abstract("LayerDrawingDescription"),
  ext(
    "LayerDrawingDescription",
    "FeatureLayerDrawingDescription",
    "FeatureRenderer:FeatureRenderer? ScaleSymbols:boolean? Transparency:short? " +
      "Brightness:short? Contrast:short? LabelingDescription:LabelingDescription? " +
      "SourceLayerID:int?",
  ),
  ext(
    "LayerDrawingDescription",
    "RasterLayerDrawingDescription",
    "RasterRenderer:RasterRenderer? Transparency:short? Brightness:short? Contrast:short?",
  ),
  abstract("FeatureRenderer"),
  ext(
    "FeatureRenderer",
    "SimpleRenderer",
    "Symbol:Symbol Label:string? Description:string? RotationField:string? " +
      "RotationType:esriRotationType? TransparencyField:string?",
  ),
  ext(
    "FeatureRenderer",
    "UniqueValueRenderer",
    "Field1:string Field2:string? Field3:string? FieldDelimiter:string? DefaultSymbol:Symbol? " +
      "DefaultLabel:string? UniqueValueInfos:ArrayOfUniqueValueInfo? RotationField:string? " +
      "RotationType:esriRotationType? TransparencyField:string?",
  ),
  complex("UniqueValueInfo", "Value:string Label:string? Description:string? Symbol:Symbol?"),
  ext(
    "FeatureRenderer",
    "ClassBreaksRenderer",
    "Field:string MinimumValue:double ClassBreakInfos:ArrayOfClassBreakInfo " +
      "BackgroundSymbol:FillSymbol? NormalizationField:string? " +
      "NormalizationType:esriNormalizationType? NormalizationTotal:double? RotationField:string? " +
      "RotationType:esriRotationType?",
  ),
  complex(
    "ClassBreakInfo",
    "ClassMaximumValue:double Label:string? Description:string? Symbol:Symbol " +
      "ClassMinimumValue:double",
  ),
  abstract(
    "RasterRenderer",
    "Indexed:boolean? Brightness:int? Contrast:int? ResamplingType:string? NoDataColor:Color? " +
      "NoDataValue:ArrayOfDouble? AlphaBandIndex:int? UseAlphaBand:boolean?",
  ),
  ext(
    "RasterRenderer",
    "RasterRGBRenderer",
    "LayerIndex1:int? LayerIndex2:int? LayerIndex3:int? UseRGBBand:unsignedByte? " +
      "StretchType:string? StandardDeviations:double? IsInvert:boolean? DisplayBkValue:boolean? " +
      "BlackValue:ArrayOfDouble? IsLegendExpand:boolean? BkColor:Color?",
  ),
  ext(
    "RasterRenderer",
    "RasterStretchRenderer",
    "ColorSchema:string? LayerIndex1:int? StretchType:string? StandardDeviations:double? " +
      "IsInvert:boolean? BlackValue:double? ColorRamp:ColorRamp? BkColor:Color? " +
      "LegendGroup:LegendGroup? DisplayBkValue:boolean? InitCustomMinMax:boolean? " +
      "UseCustomMinMax:boolean? CustomMin:double? CustomMax:double?",
  ),
  ext(
    "RasterRenderer",
    "RasterUniqueValueRenderer",
    "ValueField:string? ClassField:string? ColorSchema:string? UseDefaultSymbol:boolean? " +
      "DefaultSymbol:Symbol? DefaultLabel:string? " + RASTER_LEGEND +
      " ClassValuesCount:int? ClassesInLegend:ArrayOfInt? ClassesInLegendSize:ArrayOfInt? " +
      "UniqueValueVariants:ArrayOfValue? Global:boolean? UniqueValues:RasterUniqueValues? " +
      "ColorRamp:ColorRamp?",
  ),
  ext(
    "RasterRenderer",
    "RasterClassifyRenderer",
    "ClassField:string? NormField:string? ClassificationComponent:boolean? Guid:string? " +
      "ColorSchema:string? " + RASTER_LEGEND +
      " BreakSize:int? ArrayOfBreak:ArrayOfDouble? Ascending:boolean? " +
      "NumberFormat:NumericFormat? ShowClassGaps:boolean? DeviationInterval:double? " +
      "ExlusionValues:anyType? ExclusionRanges:anyType? ExclusionShowClass:boolean? " +
      "ExclusionLegendClass:LegendClass? UniqueValues:RasterUniqueValues? " +
      "UseHillShader:boolean? ZScale:double?",
  ),
  complex(
    "RasterUniqueValues",
    "UniqueValuesSize:int? Values:ArrayOfValue? Counts:ArrayOfInt?",
  ),
  complex(
    "LegendGroup",
    "Visible:boolean Editable:boolean Heading:string LegendClasses:ArrayOfLegendClass?",
  ),
  complex(
    "LegendClass",
    "Symbol:Symbol? Label:string Description:string LegendClassFormat:LegendClassFormat?",
  ),
  complex(
    "LegendClassFormat",
    "LabelSymbol:Symbol? DescriptionSymbol:Symbol? LinePatch:LinePatch? AreaPatch:AreaPatch? " +
      "PatchWidth:double PatchHeight:double",
  ),
  complex("LabelingDescription", "LabelClassDescriptions:ArrayOfLabelClassDescription"),
  complex(
    "LabelClassDescription",
    "LabelPlacementDescription:LabelPlacementDescription? LabelExpression:string? " +
      "Symbol:SimpleTextSymbol? UseCodedValue:boolean? MaximumScale:double? " +
      "MinimumScale:double? LabelExpressionType:esriLabelExpressionType? WhereClause:string?",
  ),
  abstract("LabelPlacementDescription"),
  ext(
    "LabelPlacementDescription",
    "PointLabelPlacementDescription",
    "Type:esriServerPointLabelPlacementType",
  ),
  ext(
    "LabelPlacementDescription",
    "LineLabelPlacementDescription",
    "Type:esriServerLineLabelPlacementType",
  ),
  ext(
    "LabelPlacementDescription",
    "PolygonLabelPlacementDescription",
    "Type:esriServerPolygonLabelPlacementType",
  ),
  abstract("MapServerSourceDescription"),
  ext(
    "MapServerSourceDescription",
    "MapTableSourceDescription",
    "MapTableID:int VersionName:string?",
  ),
  ext("MapServerSourceDescription", "DataSourceDescription", "WorkspaceID:string"),
  ext("DataSourceDescription", "TableDataSourceDescription", "TableName:string VersionName:string"),
  ext(
    "DataSourceDescription",
    "QueryTableDataSourceDescription",
    "Query:string OIDFields:string GeometryType:esriGeometryType " +
      "SpatialReference:SpatialReference",
  ),
  ext("DataSourceDescription", "RasterDataSourceDescription", "RasterName:string"),
  ext(
    "MapServerSourceDescription",
    "JoinTableSourceDescription",
    "LeftSourceDescription:MapServerSourceDescription " +
      "RightSourceDescription:MapServerSourceDescription LeftTableKey:string " +
      "RightTableKey:string JoinType:esriJoinType?",
  ),
];
