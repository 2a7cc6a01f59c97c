/**
 * The SOAP face's one check of request shapes: decoded request values (the
 * type table has already typed each element) become the typed requests of
 * map/ops, nested values included (`_read_map.ts`, `_read_geometry.ts`,
 * `_read_symbols.ts`), with a Client fault for a missing required element
 * or a value of the wrong shape.
 *
 * @module
 */
import { InvalidRequestError } from "../errors.ts";
import type { MetadataOperations } from "../ops/metadata.ts";
import type { DrawOperations, TileOperations } from "../ops/draw.ts";
import type { CoordinateOperations, LayerQueryOperations, SearchOperations } from "../ops/query.ts";
import type {
  CacheLayerRequest,
  EmptyRequest,
  LayerDescriptionQueryRequest,
  LayerQueryRequest,
  MapLayerRequest,
  MapNameRequest,
  MapViewRequest,
  MultipointGeometry,
  PointGeometry,
  SpatialGeometry,
} from "../ops/types.ts";
import { type EsriUnits, isEsriUnits } from "../geo/units.ts";
import {
  type Decoded,
  intList,
  optionalNumber,
  optionalObject,
  optionalString,
  requiredInt,
} from "./_decoded.ts";
import { geometryFromSoap, pointFromSoap } from "./_read_geometry.ts";
import { colorFromSoap, imageTypeFromSoap, scaleBarFromSoap } from "./_read_symbols.ts";
import {
  imageDescriptionFromSoap,
  imageDisplayFromSoap,
  layerDescriptionFromSoap,
  legendPatchFromSoap,
  mapDescriptionFromSoap,
  queryFilterFromSoap,
} from "./_read_map.ts";

/** A decoded request element's children, by local name. */
export type DecodedRequest = Decoded;

/** Reads one operation's typed request from its decoded element. */
export type RequestReader<Req> = (raw: DecodedRequest) => Req;

/** Screen pixel coordinates: integers, position by position (a nil one is refused, not skipped). */
function pixelValues(raw: DecodedRequest, name: string): number[] {
  return intList(raw, name, { item: "an integer pixel coordinate", refuseNil: true });
}

function units(raw: DecodedRequest, name: string): EsriUnits {
  const v = raw[name];
  const u = v === undefined || v === null || v === "" ? "esriUnknownUnits" : v;
  if (!isEsriUnits(u)) {
    throw new InvalidRequestError(
      `${name} must be an esriUnits value such as esriMeters; got "${String(u)}".`,
    );
  }
  return u;
}

const empty: RequestReader<EmptyRequest> = () => ({});

function mapView(raw: DecodedRequest): MapViewRequest {
  return {
    MapDescription: mapDescriptionFromSoap(raw.MapDescription),
    MapImageDisplay: imageDisplayFromSoap(raw.MapImageDisplay, "MapImageDisplay"),
  };
}

/** MapPoints: a MultipointN (or a single PointN); absent = no points. */
function mapPoints(
  raw: DecodedRequest,
): SpatialGeometry<PointGeometry | MultipointGeometry> | undefined {
  if (raw.MapPoints === undefined || raw.MapPoints === null) return undefined;
  const { geometry, wkid } = geometryFromSoap(raw.MapPoints, "MapPoints");
  if (geometry.type !== "Multipoint" && geometry.type !== "Point") {
    throw new InvalidRequestError("MapPoints must be a MultipointN.");
  }
  return { geometry, wkid };
}

function mapName(raw: DecodedRequest): MapNameRequest {
  return { MapName: optionalString(raw, "MapName") };
}

function mapLayer(raw: DecodedRequest): MapLayerRequest {
  return {
    MapName: optionalString(raw, "MapName"),
    LayerID: requiredInt(
      raw,
      "LayerID",
      "LayerID is required: the integer id of a layer of the map.",
    ),
  };
}

/** Request readers of the metadata operations. */
export const METADATA_REQUESTS: {
  [K in keyof MetadataOperations]: RequestReader<Parameters<MetadataOperations[K]>[0]>;
} = {
  GetDocumentInfo: empty,
  GetMapCount: empty,
  GetMapName: (raw) => ({
    Index: requiredInt(
      raw,
      "Index",
      "Index is required: a map index from 0 to GetMapCount minus 1.",
    ),
  }),
  GetDefaultMapName: empty,
  GetServerInfo: mapName,
  GetSupportedImageReturnTypes: empty,
  IsFixedScaleMap: mapName,
  GetSQLSyntaxInfo: mapLayer,
  GetServiceConfigurationInfo: empty,
};

/** Request readers of the coordinate operations. */
export const COORDINATE_REQUESTS: {
  [K in keyof CoordinateOperations]: RequestReader<Parameters<CoordinateOperations[K]>[0]>;
} = {
  ComputeScale: mapView,
  ComputeDistance: (raw) => ({
    MapName: optionalString(raw, "MapName"),
    FromPoint: pointFromSoap(raw.FromPoint, "FromPoint"),
    ToPoint: pointFromSoap(raw.ToPoint, "ToPoint"),
    Units: units(raw, "Units"),
  }),
  ToMapPoints: (raw) => ({
    ...mapView(raw),
    ScreenXValues: pixelValues(raw, "ScreenXValues"),
    ScreenYValues: pixelValues(raw, "ScreenYValues"),
  }),
  FromMapPoints: (raw) => ({ ...mapView(raw), MapPoints: mapPoints(raw) }),
};

function layerQuery(raw: DecodedRequest): LayerQueryRequest {
  return { ...mapLayer(raw), QueryFilter: queryFilterFromSoap(raw.QueryFilter) };
}

function layerDescriptionQuery(raw: DecodedRequest): LayerDescriptionQueryRequest {
  return {
    MapName: optionalString(raw, "MapName"),
    LayerDescription: layerDescriptionFromSoap(raw.LayerDescription, "LayerDescription"),
    QueryFilter: queryFilterFromSoap(raw.QueryFilter),
  };
}

/** Request readers of the layer query operations. */
export const LAYER_QUERY_REQUESTS: {
  [K in keyof LayerQueryOperations]: RequestReader<Parameters<LayerQueryOperations[K]>[0]>;
} = {
  QueryFeatureCount: layerQuery,
  QueryFeatureIDs: layerQuery,
  QueryFeatureData: layerQuery,
  QueryFeatureCount2: layerDescriptionQuery,
  QueryFeatureIDs2: layerDescriptionQuery,
  QueryFeatureData2: (raw) => {
    const options = optionalObject(raw, "QueryResultOptions") ?? {};
    const format = typeof options.Format === "string" && options.Format !== ""
      ? options.Format
      : "esriQueryResultRecordSetAsObject";
    return { ...layerDescriptionQuery(raw), Format: format };
  },
};

/** LayerIDs: the integers of an ArrayOfInt (empty = no restriction). */
function layerIds(raw: DecodedRequest): number[] {
  return intList(raw, "LayerIDs");
}

/** Request readers of the map-wide searches. */
export const SEARCH_REQUESTS: {
  [K in keyof SearchOperations]: RequestReader<Parameters<SearchOperations[K]>[0]>;
} = {
  Find: (raw) => {
    const text = optionalString(raw, "SearchString") ?? "";
    if (text === "") {
      throw new InvalidRequestError("SearchString is required; give the text to find.");
    }
    return {
      ...mapView(raw),
      SearchString: text,
      Contains: raw.Contains === true,
      SearchFields: optionalString(raw, "SearchFields") ?? "",
      FindOption: optionalString(raw, "FindOption") || "esriFindVisibleLayers",
      LayerIDs: layerIds(raw),
    };
  },
  Identify: (raw) => ({
    ...mapView(raw),
    SearchShape: geometryFromSoap(raw.SearchShape, "SearchShape"),
    Tolerance: optionalNumber(raw, "Tolerance") ?? 0,
    IdentifyOption: optionalString(raw, "IdentifyOption") || "esriIdentifyTopmost",
    LayerIDs: layerIds(raw),
  }),
  QueryHyperlinks: (raw) => ({ ...mapView(raw), LayerIDs: layerIds(raw) }),
};

function cacheLayer(raw: DecodedRequest): CacheLayerRequest {
  return { MapName: optionalString(raw, "MapName"), LayerID: optionalNumber(raw, "LayerID") ?? -1 };
}

/** Request readers of the tile-cache operations. */
export const TILE_REQUESTS: {
  [K in keyof TileOperations]: RequestReader<Parameters<TileOperations[K]>[0]>;
} = {
  HasSingleFusedMapCache: mapName,
  GetTileCacheInfo: mapName,
  GetTileImageInfo: mapName,
  GetCacheControlInfo: mapName,
  GetMapTile: (raw) => ({
    MapName: optionalString(raw, "MapName"),
    Level: requiredInt(raw, "Level"),
    Row: requiredInt(raw, "Row"),
    Column: requiredInt(raw, "Column"),
    Format: optionalString(raw, "Format"),
  }),
  HasLayerCache: cacheLayer,
  GetLayerTile: mapName,
  GetVirtualCacheDirectory: cacheLayer,
  GetCacheName: cacheLayer,
};

/** Request readers of the drawing operations. */
export const DRAW_REQUESTS: {
  [K in keyof DrawOperations]: RequestReader<Parameters<DrawOperations[K]>[0]>;
} = {
  ExportMapImage: (raw) => ({
    MapDescription: mapDescriptionFromSoap(raw.MapDescription),
    ImageDescription: imageDescriptionFromSoap(raw.ImageDescription, "ImageDescription"),
  }),
  ExportScaleBar: (raw) => ({
    ScaleBar: scaleBarFromSoap(optionalObject(raw, "ScaleBar")),
    MapDescription: mapDescriptionFromSoap(raw.MapDescription),
    MapDisplay: imageDisplayFromSoap(raw.MapDisplay, "MapDisplay"),
    BackGroundColor: colorFromSoap(optionalObject(raw, "BackGroundColor"), null) ?? undefined,
    ImageDescription: imageDescriptionFromSoap(raw.ImageDescription, "ImageDescription"),
  }),
  GetLegendInfo: (raw) => ({
    MapName: optionalString(raw, "MapName"),
    LayerIDs: layerIds(raw),
    LegendPatch: legendPatchFromSoap(raw.LegendPatch),
    ImageType: imageTypeFromSoap(optionalObject(raw, "ImageType")),
  }),
  GetLegendInfo2: (raw) => ({
    ...mapView(raw),
    LayerIDs: layerIds(raw),
    LegendPatch: legendPatchFromSoap(raw.LegendPatch),
    ImageType: imageTypeFromSoap(optionalObject(raw, "ImageType")),
  }),
};
