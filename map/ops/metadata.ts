/**
 * The metadata operations: GetDocumentInfo, GetMapCount, GetMapName,
 * GetDefaultMapName, GetServerInfo, GetSupportedImageReturnTypes,
 * IsFixedScaleMap, GetSQLSyntaxInfo and GetServiceConfigurationInfo,
 * answered from the map service's document and its layers' sources.
 *
 * @module
 */
import type { Extent } from "../types.ts";
import type {
  EmptyRequest,
  GetMapNameRequest,
  LayerInfo,
  MapFrame,
  MapLayer,
  MapLayerRequest,
  MapNameRequest,
  MapServerInfo,
  MapService,
  Operation,
  Property,
  SqlSyntaxInfo,
} from "./types.ts";
import { InvalidRequestError } from "../errors.ts";
import { projectExtent } from "../geo/projection.ts";
import { SUPPORTED_ESRI_FORMATS } from "../render/encode.ts";
import { frameTiling } from "../tiles/mod.ts";
import { findLayer, findMap } from "./_query_map_state.ts";
import { layerColumns } from "./_query_records.ts";
import { SQL_SYNTAX } from "./_metadata_sql.ts";

/** Limits of a service, reported by GetServiceConfigurationInfo and enforced by the operations. */
export interface ServiceLimits {
  /** Most records Find, Identify, QueryFeatureData(2) and QueryHyperlinks return. */
  maxRecordCount: number;
  /** Most features a selection buffer is drawn for. */
  maxBufferCount: number;
  /** Largest image width and height in pixels (larger requests are clamped). */
  maxImageWidth: number;
  maxImageHeight: number;
}

/** ArcGIS 10.1+ defaults. */
export const DEFAULT_LIMITS: Readonly<ServiceLimits> = Object.freeze({
  maxRecordCount: 1000,
  maxBufferCount: 100,
  maxImageWidth: 4096,
  maxImageHeight: 4096,
});

/**
 * The limits of `service`: the document's own (`service.limits`, when the
 * document format has them) over the defaults. Every operation that caps
 * results or images reads them here so the reported and enforced values agree.
 *
 * @example
 * ```ts
 * import type { OperationContext } from "./types.ts";
 * declare const ctx: OperationContext;
 * serviceLimits(ctx.service).maxRecordCount; // 1000
 * ```
 */
export function serviceLimits(service: MapService): ServiceLimits {
  const own: Partial<ServiceLimits> = service.limits ?? {};
  const pick = (k: keyof ServiceLimits) =>
    typeof own[k] === "number" && own[k]! > 0 ? Math.floor(own[k]!) : DEFAULT_LIMITS[k];
  return {
    maxRecordCount: pick("maxRecordCount"),
    maxBufferCount: pick("maxBufferCount"),
    maxImageWidth: pick("maxImageWidth"),
    maxImageHeight: pick("maxImageHeight"),
  };
}

/** The esriImageFormat values we render, as the short names ArcGIS lists (PNG32, JPG, ...). */
export function supportedImageFormatTypes(): string[] {
  return SUPPORTED_ESRI_FORMATS.map((f) => f.replace(/^esriImage/, ""));
}

/**
 * A layer's extent in the map's spatial reference, or null when the layer is empty or unprojectable.
 *
 * @example
 * ```ts ignore
 * layerExtent(frame.layers[0], frame); // { xmin: 19.9, ymin: 41.2, xmax: 177.5, ymax: 70.1 }
 * ```
 */
export function layerExtent(layer: MapLayer, frame: MapFrame): Extent | null {
  const e = layer.source.extent();
  if (!e) return null;
  try {
    return projectExtent(e, layer.source.wkid, frame.wkid);
  } catch {
    return null;
  }
}

function layerInfo(layer: MapLayer, frame: MapFrame): LayerInfo {
  const cols = layerColumns(layer);
  return {
    id: layer.id,
    name: layer.name,
    description: layer.description,
    sourceDescription: sourceDescription(layer),
    geometryType: layer.geometryType,
    hasLabels: layer.labels !== undefined,
    minScale: layer.minScale,
    maxScale: layer.maxScale,
    extent: layerExtent(layer, frame),
    hasHyperlinks: !!layer.hyperlinkField,
    fields: cols.all,
    displayField: layer.displayField,
    idField: cols.oid.name,
    copyrightText: layer.copyrightText ?? "",
    defaultVisible: layer.visible,
  };
}

const SOURCE_KIND: Readonly<Record<string, string>> = {
  geopackage: "GeoPackage",
  geojson: "GeoJSON",
  competitions: "Recruitment Database",
  "world-atlas": "Natural Earth (world-atlas)",
  shapefile: "Shapefile",
};

/** "GeoPackage Point Feature Class", as ArcGIS names a layer's data source. */
function sourceDescription(layer: MapLayer): string {
  const type: string = layer.sourceSpec?.type ?? "";
  const kind = SOURCE_KIND[type] ?? type;
  return `${kind ? kind + " " : ""}${layer.geometryType} Feature Class`;
}

const infoCache = new WeakMap<MapFrame, { revision: string; info: MapServerInfo }>();

/**
 * MapServerInfo of one map (data frame). Cached per map until one of its
 * layers' data changes (layer extents come from the sources), so a face may
 * keep what it derives from the same object.
 *
 * @example
 * ```ts ignore
 * mapServerInfo(frame).layers.map((l) => l.name);
 * ```
 */
export function mapServerInfo(frame: MapFrame): MapServerInfo {
  const revision = frame.layers.map((l) => l.source.revision()).join("|");
  const hit = infoCache.get(frame);
  if (hit && hit.revision === revision) return hit.info;
  const info: MapServerInfo = {
    name: frame.name,
    description: frame.description,
    fullExtent: frame.fullExtent,
    initialExtent: frame.initialExtent,
    wkid: frame.wkid,
    units: frame.units,
    backgroundColor: frame.backgroundColor,
    copyrightText: frame.copyrightText ?? "",
    layers: frame.layers.map((l) => layerInfo(l, frame)),
  };
  infoCache.set(frame, { revision, info });
  return info;
}

function property<V>(key: string, value: V): Property<V> {
  return { key, value };
}

/** Whether the map is served from a fixed-scale tile cache (as HasSingleFusedMapCache says). */
export function isCached(frame: MapFrame): boolean {
  return frameTiling(frame) !== null;
}

/** The metadata operations by their ArcGIS names, each with its request and result type. */
export interface MetadataOperations {
  GetDocumentInfo: Operation<EmptyRequest, Property<string>[]>;
  GetMapCount: Operation<EmptyRequest, number>;
  GetMapName: Operation<GetMapNameRequest, string>;
  GetDefaultMapName: Operation<EmptyRequest, string>;
  GetServerInfo: Operation<MapNameRequest, MapServerInfo>;
  GetSupportedImageReturnTypes: Operation<EmptyRequest, string>;
  IsFixedScaleMap: Operation<MapNameRequest, boolean>;
  GetSQLSyntaxInfo: Operation<MapLayerRequest, SqlSyntaxInfo>;
  GetServiceConfigurationInfo: Operation<EmptyRequest, Property[]>;
}

/**
 * The metadata operations, answered from the service's document and its layers' sources.
 *
 * @example
 * ```ts ignore
 * const name = await METADATA_OPERATIONS.GetMapName({ Index: 0 }, ctx);
 * ```
 */
export const METADATA_OPERATIONS: MetadataOperations = {
  GetDocumentInfo(_req, ctx) {
    const s = ctx.service;
    const doc = s.documentInfo ?? {};
    const text = (k: string, fallback: string) => doc[k] ?? fallback;
    return [
      property("Title", text("Title", s.name)),
      property("Author", text("Author", "")),
      property("Comments", text("Comments", s.description)),
      property("Subject", text("Subject", s.description)),
      property("Category", text("Category", "")),
      property("Keywords", text("Keywords", "")),
      property("AntialiasingMode", "Normal"),
      property("TextAntialiasingMode", "Force"),
    ];
  },

  GetMapCount: (_req, ctx) => ctx.service.maps.length,

  GetMapName(req, ctx) {
    const maps = ctx.service.maps;
    const i = req.Index;
    if (i < 0 || i >= maps.length) {
      throw new InvalidRequestError(
        `Index ${i} is out of range: this service has ${maps.length} map(s), indexes 0 to ${
          maps.length - 1
        }.`,
        { Index: i },
      );
    }
    return maps[i].name;
  },

  GetDefaultMapName: (_req, ctx) => ctx.service.defaultMapName,

  GetServerInfo: (req, ctx) => mapServerInfo(findMap(ctx.service, req.MapName)),

  // URL and MIME are both supported; esriImageReturnURL says exactly that.
  GetSupportedImageReturnTypes: () => "esriImageReturnURL",

  IsFixedScaleMap: (req, ctx) => isCached(findMap(ctx.service, req.MapName)),

  GetSQLSyntaxInfo(req, ctx) {
    const frame = findMap(ctx.service, req.MapName);
    findLayer(frame, req.LayerID);
    return SQL_SYNTAX;
  },

  GetServiceConfigurationInfo(_req, ctx) {
    const lim = serviceLimits(ctx.service);
    return [
      property("MaximumRecordCount", lim.maxRecordCount),
      property("MaximumBufferCount", lim.maxBufferCount),
      property("MaximumImageWidth", lim.maxImageWidth),
      property("MaximumImageHeight", lim.maxImageHeight),
      property("SupportedImageFormatTypes", supportedImageFormatTypes().join(",")),
      property("UseStandardizedQueries", true),
    ];
  },
};
