/**
 * How a render worker opens map services: a module URL, the name of an
 * exported function and its (structured-cloneable) arguments. The function
 * returns a service or a list of services (`{ name, maps: [{ name, layers,
 * ... }] }`, i.e. map/document's MapService); it is called once per worker.
 *
 * @module
 */
import type { MapResolver } from "./jobs.ts";
import type { RenderMap } from "./types.ts";

/** A serialisable recipe for opening the map services inside a worker. */
export interface ServiceLoaderSpec {
  /** Absolute module URL (e.g. `new URL("../document/mod.ts", import.meta.url).href`). */
  module: string;
  /** Exported function name. */
  export: string;
  /** Arguments passed to it. */
  args?: unknown[];
}

/** The slice of MapService a worker needs. */
export interface LoadedService {
  name: string;
  defaultMapName?: string;
  maps: RenderMap[];
}

/** Finds `map` (or the default map when empty) in `service`; throws a readable error. */
export function findRenderMap(service: LoadedService, map: string): RenderMap {
  const key = map || service.defaultMapName || service.maps[0]?.name;
  const m = service.maps.find((x) => x.name === key) ??
    service.maps.find((x) => x.name.toLowerCase() === String(key).toLowerCase());
  if (!m) throw new Error(`Map "${map}" does not exist in service ${service.name}.`);
  return m;
}

/** A map resolver that can also list every map it serves. */
export interface ServiceMaps extends MapResolver {
  /** Every map of every service, loaded on first use (same objects the resolver returns). */
  all(): Promise<RenderMap[]>;
}

/** A resolver that loads the services once (lazily) and finds maps by name. */
export function mapResolverFor(spec: ServiceLoaderSpec): ServiceMaps {
  let services: Promise<LoadedService[]> | null = null;
  const load = () =>
    services ??= (async () => {
      const mod = await import(spec.module);
      const fn = mod[spec.export];
      if (typeof fn !== "function") {
        throw new Error(`Module ${spec.module} has no function export "${spec.export}".`);
      }
      const out = await fn(...(spec.args ?? []));
      return Array.isArray(out) ? out : [out];
    })();
  const resolve = async (serviceName: string, mapName: string) => {
    const list = await load();
    const service = list.find((s) => s.name === serviceName) ??
      list.find((s) => s.name.toLowerCase() === serviceName.toLowerCase());
    if (!service) throw new Error(`Service "${serviceName}" is not loaded in the render worker.`);
    return findRenderMap(service, mapName);
  };
  return Object.assign(resolve, {
    all: async () =>
      (await load()).flatMap((s) => s.maps.map((m: RenderMap) => findRenderMap(s, m.name))),
  });
}
