/**
 * The tile-cache operations of `draw.ts`: GetTileCacheInfo,
 * HasSingleFusedMapCache, GetMapTile, HasLayerCache, GetLayerTile,
 * GetVirtualCacheDirectory, GetCacheName, GetTileImageInfo and
 * GetCacheControlInfo, answered from map/tiles.
 *
 * The virtual cache directory is `<base>/arcgis/rest/services/<Service>/
 * MapServer/tile/<Map>/_alllayers`, under which both the exploded-cache
 * names (`L03/R00000002/C00000005.png`) and plain `3/2/5` are served
 * (routes/arcgis_files.ts).
 *
 * @module
 */
import { InvalidRequestError } from "../errors.ts";
import type {
  CacheControlInfo,
  CacheLayerRequest,
  MapFrame,
  MapNameRequest,
  Operation,
  OperationContext,
  TileCacheInfo,
  TileImageInfo,
  TileRequest,
} from "./types.ts";
import { frameTiling, TileNotFoundError } from "../tiles/mod.ts";
import { findLayer, findMap } from "./_query_map_state.ts";

/** The virtual cache directory URL of a cached map. */
export function virtualCacheDirectory(base: string, service: string, map: string): string {
  return `${base}/arcgis/rest/services/${encodeURIComponent(service)}/MapServer/tile/${
    encodeURIComponent(map)
  }/_alllayers`;
}

function notCached(frame: MapFrame): InvalidRequestError {
  return new InvalidRequestError(
    `Map "${frame.name}" has no tile cache (HasSingleFusedMapCache is false); use ExportMapImage.`,
    { MapName: frame.name },
  );
}

const FORMAT_NAMES: Record<string, string> = {
  png8: "PNG8",
  png24: "PNG24",
  png32: "PNG32",
  jpg: "JPEG",
  jpgpng: "MIXED",
  bmp: "BMP",
  tiff: "TIFF",
  gif: "GIF",
};

/** Whether a GetMapTile Format names the cache's format (png / png32 / jpg ...). */
function formatMatches(requested: string, stored: string): boolean {
  const r = requested.toLowerCase().replace(/^\./, "");
  if (r === "" || r === stored) return true;
  if (r === "png") return stored.startsWith("png");
  if (r === "jpg" || r === "jpeg") return stored === "jpg" || stored === "jpgpng";
  if (r === "mixed") return stored === "jpgpng";
  return false;
}

async function mapTile(req: TileRequest, ctx: OperationContext): Promise<Uint8Array> {
  const frame = findMap(ctx.service, req.MapName);
  const cache = ctx.tiles.cacheFor(ctx.service, frame);
  if (!cache) throw notCached(frame);
  const level = req.Level, row = req.Row, col = req.Column;
  if (req.Format !== undefined && !formatMatches(req.Format, cache.format)) {
    throw new InvalidRequestError(
      `Tiles of map "${frame.name}" are stored as ${FORMAT_NAMES[cache.format]}; ask for Format ` +
        `"${cache.format === "jpg" ? "jpg" : "png"}" or leave Format out.`,
    );
  }
  try {
    const t = await cache.tile(level, row, col);
    return t.data;
  } catch (e) {
    if (e instanceof TileNotFoundError) {
      throw new InvalidRequestError(e.message, { Level: level, Row: row, Column: col });
    }
    throw e;
  }
}

/** The tile-cache operations by their ArcGIS names, each with its request and result type. */
export interface TileOperations {
  HasSingleFusedMapCache: Operation<MapNameRequest, boolean>;
  /** Null for a map without a cache. */
  GetTileCacheInfo: Operation<MapNameRequest, TileCacheInfo | null>;
  /** Null for a map without a cache. */
  GetTileImageInfo: Operation<MapNameRequest, TileImageInfo | null>;
  GetCacheControlInfo: Operation<MapNameRequest, CacheControlInfo>;
  GetMapTile: Operation<TileRequest, Uint8Array>;
  HasLayerCache: Operation<CacheLayerRequest, boolean>;
  GetLayerTile: Operation<MapNameRequest, Uint8Array>;
  GetVirtualCacheDirectory: Operation<CacheLayerRequest, string>;
  GetCacheName: Operation<CacheLayerRequest, string>;
}

/**
 * The tile-cache operations, answered from the server's tile caches.
 *
 * @example
 * ```ts ignore
 * const png = await TILE_OPERATIONS.GetMapTile({ MapName: "WebMercator", Level: 3, Row: 2, Column: 5 }, ctx);
 * ```
 */
export const TILE_OPERATIONS: TileOperations = {
  HasSingleFusedMapCache(req, ctx) {
    return frameTiling(findMap(ctx.service, req.MapName)) !== null;
  },

  GetTileCacheInfo(req, ctx) {
    const frame = findMap(ctx.service, req.MapName);
    const t = frameTiling(frame);
    if (!t) return null;
    const s = t.scheme;
    return {
      wkid: frame.wkid,
      origin: [s.originX, s.originY],
      tileSizePx: s.tileSize,
      dpi: s.dpi,
      lods: s.lods,
    };
  },

  GetTileImageInfo(req, ctx) {
    const t = frameTiling(findMap(ctx.service, req.MapName));
    if (!t) return null;
    return {
      format: FORMAT_NAMES[t.format],
      compressionQuality: t.format === "jpg" || t.format === "jpgpng" ? t.quality : 0,
      antialiasing: true,
    };
  },

  GetCacheControlInfo(req, ctx) {
    findMap(ctx.service, req.MapName);
    return { clientCachingAllowed: true };
  },

  GetMapTile: mapTile,

  HasLayerCache(req, ctx) {
    const frame = findMap(ctx.service, req.MapName);
    if (req.LayerID !== -1) findLayer(frame, req.LayerID);
    // Only fused (whole-map) caches exist here, as on ArcGIS 10.1+.
    return false;
  },

  GetLayerTile(req, ctx) {
    const frame = findMap(ctx.service, req.MapName);
    throw new InvalidRequestError(
      `Map "${frame.name}" has no per-layer caches; use GetMapTile` +
        (frameTiling(frame) ? " (it has a fused cache)." : " or ExportMapImage."),
    );
  },

  GetVirtualCacheDirectory(req, ctx) {
    const frame = findMap(ctx.service, req.MapName);
    if (!frameTiling(frame)) throw notCached(frame);
    if (req.LayerID !== -1) {
      findLayer(frame, req.LayerID);
      throw new InvalidRequestError(
        `Layer ${req.LayerID} has no cache of its own; use LayerID -1 (fused cache).`,
      );
    }
    return virtualCacheDirectory(ctx.baseUrl, ctx.service.name, frame.name);
  },

  GetCacheName(req, ctx) {
    const frame = findMap(ctx.service, req.MapName);
    if (!frameTiling(frame)) throw notCached(frame);
    if (req.LayerID !== -1) {
      findLayer(frame, req.LayerID);
      throw new InvalidRequestError(
        `Layer ${req.LayerID} has no cache of its own; use LayerID -1 (fused cache).`,
      );
    }
    return "_alllayers";
  },
};
