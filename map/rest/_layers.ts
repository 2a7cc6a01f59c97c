/**
 * `/services/{Service}/MapServer/layers` and `/.../MapServer/{layerId}`:
 * each layer's description as ArcGIS REST gives it (fields with types and
 * aliases, geometry type, extent, drawing info, scale range, capabilities).
 *
 * @module
 */
import type { MapFrame, MapLayer, MapService } from "../ops/mod.ts";
import {
  ESRI_GEOMETRY_TYPE,
  fieldJson,
  layerColumns,
  layerExtent,
  serviceLimits,
} from "../ops/mod.ts";
import { frameOf, layerOf, type RestEndpoint, serviceOf } from "./endpoint.ts";
import { CURRENT_VERSION, restExtent } from "./_services.ts";
import { drawingInfo } from "./_drawing_info.ts";

/** The layer JSON of one layer of a map. */
export function layerJson(
  service: MapService,
  frame: MapFrame,
  layer: MapLayer,
): Record<string, unknown> {
  const cols = layerColumns(layer);
  const extent = layerExtent(layer, frame) ?? frame.fullExtent;
  return {
    currentVersion: CURRENT_VERSION,
    id: layer.id,
    name: layer.name,
    type: "Feature Layer",
    description: layer.description,
    geometryType: ESRI_GEOMETRY_TYPE[layer.geometryType] ?? "esriGeometryPoint",
    copyrightText: layer.copyrightText ?? "",
    parentLayer: null,
    subLayers: [],
    minScale: layer.minScale,
    maxScale: layer.maxScale,
    drawingInfo: drawingInfo(layer),
    defaultVisibility: layer.visible,
    extent: restExtent(extent, frame.wkid),
    hasAttachments: false,
    htmlPopupType: "esriServerHTMLPopupTypeNone",
    displayField: layer.displayField,
    typeIdField: null,
    fields: cols.all.map(fieldJson),
    relationships: [],
    canModifyLayer: false,
    canScaleSymbols: false,
    hasLabels: layer.labels !== undefined,
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
    },
  };
}

/** The layer endpoints. */
export const LAYER_ENDPOINTS: readonly RestEndpoint[] = [
  {
    path: "/services/:service/MapServer/layers",
    title: (call) => `ArcGIS REST: ${call.path.service} (MapServer) layers`,
    handle(call) {
      const service = serviceOf(call);
      const frame = frameOf(call, service);
      return {
        layers: frame.layers.map((l) => layerJson(service, frame, l)),
        tables: [],
      };
    },
  },
  {
    path: "/services/:service/MapServer/:layer(\\d+)",
    title: (call) => `ArcGIS REST: ${call.path.service} (MapServer) layer ${call.path.layer}`,
    handle(call) {
      const service = serviceOf(call);
      const frame = frameOf(call, service);
      return layerJson(service, frame, layerOf(call, frame));
    },
  },
];
