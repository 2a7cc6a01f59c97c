/**
 * The WMS face (OGC WMS 1.3.0 and 1.1.1) of the map services, at ArcGIS
 * Server's URL for a MapServer's WMS capability,
 * `/arcgis/services/{Service}/MapServer/WMSServer`: GetCapabilities,
 * GetMap, GetFeatureInfo and GetLegendGraphic, answered by the same
 * operations (map/ops) the SOAP and REST faces call. Every refusal is a
 * ServiceExceptionReport in the request's version; nothing here knows HTTP
 * beyond a status and a content type.
 *
 * A service with several maps serves its default map (ArcGIS Server
 * publishes one data frame, the active one, as WMS).
 *
 * @module
 */
import type { MapServer, RequestUrls } from "../mod.ts";
import { ServerBusyError } from "../errors.ts";
import { asWmsError, exceptionReport, WmsError } from "./_exception.ts";
import { requestVersion, type WmsVersion } from "./_kvp.ts";
import { WmsParams } from "./_kvp.ts";
import type { WmsCall } from "./_map_request.ts";
import { getCapabilities } from "./capabilities.ts";
import { getMap } from "./get_map.ts";
import { getFeatureInfo } from "./feature_info.ts";
import { getLegendGraphic } from "./legend_graphic.ts";
import type { WmsReply } from "./reply.ts";

export type { WmsReply } from "./reply.ts";
export { exceptionReport, WmsError } from "./_exception.ts";
export { negotiateVersion, type WmsVersion } from "./_kvp.ts";

/** What the WMS face uses of the map server. */
export type WmsMapServer = Pick<MapServer, "service" | "services" | "operationContext">;

/**
 * The WMS URL of a service, from the public base URL.
 *
 * @example
 * ```ts
 * wmsEndpoint("World", { baseUrl: "http://localhost:8000" });
 * // "http://localhost:8000/arcgis/services/World/MapServer/WMSServer"
 * ```
 */
export function wmsEndpoint(serviceName: string, urls: RequestUrls): string {
  return `${urls.baseUrl}/arcgis/services/${encodeURIComponent(serviceName)}/MapServer/WMSServer`;
}

/** REQUEST values (any case) and the operation each names; 1.0's names too. */
const OPERATIONS: Readonly<Record<string, (call: WmsCall) => WmsReply | Promise<WmsReply>>> = {
  getcapabilities: getCapabilities,
  capabilities: getCapabilities,
  getmap: getMap,
  map: getMap,
  getfeatureinfo: getFeatureInfo,
  feature_info: getFeatureInfo,
  getlegendgraphic: getLegendGraphic,
};

/** Options of {@link answerWms}. */
export interface WmsOptions {
  /** Called with unexpected errors (logging). */
  onError?: (error: unknown) => void;
}

/**
 * Answers one WMS request (its key-value parameters, from a query string or
 * a POSTed form) to service `serviceName`.
 *
 * @example
 * ```ts ignore
 * const reply = await answerWms(maps, "Recruitment",
 *   new URLSearchParams("SERVICE=WMS&REQUEST=GetCapabilities"), { baseUrl: "http://localhost:8000" });
 * ```
 */
export async function answerWms(
  maps: WmsMapServer,
  serviceName: string,
  query: URLSearchParams,
  urls: RequestUrls,
  opts: WmsOptions = {},
): Promise<WmsReply> {
  const params = new WmsParams(query);
  const version: WmsVersion = requestVersion(params);
  try {
    const service = maps.service(serviceName);
    if (!service) {
      const report = exceptionReport(
        new WmsError(
          undefined,
          `Service "${serviceName}" does not exist. Published services: ${
            maps.services.map((s) => s.name).join(", ") || "none"
          }.`,
        ),
        version,
      );
      return { status: 404, ...report };
    }
    const kind = params.get("SERVICE");
    if (kind !== undefined && kind.trim() !== "" && kind.trim().toUpperCase() !== "WMS") {
      throw new WmsError(
        "InvalidParameterValue",
        `SERVICE "${kind}" is not served here; this is a WMS (SERVICE=WMS).`,
        "SERVICE",
      );
    }
    const request = params.required(
      "REQUEST",
      "GetCapabilities, GetMap, GetFeatureInfo or GetLegendGraphic",
    );
    const op = OPERATIONS[request.trim().toLowerCase()];
    if (!op) {
      throw new WmsError(
        "OperationNotSupported",
        `REQUEST "${request}" is not supported; use GetCapabilities, GetMap, GetFeatureInfo or GetLegendGraphic.`,
        "REQUEST",
      );
    }
    const call: WmsCall = {
      service,
      frame: service.maps.find((m) => m.name === service.defaultMapName) ?? service.maps[0],
      version,
      params,
      ctx: maps.operationContext(service, urls),
      endpoint: wmsEndpoint(service.name, urls),
    };
    return await op(call);
  } catch (e) {
    const wms = asWmsError(e);
    if (wms) return { status: 200, ...exceptionReport(wms, version) };
    if (e instanceof ServerBusyError) {
      return { status: 503, ...exceptionReport(new WmsError(undefined, e.message), version) };
    }
    opts.onError?.(e);
    return {
      status: 500,
      ...exceptionReport(
        new WmsError(undefined, "The server failed to answer this request; it has been logged."),
        version,
      ),
    };
  }
}
