/**
 * The REST directory's metadata: `/info`, `/services` (the catalog) and
 * `/services/{Service}/MapServer` (the service JSON of its default map, or
 * of the map named by `mapName`). Limits, image formats, document info and
 * tiling come from the same functions the SOAP operations answer with.
 *
 * @module
 */
import type { Extent } from "../types.ts";
import type { MapFrame, MapServerInfo, MapService } from "../ops/mod.ts";
import {
  esriSpatialReference,
  METADATA_OPERATIONS,
  serviceLimits,
  supportedImageFormatTypes,
} from "../ops/mod.ts";
import { frameTiling } from "../tiles/mod.ts";
import {
  frameOf,
  operationContext,
  type RestCall,
  type RestEndpoint,
  serviceOf,
} from "./endpoint.ts";

/** The ArcGIS Server version this face follows. */
export const CURRENT_VERSION = 10.3;

/** An extent with its spatial reference, ArcGIS REST style. */
export function restExtent(e: Extent, wkid: number): Record<string, unknown> {
  return {
    xmin: e.xmin,
    ymin: e.ymin,
    xmax: e.xmax,
    ymax: e.ymax,
    spatialReference: esriSpatialReference(wkid),
  };
}

/** Sub-layers are flat here: every layer is a top-level feature layer. */
function layerEntries(info: MapServerInfo): Record<string, unknown>[] {
  return info.layers.map((l) => ({
    id: l.id,
    name: l.name,
    parentLayerId: -1,
    defaultVisibility: l.defaultVisible,
    subLayerIds: null,
    minScale: l.minScale,
    maxScale: l.maxScale,
  }));
}

/**
 * The service, the map a call names and GetServerInfo's description of it
 * (the operation SOAP answers with), which the service and layer JSON are written from.
 *
 * @example
 * ```ts ignore
 * const { info } = await serverInfo(call);
 * info.layers.map((l) => l.name);
 * ```
 */
export async function serverInfo(
  call: RestCall,
): Promise<{ service: MapService; frame: MapFrame; info: MapServerInfo }> {
  const service = serviceOf(call);
  const frame = frameOf(call, service);
  const ctx = operationContext(call, service);
  return {
    service,
    frame,
    info: await METADATA_OPERATIONS.GetServerInfo({ MapName: frame.name }, ctx),
  };
}

function tileInfo(frame: MapFrame): Record<string, unknown> | null {
  const t = frameTiling(frame);
  if (!t) return null;
  const s = t.scheme;
  return {
    rows: s.tileSize,
    cols: s.tileSize,
    dpi: s.dpi,
    format: t.format.toUpperCase(),
    compressionQuality: t.quality,
    origin: { x: s.originX, y: s.originY },
    spatialReference: esriSpatialReference(s.wkid),
    lods: s.lods.map((l) => ({ level: l.level, resolution: l.resolution, scale: l.scale })),
  };
}

async function documentInfo(call: RestCall, service: MapService): Promise<Record<string, string>> {
  const set = await METADATA_OPERATIONS.GetDocumentInfo({}, operationContext(call, service));
  return Object.fromEntries(set.map((p) => [p.key, p.value]));
}

/** The service JSON of one map of a service. */
async function serviceJson(call: RestCall): Promise<Record<string, unknown>> {
  const { service, frame, info } = await serverInfo(call);
  const limits = serviceLimits(service);
  const tiles = tileInfo(frame);
  return {
    currentVersion: CURRENT_VERSION,
    serviceDescription: service.description,
    mapName: info.name,
    description: info.description,
    copyrightText: info.copyrightText || service.copyrightText,
    supportsDynamicLayers: false,
    layers: layerEntries(info),
    tables: [],
    spatialReference: esriSpatialReference(info.wkid),
    singleFusedMapCache: tiles !== null,
    ...(tiles ? { tileInfo: tiles } : {}),
    initialExtent: restExtent(info.initialExtent, info.wkid),
    fullExtent: restExtent(info.fullExtent, info.wkid),
    units: info.units,
    supportedImageFormatTypes: supportedImageFormatTypes().join(","),
    documentInfo: await documentInfo(call, service),
    capabilities: "Map,Query,Data",
    supportedQueryFormats: "JSON, geoJSON",
    maxRecordCount: limits.maxRecordCount,
    maxImageHeight: limits.maxImageHeight,
    maxImageWidth: limits.maxImageWidth,
    supportedExtensions: "",
  };
}

/** `/info`, `/services` and `/services/{Service}/MapServer`. */
export const SERVICE_ENDPOINTS: readonly RestEndpoint[] = [
  {
    path: "/info",
    title: () => "ArcGIS REST: Server Info",
    handle: (call) => ({
      currentVersion: CURRENT_VERSION,
      fullVersion: "10.3.0",
      soapUrl: `${call.urls.baseUrl}/arcgis/services`,
      secureSoapUrl: null,
      authInfo: { isTokenBasedSecurity: false },
    }),
  },
  {
    path: "/services",
    title: () => "ArcGIS REST: Services Directory",
    handle: (call) => ({
      currentVersion: CURRENT_VERSION,
      folders: [],
      services: call.maps.services.map((s) => ({ name: s.name, type: "MapServer" })),
    }),
  },
  {
    path: "/services/:service/MapServer",
    title: (call) => `ArcGIS REST: ${call.path.service} (MapServer)`,
    handle: serviceJson,
  },
];
