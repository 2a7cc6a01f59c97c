/**
 * Tile caches of the published maps: which maps are cached (a `tiling`
 * entry in the map document), their tiling scheme and format, one
 * {@link TileCache} per map (MBTiles files under a given folder), kept by
 * one {@link TileCaches} per server, which also seeds for `deno task seed-tiles`.
 *
 * @module
 */
import { normalizeWkid } from "../geo/projection.ts";
import { formatFromName, type OutputFormat } from "../render/encode.ts";
import type { RenderLayer, RenderMap } from "../render/types.ts";
import type { Renderer } from "../render/pool.ts";
import { type ChangeFeed, type SeedProgress, TileCache } from "./cache.ts";
import {
  schemeWithLevels,
  type TilingScheme,
  WEB_MERCATOR_SCHEME,
  WGS84_SCHEME,
} from "./scheme.ts";

export {
  type ChangeFeed,
  type SeedProgress,
  TileCache,
  type TileImage,
  TileNotFoundError,
} from "./cache.ts";
export {
  type Lod,
  lodOf,
  tileCounts,
  tileExtent,
  type TilingScheme,
  WEB_MERCATOR_SCHEME,
  WGS84_SCHEME,
} from "./scheme.ts";
export { etagOf, TileStore } from "./store.ts";

/** A service as the tile caches see it. */
export interface ServiceLike {
  name: string;
  defaultMapName?: string;
  maps: readonly RenderMap[];
}

/** Settings of a server's tile caches. */
export interface TilesOptions {
  /** Folder of the MBTiles files (`<dir>/<Service>/<Map>.mbtiles`). */
  dir: string;
  /** Draws the tiles. */
  renderer: Renderer;
  /** The recruitment catalogue, whose changes drive precise invalidation. */
  changes?: ChangeFeed | null;
  /** Which layers draw competitions from that catalogue (default: document source `competitions`). */
  isCompetitionLayer?: (layer: RenderLayer) => boolean;
  /** Metatile side in tiles (default 4). */
  metatile?: number;
}

/** Layers whose document source is the recruitment catalogue's competitions (map/document). */
function defaultIsCompetitionLayer(layer: RenderLayer): boolean {
  const spec = (layer as { sourceSpec?: { type?: unknown } }).sourceSpec;
  return spec?.type === "competitions";
}

/** The tiling of a map document frame (duck-typed `tiling` entry). */
interface TilingEntry {
  minLevel?: number;
  maxLevel?: number;
  levels?: number | [number, number];
  format?: string;
  quality?: number;
}

/** Scheme, format and quality of a cached map, or null when the map is not cached. */
export function frameTiling(
  frame: RenderMap,
): { scheme: TilingScheme; format: OutputFormat; quality: number } | null {
  const t = (frame as { tiling?: TilingEntry | null }).tiling;
  if (!t) return null;
  const wkid = normalizeWkid(frame.wkid);
  const base = wkid === 3857 ? WEB_MERCATOR_SCHEME : wkid === 4326 ? WGS84_SCHEME : null;
  if (!base) return null;
  let min = 0, max = base.lods.length - 1;
  if (Array.isArray(t.levels)) [min, max] = t.levels;
  else if (typeof t.levels === "number") max = t.levels;
  if (typeof t.minLevel === "number") min = t.minLevel;
  if (typeof t.maxLevel === "number") max = t.maxLevel;
  let format: OutputFormat = "png32";
  try {
    if (typeof t.format === "string") format = formatFromName(t.format);
  } catch {
    format = "png32";
  }
  const quality = typeof t.quality === "number" ? t.quality : 75;
  return { scheme: schemeWithLevels(base, min, max), format, quality };
}

/**
 * The map whose tiles a service's tile URLs serve: its default map when
 * that is cached, else its first cached map; undefined when none is.
 *
 * @example
 * ```ts ignore
 * tileMapOf(service)?.name; // "WebMercator"
 * ```
 */
export function tileMapOf<M extends RenderMap>(
  service: { defaultMapName?: string; maps: readonly M[] },
): M | undefined {
  return service.maps.find((m) => m.name === service.defaultMapName && frameTiling(m)) ??
    service.maps.find((m) => frameTiling(m));
}

function safeName(s: string): string {
  return s.replace(/[^\p{L}\p{N}_.-]+/gu, "_");
}

/**
 * The tile caches of one server: one {@link TileCache} per cached map,
 * opened on first use and kept until {@link TileCaches.close}.
 *
 * @example
 * ```ts ignore
 * const tiles = new TileCaches({ dir: "var/tiles", renderer, changes: catalog });
 * const tile = await tiles.cacheFor(service, service.maps[1])?.tile(3, 2, 5);
 * ```
 */
export class TileCaches {
  readonly #opts: TilesOptions;
  readonly #caches = new Map<string, { frame: RenderMap; cache: TileCache }>();

  /** Keeps the settings; no file is opened before the first tile. */
  constructor(opts: TilesOptions) {
    this.#opts = opts;
  }

  /** The tile cache of `frame` in `service`, or null when the map is not cached. */
  cacheFor(service: ServiceLike, frame: RenderMap): TileCache | null {
    const key = `${service.name}\u0000${frame.name}`;
    const hit = this.#caches.get(key);
    if (hit && hit.frame === frame) return hit.cache;
    hit?.cache.close();
    const tiling = frameTiling(frame);
    if (!tiling) return null;
    const map = frame;
    const isCompetition = this.#opts.isCompetitionLayer ?? defaultIsCompetitionLayer;
    const competitionIds = frame.layers.filter((l) => isCompetition(l)).map((l) => l.id);
    const renderer = this.#opts.renderer;
    const changes = this.#opts.changes;
    const cache = new TileCache({
      service: service.name,
      map,
      scheme: tiling.scheme,
      format: tiling.format,
      quality: tiling.quality,
      path: `${this.#opts.dir}/${safeName(service.name)}/${safeName(frame.name)}.mbtiles`,
      renderer: () => renderer,
      localResolve: () => map,
      changeLog: changes && competitionIds.length
        ? { feed: changes, layerIds: competitionIds }
        : undefined,
      metatile: this.#opts.metatile ?? 4,
    });
    this.#caches.set(key, { frame, cache });
    return cache;
  }

  /** Pre-renders every missing tile of `levels` of a cached map. */
  async seed(opts: SeedOptions): Promise<SeedProgress> {
    const { service } = opts;
    const frame = opts.map ? service.maps.find((m) => m.name === opts.map) : tileMapOf(service);
    if (!frame) {
      throw new Error(
        opts.map
          ? `Map "${opts.map}" does not exist in service ${service.name}.`
          : `Service ${service.name} has no cached map (add a "tiling" entry to a map).`,
      );
    }
    const cache = this.cacheFor(service, frame);
    if (!cache) throw new Error(`Map "${frame.name}" of service ${service.name} is not cached.`);
    return await cache.seed(opts.levels, opts.onProgress);
  }

  /** Closes every open tile store. */
  close(): void {
    for (const { cache } of this.#caches.values()) cache.close();
    this.#caches.clear();
  }
}

/**
 * Parses a level list such as `0-6`, `3`, or `0-4,8`.
 *
 * @example
 * ```ts
 * parseLevels("0-2,5"); // [0, 1, 2, 5]
 * ```
 */
export function parseLevels(text: string): number[] {
  const out = new Set<number>();
  for (const part of text.split(",").map((p) => p.trim()).filter(Boolean)) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part);
    if (!m) throw new RangeError(`Cannot read level range "${part}"; write e.g. 0-6 or 0-4,8.`);
    const a = Number(m[1]), b = m[2] === undefined ? a : Number(m[2]);
    if (b < a || b > 30) throw new RangeError(`Level range "${part}" is empty or beyond level 30.`);
    for (let l = a; l <= b; l++) out.add(l);
  }
  return [...out].sort((x, y) => x - y);
}

/** Options of {@link TileCaches.seed}. */
export interface SeedOptions {
  service: ServiceLike;
  /** Map name; default the service's default map, else its first cached map. */
  map?: string;
  levels: number[];
  onProgress?: (p: SeedProgress) => void;
}

/** A progress display (the application's progress bar, or a test's recorder). */
export interface ProgressDisplay {
  update(done: number, total: number, detail?: string): void;
  finish(): void;
}

/**
 * Seeding progress shown on a progress display: `done/total` with the
 * level and the number of tiles rendered, finished at the last tile.
 *
 * @example
 * ```ts ignore
 * await tiles.seed({ service, levels, onProgress: progressPrinter(progressBar("tiles")) });
 * ```
 */
export function progressPrinter(display: ProgressDisplay): (p: SeedProgress) => void {
  return (p) => {
    display.update(p.done, p.total, `level ${p.level}  rendered ${p.rendered}`);
    if (p.done === p.total) display.finish();
  };
}
