/**
 * The symbology our renderer and UMN MapServer share in the comparison
 * benchmarks, and the mapfile that draws GeoPackage layers with it, so the
 * two sides of a comparison can never drift apart.
 *
 * @module
 */

/** Land fill, polygon outline, sea background and point colour (RGB). */
export const COLOURS = {
  land: [244, 241, 230],
  edge: [150, 150, 150],
  sea: [205, 225, 240],
  dot: [215, 25, 28],
} as const;

/** One GeoPackage layer of a mapfile. */
export interface MapfileLayer {
  /** GeoPackage path. */
  path: string;
  table: string;
  polygon: boolean;
}

/**
 * A MapServer mapfile (PNG24, WGS 84) drawing `layers` bottom to top in
 * the shared symbology.
 *
 * @example
 * ```ts
 * import { mapfile } from "./_mapfile.ts";
 * mapfile(1024, 768, [{ path: "land.gpkg", table: "land", polygon: true }]);
 * ```
 */
export function mapfile(width: number, height: number, layers: readonly MapfileLayer[]): string {
  const { land, edge, sea, dot } = COLOURS;
  const ls = layers.map((l) => `
  LAYER
    NAME "${l.table}"
    TYPE ${l.polygon ? "POLYGON" : "POINT"}
    STATUS ON
    CONNECTIONTYPE OGR
    CONNECTION "${l.path}"
    DATA "${l.table}"
    CLASS
      ${
    l.polygon
      ? `STYLE COLOR ${land.join(" ")} END
      STYLE OUTLINECOLOR ${edge.join(" ")} WIDTH 0.67 END`
      : `STYLE SYMBOL "circle" SIZE 6.67 COLOR ${dot.join(" ")} END`
  }
    END
  END`).join("");
  return `MAP
  SIZE ${width} ${height}
  EXTENT -180 -90 180 90
  IMAGECOLOR ${sea.join(" ")}
  OUTPUTFORMAT
    NAME "png24"
    DRIVER "AGG/PNG"
    IMAGEMODE RGB
    EXTENSION "png"
  END
  IMAGETYPE "png24"
  SYMBOL NAME "circle" TYPE ELLIPSE FILLED TRUE POINTS 1 1 END END
  PROJECTION "init=epsg:4326" END${ls}
END
`;
}
