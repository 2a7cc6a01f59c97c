/**
 * What the MapServer operations take and give, whatever protocol carries
 * them. Requests use the ArcGIS member names (`MapName`, `LayerID`,
 * `MapDescription`) with typed nested values (./values.ts: geometries with
 * their WKID, map areas, layer descriptions, query filters, image types), so
 * the SOAP decoder and an ArcGIS REST parameter parser build the same
 * requests; each face checks a request's shape once, then hands over these
 * types. Results are plain domain values (./results.ts) each face writes in
 * its own form.
 *
 * @module
 */
import type { MapFrame, MapLayer, MapService } from "../document/mod.ts";
import type { Renderer } from "../render/pool.ts";
import type { OutputFolder } from "../render/output.ts";
import type { TileCaches } from "../tiles/mod.ts";
import type { EsriUnits } from "../geo/units.ts";
import type {
  ImageDescription,
  ImageDisplay,
  ImageType,
  LayerDescription,
  LegendPatch,
  MapDescription,
  MultipointGeometry,
  PointGeometry,
  QueryFilter,
  Rgba,
  ScaleBarSpec,
  SpatialGeometry,
} from "./values.ts";

export type { MapFrame, MapLayer, MapService };
export type * from "./values.ts";
export type * from "./results.ts";

/** What every operation may use besides its request: the service and the server's parts. */
export interface OperationContext {
  /** The map service the request was sent to. */
  service: MapService;
  /** Public base URL of the request (`http://host:port`, no trailing slash): absolute links. */
  baseUrl: string;
  /** Public base URL of the output directory (images returned by URL). */
  outputUrl: string;
  /** File-system directory behind `outputUrl`. */
  outputDir: string;
  /** Draws maps, scale bars and legend swatches. */
  renderer: Renderer;
  /** The server's tile caches. */
  tiles: TileCaches;
  /** Writes (and expires) images returned by URL. */
  output: OutputFolder;
}

/**
 * One operation: a typed request in, a typed result out.
 *
 * @example
 * ```ts
 * import type { Operation } from "./types.ts";
 * const count: Operation<Record<never, never>, number> = (_req, ctx) => ctx.service.maps.length;
 * ```
 */
export type Operation<Req, Res> = (req: Req, ctx: OperationContext) => Res | Promise<Res>;

/** A request without parameters (GetMapCount, GetDefaultMapName, ...). */
export type EmptyRequest = Record<never, never>;

/** A request naming a map; a missing or blank name means the default map. */
export interface MapNameRequest {
  MapName?: string;
}

/** GetMapName: the map at a 0-based index. */
export interface GetMapNameRequest {
  Index: number;
}

/** A request naming a layer of a map (GetSQLSyntaxInfo, QueryFeatureCount, ...). */
export interface MapLayerRequest extends MapNameRequest {
  LayerID: number;
}

/** A request that describes a map view (ComputeScale). */
export interface MapViewRequest {
  MapDescription?: MapDescription;
  MapImageDisplay?: ImageDisplay;
}

/** ComputeDistance: two points of a map, and the units of the answer. */
export interface ComputeDistanceRequest extends MapNameRequest {
  FromPoint: SpatialGeometry<PointGeometry>;
  ToPoint: SpatialGeometry<PointGeometry>;
  Units: EsriUnits;
}

/** ToMapPoints: pixel coordinates (origin upper-left) of a map view. */
export interface ToMapPointsRequest extends MapViewRequest {
  ScreenXValues: number[];
  ScreenYValues: number[];
}

/** FromMapPoints: map points (a multipoint or a point) of a map view. */
export interface FromMapPointsRequest extends MapViewRequest {
  MapPoints?: SpatialGeometry<PointGeometry | MultipointGeometry>;
}

/** QueryFeatureCount, QueryFeatureIDs and QueryFeatureData: a layer by id and a filter. */
export interface LayerQueryRequest extends MapLayerRequest {
  QueryFilter?: QueryFilter;
}

/** The `*2` query operations: a layer by LayerDescription and a filter. */
export interface LayerDescriptionQueryRequest extends MapNameRequest {
  LayerDescription: LayerDescription;
  QueryFilter?: QueryFilter;
}

/** QueryFeatureData2: also the form of the answer (QueryResultOptions/Format). */
export interface QueryFeatureData2Request extends LayerDescriptionQueryRequest {
  /** An esriQueryResultFormat; default esriQueryResultRecordSetAsObject. */
  Format: string;
}

/** Find: text searched in the fields of a map's layers. */
export interface FindRequest extends MapViewRequest {
  SearchString: string;
  /** Whether a field may contain the text rather than equal it. */
  Contains: boolean;
  /** Comma-separated field names; empty = every field. */
  SearchFields: string;
  /** esriFindAllLayers or esriFindVisibleLayers. */
  FindOption: string;
  /** Layers to search; empty = every (visible) layer. */
  LayerIDs: number[];
}

/** Identify: features within Tolerance pixels of a shape. */
export interface IdentifyRequest extends MapViewRequest {
  SearchShape: SpatialGeometry;
  Tolerance: number;
  /** An esriIdentifyOption; default esriIdentifyTopmost. */
  IdentifyOption: string;
  LayerIDs: number[];
}

/** QueryHyperlinks: the hyperlinks of features in the current extent. */
export interface QueryHyperlinksRequest extends MapViewRequest {
  LayerIDs: number[];
}

/** GetMapTile: one tile of a map's fused cache. */
export interface TileRequest extends MapNameRequest {
  Level: number;
  Row: number;
  Column: number;
  /** png, png32, jpg, ...; missing = the cache's own format. */
  Format?: string;
}

/** A request about a layer's cache; LayerID -1 names the map's fused cache. */
export interface CacheLayerRequest extends MapNameRequest {
  LayerID: number;
}

/** ExportMapImage: a map view drawn as an image. */
export interface ExportMapImageRequest {
  MapDescription: MapDescription;
  ImageDescription: ImageDescription;
}

/** ExportScaleBar: a scale bar for a map view. */
export interface ExportScaleBarRequest {
  /** Absent = the default scale bar. */
  ScaleBar?: ScaleBarSpec;
  MapDescription?: MapDescription;
  MapDisplay?: ImageDisplay;
  BackGroundColor?: Rgba;
  ImageDescription: ImageDescription;
}

/** What both legend operations take besides the map: layers, patch size and image type. */
export interface LegendOptions {
  /** Layers to describe; empty = every layer (GetLegendInfo) or every drawn one (GetLegendInfo2). */
  LayerIDs: number[];
  LegendPatch?: LegendPatch;
  ImageType?: ImageType;
}

/** GetLegendInfo: legends of a map's layers by map name. */
export interface GetLegendInfoRequest extends MapNameRequest, LegendOptions {}

/** GetLegendInfo2: legends of the layers a map view draws. */
export interface GetLegendInfo2Request extends MapViewRequest, LegendOptions {}

/** One statistic of a statistics query (ArcGIS REST `outStatistics`). */
export interface OutStatistic {
  statisticType: "count" | "sum" | "min" | "max" | "avg" | "stddev" | "var";
  /** The field the statistic is computed over (`count` also takes `*`). */
  onStatisticField: string;
  /** Name of the result field; default `<statisticType>_<field>`. */
  outStatisticFieldName?: string;
}

/**
 * QueryFeatureSet: a window of the features QueryFeatureData2 would return
 * (the same LayerDescription and filter), or statistics over all of them.
 */
export interface QueryFeatureSetRequest extends LayerDescriptionQueryRequest {
  /** Features to skip (after ordering); default 0. */
  ResultOffset?: number;
  /** Most features to return; capped at the service's maxRecordCount (the default). */
  ResultRecordCount?: number;
  /** Statistics to compute instead of returning features. */
  OutStatistics?: OutStatistic[];
  /** Fields the statistics are grouped by. */
  GroupByFieldsForStatistics?: string[];
  /** Order of statistics rows: group or statistic field names (features use PostfixClause). */
  StatisticsOrderBy?: { field: string; descending: boolean }[];
}
