/**
 * The ArcGIS Online / Bing / Google Web Mercator tiling scheme: 256 x 256
 * pixel tiles at 96 DPI, origin (-20037508.342787, 20037508.342787) in
 * WKID 102100 (3857), levels 0-19 with Esri's published resolutions and
 * scales, and the tile <-> extent math.
 *
 * @module
 */
import type { Extent } from "../types.ts";

/** One level of detail. */
export interface Lod {
  level: number;
  /** Map units (metres) per pixel. */
  resolution: number;
  /** Scale denominator. */
  scale: number;
}

/** A tiling scheme. */
export interface TilingScheme {
  wkid: number;
  originX: number;
  originY: number;
  tileSize: number;
  dpi: number;
  lods: readonly Lod[];
  /** The area the scheme covers (its tiles never extend past it). */
  world: Extent;
}

/** Esri's published values for the ArcGIS Online scheme (resolution, scale). */
const AGOL: readonly [number, number][] = [
  [156543.03392800014, 591657527.591555],
  [78271.51696399994, 295828763.795777],
  [39135.75848200009, 147914381.897889],
  [19567.87924099992, 73957190.948944],
  [9783.93962049996, 36978595.474472],
  [4891.96981024998, 18489297.737236],
  [2445.98490512499, 9244648.868618],
  [1222.992452562495, 4622324.434309],
  [611.4962262813797, 2311162.217155],
  [305.74811314055756, 1155581.108577],
  [152.87405657041106, 577790.554289],
  [76.43702828507324, 288895.277144],
  [38.21851414253662, 144447.638572],
  [19.10925707126831, 72223.819286],
  [9.554628535634155, 36111.909643],
  [4.77731426794937, 18055.954822],
  [2.388657133974685, 9027.977411],
  [1.1943285668550503, 4513.988705],
  [0.5971642835598172, 2256.994353],
  [0.29858214164761665, 1128.497176],
];

/** The ArcGIS Online Web Mercator scheme, levels 0-19. */
export const WEB_MERCATOR_SCHEME: TilingScheme = Object.freeze({
  wkid: 3857,
  originX: -20037508.342787,
  originY: 20037508.342787,
  tileSize: 256,
  dpi: 96,
  lods: Object.freeze(
    AGOL.map(([resolution, scale], level) => Object.freeze({ level, resolution, scale })),
  ),
  world: {
    xmin: -20037508.342787,
    ymin: -20037508.342787,
    xmax: 20037508.342787,
    ymax: 20037508.342787,
  },
});

/**
 * Esri's WGS 84 geographic scheme: origin (-180, 90), 256-pixel tiles at
 * 96 DPI, 0.703125 degrees per pixel at level 0 (two tiles wide, one tall),
 * halving per level; scale uses 111319.49079327358 metres per degree.
 */
export const WGS84_SCHEME: TilingScheme = Object.freeze({
  wkid: 4326,
  originX: -180,
  originY: 90,
  tileSize: 256,
  dpi: 96,
  lods: Object.freeze(
    Array.from({ length: 20 }, (_, level) => {
      const resolution = 0.703125 / 2 ** level;
      return Object.freeze({
        level,
        resolution,
        scale: resolution * 111319.49079327358 * 96 * 39.37,
      });
    }),
  ),
  world: { xmin: -180, ymin: -90, xmax: 180, ymax: 90 },
});

/**
 * The scheme limited to levels `minLevel..maxLevel` (a document may cache fewer levels).
 *
 * @example
 * ```ts
 * schemeWithLevels(WEB_MERCATOR_SCHEME, 0, 12).lods.length; // 13
 * ```
 */
export function schemeWithLevels(
  s: TilingScheme,
  minLevel: number,
  maxLevel: number,
): TilingScheme {
  return { ...s, lods: s.lods.filter((l) => l.level >= minLevel && l.level <= maxLevel) };
}

/** The LOD of `level`, or undefined when the scheme has none. */
export function lodOf(s: TilingScheme, level: number): Lod | undefined {
  return s.lods.find((l) => l.level === level);
}

/** Number of tile columns and rows covering the scheme's world at a level. */
export function tileCounts(s: TilingScheme, lod: Lod): { cols: number; rows: number } {
  const size = lod.resolution * s.tileSize;
  return {
    cols: Math.max(1, Math.round((s.world.xmax - s.originX) / size)),
    rows: Math.max(1, Math.round((s.originY - s.world.ymin) / size)),
  };
}

/**
 * The map extent covered by tile (row, col) at `lod`.
 *
 * @example
 * ```ts
 * tileExtent(WEB_MERCATOR_SCHEME, WEB_MERCATOR_SCHEME.lods[0], 0, 0); // the whole world
 * ```
 */
export function tileExtent(s: TilingScheme, lod: Lod, row: number, col: number, span = 1): Extent {
  const size = lod.resolution * s.tileSize;
  return {
    xmin: s.originX + col * size,
    xmax: s.originX + (col + span) * size,
    ymax: s.originY - row * size,
    ymin: s.originY - (row + span) * size,
  };
}

/**
 * Tile rows and columns at `lod` that intersect `e` (clamped to the world).
 *
 * @example
 * ```ts
 * const lod = lodOf(WEB_MERCATOR_SCHEME, 3)!;
 * tileRange(WEB_MERCATOR_SCHEME, lod, { xmin: 0, ymin: 0, xmax: 1, ymax: 1 });
 * ```
 */
export function tileRange(
  s: TilingScheme,
  lod: Lod,
  e: Extent,
): { row0: number; row1: number; col0: number; col1: number } | null {
  const size = lod.resolution * s.tileSize;
  const { cols, rows } = tileCounts(s, lod);
  const col0 = Math.max(0, Math.floor((e.xmin - s.originX) / size));
  const col1 = Math.min(cols - 1, Math.floor((e.xmax - s.originX) / size));
  const row0 = Math.max(0, Math.floor((s.originY - e.ymax) / size));
  const row1 = Math.min(rows - 1, Math.floor((s.originY - e.ymin) / size));
  if (col0 > col1 || row0 > row1) return null;
  return { row0, row1, col0, col1 };
}
