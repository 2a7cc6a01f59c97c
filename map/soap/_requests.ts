/**
 * The SOAP face's one check of request shapes: decoded request values (the
 * type table has already typed each element) become the typed requests of
 * map/ops, with a Client fault for a missing required element.
 *
 * @module
 */
import { InvalidRequestError } from "../errors.ts";
import { isArcgisObject } from "../ops/mod.ts";
import type { MetadataOperations } from "../ops/metadata.ts";
import type { DrawOperations, TileOperations } from "../ops/draw.ts";
import type { CoordinateOperations, LayerQueryOperations, SearchOperations } from "../ops/query.ts";
import type {
  ArcgisObject,
  CacheLayerRequest,
  EmptyRequest,
  ImageDescription,
  ImageDisplay,
  LayerDescription,
  LayerDescriptionQueryRequest,
  LayerQueryRequest,
  MapDescription,
  MapLayerRequest,
  MapNameRequest,
  MapViewRequest,
} from "../ops/types.ts";
import { type EsriUnits, isEsriUnits } from "../geo/units.ts";

/** A decoded request element's children, by local name. */
export type DecodedRequest = Record<string, unknown>;

/** Reads one operation's typed request from its decoded element. */
export type RequestReader<Req> = (raw: DecodedRequest) => Req;

function optionalString(raw: DecodedRequest, name: string): string | undefined {
  const v = raw[name];
  return typeof v === "string" ? v : undefined;
}

function requiredInt(raw: DecodedRequest, name: string, what: string): number {
  const v = raw[name];
  if (typeof v !== "number" || !Number.isInteger(v)) {
    throw new InvalidRequestError(`${name} is required: ${what}.`);
  }
  return v;
}

function optionalObject(raw: DecodedRequest, name: string): ArcgisObject | undefined {
  const v = raw[name];
  if (v === undefined || v === null) return undefined;
  if (!isArcgisObject(v)) {
    throw new InvalidRequestError(`${name} must be a complex value, not text.`);
  }
  return v;
}

/** A required complex value; missing, it is left for the operation to name (with the type it wants). */
function requiredObject(raw: DecodedRequest, name: string, what: string): ArcgisObject {
  const v = optionalObject(raw, name);
  if (!v) throw new InvalidRequestError(`${name} is required and must be ${what}.`);
  return v;
}

function intArray(raw: DecodedRequest, name: string): number[] {
  const v = raw[name];
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new InvalidRequestError(`${name} must be an array of Int.`);
  return v.map((n, i) => {
    if (typeof n !== "number" || !Number.isFinite(n)) {
      throw new InvalidRequestError(`${name}[${i}] must be an integer pixel coordinate.`);
    }
    return n;
  });
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
    MapDescription: optionalObject(raw, "MapDescription") as MapDescription | undefined,
    MapImageDisplay: optionalObject(raw, "MapImageDisplay") as ImageDisplay | undefined,
  };
}

function mapName(raw: DecodedRequest): MapNameRequest {
  return { MapName: optionalString(raw, "MapName") };
}

function mapLayer(raw: DecodedRequest): MapLayerRequest {
  return {
    MapName: optionalString(raw, "MapName"),
    LayerID: requiredInt(raw, "LayerID", "the integer id of a layer of the map"),
  };
}

/** Request readers of the metadata operations. */
export const METADATA_REQUESTS: {
  [K in keyof MetadataOperations]: RequestReader<Parameters<MetadataOperations[K]>[0]>;
} = {
  GetDocumentInfo: empty,
  GetMapCount: empty,
  GetMapName: (raw) => ({
    Index: requiredInt(raw, "Index", "a map index from 0 to GetMapCount minus 1"),
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
    FromPoint: requiredObject(raw, "FromPoint", "a PointN"),
    ToPoint: requiredObject(raw, "ToPoint", "a PointN"),
    Units: units(raw, "Units"),
  }),
  ToMapPoints: (raw) => ({
    ...mapView(raw),
    ScreenXValues: intArray(raw, "ScreenXValues"),
    ScreenYValues: intArray(raw, "ScreenYValues"),
  }),
  FromMapPoints: (raw) => ({ ...mapView(raw), MapPoints: optionalObject(raw, "MapPoints") }),
};

function layerQuery(raw: DecodedRequest): LayerQueryRequest {
  return { ...mapLayer(raw), QueryFilter: optionalObject(raw, "QueryFilter") };
}

function layerDescriptionQuery(raw: DecodedRequest): LayerDescriptionQueryRequest {
  const desc = optionalObject(raw, "LayerDescription");
  if (!desc) throw new InvalidRequestError("LayerDescription is required (with its LayerID).");
  const id = desc.LayerID;
  if (typeof id !== "number" || !Number.isInteger(id)) {
    throw new InvalidRequestError(
      "LayerDescription/LayerID is required and must be an integer layer id.",
    );
  }
  return {
    MapName: optionalString(raw, "MapName"),
    LayerDescription: {
      ...desc,
      LayerID: id,
      DefinitionExpression: typeof desc.DefinitionExpression === "string"
        ? desc.DefinitionExpression
        : undefined,
      LayerResultOptions: isArcgisObject(desc.LayerResultOptions)
        ? desc.LayerResultOptions
        : undefined,
    } satisfies LayerDescription,
    QueryFilter: optionalObject(raw, "QueryFilter"),
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

function optionalNumber(raw: DecodedRequest, name: string, fallback: number): number {
  const v = raw[name];
  return typeof v === "number" ? v : fallback;
}

function stringOr(raw: DecodedRequest, name: string, fallback: string): string {
  const v = raw[name];
  return typeof v === "string" && v !== "" ? v : fallback;
}

/** LayerIDs: the integers of an ArrayOfInt (empty = no restriction). */
function layerIds(raw: DecodedRequest): number[] {
  const v = raw.LayerIDs;
  return Array.isArray(v)
    ? v.filter((n): n is number => typeof n === "number" && Number.isInteger(n))
    : [];
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
      FindOption: stringOr(raw, "FindOption", "esriFindVisibleLayers"),
      LayerIDs: layerIds(raw),
    };
  },
  Identify: (raw) => ({
    ...mapView(raw),
    SearchShape: requiredObject(raw, "SearchShape", "a geometry"),
    Tolerance: optionalNumber(raw, "Tolerance", 0),
    IdentifyOption: stringOr(raw, "IdentifyOption", "esriIdentifyTopmost"),
    LayerIDs: layerIds(raw),
  }),
  QueryHyperlinks: (raw) => ({ ...mapView(raw), LayerIDs: layerIds(raw) }),
};

function cacheLayer(raw: DecodedRequest): CacheLayerRequest {
  return { MapName: optionalString(raw, "MapName"), LayerID: optionalNumber(raw, "LayerID", -1) };
}

const integer = "an integer";

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
    Level: requiredIntMust(raw, "Level", integer),
    Row: requiredIntMust(raw, "Row", integer),
    Column: requiredIntMust(raw, "Column", integer),
    Format: optionalString(raw, "Format"),
  }),
  HasLayerCache: cacheLayer,
  GetLayerTile: mapName,
  GetVirtualCacheDirectory: cacheLayer,
  GetCacheName: cacheLayer,
};

/** A required integer: "<name> is required and must be <what>." */
function requiredIntMust(raw: DecodedRequest, name: string, what: string): number {
  const v = raw[name];
  if (typeof v !== "number" || !Number.isInteger(v)) {
    throw new InvalidRequestError(`${name} is required and must be ${what}.`);
  }
  return v;
}

function imageDescription(raw: DecodedRequest): ImageDescription {
  const d = optionalObject(raw, "ImageDescription") ?? {};
  return {
    ...d,
    ImageDisplay: optionalObject(d, "ImageDisplay") as ImageDisplay | undefined,
    ImageType: optionalObject(d, "ImageType"),
  };
}

/** Request readers of the drawing operations. */
export const DRAW_REQUESTS: {
  [K in keyof DrawOperations]: RequestReader<Parameters<DrawOperations[K]>[0]>;
} = {
  ExportMapImage: (raw) => ({
    MapDescription: (optionalObject(raw, "MapDescription") ?? {}) as MapDescription,
    ImageDescription: imageDescription(raw),
  }),
  ExportScaleBar: (raw) => ({
    ScaleBar: optionalObject(raw, "ScaleBar"),
    MapDescription: optionalObject(raw, "MapDescription") as MapDescription | undefined,
    MapDisplay: optionalObject(raw, "MapDisplay") as ImageDisplay | undefined,
    BackGroundColor: optionalObject(raw, "BackGroundColor"),
    ImageDescription: imageDescription(raw),
  }),
  GetLegendInfo: (raw) => ({
    MapName: optionalString(raw, "MapName"),
    LayerIDs: layerIds(raw),
    LegendPatch: optionalObject(raw, "LegendPatch"),
    ImageType: optionalObject(raw, "ImageType"),
  }),
  GetLegendInfo2: (raw) => ({
    ...mapView(raw),
    LayerIDs: layerIds(raw),
    LegendPatch: optionalObject(raw, "LegendPatch"),
    ImageType: optionalObject(raw, "ImageType"),
  }),
};
