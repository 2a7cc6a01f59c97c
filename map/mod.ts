/**
 * The map server as the HTTP layer sees it: a set of published map services
 * answering SOAP requests and WSDL fetches, plus the service catalog.
 *
 * @module
 */
import { join } from "node:path";
import type { MapService, OperationContext } from "./ops/types.ts";
import type { OperationTable } from "./soap/operation.ts";
import { dispatchSoap, type SoapBody, type SoapReply } from "./soap/dispatch.ts";
import { MAPSERVER_SCHEMA } from "./soap/types.ts";
import { generateWsdl } from "./soap/wsdl.ts";
import { DEFAULT_NAMESPACE } from "./soap/envelope.ts";
import { CATALOG_HANDLERS, CATALOG_SCHEMA, type CatalogEntry } from "./soap/catalog.ts";
import { InvalidRequestError } from "./errors.ts";
import type { XmlLimits } from "./soap/xml.ts";
import { MAPSERVER_HANDLERS } from "./soap/handlers.ts";
import { loadServices, type LoadServicesOptions } from "./document/mod.ts";
import { InProcessRenderer, type Renderer } from "./render/pool.ts";
import { OutputFolder } from "./render/output.ts";
import { TileCaches } from "./tiles/mod.ts";

export type { SoapBody, SoapReply } from "./soap/dispatch.ts";
export type { MapService } from "./ops/types.ts";

/** URL path under which exported images are served (`<base><path>/<Service>_MapServer/<file>`). */
export const OUTPUT_PATH = "/arcgis/rest/directories/arcgisoutput";

/** Options of {@link createMapServer}. */
export interface MapServerOptions {
  /** The published services (from the map-document loader). */
  services: readonly MapService[];
  /** Directory for exported images; each service writes under `<dir>/<Service>_MapServer`. */
  outputDir: string;
  /** Draws the images (default: an in-process renderer of this server's own). */
  renderer?: Renderer;
  /** Tile caches (default: under `var/tiles`, drawn by `renderer`); closed with the server. */
  tiles?: TileCaches;
  /** Writes and expires exported images (default: kept 10 minutes). */
  output?: OutputFolder;
  /** Operation handlers (default: every implemented MapServer operation). */
  operations?: OperationTable;
  /** XML reader limits for request bodies. */
  xmlLimits?: Partial<XmlLimits>;
  /** Called with unexpected errors inside operations (logging). */
  onError?: (error: unknown, operation?: string) => void;
}

/** Per-request URL facts. */
export interface RequestUrls {
  /** Public base URL (`http://host:port`), no trailing slash. */
  baseUrl: string;
}

/** The facade the routes use. */
export interface MapServer {
  /** Published services, in document order. */
  readonly services: readonly MapService[];
  /** The service called `name` (case-insensitive), or undefined. */
  service(name: string): MapService | undefined;
  /** Answers a SOAP request (whole text or pieces as read) to `<base>/arcgis/services/<serviceName>/MapServer`. */
  soap(serviceName: string, xml: SoapBody, urls: RequestUrls): Promise<SoapReply>;
  /** The service's WSDL with `endpointUrl` as address, or undefined for an unknown service. */
  wsdl(serviceName: string, endpointUrl: string): string | undefined;
  /** Answers a catalog SOAP request (`<base>/arcgis/services`). */
  catalogSoap(xml: SoapBody, urls: RequestUrls): Promise<SoapReply>;
  /** The catalog WSDL with `endpointUrl` as address. */
  catalogWsdl(endpointUrl: string): string;
  /** Absolute endpoint URL of a service. */
  serviceUrl(service: MapService, urls: RequestUrls): string;
  /** What an operation of `service` needs, for a face other than SOAP (ArcGIS REST). */
  operationContext(service: MapService, urls: RequestUrls): OperationContext;
  /** The tile caches of the published maps. */
  readonly tiles: TileCaches;
  /** Releases every service's sources and closes the tile stores. */
  close(): void;
}

/**
 * Builds the map server over a list of services.
 *
 * @example
 * ```ts
 * const maps = createMapServer({ services, outputDir: "var/output" });
 * const reply = await maps.soap("World", body, { baseUrl: "http://127.0.0.1:8000" });
 * ```
 */
export function createMapServer(opts: MapServerOptions): MapServer {
  const services = [...opts.services];
  const byName = new Map(services.map((s) => [s.name.toLowerCase(), s]));
  const operations = opts.operations ?? MAPSERVER_HANDLERS;
  // Each server gets its own dependencies unless given: two servers in one process share nothing.
  const renderer = opts.renderer ?? new InProcessRenderer();
  const tiles = opts.tiles ?? new TileCaches({ dir: "var/tiles", renderer });
  const output = opts.output ?? new OutputFolder();
  const wsdlCache = new Map<string, string>();
  const entries: CatalogEntry[] = services.map((s) => ({
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
    if (w === undefined) {
      // A handful of hosts at most; the bound only guards against Host-header churn.
      if (wsdlCache.size > 64) wsdlCache.clear();
      wsdlCache.set(key, w = make());
    }
    return w;
  }

  function operationContext(
    service: MapService,
    urls: RequestUrls,
    namespace = DEFAULT_NAMESPACE,
  ): OperationContext {
    const dir = `${service.name}_MapServer`;
    return {
      service,
      serviceUrl: serviceUrl(service, urls),
      namespace,
      outputUrl: `${urls.baseUrl}${OUTPUT_PATH}/${encodeURIComponent(dir)}`,
      outputDir: join(opts.outputDir, dir),
      renderer,
      tiles,
      output,
    };
  }

  return {
    services,
    tiles,
    service: (name) => byName.get(name.toLowerCase()),
    serviceUrl,
    operationContext: (service, urls) => operationContext(service, urls),
    soap(serviceName, xml, urls) {
      const service = byName.get(serviceName.toLowerCase());
      return dispatchSoap<OperationContext>(xml, {
        schema: MAPSERVER_SCHEMA,
        handlers: operations,
        limits: opts.xmlLimits,
        onError: opts.onError,
        context(namespace) {
          if (!service) {
            throw new InvalidRequestError(
              `Service "${serviceName}" does not exist. Published services: ${
                services.map((s) => s.name).join(", ") || "none"
              } (see GetServiceDescriptions at /arcgis/services).`,
              { Service: serviceName },
            );
          }
          return operationContext(service, urls, namespace);
        },
      });
    },
    wsdl(serviceName, endpointUrl) {
      const service = byName.get(serviceName.toLowerCase());
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
    close() {
      // The document type may leave close() out for services built in memory.
      for (const s of services) s.close?.();
      tiles.close();
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

/** Options of {@link openMapServer}: where services come from, plus {@link MapServerOptions}. */
export interface OpenMapServerOptions
  extends LoadServicesOptions, Omit<MapServerOptions, "services"> {}

/**
 * Loads the services (every map document in `mapsDir`, or the embedded
 * default service over the recruitment `catalog`) and builds the map server.
 *
 * @example
 * ```ts
 * const maps = await openMapServer({ catalog, outputDir: "var/output" });
 * maps.services.map((s) => s.name); // ["Recruitment"]
 * ```
 */
export async function openMapServer(opts: OpenMapServerOptions): Promise<MapServer> {
  const services = await loadServices(opts);
  return createMapServer({ ...opts, services });
}
