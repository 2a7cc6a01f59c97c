/**
 * What the MapServer operations answer, whatever protocol carries them:
 * plain domain values (geometry as {@link Geometry}, spatial references as
 * WKIDs, extents as {@link Extent}, fields as {@link FieldInfo}) with no
 * protocol member names or type tags. Each face writes them in its own
 * form: the SOAP face through its result writers (map/soap/_write_*.ts),
 * the REST face as ArcGIS JSON (map/rest/).
 *
 * @module
 */
import type { EsriUnits } from "../geo/units.ts";
import type { Lod } from "../tiles/scheme.ts";
import type {
  AttributeValue,
  Extent,
  Feature,
  FieldInfo,
  LayerGeometryType,
  Position,
} from "../types.ts";
import type { Geometry, MultipointGeometry, SpatialGeometry, Wkid } from "./values.ts";

export type { Lod };

/**
 * A named value (a PropertySet entry): document facts, configuration,
 * a feature's formatted attributes.
 *
 * @example
 * ```ts
 * import type { Property } from "./results.ts";
 * const title: Property<string> = { key: "Title", value: "Recruitment" };
 * ```
 */
export interface Property<V = string | number | boolean> {
  key: string;
  value: V;
}

/** GetSQLSyntaxInfo: the where-clause dialect every layer shares. */
export interface SqlSyntaxInfo {
  /** Function names by their esriSQLFunctionName key. */
  functionNames: Property<string>[];
  /** Wildcards and identifier quotes by their esriSQLSpecialCharacters key. */
  specialCharacters: Property<string>[];
  supportedPredicates: string[];
  supportedClauses: string[];
  identifierCase: boolean;
  delimitedIdentifierCase: boolean;
  stringComparisonCase: boolean;
  keywords: string[];
  invalidCharacters: string;
  invalidStartingCharacters: string;
}

/** One layer of a map as GetServerInfo describes it. */
export interface LayerInfo {
  id: number;
  name: string;
  description: string;
  /** What the data is, as ArcGIS names it ("GeoPackage Point Feature Class"). */
  sourceDescription: string;
  geometryType: LayerGeometryType;
  hasLabels: boolean;
  minScale: number;
  maxScale: number;
  /** The layer's extent in the map's spatial reference; null when empty or unprojectable. */
  extent: Extent | null;
  hasHyperlinks: boolean;
  /** Every column in layer order, the object id and shape columns included. */
  fields: FieldInfo[];
  displayField: string;
  /** Name of the object-id column. */
  idField: string;
  copyrightText: string;
  /** Whether the layer is drawn unless a request says otherwise. */
  defaultVisible: boolean;
}

/** GetServerInfo: one map (data frame) of the service. */
export interface MapServerInfo {
  name: string;
  description: string;
  fullExtent: Extent;
  /** The extent the map opens at. */
  initialExtent: Extent;
  wkid: Wkid;
  units: EsriUnits;
  /** Background colour, red, green and blue 0-255. */
  backgroundColor: readonly [number, number, number];
  copyrightText: string;
  layers: LayerInfo[];
}

/**
 * Rows of a layer query: the features QueryFeatureData and a REST query
 * return (or statistics or distinct-value rows), with their columns.
 */
export interface RecordSet {
  /** Geometry type of the layer the rows come from. */
  geometryType: LayerGeometryType;
  /** The layer's display field. */
  displayField: string;
  /** Columns in result order, the shape column among them when the rows carry shapes. */
  fields: FieldInfo[];
  /** The object-id column's name; undefined for statistics and distinct-value rows. */
  objectIdField?: string;
  features: Feature[];
  /** WKID of the features' geometry. */
  wkid: Wkid;
  /** More rows match than this window holds. */
  exceededTransferLimit: boolean;
}

/** QueryFeatureData2: rows, or the rows encoded (JSON, KMZ) as data or at a URL. */
export type QueryResult =
  | { kind: "recordSet"; recordSet: RecordSet }
  | { kind: "data"; bytes: Uint8Array }
  | { kind: "url"; url: string };

/** Find: one attribute value that matched. */
export interface FindResult {
  layerId: number;
  featureId: number;
  /** The field whose value matched, and that value as text. */
  fieldName: string;
  value: string;
  /** Every column of the feature as display text, keyed by alias (or by name when asked). */
  properties: Property<string>[];
  /** The same columns as stored (numbers, epoch-millisecond dates, null), keyed alike. */
  values: Property<AttributeValue>[];
  /** The feature's shape in the map's spatial reference, when results carry geometry. */
  shape?: Geometry;
}

/** Identify: one feature near the search shape. */
export interface IdentifyResult {
  layerId: number;
  featureId: number;
  /** The value of the layer's display field, as text. */
  name: string;
  properties: Property<string>[];
  /** The same columns as stored (numbers, epoch-millisecond dates, null), keyed alike. */
  values: Property<AttributeValue>[];
  shape?: Geometry;
  /** An HTML table of the properties, when the option asked for popups. */
  htmlPopup?: string;
}

/** QueryHyperlinks: a feature's hyperlink and where the feature is. */
export interface HyperlinkResult {
  /** A representative point of the feature in the map's spatial reference. */
  location: Position;
  url: string;
}

/** ToMapPoints: map points of pixel positions, in the map view's spatial reference. */
export type MapPoints = SpatialGeometry<MultipointGeometry> & { wkid: Wkid };

/** FromMapPoints: pixel positions (origin upper-left) of map points. */
export type ScreenPoints = Position[];

/** An image drawn by an operation: its bytes, or the URL it was written to. */
export interface ImageResult {
  /** The encoded image, when the request asked for data. */
  data?: Uint8Array;
  /** Where the image can be fetched, when the request asked for a URL; "" otherwise. */
  url: string;
  widthPx: number;
  heightPx: number;
  dpi: number;
  /** Content type of the encoded image (image/png, ...). */
  mime: string;
}

/** ExportMapImage: the image and the map view it shows. */
export interface MapImageResult extends ImageResult {
  /** The extent drawn (the requested one adjusted to the image's aspect). */
  extent: Extent;
  wkid: Wkid;
  visibleLayerIds: number[];
  /** Scale denominator of the drawn map. */
  scale: number;
}

/** One legend entry: a renderer class and its swatch. */
export interface LegendClassInfo {
  label: string;
  description: string;
  image: ImageResult;
}

/** GetLegendInfo: the legend of one layer, one group per renderer. */
export interface LegendInfo {
  layerId: number;
  name: string;
  groups: { heading: string; classes: LegendClassInfo[] }[];
}

/** GetTileCacheInfo of a cached map: its tiling scheme. */
export interface TileCacheInfo {
  wkid: Wkid;
  origin: Position;
  /** Tiles are square, this many pixels a side. */
  tileSizePx: number;
  dpi: number;
  lods: readonly Lod[];
}

/** GetTileImageInfo of a cached map: how tiles are encoded. */
export interface TileImageInfo {
  /** PNG8, PNG24, PNG32, JPEG, MIXED, ... */
  format: string;
  /** JPEG quality 0-100; 0 for lossless formats. */
  compressionQuality: number;
  antialiasing: boolean;
}

/** GetCacheControlInfo: whether clients may keep tiles. */
export interface CacheControlInfo {
  clientCachingAllowed: boolean;
}
