/**
 * Type table, part 4: scale bars, colours, colour ramps, symbols and
 * graphic elements (spec §3 G, K, L, M).
 *
 * @module
 */
import { abstract, complex, ext, type TypeDef } from "./schema.ts";

const FONT =
  "FontName:string? FontItalic:boolean? FontUnderline:boolean? FontStrikethrough:boolean? " +
  "FontWeight:int? FontCharset:int? FontSizeHi:int? FontSizeLo:int?";
const MARKS = "DivisionMarkSymbol:LineSymbol? SubdivisionMarkSymbol:LineSymbol? " +
  "DivisionMarkHeight:double? SubdivisionMarkHeight:double? MarkPosition:esriVertPosEnum? " +
  "MarkFrequency:esriScaleBarFrequency?";
const ELEMENT_HEAD =
  "Name:string? Type:string? AutoTransform:boolean? ReferenceScale:double? Symbol:Symbol?";
const RECT_ELEMENT = "Rectangle:Geometry Locked:boolean? FixedAspectRatio:boolean? " + ELEMENT_HEAD;
const FRAME = "HorizontalGap:double CornerRounding:short VerticalGap:double";

/** Scale bars (§3-G). */
export const SCALE_BAR_TYPES: readonly TypeDef[] = [
  abstract(
    "ScaleBar",
    "BarHeight:double? Division:double? Divisions:short? DivisionsBeforeZero:short? " +
      "Subdivisions:short? Units:esriUnits? UnitLabel:string? UnitLabelPosition:esriScaleBarPos? " +
      "UnitLabelGap:double? UnitLabelSymbol:TextSymbol? LabelFrequency:esriScaleBarFrequency? " +
      "LabelPosition:esriVertPosEnum? LabelGap:double? LabelSymbol:TextSymbol? " +
      "NumberFormat:NumericFormat? ResizeHint:esriScaleBarResizeHint?",
  ),
  ext(
    "ScaleBar",
    "AlternatingScaleBar",
    "FillSymbol1:FillSymbol? FillSymbol2:FillSymbol? " + MARKS,
  ),
  ext("ScaleBar", "SingleDivisionScaleBar", "FillSymbol:FillSymbol? " + MARKS),
  complex(
    "NumericFormat",
    "RoundingOption:esriRoundingOptionEnum? RoundingValue:int? " +
      "AlignmentOption:esriNumericAlignmentEnum? AlignmentWidth:int? UseSeparator:boolean? " +
      "ZeroPad:boolean? ShowPlus:boolean?",
  ),
];

/** Colours and colour ramps (§3-K). */
export const COLOR_TYPES: readonly TypeDef[] = [
  abstract("Color", "UseWindowsDithering:boolean? AlphaValue:unsignedByte?"),
  ext("Color", "RgbColor", "Red:unsignedByte Green:unsignedByte Blue:unsignedByte"),
  ext(
    "Color",
    "CmykColor",
    "Cyan:unsignedByte Magenta:unsignedByte Yellow:unsignedByte Black:unsignedByte " +
      "Overprint:boolean IsSpot:boolean SpotDescription:string SpotPercent:short",
  ),
  ext("Color", "GrayColor", "GrayLevel:unsignedByte"),
  ext("Color", "HlsColor", "Hue:short Lightness:unsignedByte Saturation:unsignedByte"),
  ext("Color", "HsvColor", "Hue:short Saturation:unsignedByte Value:unsignedByte"),
  abstract("ColorRamp", "Name:string?"),
  ext(
    "ColorRamp",
    "AlgorithmicColorRamp",
    "Algorithm:string? FromColor:HsvColor? ToColor:HsvColor?",
  ),
  ext("ColorRamp", "MultiPartColorRamp", "NumColorRamps:int? ColorRamps:ArrayOfColorRamp?"),
  ext("ColorRamp", "PresetColorRamp", "NumColors:int? PresetSize:int? Colors:ArrayOfColor?"),
  ext(
    "ColorRamp",
    "RandomColorRamp",
    "NumColors:int? UseSeed:boolean? Seed:int? MinValue:short? MaxValue:short? " +
      "MinSaturation:short? MaxSaturation:short? StartHue:short? EndHue:short?",
  ),
];

/** Symbols (§3-L). */
export const SYMBOL_TYPES: readonly TypeDef[] = [
  abstract("Symbol"),
  abstract("FillSymbol", "Color:Color? Outline:LineSymbol?", "Symbol"),
  ext("FillSymbol", "SimpleFillSymbol", "Style:esriSimpleFillStyle"),
  ext(
    "FillSymbol",
    "PictureFillSymbol",
    "Picture:base64Binary? PictureUri:string? Width:double? Height:double? BgColor:Color? " +
      "FgColor:Color? BitmapTransColor:Color? XSeparation:double? YSeparation:double? " +
      "Swap1BitColor:boolean? Angle:double? XOffset:double? YOffset:double? XScale:double?=1.0 " +
      "YScale:double?=1.0",
  ),
  ext("FillSymbol", "XMLBinaryFillSymbol", "Data:XMLPersistedObject"),
  abstract("LineSymbol", "Color:Color? Width:double", "Symbol"),
  ext("LineSymbol", "SimpleLineSymbol", "Style:esriSimpleLineStyle"),
  abstract(
    "MarkerSymbol",
    "Angle:double Color:Color? Size:double XOffset:double YOffset:double",
    "Symbol",
  ),
  ext(
    "MarkerSymbol",
    "SimpleMarkerSymbol",
    "Outline:boolean OutlineSize:double OutlineColor:Color Style:esriSimpleMarkerStyle",
  ),
  abstract("CartographicMarkerSymbol", "XScale:double=1.0 YScale:double=1.0", "MarkerSymbol"),
  ext("CartographicMarkerSymbol", "CharacterMarkerSymbol", "CharacterIndex:int " + FONT),
  ext(
    "CartographicMarkerSymbol",
    "PictureMarkerSymbol",
    "BgColor:Color? BitmapTransColor:Color? Picture:base64Binary? PictureUri:string? " +
      "Width:double? FgColor:Color? Swap1BitColor:boolean?",
  ),
  ext(
    "Symbol",
    "TextSymbol",
    "Color:Color? BreakCharIndex:int VerticalAlignment:esriTextVerticalAlignment " +
      "HorizontalAlignment:esriTextHorizontalAlignment Clip:boolean RightToLeft:boolean " +
      "Angle:double XOffset:double YOffset:double ShadowColor:Color? ShadowXOffset:double " +
      "ShadowYOffset:double TextPosition:esriTextPosition TextCase:esriTextCase " +
      "CharacterSpacing:double CharacterWidth:double=100.0 WordSpacing:double=100.0 " +
      "Kerning:boolean Leading:double TextDirection:esriTextDirection FlipAngle:double " +
      "TypeSetting:boolean TextPathClass:string? FillSymbol:Symbol? Text:string Size:double " +
      "MaskStyle:esriMaskStyle MaskSize:double MaskSymbol:Symbol? " + FONT +
      " TextParserClass:string?",
  ),
  ext(
    "Symbol",
    "SimpleTextSymbol",
    "Color:Color? BackgroundColor:Color? OutlineColor:Color? " +
      "VerticalAlignment:esriSimpleTextVerticalAlignment? " +
      "HorizontalAlignment:esriSimpleTextHorizontalAlignment? RightToLeft:boolean?=false " +
      "Angle:double?=0.0 XOffset:double?=0.0 YOffset:double?=0.0 Size:double? " +
      "FontFamilyName:string? FontStyle:esriFontStyle? FontWeight:esriFontWeight? " +
      "FontDecoration:esriFontDecoration? OutlineWidth:double? Kerning:boolean? " +
      "MaskStyle:esriMaskStyle? MaskSize:int? MaskSymbol:Symbol?",
  ),
  ext("Symbol", "XMLBinarySymbol", "Data:XMLPersistedObject"),
  complex("XMLPersistedObject", "Bytes:base64Binary"),
];

/** Graphic elements of MapDescription.CustomGraphics (§3-M). */
export const ELEMENT_TYPES: readonly TypeDef[] = [
  abstract("Element"),
  abstract("GraphicElement", "", "Element"),
  ext(
    "GraphicElement",
    "LineElement",
    ELEMENT_HEAD + " Line:Geometry Locked:boolean? FixedAspectRatio:boolean?",
  ),
  ext("GraphicElement", "CircleElement", RECT_ELEMENT),
  ext("GraphicElement", "EllipseElement", RECT_ELEMENT),
  ext("GraphicElement", "MarkerElement", ELEMENT_HEAD + " Point:Point Locked:boolean?"),
  ext(
    "GraphicElement",
    "PolygonElement",
    ELEMENT_HEAD + " Polygon:Geometry Locked:boolean? FixedAspectRatio:boolean?",
  ),
  ext("GraphicElement", "RectangleElement", RECT_ELEMENT),
  ext(
    "GraphicElement",
    "TextElement",
    "Name:string? Type:string? AutoTransform:boolean? ReferenceScale:double? Text:string? " +
      "Scale:boolean? Symbol:Symbol? TextGeometry:Geometry Locked:boolean?",
  ),
  ext(
    "GraphicElement",
    "ParagraphTextElement",
    "Name:string? Type:string? AutoTransform:boolean? ReferenceScale:double? Text:string? " +
      "Scale:double? Symbol:Symbol? TextGeometry:Geometry Locked:boolean? FrameBorder:Border? " +
      "FrameBackground:Background? FrameShadow:Shadow? ColumnGap:double? ColumnCount:int? " +
      "Margin:double?",
  ),
  ext(
    "Element",
    "GroupElement",
    "Name:string? Type:string? AutoTransform:boolean? ReferenceScale:double? " +
      "Elements:ArrayOfGraphicElement Rectangle:Geometry? Locked:boolean? " +
      "FixedAspectRatio:boolean? Border:Border? Background:Background? DraftMode:boolean? " +
      "Shadow:Shadow?",
  ),
  abstract("Border"),
  ext("Border", "SymbolBorder", FRAME + " Symbol:LineSymbol?"),
  abstract("Background"),
  ext("Background", "SymbolBackground", FRAME + " Symbol:FillSymbol?"),
  abstract("Shadow"),
  ext(
    "Shadow",
    "SymbolShadow",
    "Symbol:LineSymbol? CornerRounding:short HorizontalOffset:double VerticalOffset:double",
  ),
];
