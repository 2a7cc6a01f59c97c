/**
 * `/services/{Service}/MapServer/identify` and `.../find`: the same
 * Identify and Find operations SOAP calls, with requests built from REST
 * parameters and results written as ArcGIS REST JSON
 * (`{results: [{layerId, layerName, value, displayFieldName, attributes,
 * geometryType, geometry}]}`; Find adds `foundFieldName`). Attributes are
 * keyed by field alias and their values are text, as ArcGIS 10.3 answers
 * (`returnFieldName=true` keys them by field name).
 *
 * @module
 */
import type {
  EnvelopeGeometry,
  FindRequest,
  FindResult,
  Geometry,
  IdentifyRequest,
  IdentifyResult,
  MapFrame,
  SpatialGeometry,
} from "../ops/mod.ts";
import { ESRI_GEOMETRY_TYPE, esriGeometryJson, SEARCH_OPERATIONS } from "../ops/mod.ts";
import { InvalidRequestError } from "../errors.ts";
import { invalid, type RestParams } from "./params.ts";
import { frameOf, operationContext, type RestEndpoint, serviceOf } from "./endpoint.ts";
import {
  frameSpatialReference,
  fromFrame,
  parseGeometry,
  parseGeometryType,
  parseSpatialReferenceValue,
  type SpatialReferenceValue,
  toFrame,
} from "./_geometry_json.ts";
import {
  checkLayerIds,
  layerDescriptions,
  type LayerOptions,
  parseLayerDefs,
  parseLayerIds,
} from "./_map_request.ts";

/** `layers=top|visible|all[:ids]` of identify and the IdentifyOption each means. */
const IDENTIFY_OPTIONS: Readonly<Record<string, string>> = {
  top: "esriIdentifyTopmost",
  visible: "esriIdentifyVisibleLayers",
  all: "esriIdentifyAllLayers",
};

function required(params: RestParams, name: string, what: string): string {
  const v = params.string(name);
  if (v === undefined) {
    throw new InvalidRequestError(`Parameter '${name}' is required: ${what}.`, {}, [
      `'${name}' parameter is required`,
    ]);
  }
  return v;
}

/** `sr`: the spatial reference of the geometry, the map extent and the results; null = the map's. */
function spatialReference(params: RestParams): SpatialReferenceValue | null {
  const text = params.string("sr");
  return text === undefined ? null : parseSpatialReferenceValue("sr", text);
}

/** A parsed geometry in `sr` when it named no spatial reference of its own. */
function inSr<G extends Geometry>(
  parsed: SpatialGeometry,
  sr: SpatialReferenceValue | null,
): SpatialGeometry<G> {
  if (parsed.wkid !== null || sr === null) return parsed as SpatialGeometry<G>;
  return { geometry: fromFrame(parsed.geometry, sr) as G, wkid: sr.wkid };
}

/** `returnUnformattedValues` (ArcGIS 10.5+; default false: display text as 10.3 writes it). */
function resultFormat(params: RestParams): ResultJsonOptions {
  return { unformatted: params.boolean("returnUnformattedValues") ?? false };
}

/** The LayerDescription options identify and find share. */
function resultOptions(params: RestParams, frame: MapFrame): LayerOptions {
  return {
    definitions: parseLayerDefs(frame, params.string("layerDefs")),
    returnGeometry: params.boolean("returnGeometry") ?? true,
    maxAllowableOffset: params.number("maxAllowableOffset", { min: 0 }) ?? 0,
    returnFieldNames: params.boolean("returnFieldName") ?? false,
  };
}

/** `mapExtent`: `xmin,ymin,xmax,ymax` or a JSON envelope (its own spatialReference wins). */
function mapExtent(
  params: RestParams,
  sr: SpatialReferenceValue | null,
): SpatialGeometry<EnvelopeGeometry> {
  const text = required(params, "mapExtent", "the extent of the map the client shows");
  const parsed = parseGeometry("mapExtent", text, "Envelope");
  const e = parsed.geometry as EnvelopeGeometry;
  if (!(e.xmin < e.xmax && e.ymin < e.ymax)) {
    throw invalid("mapExtent", "an extent with a width and a height", text);
  }
  return inSr<EnvelopeGeometry>(parsed, sr);
}

/** `imageDisplay=width,height[,dpi]` of the map the client shows. */
function imageDisplay(params: RestParams): IdentifyRequest["MapImageDisplay"] {
  required(params, "imageDisplay", "width,height,dpi of the map image");
  // The dpi may be left out (96), as ArcGIS reads it.
  const size = params.size("imageDisplay", {
    integer: true,
    dpi: 96,
    what: "of the map image in pixels",
    example: "600,550,96",
  })!;
  return { ImageWidth: size.width, ImageHeight: size.height, ImageDPI: size.dpi };
}

/**
 * The Identify request of an identify call on `frame`.
 *
 * @example
 * ```ts ignore
 * const req = identifyRequest(params, frame); // params: geometry, mapExtent, imageDisplay, tolerance
 * ```
 */
export function identifyRequest(params: RestParams, frame: MapFrame): IdentifyRequest {
  const sr = spatialReference(params);
  const typeText = params.string("geometryType");
  const type = typeText === undefined ? undefined : parseGeometryType("geometryType", typeText);
  const shape = parseGeometry(
    "geometry",
    required(params, "geometry", "the point, envelope or polygon to identify at"),
    type,
  );
  const tolerance = params.number("tolerance", { min: 0 });
  if (tolerance === undefined) {
    throw new InvalidRequestError(
      "Parameter 'tolerance' is required: the search distance in screen pixels.",
      {},
      ["'tolerance' parameter is required"],
    );
  }
  const layersText = (params.string("layers") ?? "top").trim();
  const m = /^(top|visible|all)\s*(?::(.*))?$/is.exec(layersText);
  if (!m) {
    throw invalid("layers", "top, visible or all, optionally :ids (e.g. all:0,2)", layersText);
  }
  const ids = m[2] === undefined ? [] : parseLayerIds("layers", m[2]);
  checkLayerIds(frame, ids, "layers");
  return {
    MapDescription: {
      Name: frame.name,
      MapArea: { type: "MapExtent", Extent: mapExtent(params, sr) },
      LayerDescriptions: layerDescriptions(frame, resultOptions(params, frame)),
      ...(sr !== null ? { SpatialReference: sr.wkid } : {}),
    },
    MapImageDisplay: imageDisplay(params),
    SearchShape: inSr(shape, sr),
    Tolerance: tolerance,
    IdentifyOption: IDENTIFY_OPTIONS[m[1].toLowerCase()],
    LayerIDs: ids,
  };
}

/**
 * The Find request of a find call on `frame`: every listed layer (all when
 * `layers` is missing) is searched, whatever its visibility.
 *
 * @example
 * ```ts ignore
 * const req = findRequest(params, frame); // params: searchText, layers, ...
 * ```
 */
export function findRequest(params: RestParams, frame: MapFrame): FindRequest {
  const text = params.string("searchText");
  if (text === undefined) {
    throw new InvalidRequestError("Parameter 'searchText' is required: the text to find.", {}, [
      "'searchText' parameter is required",
    ]);
  }
  const sr = spatialReference(params);
  const layersText = params.string("layers");
  const ids = layersText === undefined ? [] : parseLayerIds("layers", layersText);
  checkLayerIds(frame, ids, "layers");
  return {
    MapDescription: {
      Name: frame.name,
      LayerDescriptions: layerDescriptions(frame, resultOptions(params, frame)),
      ...(sr !== null ? { SpatialReference: sr.wkid } : {}),
    },
    SearchString: text,
    Contains: params.boolean("contains") ?? true,
    SearchFields: params.string("searchFields") ?? "",
    FindOption: "esriFindAllLayers",
    LayerIDs: ids,
  };
}

/** The spatial reference results are written in: the request's `sr`, else the map's. */
function outputSr(params: RestParams, frame: MapFrame): SpatialReferenceValue {
  return spatialReference(params) ?? { wkid: frame.wkid, xShift: 0 };
}

/** How identify and find results are written. */
export interface ResultJsonOptions {
  /**
   * `returnUnformattedValues=true`: attributes as stored (numbers, dates as
   * epoch milliseconds, null) instead of ArcGIS's display text.
   */
  unformatted?: boolean;
}

/** The common members of an identify or find result. */
function resultJson(
  frame: MapFrame,
  r: FindResult | IdentifyResult,
  sr: SpatialReferenceValue,
  opts: ResultJsonOptions,
): Record<string, unknown> {
  const layer = frame.layers.find((l) => l.id === r.layerId)!;
  const columns: { key: string; value: unknown }[] = opts.unformatted ? r.values : r.properties;
  return {
    layerId: layer.id,
    layerName: layer.name,
    displayFieldName: layer.displayField,
    attributes: Object.fromEntries(columns.map((p) => [p.key, p.value])),
    geometryType: ESRI_GEOMETRY_TYPE[layer.geometryType],
    ...(r.shape
      ? {
        geometry: {
          ...esriGeometryJson(toFrame(r.shape, sr)),
          spatialReference: frameSpatialReference(sr),
        },
      }
      : {}),
  };
}

/**
 * Identify results as ArcGIS REST JSON.
 *
 * @example
 * ```ts ignore
 * identifyJson(frame, await SEARCH_OPERATIONS.Identify(req, ctx), { wkid: 4326, xShift: 0 });
 * ```
 */
export function identifyJson(
  frame: MapFrame,
  results: IdentifyResult[],
  sr: SpatialReferenceValue,
  opts: ResultJsonOptions = {},
) {
  return {
    results: results.map((r) => {
      const { layerId, layerName, ...rest } = resultJson(frame, r, sr, opts);
      return { layerId, layerName, value: r.name, ...rest };
    }),
  };
}

/**
 * Find results as ArcGIS REST JSON.
 *
 * @example
 * ```ts ignore
 * findJson(frame, await SEARCH_OPERATIONS.Find(req, ctx), { wkid: 4326, xShift: 0 });
 * ```
 */
export function findJson(
  frame: MapFrame,
  results: FindResult[],
  sr: SpatialReferenceValue,
  opts: ResultJsonOptions = {},
) {
  return {
    results: results.map((r) => {
      const { layerId, layerName, ...rest } = resultJson(frame, r, sr, opts);
      return { layerId, layerName, foundFieldName: r.fieldName, value: r.value, ...rest };
    }),
  };
}

/** The identify endpoint. */
export const IDENTIFY_ENDPOINT: RestEndpoint = {
  path: "/services/:service/MapServer/identify",
  title: (call) => `${call.path.service} (MapServer): identify`,
  async handle(call) {
    const service = serviceOf(call);
    const frame = frameOf(call, service);
    const req = identifyRequest(call.params, frame);
    const results = await SEARCH_OPERATIONS.Identify(req, operationContext(call, service));
    return identifyJson(frame, results, outputSr(call.params, frame), resultFormat(call.params));
  },
};

/** The find endpoint. */
export const FIND_ENDPOINT: RestEndpoint = {
  path: "/services/:service/MapServer/find",
  title: (call) => `${call.path.service} (MapServer): find`,
  async handle(call) {
    const service = serviceOf(call);
    const frame = frameOf(call, service);
    const req = findRequest(call.params, frame);
    const results = await SEARCH_OPERATIONS.Find(req, operationContext(call, service));
    return findJson(frame, results, outputSr(call.params, frame), resultFormat(call.params));
  },
};
