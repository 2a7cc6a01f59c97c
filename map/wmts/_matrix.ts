/**
 * The tile matrix sets a cached map offers through WMTS: its own
 * (`default028mm`, as ArcGIS Server names it: scale denominators of 0.28 mm
 * pixels) and, for a Web Mercator cache that starts at level 0, the
 * well-known `GoogleMapsCompatible` one, whose tiles are the same.
 *
 * @module
 */
import { type Lod, tileCounts, type TilingScheme } from "../tiles/scheme.ts";

/** Metres per degree at the equator, as the OGC well-known scale sets count them. */
const METRES_PER_DEGREE = 6378137 * 2 * Math.PI / 360;
/** The OGC "standardized rendering pixel size". */
const PIXEL_METRES = 0.00028;
/** GoogleMapsCompatible's level-0 scale denominator (OGC 07-057r7, Annex E.4). */
const GOOGLE_SCALE_0 = 559082264.0287178;
/** GoogleMapsCompatible's top left corner. */
const GOOGLE_ORIGIN = 20037508.3427892;

/** One TileMatrix as the capabilities write it. */
export interface TileMatrix {
  identifier: string;
  level: number;
  scaleDenominator: number;
  /** Top left corner in the CRS's axis order (latitude first for EPSG:4326). */
  topLeft: [number, number];
  tileSize: number;
  matrixWidth: number;
  matrixHeight: number;
}

/** One TileMatrixSet. */
export interface TileMatrixSet {
  identifier: string;
  /** `urn:ogc:def:crs:EPSG::<code>`. */
  crs: string;
  wellKnownScaleSet?: string;
  matrices: TileMatrix[];
}

function scaleOf(scheme: TilingScheme, lod: Lod): number {
  const metres = scheme.wkid === 4326 ? lod.resolution * METRES_PER_DEGREE : lod.resolution;
  return metres / PIXEL_METRES;
}

/**
 * The tile matrix sets of a cache's scheme, its own first.
 *
 * @example
 * ```ts
 * import { WEB_MERCATOR_SCHEME } from "../tiles/scheme.ts";
 * tileMatrixSets(WEB_MERCATOR_SCHEME).map((s) => s.identifier); // ["default028mm", "GoogleMapsCompatible"]
 * ```
 */
export function tileMatrixSets(scheme: TilingScheme): TileMatrixSet[] {
  const latFirst = scheme.wkid === 4326;
  const own: TileMatrixSet = {
    identifier: "default028mm",
    crs: `urn:ogc:def:crs:EPSG::${scheme.wkid}`,
    matrices: scheme.lods.map((lod) => {
      const { cols, rows } = tileCounts(scheme, lod);
      return {
        identifier: String(lod.level),
        level: lod.level,
        scaleDenominator: scaleOf(scheme, lod),
        topLeft: latFirst ? [scheme.originY, scheme.originX] : [scheme.originX, scheme.originY],
        tileSize: scheme.tileSize,
        matrixWidth: cols,
        matrixHeight: rows,
      };
    }),
  };
  const sets = [own];
  const levels = scheme.lods.map((l) => l.level);
  if (scheme.wkid === 3857 && scheme.tileSize === 256 && levels[0] === 0) {
    sets.push({
      identifier: "GoogleMapsCompatible",
      crs: "urn:ogc:def:crs:EPSG::3857",
      wellKnownScaleSet: "urn:ogc:def:wkss:OGC:1.0:GoogleMapsCompatible",
      matrices: scheme.lods.map((lod) => ({
        identifier: String(lod.level),
        level: lod.level,
        scaleDenominator: GOOGLE_SCALE_0 / 2 ** lod.level,
        topLeft: [-GOOGLE_ORIGIN, GOOGLE_ORIGIN],
        tileSize: 256,
        matrixWidth: 2 ** lod.level,
        matrixHeight: 2 ** lod.level,
      })),
    });
  }
  return sets;
}
