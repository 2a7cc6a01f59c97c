/**
 * The map server, protocol-neutral: the published services with their
 * maps, the renderer, the tile caches, the output folder, and the
 * operation context every face hands the operations. The faces (SOAP in
 * `map/soap`, ArcGIS REST in `map/rest`, the OGC protocols beside them)
 * are built from it; it imports none of them.
 *
 * @module
 */
import { join } from "node:path";
import type { MapService, OperationContext } from "./ops/types.ts";
import { loadServices, type LoadServicesOptions } from "./document/mod.ts";
import { InProcessRenderer, type Renderer } from "./render/pool.ts";
import { OutputFolder } from "./render/output.ts";
import { TileCaches } from "./tiles/mod.ts";

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
}

/** Per-request URL facts. */
export interface RequestUrls {
  /** Public base URL (`http://host:port`), no trailing slash. */
  baseUrl: string;
}

/** The map server every face is built from. */
export interface MapServer {
  /** Published services, in document order. */
  readonly services: readonly MapService[];
  /** The service called `name` (case-insensitive), or undefined. */
  service(name: string): MapService | undefined;
  /** What an operation of `service` needs, for a request with these URLs. */
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
 * ```ts ignore
 * const maps = createMapServer({ services, outputDir: "var/output" });
 * const ctx = maps.operationContext(maps.services[0], { baseUrl: "http://127.0.0.1:8000" });
 * ```
 */
export function createMapServer(opts: MapServerOptions): MapServer {
  const services = [...opts.services];
  const byName = new Map(services.map((s) => [s.name.toLowerCase(), s]));
  // Each server gets its own dependencies unless given: two servers in one process share nothing.
  const renderer = opts.renderer ?? new InProcessRenderer();
  const tiles = opts.tiles ?? new TileCaches({ dir: "var/tiles", renderer });
  const output = opts.output ?? new OutputFolder();

  return {
    services,
    tiles,
    service: (name) => byName.get(name.toLowerCase()),
    operationContext(service, urls) {
      const dir = `${service.name}_MapServer`;
      return {
        service,
        baseUrl: urls.baseUrl,
        outputUrl: `${urls.baseUrl}${OUTPUT_PATH}/${encodeURIComponent(dir)}`,
        outputDir: join(opts.outputDir, dir),
        renderer,
        tiles,
        output,
      };
    },
    close() {
      // The document type may leave close() out for services built in memory.
      for (const s of services) s.close?.();
      tiles.close();
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
 * import type { CompetitionCatalog } from "./sources/mod.ts";
 * declare const catalog: CompetitionCatalog;
 * const maps = await openMapServer({ catalog, outputDir: "var/output" });
 * maps.services.map((s) => s.name); // ["Recruitment"]
 * ```
 */
export async function openMapServer(opts: OpenMapServerOptions): Promise<MapServer> {
  const services = await loadServices(opts);
  return createMapServer({ ...opts, services });
}
