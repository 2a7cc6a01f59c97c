/**
 * `/services/{Service}/MapServer/layers` and `/.../MapServer/{layerId}`:
 * each layer's description as ArcGIS REST gives it (fields with types and
 * aliases, geometry type, extent, drawing info, scale range, capabilities).
 *
 * @module
 */
import type { LayerInfo, MapFrame, MapService } from "../ops/mod.ts";
import { ESRI_GEOMETRY_TYPE, fieldJson, serviceLimits } from "../ops/mod.ts";
import { layerOf, type RestEndpoint } from "./endpoint.ts";
import { CURRENT_VERSION, restExtent, serverInfo } from "./_services.ts";
import { drawingInfo } from "./_drawing_info.ts";

/**
 * The layer JSON of one layer of a map: what GetServerInfo says of it (the
 * same description SOAP gives), with its renderer as drawing info.
 */
export function layerJson(
  service: MapService,
  frame: MapFrame,
  info: LayerInfo,
): Record<string, unknown> {
  const layer = frame.layers.find((l) => l.id === info.id)!;
  return {
    currentVersion: CURRENT_VERSION,
    id: info.id,
    name: info.name,
    type: "Feature Layer",
    description: info.description,
    geometryType: ESRI_GEOMETRY_TYPE[info.geometryType] ?? "esriGeometryPoint",
    copyrightText: info.copyrightText,
    parentLayer: null,
    subLayers: [],
    minScale: info.minScale,
    maxScale: info.maxScale,
    drawingInfo: drawingInfo(layer),
    defaultVisibility: info.defaultVisible,
    extent: restExtent(info.extent ?? frame.fullExtent, frame.wkid),
    hasAttachments: false,
    htmlPopupType: "esriServerHTMLPopupTypeNone",
    displayField: info.displayField,
    typeIdField: null,
    fields: info.fields.map(fieldJson),
    relationships: [],
    canModifyLayer: false,
    canScaleSymbols: false,
    hasLabels: info.hasLabels,
    capabilities: "Map,Query,Data",
    supportsStatistics: true,
    supportsAdvancedQueries: true,
    supportedQueryFormats: "JSON, geoJSON",
    maxRecordCount: serviceLimits(service).maxRecordCount,
    advancedQueryCapabilities: {
      supportsPagination: true,
      supportsStatistics: true,
      supportsOrderBy: true,
      supportsDistinct: true,
      supportsQueryWithResultType: false,
      supportsReturningQueryExtent: true,
      // distance/units around a point (map/rest/_distance.ts).
      supportsQueryWithDistance: true,
    },
  };
}

/** The layer endpoints. */
export const LAYER_ENDPOINTS: readonly RestEndpoint[] = [
  {
    path: "/services/:service/MapServer/layers",
    title: (call) => `ArcGIS REST: ${call.path.service} (MapServer) layers`,
    async handle(call) {
      const { service, frame, info } = await serverInfo(call);
      return { layers: info.layers.map((l) => layerJson(service, frame, l)), tables: [] };
    },
  },
  {
    path: "/services/:service/MapServer/:layer(\\d+)",
    title: (call) => `ArcGIS REST: ${call.path.service} (MapServer) layer ${call.path.layer}`,
    async handle(call) {
      const { service, frame, info } = await serverInfo(call);
      const id = layerOf(call, frame).id;
      return layerJson(service, frame, info.layers.find((l) => l.id === id)!);
    },
  },
];
