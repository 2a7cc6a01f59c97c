/**
 * The SOAP face of the map server: ArcGIS Server 10.3's MapServer SOAP
 * endpoint of each service, its WSDL, and the service catalog ArcMap
 * calls first, built over the protocol-neutral map server (`map/mod.ts`).
 *
 * @module
 */
import { LRUCache } from "lru-cache";
import type { MapServer, RequestUrls } from "../mod.ts";
import type { MapService, OperationContext } from "../ops/types.ts";
import type { OperationTable } from "./operation.ts";
import { dispatchSoap, type SoapBody, type SoapReply } from "./dispatch.ts";
import { MAPSERVER_SCHEMA } from "./types.ts";
import { generateWsdl } from "./wsdl.ts";
import { CATALOG_HANDLERS, CATALOG_SCHEMA, type CatalogEntry } from "./catalog.ts";
import { InvalidRequestError } from "../errors.ts";
import type { XmlLimits } from "./xml.ts";
import { MAPSERVER_HANDLERS } from "./handlers.ts";

export type { SoapBody, SoapReply } from "./dispatch.ts";

/** Options of {@link createSoapFace}. */
export interface SoapFaceOptions {
  /** Operation handlers (default: every implemented MapServer operation). */
  operations?: OperationTable;
  /** XML reader limits for request bodies. */
  xmlLimits?: Partial<XmlLimits>;
  /** Called with unexpected errors inside operations (logging). */
  onError?: (error: unknown, operation?: string) => void;
}

/** What the SOAP routes call. */
export interface SoapFace {
  /** Answers a SOAP request (whole text or pieces as read) to `<base>/arcgis/services/<serviceName>/MapServer`. */
  soap(serviceName: string, xml: SoapBody, urls: RequestUrls): Promise<SoapReply>;
  /** The service's WSDL with `endpointUrl` as address, or undefined for an unknown service. */
  wsdl(serviceName: string, endpointUrl: string): string | undefined;
  /** Answers a catalog SOAP request (`<base>/arcgis/services`). */
  catalogSoap(xml: SoapBody, urls: RequestUrls): Promise<SoapReply>;
  /** The catalog WSDL with `endpointUrl` as address. */
  catalogWsdl(endpointUrl: string): string;
  /** Absolute SOAP endpoint URL of a service. */
  serviceUrl(service: MapService, urls: RequestUrls): string;
  /** WSDL documents kept, by service and address (diagnostics; at most {@link WSDL_CACHE_MAX}). */
  readonly wsdlsKept: number;
}

/**
 * WSDL documents a face keeps (the most recently asked for): a handful of
 * hosts at most; the bound only guards against Host-header churn.
 */
export const WSDL_CACHE_MAX = 64;

/**
 * Builds the SOAP face over a map server.
 *
 * @example
 * ```ts ignore
 * const soap = createSoapFace(maps);
 * const reply = await soap.soap("World", body, { baseUrl: "http://127.0.0.1:8000" });
 * ```
 */
export function createSoapFace(maps: MapServer, opts: SoapFaceOptions = {}): SoapFace {
  const operations = opts.operations ?? MAPSERVER_HANDLERS;
  const wsdlCache = new LRUCache<string, string>({ max: WSDL_CACHE_MAX });
  const entries: CatalogEntry[] = maps.services.map((s) => ({
    name: s.name,
    description: s.description,
    type: "MapServer",
    capabilities: "Map,Query,Data",
  }));

  function serviceUrl(s: MapService, urls: RequestUrls): string {
    return `${urls.baseUrl}/arcgis/services/${encodeURIComponent(s.name)}/MapServer`;
  }

  function cached(key: string, make: () => string): string {
    let w = wsdlCache.get(key);
    if (w === undefined) wsdlCache.set(key, w = make());
    return w;
  }

  return {
    serviceUrl,
    get wsdlsKept() {
      return wsdlCache.size;
    },
    soap(serviceName, xml, urls) {
      const service = maps.service(serviceName);
      return dispatchSoap<OperationContext>(xml, {
        schema: MAPSERVER_SCHEMA,
        handlers: operations,
        limits: opts.xmlLimits,
        onError: opts.onError,
        context() {
          if (!service) {
            throw new InvalidRequestError(
              `Service "${serviceName}" does not exist. Published services: ${
                maps.services.map((s) => s.name).join(", ") || "none"
              } (see GetServiceDescriptions at /arcgis/services).`,
              { Service: serviceName },
            );
          }
          return maps.operationContext(service, urls);
        },
      });
    },
    wsdl(serviceName, endpointUrl) {
      const service = maps.service(serviceName);
      if (!service) return undefined;
      return cached(`${service.name}|${endpointUrl}`, () =>
        generateWsdl(MAPSERVER_SCHEMA, {
          endpoint: endpointUrl,
          serviceName: `${service.name}_MapServer`,
          portType: "MapServerPort",
          binding: "MapServerBinding",
        }));
    },
    catalogSoap(xml, urls) {
      return dispatchSoap(xml, {
        schema: CATALOG_SCHEMA,
        handlers: CATALOG_HANDLERS,
        limits: opts.xmlLimits,
        onError: opts.onError,
        context: () => ({ entries, baseUrl: urls.baseUrl }),
      });
    },
    catalogWsdl(endpointUrl) {
      return cached(`|catalog|${endpointUrl}`, () =>
        generateWsdl(CATALOG_SCHEMA, {
          endpoint: endpointUrl,
          serviceName: "Catalog",
          portType: "ServiceCatalogPort",
          binding: "ServiceCatalogBinding",
        }));
    },
  };
}
