/**
 * The nested values of map requests, typed: geometries with their spatial
 * reference, map areas, layer descriptions, query filters, image types,
 * colours and symbols. Members keep their ArcGIS names (`MapArea`,
 * `LayerDescriptions`, `WhereClause`) where ArcGIS has one, but hold the
 * engine's own values (a {@link Geometry}, an {@link Rgba}, a WKID), so the
 * SOAP face (from decoded XML) and an ArcGIS REST face (from JSON
 * parameters) build the same values. A face checks every shape while
 * building these; the operations read the members as typed and check only
 * what the map decides (ranges, layer ids, field names).
 *
 * @module
 */
import type { Geometry } from "../types.ts";
import type { Rgba, SymbolSpec } from "../document/renderer.ts";
import type { EsriUnits } from "../geo/units.ts";
import type { SpatialRelation } from "../geo/relate.ts";
import type { OutputFormat } from "../render/encode.ts";
import type { ScaleBarSpec } from "../render/scalebar.ts";
import type { WhereNode } from "../query/ast.ts";

export type { EsriUnits, Geometry, OutputFormat, Rgba, ScaleBarSpec, SpatialRelation, SymbolSpec };

/** The well-known id of a spatial reference (4326, 3857, 102100, ...). */
export type Wkid = number;

/** A point geometry. */
export type PointGeometry = Extract<Geometry, { type: "Point" }>;
/** A multipoint geometry. */
export type MultipointGeometry = Extract<Geometry, { type: "Multipoint" }>;
/** An envelope (axis-aligned rectangle) geometry. */
export type EnvelopeGeometry = Extract<Geometry, { type: "Envelope" }>;

/**
 * A geometry of a request with the spatial reference it was given in.
 *
 * @example
 * ```ts
 * import type { SpatialGeometry } from "./values.ts";
 * const p: SpatialGeometry = { geometry: { type: "Point", x: 37.6, y: 55.7 }, wkid: 4326 };
 * ```
 */
export interface SpatialGeometry<G extends Geometry = Geometry> {
  geometry: G;
  /** WKID of the geometry's own spatial reference; null when it named none (the map's applies). */
  wkid: Wkid | null;
}

/** MapExtent: the map area is this rectangle. */
export interface MapExtentArea {
  type: "MapExtent";
  Extent: SpatialGeometry<EnvelopeGeometry>;
}

/** CenterAndScale: the area around a point at a map scale (1:Scale). */
export interface CenterAndScaleArea {
  type: "CenterAndScale";
  Center: SpatialGeometry<PointGeometry>;
  Scale: number;
  /** DPI the scale is meant at; absent or 0 = the image's. */
  DPI?: number;
}

/** CenterAndSize: the area around a point, Width by Height in Units (unknown = map units). */
export interface CenterAndSizeArea {
  type: "CenterAndSize";
  Center: SpatialGeometry<PointGeometry>;
  Width: number;
  Height: number;
  Units: EsriUnits;
}

/** FeatureExtent: the area around some features of a layer. */
export interface FeatureExtentArea {
  type: "FeatureExtent";
  /** The map holding the layer; absent = the described map. */
  MapName?: string;
  LayerID: number;
  FeatureIDs: number[];
  /** How much larger than the features' box the area is; absent = 1. */
  ExpandRatio?: number;
  /** Scale used when the features' box is a single point; absent = 1:10,000. */
  DefaultScale?: number;
}

/** MapServerBookmark: a named area stored with the map. */
export interface BookmarkArea {
  type: "MapServerBookmark";
  Name: string;
}

/** The area a map view shows. */
export type MapArea =
  | MapExtentArea
  | CenterAndScaleArea
  | CenterAndSizeArea
  | FeatureExtentArea
  | BookmarkArea;

/** GeometryResultOptions: generalise or densify returned shapes (distances in map units). */
export interface GeometryResultOptions {
  GeneralizeGeometries?: boolean;
  MaximumAllowableOffset?: number;
  DensifyGeometries?: boolean;
  MaximumSegmentLength?: number;
}

/** LayerResultOptions: what results of a layer carry. */
export interface LayerResultOptions {
  /** Whether results carry geometry; absent = true. */
  IncludeGeometry?: boolean;
  /** Properties keyed by field name instead of alias; absent = false. */
  ReturnFieldNamesInResults?: boolean;
  GeometryResultOptions?: GeometryResultOptions;
}

/** A LayerDescription: a layer by id with the client's overrides for drawing and searching. */
export interface LayerDescription {
  LayerID: number;
  /** Visibility switch; absent = the layer's default. */
  Visible?: boolean;
  /** Whether labels are drawn; absent = the layer's default. */
  ShowLabels?: boolean;
  /** A where clause ANDed with the layer's own definition expression; absent or "" = none. */
  DefinitionExpression?: string;
  /** Object ids drawn as selected. */
  SelectionFeatures?: number[];
  /** Colour of selected features; absent = the map's SelectionColor. */
  SelectionColor?: Rgba;
  /** Symbol of selected features (ArcGIS: only with SetSelectionSymbol); absent = SelectionColor. */
  SelectionSymbol?: SymbolSpec;
  LayerResultOptions?: LayerResultOptions;
}

/** A text's colour and size in points; absent members take the defaults. */
export interface TextSymbol {
  Color?: Rgba;
  Size?: number;
}

/** A graphic drawn with a shape symbol; absent = a default by kind. */
export interface ShapeGraphic {
  type: "marker" | "line" | "fill";
  Geometry: SpatialGeometry;
  Symbol?: SymbolSpec;
}

/** An ellipse (or circle) inscribed in a rectangle, drawn with a fill symbol. */
export interface EllipseGraphic {
  type: "ellipse";
  Rectangle: SpatialGeometry<EnvelopeGeometry>;
  Symbol?: SymbolSpec;
}

/** A text drawn at the centre of a shape. */
export interface TextGraphic {
  type: "text";
  TextGeometry: SpatialGeometry;
  Text: string;
  Symbol?: TextSymbol;
}

/** One custom graphic drawn over the map (groups already flattened). */
export type GraphicElement = ShapeGraphic | EllipseGraphic | TextGraphic;

/** A MapDescription: which map, its area, spatial reference and per-layer overrides. */
export interface MapDescription {
  /** The map's name; absent or blank = the default map. */
  Name?: string;
  /** Absent = the map's initial extent. */
  MapArea?: MapArea;
  /** WKID the area is given in and results come back in; absent = the map's. */
  SpatialReference?: Wkid;
  /** Degrees counter-clockwise. */
  Rotation?: number;
  LayerDescriptions?: LayerDescription[];
  /** Pixels of this colour become transparent. */
  TransparentColor?: Rgba;
  /** Colour of selected features when a LayerDescription names none. */
  SelectionColor?: Rgba;
  /** The BackgroundSymbol's colour: absent = the map's; null = none (a symbol without a colour). */
  BackgroundColor?: Rgba | null;
  CustomGraphics?: GraphicElement[];
  /**
   * Not ArcGIS's: the layer ids to draw, bottom first (WMS LAYERS); only these are drawn;
   * absent = the map's layers in their order.
   */
  DrawOrder?: number[];
}

/** An ImageDisplay: the image's size in pixels and its resolution. */
export interface ImageDisplay {
  ImageWidth?: number;
  ImageHeight?: number;
  /** Absent or 0 = 96. */
  ImageDPI?: number;
  /** Pixels of this colour become transparent (when the MapDescription names none). */
  TransparentColor?: Rgba;
  /**
   * Not ArcGIS's: draw the MapArea's extent exactly, stretched over the image (WMS GetMap
   * and GetFeatureInfo); absent = widened to the image's aspect, as ArcGIS does.
   */
  Stretch?: boolean;
}

/** An ImageType: the image's format and whether it comes back as a URL or as data. */
export interface ImageType {
  /** Absent = the operation's default format. */
  ImageFormat?: OutputFormat;
  /** Absent = "MimeData". */
  ImageReturnType?: "URL" | "MimeData";
}

/** An ImageDescription: the image's size and its type. */
export interface ImageDescription {
  ImageDisplay?: ImageDisplay;
  ImageType?: ImageType;
}

/** A legend patch's size in points and its resolution; absent members take the defaults. */
export interface LegendPatch {
  Width?: number;
  Height?: number;
  ImageDPI?: number;
}

/**
 * A QueryFilter, or a SpatialFilter when FilterGeometry is given.
 *
 * @example
 * ```ts
 * import type { QueryFilter } from "./values.ts";
 * const f: QueryFilter = {
 *   WhereClause: "POP > 1000000",
 *   SubFields: "NAME,POP",
 *   FilterGeometry: {
 *     geometry: { type: "Envelope", xmin: 0, ymin: 40, xmax: 40, ymax: 60 },
 *     wkid: 4326,
 *   },
 *   SpatialRel: "esriSpatialRelIntersects",
 * };
 * ```
 */
export interface QueryFilter {
  /** Absent or "" = every feature. */
  WhereClause?: string;
  /**
   * A condition already built as the where engine's tree (field names
   * canonical, literals typed), ANDed with WhereClause: how a face whose
   * filter language is not SQL (OGC API CQL2) filters without writing SQL.
   */
  WhereTree?: WhereNode;
  /** Comma-separated field names; absent, "" or "*" = every field. */
  SubFields?: string;
  /** Object ids the result is limited to (ArcGIS FIDSet/FIDArray); absent or empty = no limit. */
  FIDSet?: number[];
  /** WKID results come back in; absent = the map's. */
  OutputSpatialReference?: Wkid;
  /** "DISTINCT" or absent. */
  PrefixClause?: string;
  /** "ORDER BY field [ASC|DESC], ..." or absent. */
  PostfixClause?: string;
  /** The shape features must relate to (a SpatialFilter); absent = no spatial test. */
  FilterGeometry?: SpatialGeometry;
  /** How features relate to FilterGeometry; absent = esriSpatialRelIntersects. */
  SpatialRel?: SpatialRelation;
  /** DE-9IM pattern of esriSpatialRelRelation. */
  SpatialRelDescription?: string;
}
