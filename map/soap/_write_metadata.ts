/**
 * SOAP result writers of the metadata and tile-cache operations: typed
 * results (map/ops/results.ts) as the plain objects of the type table's
 * PropertySet, MapServerInfo (with its DefaultMapDescription),
 * SQLSyntaxInfo, TileCacheInfo, TileImageInfo and CacheControlInfo.
 *
 * @module
 */
import type {
  CacheControlInfo,
  LayerInfo,
  MapServerInfo,
  SqlSyntaxInfo,
  TileCacheInfo,
  TileImageInfo,
} from "../ops/mod.ts";
import {
  envelopeToSoap,
  pointToSoap,
  type SoapObject,
  spatialReferenceToSoap,
} from "./_write_geometry.ts";
import { fieldToSoap, propertySetToSoap } from "./_write_fields.ts";

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

function layerInfoToSoap(layer: LayerInfo, wkid: number): SoapObject {
  return {
    $type: "MapLayerInfo",
    LayerID: layer.id,
    Name: layer.name,
    Description: layer.description,
    LayerType: "Feature Layer",
    SourceDescription: layer.sourceDescription,
    HasLabels: layer.hasLabels,
    CanSelect: true,
    CanScaleSymbols: false,
    MinScale: layer.minScale,
    MaxScale: layer.maxScale,
    Extent: layer.extent ? envelopeToSoap(layer.extent, wkid) : undefined,
    HasHyperlinks: layer.hasHyperlinks,
    HasAttributes: true,
    CanIdentify: true,
    CanFind: true,
    IsFeatureLayer: true,
    Fields: { FieldArray: layer.fields.map((f) => fieldToSoap(f, layer.geometryType, wkid)) },
    DisplayField: layer.displayField,
    IDField: layer.idField,
    IsComposite: false,
    ParentLayerID: -1,
    FieldAliases: layer.fields.map((f) => f.alias || f.name),
    CopyrightText: layer.copyrightText,
    SupportsTime: false,
    HasAttachments: false,
    HTMLPopupType: "esriServerHTMLPopupTypeNone",
    HasLayerDrawingDescription: false,
    HasSubtype: false,
    CanModifyDrawingDescription: false,
  };
}

/** The LayerDescription a client gets in DefaultMapDescription and sends back edited. */
function layerDescription(layer: LayerInfo): SoapObject {
  return {
    $type: "LayerDescription",
    LayerID: layer.id,
    Visible: layer.defaultVisible,
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

function backgroundSymbol(info: MapServerInfo): SoapObject {
  return { $type: "SimpleFillSymbol", Color: rgb(info.backgroundColor), Style: "esriSFSSolid" };
}

/** The map's DefaultMapDescription: initial extent, every layer with its default state. */
function defaultMapDescription(info: MapServerInfo): SoapObject {
  const sr = spatialReferenceToSoap(info.wkid);
  return {
    $type: "MapDescription",
    Name: info.name,
    MapArea: { $type: "MapExtent", Extent: envelopeToSoap(info.initialExtent, info.wkid) },
    LayerDescriptions: info.layers.map(layerDescription),
    Rotation: 0,
    SpatialReference: sr,
    SelectionColor: rgb([0, 255, 255]),
    BackgroundSymbol: backgroundSymbol(info),
  };
}

// The operation keeps one MapServerInfo per map until its data changes; so does its SOAP form.
const written = new WeakMap<MapServerInfo, SoapObject>();

/**
 * A MapServerInfo object.
 *
 * @example
 * ```ts ignore
 * serverInfoToSoap(await METADATA_OPERATIONS.GetServerInfo({}, ctx)).$type; // "MapServerInfo"
 * ```
 */
export function serverInfoToSoap(info: MapServerInfo): SoapObject {
  const hit = written.get(info);
  if (hit) return hit;
  const out: SoapObject = {
    $type: "MapServerInfo",
    Name: info.name,
    Description: info.description,
    FullExtent: envelopeToSoap(info.fullExtent, info.wkid),
    Extent: envelopeToSoap(info.initialExtent, info.wkid),
    SpatialReference: spatialReferenceToSoap(info.wkid),
    MapLayerInfos: info.layers.map((l) => layerInfoToSoap(l, info.wkid)),
    BackgroundColor: rgb(info.backgroundColor),
    DefaultMapDescription: defaultMapDescription(info),
    Units: info.units,
    SupportedImageReturnTypes: "esriImageReturnURL",
    BackgroundSymbol: backgroundSymbol(info),
    CopyrightText: info.copyrightText,
    SupportsDynamicLayers: false,
  };
  written.set(info, out);
  return out;
}

/** A SQLSyntaxInfo object. */
export function sqlSyntaxToSoap(s: SqlSyntaxInfo): SoapObject {
  return {
    $type: "SQLSyntaxInfo",
    FunctionNames: propertySetToSoap(s.functionNames),
    SpecialCharacters: propertySetToSoap(s.specialCharacters),
    SupportedPredicates: s.supportedPredicates,
    SupportedClauses: s.supportedClauses,
    IdentifierCase: s.identifierCase,
    DelimitedIdentifierCase: s.delimitedIdentifierCase,
    StringComparisonCase: s.stringComparisonCase,
    Keywords: s.keywords,
    InvalidCharacters: s.invalidCharacters,
    InvalidStartingCharacters: s.invalidStartingCharacters,
  };
}

/** A TileCacheInfo object; an uncached map gets the required members only ("all properties are null"). */
export function tileCacheInfoToSoap(t: TileCacheInfo | null): SoapObject {
  if (!t) return { TileCols: 0, TileRows: 0, DPI: 0 };
  return {
    SpatialReference: spatialReferenceToSoap(t.wkid),
    TileOrigin: pointToSoap(t.origin),
    TileCols: t.tileSizePx,
    TileRows: t.tileSizePx,
    DPI: t.dpi,
    LODInfos: t.lods.map((l) => ({ LevelID: l.level, Scale: l.scale, Resolution: l.resolution })),
    PreciseDPI: t.dpi,
  };
}

/** A TileImageInfo object; empty members for an uncached map. */
export function tileImageInfoToSoap(t: TileImageInfo | null): SoapObject {
  if (!t) return { CacheTileFormat: "", CompressionQuality: 0, Antialiasing: "" };
  return {
    CacheTileFormat: t.format,
    CompressionQuality: t.compressionQuality,
    Antialiasing: String(t.antialiasing),
  };
}

/** A CacheControlInfo object. */
export function cacheControlInfoToSoap(c: CacheControlInfo): SoapObject {
  return { ClientCachingAllowed: c.clientCachingAllowed };
}
