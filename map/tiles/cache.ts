/**
 * A map's tile cache: tiles of a tiling scheme rendered on demand in
 * metatiles (up to 4 x 4 tiles in one draw, so labels and symbols are
 * continuous across inner tile edges), kept in an MBTiles store, served
 * from it on repeat, and invalidated when layer data changes.
 *
 * Invalidation: before serving, the cache compares each layer source's
 * `revision()` with the one the stored tiles were drawn from (checked at
 * most every `checkIntervalMs`). Layers fed by the recruitment database's
 * competitions (`changeLog.layerIds`) are invalidated precisely: the
 * catalogue reports the old and new coordinates of every competition
 * changed since the last change seen, and the tiles covering them, padded
 * by the layer's largest marker, are deleted at every level. Any other
 * changed layer drops the whole cache.
 *
 * @module
 */
import { rendererReachPt } from "../document/renderer.ts";
import { projectPoint } from "../geo/projection.ts";
import type { MapResolver } from "../render/jobs.ts";
import type { OutputFormat } from "../render/encode.ts";
import type { Renderer } from "../render/pool.ts";
import type { RenderMap } from "../render/types.ts";
import { lodOf, tileCounts, tileExtent, tileRange, type TilingScheme } from "./scheme.ts";
import { type StoredTile, TileStore } from "./store.ts";

/** What a change feed reports of the competitions that moved. */
export interface CompetitionMoves {
  /** The last change read: pass it as `since` next time. */
  lastSeq: number;
  /** False when changes after `since` were pruned from the log (only a full refresh is safe). */
  complete: boolean;
  /** Old and new places (`[lon, lat]`, WGS 84) of the competitions that changed. */
  places: [number, number][];
}

/**
 * Where a tile cache learns which competitions moved: the recruitment
 * catalogue, handed in by the application (its catalogue fits this shape).
 */
export interface ChangeFeed {
  /** Number of the last recorded change (0 when none). */
  lastChangeSeq(): number;
  /** The places of the competitions changed after change `since`. */
  competitionMovesSince(since: number): CompetitionMoves;
}

/** Options of {@link TileCache}. */
export interface TileCacheOptions {
  /** Service name (render workers find the map by service + map name). */
  service: string;
  map: RenderMap;
  scheme: TilingScheme;
  /** Tile image format (default png32). */
  format?: OutputFormat;
  /** JPEG quality when the format is jpg. */
  quality?: number;
  /** MBTiles file path. */
  path: string;
  renderer: () => Renderer;
  /** Resolves the map when rendering in process. */
  localResolve: MapResolver;
  /** Competition change feed: the recruitment catalogue and the layers it feeds. */
  changeLog?: { feed: ChangeFeed; layerIds: number[] };
  /** Metatile side in tiles (default 4). */
  metatile?: number;
  /** How often data revisions are re-checked (default 1000 ms). */
  checkIntervalMs?: number;
}

/** A tile ready to send. */
export interface TileImage extends StoredTile {
  mime: string;
}

/** Raised for a level/row/column outside the scheme (a missing tile). */
export class TileNotFoundError extends Error {
  /** Creates the error with a message that states the valid range. */
  constructor(message: string) {
    super(message);
    this.name = "TileNotFoundError";
  }
}

/** Progress of a seeding run. */
export interface SeedProgress {
  level: number;
  done: number;
  total: number;
  rendered: number;
}

/** The MIME type of a stored tile format. */
export function tileMime(format: OutputFormat): string {
  return format === "jpg" ? "image/jpeg" : "image/png";
}

function sniffMime(data: Uint8Array): string {
  return data[0] === 0xff && data[1] === 0xd8 ? "image/jpeg" : "image/png";
}

/** The tile cache of one map. */
export class TileCache {
  readonly store: TileStore;
  readonly opts: TileCacheOptions;
  readonly format: OutputFormat;
  #inflight = new Map<string, Promise<void>>();
  #lastCheck = 0;

  /** Opens the store and records the data revisions the tiles will be drawn from. */
  constructor(opts: TileCacheOptions) {
    this.opts = opts;
    this.format = opts.format ?? "png32";
    this.store = new TileStore(opts.path);
    const formatKey = `${this.format}|${opts.quality ?? ""}`;
    if (this.store.meta("x_render_format") !== formatKey) this.store.clear();
    this.store.setMeta({
      name: `${opts.service} ${opts.map.name}`,
      type: "baselayer",
      version: "1",
      description: `Tiles of map ${opts.map.name} of service ${opts.service}`,
      format: this.format === "jpg" ? "jpg" : "png",
      minzoom: String(Math.min(...opts.scheme.lods.map((l) => l.level))),
      maxzoom: String(Math.max(...opts.scheme.lods.map((l) => l.level))),
      bounds: opts.scheme.wkid === 4326 ? "-180,-90,180,90" : "-180,-85.0511,180,85.0511",
      x_render_format: formatKey,
    });
    if (this.store.meta("x_revisions") === undefined) {
      this.store.setMeta({ x_revisions: JSON.stringify(this.#revisions()) });
    }
    if (opts.changeLog && this.store.meta("x_change_seq") === undefined) {
      this.store.setMeta({ x_change_seq: String(this.#maxSeq()) });
    }
  }

  #revisions(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const l of this.opts.map.layers) out[String(l.id)] = l.source.revision();
    return out;
  }

  #maxSeq(): number {
    return this.opts.changeLog?.feed.lastChangeSeq() ?? 0;
  }

  /**
   * Brings the store in line with the data: drops tiles drawn from data
   * that has changed since. Returns the number of tiles deleted.
   */
  sync(force = false): number {
    const now = Date.now();
    if (!force && now - this.#lastCheck < (this.opts.checkIntervalMs ?? 1000)) return 0;
    this.#lastCheck = now;
    const stored = JSON.parse(this.store.meta("x_revisions") ?? "{}") as Record<string, string>;
    const current = this.#revisions();
    const changed = Object.keys(current).filter((k) => stored[k] !== current[k]);
    if (changed.length === 0) return 0;
    const precise = new Set((this.opts.changeLog?.layerIds ?? []).map(String));
    let deleted = 0;
    if (changed.some((k) => !precise.has(k))) {
      deleted = this.store.count();
      this.store.clear();
      this.store.setMeta({ x_change_seq: String(this.#maxSeq()) });
    } else {
      deleted = this.#applyChangeLog(changed.map(Number));
    }
    this.store.setMeta({ x_revisions: JSON.stringify(current) });
    return deleted;
  }

  #applyChangeLog(layerIds: number[]): number {
    const since = Number(this.store.meta("x_change_seq") ?? "0");
    const moves = this.opts.changeLog!.feed.competitionMovesSince(since);
    if (!moves.complete) {
      const n = this.store.count();
      this.store.clear();
      this.store.setMeta({ x_change_seq: String(moves.lastSeq) });
      return n;
    }
    const s = this.opts.scheme;
    // Labels (up to 64 characters, about 0.6 em each) reach far beyond the marker.
    const reachPt = Math.max(
      0,
      ...this.opts.map.layers.filter((l) => layerIds.includes(l.id)).map((l) =>
        rendererReachPt(l.renderer) + (l.labels ? 40 * l.labels.sizePt : 0)
      ),
    );
    // Marker reach (and label room) in pixels at the scheme's DPI, plus antialiasing slack.
    const padPx = (reachPt * s.dpi) / 72 + 2;
    const points: [number, number][] = [];
    for (const place of moves.places) {
      try {
        points.push(projectPoint(place, 4326, s.wkid) as [number, number]);
      } catch {
        // A coordinate the tiling scheme cannot show touches no tile.
      }
    }
    let deleted = 0;
    for (const lod of s.lods) {
      const pad = padPx * lod.resolution;
      for (const [x, y] of points) {
        const range = tileRange(s, lod, {
          xmin: x - pad,
          ymin: y - pad,
          xmax: x + pad,
          ymax: y + pad,
        });
        if (range) {
          deleted += this.store.deleteRange(
            lod.level,
            range.row0,
            range.row1,
            range.col0,
            range.col1,
          );
        }
      }
    }
    this.store.setMeta({ x_change_seq: String(moves.lastSeq) });
    return deleted;
  }

  /** Throws {@link TileNotFoundError} unless (level, row, col) exists in the scheme. */
  check(level: number, row: number, col: number): void {
    const lod = lodOf(this.opts.scheme, level);
    const levels = this.opts.scheme.lods.map((l) => l.level);
    if (!lod) {
      throw new TileNotFoundError(
        `Level ${level} is not in the tile cache (levels ${Math.min(...levels)}-${
          Math.max(...levels)
        }).`,
      );
    }
    const { cols, rows } = tileCounts(this.opts.scheme, lod);
    const ok = (v: number, n: number) => Number.isInteger(v) && v >= 0 && v < n;
    if (!ok(row, rows) || !ok(col, cols)) {
      throw new TileNotFoundError(
        `Tile row ${row}, column ${col} does not exist at level ${level} ` +
          `(rows 0-${rows - 1}, columns 0-${cols - 1}).`,
      );
    }
  }

  /** The stored tile, or null (no rendering; data revisions are checked first). */
  lookup(level: number, row: number, col: number): TileImage | null {
    this.sync();
    const t = this.store.get(level, row, col);
    return t ? { ...t, mime: sniffMime(t.data) } : null;
  }

  /**
   * The tile, rendered (with its metatile) when not stored yet.
   * Throws {@link TileNotFoundError} outside the scheme.
   */
  async tile(level: number, row: number, col: number): Promise<TileImage> {
    this.check(level, row, col);
    const hit = this.lookup(level, row, col);
    if (hit) return hit;
    await this.#renderMetatile(level, row, col);
    const t = this.store.get(level, row, col);
    if (!t) throw new Error(`Tile ${level}/${row}/${col} could not be rendered.`);
    return { ...t, mime: sniffMime(t.data) };
  }

  #metaOrigin(level: number, row: number, col: number): { r0: number; c0: number; span: number } {
    const lod = lodOf(this.opts.scheme, level)!;
    const { cols, rows } = tileCounts(this.opts.scheme, lod);
    const span = Math.max(1, Math.min(this.opts.metatile ?? 4, cols, rows));
    return { r0: Math.floor(row / span) * span, c0: Math.floor(col / span) * span, span };
  }

  #renderMetatile(level: number, row: number, col: number): Promise<void> {
    const { r0, c0, span } = this.#metaOrigin(level, row, col);
    const key = `${level}/${r0}/${c0}`;
    let p = this.#inflight.get(key);
    if (!p) {
      // Concurrent requests for tiles of one metatile share one render.
      p = this.#drawMetatile(level, r0, c0, span).finally(() => this.#inflight.delete(key));
      this.#inflight.set(key, p);
    }
    return p;
  }

  async #drawMetatile(level: number, r0: number, c0: number, span: number): Promise<void> {
    const s = this.opts.scheme;
    const lod = lodOf(s, level)!;
    const px = span * s.tileSize;
    const cells = await this.opts.renderer().run({
      kind: "mosaic",
      service: this.opts.service,
      map: this.opts.map.name,
      cellPx: s.tileSize,
      request: {
        extent: tileExtent(s, lod, r0, c0, span),
        wkid: s.wkid,
        widthPx: px,
        heightPx: px,
        dpi: s.dpi,
        format: this.format,
        quality: this.opts.quality,
      },
    }, this.opts.localResolve);
    this.store.putMany(
      cells.map((c) => ({ z: level, row: r0 + c.row, col: c0 + c.col, data: c.bytes })),
    );
  }

  /**
   * Renders every missing tile of `levels` inside `extent` (scheme units;
   * default the whole world), metatile by metatile.
   */
  async seed(
    levels: number[],
    onProgress?: (p: SeedProgress) => void,
    extent?: { xmin: number; ymin: number; xmax: number; ymax: number },
  ): Promise<SeedProgress> {
    const s = this.opts.scheme;
    const world = s.world;
    const jobs: { level: number; r0: number; c0: number; span: number; tiles: number }[] = [];
    for (const level of levels) {
      const lod = lodOf(s, level);
      if (!lod) throw new TileNotFoundError(`Level ${level} is not in the tile cache.`);
      const range = tileRange(s, lod, extent ?? world);
      if (!range) continue;
      const span = this.#metaOrigin(level, 0, 0).span;
      for (let r = Math.floor(range.row0 / span) * span; r <= range.row1; r += span) {
        for (let c = Math.floor(range.col0 / span) * span; c <= range.col1; c += span) {
          jobs.push({ level, r0: r, c0: c, span, tiles: span * span });
        }
      }
    }
    const total = jobs.reduce((a, j) => a + j.tiles, 0);
    const progress: SeedProgress = { level: levels[0] ?? 0, done: 0, total, rendered: 0 };
    this.sync(true);
    // Keep every worker busy: as many metatiles in flight as the pool could take.
    const parallel = 4;
    let next = 0;
    const work = async () => {
      while (next < jobs.length) {
        const j = jobs[next++];
        let missing = false;
        for (let r = j.r0; r < j.r0 + j.span && !missing; r++) {
          for (let c = j.c0; c < j.c0 + j.span; c++) {
            if (!this.store.has(j.level, r, c)) {
              missing = true;
              break;
            }
          }
        }
        if (missing) {
          await this.#renderMetatile(j.level, j.r0, j.c0);
          progress.rendered += j.tiles;
        }
        progress.done += j.tiles;
        progress.level = j.level;
        onProgress?.({ ...progress });
      }
    };
    await Promise.all(Array.from({ length: parallel }, work));
    return progress;
  }

  /** Closes the store. */
  close(): void {
    this.store.close();
  }
}
