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
  ArcgisObject,
  EmptyRequest,
  GetMapNameRequest,
  MapFrame,
  MapLayer,
  MapLayerRequest,
  MapNameRequest,
  MapService,
  Operation,
  PropertySet,
  PropertySetProperty,
} from "./types.ts";
import { InvalidRequestError } from "../errors.ts";
import { esriSpatialReference, projectExtent } from "../geo/projection.ts";
import { SUPPORTED_ESRI_FORMATS } from "../render/encode.ts";
import { frameTiling } from "../tiles/mod.ts";
import { envelopeToSoap, type SoapObject } from "./_geometry_xml.ts";
import { findLayer, findMap } from "./_query_map_state.ts";
import { fieldToSoap, layerColumns } from "./_query_records.ts";
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

function rgb([r, g, b]: readonly number[], alpha = 255): SoapObject {
  return {
    $type: "RgbColor",
    UseWindowsDithering: true,
    AlphaValue: alpha,
    Red: r,
    Green: g,
    Blue: b,
  };
}

function envelope(e: Extent, wkid: number): SoapObject {
  return envelopeToSoap(e, esriSpatialReference(wkid));
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

function layerInfo(layer: MapLayer, frame: MapFrame): SoapObject {
  const cols = layerColumns(layer);
  const extent = layerExtent(layer, frame);
  return {
    $type: "MapLayerInfo",
    LayerID: layer.id,
    Name: layer.name,
    Description: layer.description,
    LayerType: "Feature Layer",
    SourceDescription: sourceDescription(layer),
    HasLabels: layer.labels !== undefined,
    CanSelect: true,
    CanScaleSymbols: false,
    MinScale: layer.minScale,
    MaxScale: layer.maxScale,
    Extent: extent ? envelope(extent, frame.wkid) : undefined,
    HasHyperlinks: !!layer.hyperlinkField,
    HasAttributes: true,
    CanIdentify: true,
    CanFind: true,
    IsFeatureLayer: true,
    Fields: { FieldArray: cols.all.map((f) => fieldToSoap(f, layer, frame.wkid)) },
    DisplayField: layer.displayField,
    IDField: cols.oid.name,
    IsComposite: false,
    ParentLayerID: -1,
    FieldAliases: cols.all.map((f) => f.alias || f.name),
    CopyrightText: layer.copyrightText ?? "",
    SupportsTime: false,
    HasAttachments: false,
    HTMLPopupType: "esriServerHTMLPopupTypeNone",
    HasLayerDrawingDescription: false,
    HasSubtype: false,
    CanModifyDrawingDescription: false,
  };
}

const SOURCE_KIND: Readonly<Record<string, string>> = {
  geopackage: "GeoPackage",
  geojson: "GeoJSON",
  competitions: "Recruitment Database",
  "world-atlas": "Natural Earth (world-atlas)",
};

/** "GeoPackage Point Feature Class", as ArcGIS names a layer's data source. */
function sourceDescription(layer: MapLayer): string {
  const type: string = layer.sourceSpec?.type ?? "";
  const kind = SOURCE_KIND[type] ?? type;
  return `${kind ? kind + " " : ""}${layer.geometryType} Feature Class`;
}

/** The LayerDescription a client gets in DefaultMapDescription and sends back edited. */
function layerDescription(layer: MapLayer): SoapObject {
  return {
    $type: "LayerDescription",
    LayerID: layer.id,
    Visible: layer.visible,
    ShowLabels: true,
    ScaleSymbols: false,
    SelectionColor: rgb([0, 255, 255]),
    SetSelectionSymbol: false,
    SelectionBufferDistance: 0,
    ShowSelectionBuffer: false,
    // The service's own definition query always applies; clients add theirs here.
    DefinitionExpression: "",
    SourceID: "",
    LayerResultOptions: {
      IncludeGeometry: true,
      ReturnFieldNamesInResults: false,
      FormatValuesInResults: true,
    },
    UseTime: false,
    TimeDataCumulative: false,
    TimeOffset: 0,
  };
}

/** The map's DefaultMapDescription: initial extent, every layer with its default state. */
export function defaultMapDescription(frame: MapFrame): SoapObject {
  const sr = esriSpatialReference(frame.wkid);
  return {
    $type: "MapDescription",
    Name: frame.name,
    MapArea: { $type: "MapExtent", Extent: envelopeToSoap(frame.initialExtent, sr) },
    LayerDescriptions: frame.layers.map(layerDescription),
    Rotation: 0,
    SpatialReference: sr,
    SelectionColor: rgb([0, 255, 255]),
    BackgroundSymbol: {
      $type: "SimpleFillSymbol",
      Color: rgb(frame.backgroundColor),
      Style: "esriSFSSolid",
    },
  };
}

const infoCache = new WeakMap<MapFrame, { revision: string; info: SoapObject }>();

/**
 * MapServerInfo of one map (data frame). Cached per map until one of its
 * layers' data changes (layer extents come from the sources).
 */
export function mapServerInfo(frame: MapFrame): SoapObject {
  const revision = frame.layers.map((l) => l.source.revision()).join("|");
  const hit = infoCache.get(frame);
  if (hit && hit.revision === revision) return hit.info;
  const info = buildMapServerInfo(frame);
  infoCache.set(frame, { revision, info });
  return info;
}

function buildMapServerInfo(frame: MapFrame): SoapObject {
  return {
    $type: "MapServerInfo",
    Name: frame.name,
    Description: frame.description,
    FullExtent: envelope(frame.fullExtent, frame.wkid),
    Extent: envelope(frame.initialExtent, frame.wkid),
    SpatialReference: esriSpatialReference(frame.wkid),
    MapLayerInfos: frame.layers.map((l) => layerInfo(l, frame)),
    BackgroundColor: rgb(frame.backgroundColor),
    DefaultMapDescription: defaultMapDescription(frame),
    Units: frame.units,
    SupportedImageReturnTypes: "esriImageReturnURL",
    BackgroundSymbol: {
      $type: "SimpleFillSymbol",
      Color: rgb(frame.backgroundColor),
      Style: "esriSFSSolid",
    },
    CopyrightText: frame.copyrightText ?? "",
    SupportsDynamicLayers: false,
  };
}

function property(key: string, value: unknown): PropertySetProperty {
  return { $type: "PropertySetProperty", Key: key, Value: value };
}

/** Whether the map is served from a fixed-scale tile cache (as HasSingleFusedMapCache says). */
export function isCached(frame: MapFrame): boolean {
  return frameTiling(frame) !== null;
}

/** The metadata operations by their ArcGIS names, each with its request and result type. */
export interface MetadataOperations {
  GetDocumentInfo: Operation<EmptyRequest, PropertySet>;
  GetMapCount: Operation<EmptyRequest, number>;
  GetMapName: Operation<GetMapNameRequest, string>;
  GetDefaultMapName: Operation<EmptyRequest, string>;
  GetServerInfo: Operation<MapNameRequest, ArcgisObject>;
  GetSupportedImageReturnTypes: Operation<EmptyRequest, string>;
  IsFixedScaleMap: Operation<MapNameRequest, boolean>;
  GetSQLSyntaxInfo: Operation<MapLayerRequest, ArcgisObject>;
  GetServiceConfigurationInfo: Operation<EmptyRequest, PropertySet>;
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
    return {
      PropertyArray: [
        property("Title", text("Title", s.name)),
        property("Author", text("Author", "")),
        property("Comments", text("Comments", s.description)),
        property("Subject", text("Subject", s.description)),
        property("Category", text("Category", "")),
        property("Keywords", text("Keywords", "")),
        property("AntialiasingMode", "Normal"),
        property("TextAntialiasingMode", "Force"),
      ],
    };
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
    return {
      PropertyArray: [
        property("MaximumRecordCount", lim.maxRecordCount),
        property("MaximumBufferCount", lim.maxBufferCount),
        property("MaximumImageWidth", lim.maxImageWidth),
        property("MaximumImageHeight", lim.maxImageHeight),
        property("SupportedImageFormatTypes", supportedImageFormatTypes().join(",")),
        property("UseStandardizedQueries", true),
      ],
    };
  },
};
