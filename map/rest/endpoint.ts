/**
 * What a REST endpoint is and what it gets: the call (parameters, decoded
 * path parts, format, URLs, map server) and helpers that resolve the
 * service, map and layer it names, with ArcGIS's 404 errors for unknown ones.
 *
 * @module
 */
import type { MapServer, MapService, RequestUrls } from "../mod.ts";
import type { MapFrame, MapLayer, OperationContext } from "../ops/mod.ts";
import type { RestParams } from "./params.ts";
import { RestError, type RestWords } from "./reply.ts";
import type { SwatchCache } from "./_swatch_cache.ts";

/** One REST request as an endpoint sees it. */
export interface RestCall {
  /** The request's parameters (query string and form body). */
  readonly params: RestParams;
  /** Decoded path parts named in the endpoint's pattern (`service`, `layer`, ...). */
  readonly path: Readonly<Record<string, string>>;
  /** The requested format (`json`, `pjson`, `html`, or one of the endpoint's own). */
  readonly format: string;
  /** Public base URL of the request. */
  readonly urls: RequestUrls;
  /** The map server (services, tile caches, operation context). */
  readonly maps: MapServer;
  /** Legend swatches already drawn by this REST face. */
  readonly swatches: SwatchCache;
}

/** One REST resource. */
export interface RestEndpoint {
  /** URLPattern pathname under `/arcgis/rest`, matched case-insensitively. */
  path: string;
  /** Formats besides json, pjson and html (`geojson`, `image`, `kmz`). */
  formats?: readonly string[];
  /** Title of the `f=html` page; default: the path. */
  title?: (call: RestCall) => string;
  /** Parameter names this endpoint gives request members, where not the usual ones. */
  words?: RestWords;
  /** Answers the call: a JSON value, or a `RestFile`. */
  handle(call: RestCall): unknown | Promise<unknown>;
}

/**
 * The service a call names (`:service` in its path); an unknown one is a 404 error.
 *
 * @example
 * ```ts ignore
 * const service = serviceOf(call);
 * ```
 */
export function serviceOf(call: RestCall): MapService {
  const name = call.path.service ?? "";
  const service = call.maps.service(name);
  if (!service) {
    throw new RestError(404, `Service '${name}/MapServer' does not exist.`, [
      `Published services: ${call.maps.services.map((s) => s.name).join(", ") || "none"}.`,
    ]);
  }
  return service;
}

/**
 * The map (data frame) a call is about: the service's default map, as
 * ArcGIS REST shows one data frame per service, or the one named by the
 * `mapName` parameter (our addition, to reach a service's other maps).
 *
 * @example
 * ```ts ignore
 * const frame = frameOf(call, serviceOf(call));
 * ```
 */
export function frameOf(call: RestCall, service: MapService): MapFrame {
  const name = call.params.string("mapName") ?? service.defaultMapName;
  const frame = service.maps.find((m) => m.name.toLowerCase() === name.toLowerCase());
  if (!frame) {
    throw new RestError(404, `Map '${name}' does not exist in service '${service.name}'.`, [
      `Maps: ${service.maps.map((m) => m.name).join(", ")}.`,
    ]);
  }
  return frame;
}

/**
 * The layer a call names (`:layer` in its path) in `frame`; an unknown one is a 404 error.
 *
 * @example
 * ```ts ignore
 * const layer = layerOf(call, frame);
 * ```
 */
export function layerOf(call: RestCall, frame: MapFrame): MapLayer {
  const id = /^\d+$/.test(call.path.layer ?? "") ? Number(call.path.layer) : NaN;
  const layer = frame.layers.find((l) => l.id === id);
  if (!layer) {
    throw new RestError(404, `Layer '${call.path.layer}' does not exist in map '${frame.name}'.`, [
      `Layer ids: ${frame.layers.map((l) => l.id).join(", ")}.`,
    ]);
  }
  return layer;
}

/**
 * What the `map/ops` operations need to answer a call on `service`.
 *
 * @example
 * ```ts ignore
 * const n = await LAYER_QUERY_OPERATIONS.QueryFeatureCount2(req, operationContext(call, service));
 * ```
 */
export function operationContext(call: RestCall, service: MapService): OperationContext {
  return call.maps.operationContext(service, call.urls);
}
