/**
 * Type table, part 6: `ArrayOfX` wrappers (spec §3-O) and enumerations
 * (spec §4).
 *
 * @module
 */
import { array, enumeration, type TypeDef } from "./schema.ts";

/** Array wrappers with their item element names. */
export const ARRAY_TYPES: readonly TypeDef[] = [
  array("ArrayOfClassBreakInfo", "ClassBreakInfo", "ClassBreakInfo"),
  array("ArrayOfCodedValue", "CodedValue", "CodedValue"),
  array("ArrayOfColor", "Color", "Color"),
  array("ArrayOfColorRamp", "ColorRamp", "ColorRamp"),
  array("ArrayOfDouble", "Double", "double"),
  array("ArrayOfField", "Field", "Field"),
  array("ArrayOfFilterDef", "FilterDef", "FilterDef"),
  array("ArrayOfGraphicElement", "GraphicElement", "GraphicElement"),
  array("ArrayOfInt", "Int", "int"),
  array("ArrayOfLODInfo", "LODInfo", "LODInfo"),
  array("ArrayOfLabelClassDescription", "LabelClassDescription", "LabelClassDescription"),
  array("ArrayOfLayerDescription", "LayerDescription", "LayerDescription"),
  array("ArrayOfLegendClass", "LegendClass", "LegendClass"),
  array("ArrayOfLegendGroup", "LegendGroup", "LegendGroup"),
  array("ArrayOfMapLayerInfo", "MapLayerInfo", "MapLayerInfo"),
  array("ArrayOfMapServerBookmark", "MapServerBookmark", "MapServerBookmark"),
  array("ArrayOfMapServerFindResult", "MapServerFindResult", "MapServerFindResult"),
  array("ArrayOfMapServerHyperlink", "MapServerHyperlink", "MapServerHyperlink"),
  array("ArrayOfMapServerIdentifyResult", "MapServerIdentifyResult", "MapServerIdentifyResult"),
  array("ArrayOfMapServerLegendClass", "MapServerLegendClass", "MapServerLegendClass"),
  array("ArrayOfMapServerLegendGroup", "MapServerLegendGroup", "MapServerLegendGroup"),
  array("ArrayOfMapServerLegendInfo", "MapServerLegendInfo", "MapServerLegendInfo"),
  array("ArrayOfMapServerRelationship", "MapServerRelationship", "MapServerRelationship"),
  array("ArrayOfMapServerRow", "MapServerRow", "MapServerRow"),
  array("ArrayOfPath", "Path", "Path"),
  array("ArrayOfPoint", "Point", "Point"),
  array("ArrayOfPropertySetProperty", "PropertySetProperty", "PropertySetProperty"),
  array("ArrayOfRecord", "Record", "Record"),
  array("ArrayOfRelateInfo", "RelateInfo", "RelateInfo"),
  array("ArrayOfRing", "Ring", "Ring"),
  array("ArrayOfSegment", "Segment", "Segment"),
  array(
    "ArrayOfStandaloneTableDescription",
    "StandaloneTableDescription",
    "StandaloneTableDescription",
  ),
  array("ArrayOfStandaloneTableInfo", "StandaloneTableInfo", "StandaloneTableInfo"),
  array("ArrayOfString", "String", "string"),
  array("ArrayOfSurfacePatch", "SurfacePatch", "Geometry"),
  array("ArrayOfUniqueValueInfo", "UniqueValueInfo", "UniqueValueInfo"),
  array("ArrayOfValue", "Value", "anyType", true),
];

/** Enumerations reachable from the 35 operations. */
export const ENUM_TYPES: readonly TypeDef[] = [
  enumeration(
    "esriFieldType",
    "esriFieldTypeInteger esriFieldTypeSmallInteger esriFieldTypeDouble esriFieldTypeSingle " +
      "esriFieldTypeString esriFieldTypeDate esriFieldTypeGeometry esriFieldTypeOID " +
      "esriFieldTypeBlob esriFieldTypeGlobalID esriFieldTypeRaster esriFieldTypeGUID esriFieldTypeXML",
  ),
  enumeration("esriFindOption", "esriFindVisibleLayers esriFindAllLayers"),
  enumeration("esriFontDecoration", "none underline line-through"),
  enumeration("esriFontStyle", "normal italic oblique"),
  enumeration("esriFontWeight", "normal bold bolder lighter"),
  enumeration(
    "esriGeometryType",
    "esriGeometryPoint esriGeometryMultipoint esriGeometryPolyline esriGeometryPolygon " +
      "esriGeometryMultiPatch",
  ),
  enumeration(
    "esriIdentifyOption",
    "esriIdentifyTopmost esriIdentifyAllLayers esriIdentifyVisibleLayers " +
      "esriIdentifyTopOneWithHTMLPopup esriIdentifyVisibleWithHTMLPopup",
  ),
  enumeration(
    "esriImageFormat",
    "esriImageNone esriImageBMP esriImageJPG esriImageDIB esriImageTIFF esriImagePNG " +
      "esriImagePNG24 esriImageEMF esriImagePS esriImagePDF esriImageAI esriImageGIF " +
      "esriImageSVG esriImagePNG32 esriImageJPGPNG",
  ),
  enumeration("esriImageReturnType", "esriImageReturnURL esriImageReturnMimeData"),
  enumeration("esriJoinType", "esriLeftOuterJoin esriLeftInnerJoin"),
  enumeration(
    "esriLabelExpressionType",
    "esriLabelExpressionSimple esriLabelExpressionPython esriLabelExpressionVBScript " +
      "esriLabelExpressionJScript",
  ),
  enumeration("esriMaskStyle", "esriMSNone esriMSHalo"),
  enumeration("esriMergePolicyType", "esriMPTSumValues esriMPTAreaWeighted esriMPTDefaultValue"),
  enumeration(
    "esriNormalizationType",
    "esriNormalizeByField esriNormalizeByLog esriNormalizeByPercentOfTotal esriNormalizeByArea " +
      "esriNormalizeByNothing",
  ),
  enumeration("esriNumericAlignmentEnum", "esriAlignRight esriAlignLeft"),
  enumeration(
    "esriQueryResultFormat",
    "esriQueryResultRecordSetAsObject esriQueryResultJsonAsMime esriQueryResultJsonAsURL " +
      "esriQueryResultAmfAsMime esriQueryResultAmfAsURL esriQueryResultKMLAsMime " +
      "esriQueryResultKMLAsURL",
  ),
  enumeration(
    "esriRelCardinality",
    "esriRelCardinalityOneToOne esriRelCardinalityOneToMany esriRelCardinalityManyToMany",
  ),
  enumeration("esriRelRole", "esriRelRoleAny esriRelRoleOrigin esriRelRoleDestination"),
  enumeration("esriRotationType", "esriRotateSymbolGeographic esriRotateSymbolArithmetic"),
  enumeration(
    "esriRoundingOptionEnum",
    "esriRoundNumberOfDecimals esriRoundNumberOfSignificantDigits",
  ),
  enumeration(
    "esriScaleBarFrequency",
    "esriScaleBarNone esriScaleBarOne esriScaleBarMajorDivisions esriScaleBarDivisions " +
      "esriScaleBarDivisionsAndFirstMidpoint esriScaleBarDivisionsAndFirstSubdivisions " +
      "esriScaleBarDivisionsAndSubdivisions",
  ),
  enumeration(
    "esriScaleBarPos",
    "esriScaleBarAbove esriScaleBarBeforeLabels esriScaleBarAfterLabels esriScaleBarBeforeBar " +
      "esriScaleBarAfterBar esriScaleBarBelow",
  ),
  enumeration(
    "esriScaleBarResizeHint",
    "esriScaleBarFixed esriScaleBarAutoDivision esriScaleBarAutoDivisions",
  ),
  enumeration("esriSearchOrder", "esriSearchOrderSpatial esriSearchOrderAttribute"),
  enumeration(
    "esriServerHTMLPopupType",
    "esriServerHTMLPopupTypeNone esriServerHTMLPopupTypeAsURL esriServerHTMLPopupTypeAsHTMLText",
  ),
  enumeration(
    "esriServerLineLabelPlacementType",
    ["Above", "Below", "Center"].flatMap((v) =>
      ["After", "Along", "Before", "Start", "End"].map((h) => `esriServerLinePlacement${v}${h}`)
    ).join(" "),
  ),
  enumeration(
    "esriServerPointLabelPlacementType",
    ["Above", "Below", "Center"].flatMap((v) =>
      ["Center", "Left", "Right"].map((h) => `esriServerPointLabelPlacement${v}${h}`)
    ).join(" "),
  ),
  enumeration("esriServerPolygonLabelPlacementType", "esriServerPolygonPlacementAlwaysHorizontal"),
  enumeration(
    "esriSimpleFillStyle",
    "esriSFSSolid esriSFSNull esriSFSHorizontal esriSFSVertical esriSFSForwardDiagonal " +
      "esriSFSBackwardDiagonal esriSFSCross esriSFSDiagonalCross",
  ),
  enumeration(
    "esriSimpleLineStyle",
    "esriSLSSolid esriSLSDash esriSLSDot esriSLSDashDot esriSLSDashDotDot esriSLSNull " +
      "esriSLSInsideFrame",
  ),
  enumeration(
    "esriSimpleMarkerStyle",
    "esriSMSCircle esriSMSSquare esriSMSCross esriSMSX esriSMSDiamond",
  ),
  enumeration("esriSimpleTextHorizontalAlignment", "left center right justified"),
  enumeration("esriSimpleTextVerticalAlignment", "top middle baseline bottom"),
  enumeration(
    "esriSpatialRelEnum",
    "esriSpatialRelUndefined esriSpatialRelIntersects esriSpatialRelEnvelopeIntersects " +
      "esriSpatialRelIndexIntersects esriSpatialRelTouches esriSpatialRelOverlaps " +
      "esriSpatialRelCrosses esriSpatialRelWithin esriSpatialRelContains esriSpatialRelRelation",
  ),
  enumeration("esriSplitPolicyType", "esriSPTGeometryRatio esriSPTDuplicate esriSPTDefaultValue"),
  enumeration("esriTextCase", "esriTCNormal esriTCLowercase esriTCAllCaps esriTCSmallCaps"),
  enumeration("esriTextDirection", "esriTDHorizontal esriTDAngle esriTDVertical"),
  enumeration("esriTextHorizontalAlignment", "esriTHALeft esriTHACenter esriTHARight esriTHAFull"),
  enumeration("esriTextPosition", "esriTPNormal esriTPSuperscript esriTPSubscript"),
  enumeration(
    "esriTextVerticalAlignment",
    "esriTVATop esriTVACenter esriTVABaseline esriTVABottom",
  ),
  enumeration(
    "esriTimeRelation",
    "esriTimeRelationOverlaps esriTimeRelationOverlapsStartWithinEnd " +
      "esriTimeRelationAfterStartOverlapsEnd",
  ),
  enumeration(
    "esriTimeUnits",
    "esriTimeUnitsUnknown esriTimeUnitsMilliseconds esriTimeUnitsSeconds esriTimeUnitsMinutes " +
      "esriTimeUnitsHours esriTimeUnitsDays esriTimeUnitsWeeks esriTimeUnitsMonths " +
      "esriTimeUnitsYears esriTimeUnitsDecades esriTimeUnitsCenturies",
  ),
  enumeration(
    "esriUnits",
    "esriUnknownUnits esriInches esriPoints esriFeet esriYards esriMiles esriNauticalMiles " +
      "esriMillimeters esriCentimeters esriMeters esriKilometers esriDecimalDegrees esriDecimeters",
  ),
  enumeration("esriVertPosEnum", "esriAbove esriTop esriOn esriBottom esriBelow"),
];
