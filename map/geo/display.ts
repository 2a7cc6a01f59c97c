/**
 * ArcGIS display math: the extent actually drawn for an image, its
 * resolution and scale, and the pixel ↔ map transforms.
 *
 * Conventions (spec §5.1, §5.3–§5.5):
 * - the requested extent is widened to the image's aspect ratio: keep the
 *   centre, resolution = max(width/widthPx, height/heightPx);
 * - scale = resolution × metres per unit × DPI × 39.37;
 * - pixel origin is the upper-left corner of the image, y grows downward;
 *   map origin is the lower-left, y grows upward; pixel (0, 0) is the
 *   extent's (xmin, ymax) corner (pixel corners, not centres);
 * - rotation is in degrees counter-clockwise: map content turns
 *   counter-clockwise on screen about the extent's centre.
 *
 * Every operation that takes a MapDescription with an ImageDisplay
 * (ExportMapImage, ComputeScale, To/FromMapPoints, Identify, Find) builds
 * one {@linkcode MapDisplay} with {@linkcode createDisplay} and uses it.
 *
 * @module
 */
import { InvalidRequestError } from "../errors.ts";
import type { Extent, Position } from "../types.ts";
import { displayMetersPerUnit, INCHES_PER_METER } from "./units.ts";
import { unitsOfWkid } from "./projection.ts";

/** Default device resolution when a request gives none (ArcGIS uses 96). */
export const DEFAULT_DPI = 96;

/** How to lay a map extent onto an image. */
export interface DisplayOptions {
  /** Image width in pixels (> 0). */
  widthPx: number;
  /** Image height in pixels (> 0). */
  heightPx: number;
  /** Dots per inch; 0, negative or missing means {@linkcode DEFAULT_DPI}. */
  dpi?: number;
  /** Degrees counter-clockwise; default 0. */
  rotation?: number;
  /** Spatial reference of the extent; picks the metres per map unit. */
  wkid: number;
  /** Overrides the metres per map unit derived from `wkid`. */
  metersPerUnit?: number;
  /**
   * Draw exactly `extent`, stretched to the image (pixels need not be square), as WMS
   * GetMap does; default false: widen the extent to the image's aspect, as ArcGIS does.
   */
  stretch?: boolean;
}

/** An extent fitted to an image: everything needed to go between pixels and map units. */
export interface MapDisplay {
  /** Aspect-adjusted extent of the unrotated frame (what MapImage.Extent reports). */
  readonly extent: Extent;
  /** Bounding box of what is visible, rotation included (use it to fetch features). */
  readonly visibleExtent: Extent;
  /** Image width in pixels. */
  readonly widthPx: number;
  /** Image height in pixels. */
  readonly heightPx: number;
  /** Dots per inch used for the scale. */
  readonly dpi: number;
  /** Degrees counter-clockwise. */
  readonly rotation: number;
  /** Map units per pixel (across; the scale is reckoned from it). */
  readonly resolution: number;
  /** Map units per pixel down: `resolution` unless the display is stretched. */
  readonly yResolution: number;
  /** Map scale denominator (1:scale). */
  readonly scale: number;
  /** Metres per map unit used for the scale. */
  readonly metersPerUnit: number;
}

function assertPositiveFinite(value: number, what: string): void {
  if (!Number.isFinite(value) || value <= 0) {
    throw new InvalidRequestError(`${what} must be a positive number, got ${value}.`);
  }
}

function assertExtent(extent: Extent): void {
  const { xmin, ymin, xmax, ymax } = extent;
  if (![xmin, ymin, xmax, ymax].every(Number.isFinite)) {
    throw new InvalidRequestError("The map extent has a coordinate that is not a finite number.");
  }
  if (xmax < xmin || ymax < ymin) {
    throw new InvalidRequestError(
      `The map extent is inverted (XMin ${xmin} > XMax ${xmax} or YMin ${ymin} > YMax ${ymax}).`,
    );
  }
}

/**
 * Widens `extent` to the aspect ratio of a `widthPx` × `heightPx` image,
 * keeping its centre: the short side grows, the long side stays.
 *
 * @example
 * ```ts
 * adjustExtentToAspect({ xmin: 0, ymin: 0, xmax: 10, ymax: 10 }, 200, 100);
 * // { xmin: -5, ymin: 0, xmax: 15, ymax: 10 }
 * ```
 */
export function adjustExtentToAspect(extent: Extent, widthPx: number, heightPx: number): Extent {
  assertExtent(extent);
  assertPositiveFinite(widthPx, "The image width");
  assertPositiveFinite(heightPx, "The image height");
  const w = extent.xmax - extent.xmin;
  const h = extent.ymax - extent.ymin;
  if (w === 0 && h === 0) {
    throw new InvalidRequestError("The map extent has zero width and zero height; give it a size.");
  }
  const res = Math.max(w / widthPx, h / heightPx);
  const cx = (extent.xmin + extent.xmax) / 2;
  const cy = (extent.ymin + extent.ymax) / 2;
  // Keep the unchanged side's bounds bit-exact instead of recomputing them from the centre.
  const fitsWidth = w / widthPx >= h / heightPx;
  const halfW = (widthPx * res) / 2;
  const halfH = (heightPx * res) / 2;
  return fitsWidth
    ? { xmin: extent.xmin, xmax: extent.xmax, ymin: cy - halfH, ymax: cy + halfH }
    : { xmin: cx - halfW, xmax: cx + halfW, ymin: extent.ymin, ymax: extent.ymax };
}

/** `extent` itself, checked to have a width and a height to stretch over the image. */
function stretchedExtent(extent: Extent, widthPx: number, heightPx: number): Extent {
  assertExtent(extent);
  assertPositiveFinite(widthPx, "The image width");
  assertPositiveFinite(heightPx, "The image height");
  if (!(extent.xmax > extent.xmin && extent.ymax > extent.ymin)) {
    throw new InvalidRequestError("The map extent needs a width and a height to fill the image.");
  }
  return extent;
}

/**
 * Metres per map unit of a spatial reference, for display scale
 * (111319.49079327358 for geographic ones, 1 for metric projections).
 *
 * @example
 * ```ts
 * metersPerUnitOfWkid(4326); // 111319.49079327358
 * ```
 */
export function metersPerUnitOfWkid(wkid: number): number {
  return displayMetersPerUnit(unitsOfWkid(wkid));
}

/**
 * Scale denominator from a resolution (map units per pixel).
 *
 * @example
 * ```ts
 * scaleFromResolution(156543.03392804097, 1, 96); // ≈ 591657527.59
 * ```
 */
export function scaleFromResolution(
  resolution: number,
  metersPerUnit: number,
  dpi: number,
): number {
  return resolution * metersPerUnit * dpi * INCHES_PER_METER;
}

/**
 * Resolution (map units per pixel) from a scale denominator.
 *
 * @example
 * ```ts
 * resolutionFromScale(591657527.591555, 1, 96); // ≈ 156543.0339
 * ```
 */
export function resolutionFromScale(scale: number, metersPerUnit: number, dpi: number): number {
  return scale / (metersPerUnit * dpi * INCHES_PER_METER);
}

/**
 * The extent of an image of `widthPx` × `heightPx` centred on `center` at
 * `scale` (ArcGIS CenterAndScale).
 *
 * @example
 * ```ts
 * extentFromCenterAndScale([0, 0], 1_000_000, { widthPx: 400, heightPx: 300, dpi: 96, wkid: 3857 });
 * ```
 */
export function extentFromCenterAndScale(
  center: Position,
  scale: number,
  opts: Omit<DisplayOptions, "rotation">,
): Extent {
  assertPositiveFinite(scale, "The map scale");
  assertPositiveFinite(opts.widthPx, "The image width");
  assertPositiveFinite(opts.heightPx, "The image height");
  const dpi = opts.dpi && opts.dpi > 0 ? opts.dpi : DEFAULT_DPI;
  const mpu = opts.metersPerUnit ?? metersPerUnitOfWkid(opts.wkid);
  const res = resolutionFromScale(scale, mpu, dpi);
  const halfW = (opts.widthPx * res) / 2;
  const halfH = (opts.heightPx * res) / 2;
  return {
    xmin: center[0] - halfW,
    ymin: center[1] - halfH,
    xmax: center[0] + halfW,
    ymax: center[1] + halfH,
  };
}

/**
 * Fits `extent` to an image and returns the display: adjusted extent,
 * resolution, scale and what rotation makes visible. Throws an InvalidRequestError
 * (with a sentence a user can act on) for empty extents, non-positive
 * image sizes or non-finite numbers.
 *
 * @example
 * ```ts
 * const d = createDisplay({ xmin: -180, ymin: -90, xmax: 180, ymax: 90 },
 *   { widthPx: 800, heightPx: 400, dpi: 96, wkid: 4326 });
 * d.resolution; // 0.45
 * ```
 */
export function createDisplay(extent: Extent, opts: DisplayOptions): MapDisplay {
  const adjusted = opts.stretch
    ? stretchedExtent(extent, opts.widthPx, opts.heightPx)
    : adjustExtentToAspect(extent, opts.widthPx, opts.heightPx);
  const dpi = opts.dpi && Number.isFinite(opts.dpi) && opts.dpi > 0 ? opts.dpi : DEFAULT_DPI;
  const rotation = opts.rotation ?? 0;
  if (!Number.isFinite(rotation)) {
    throw new InvalidRequestError(
      `The map rotation must be a finite number of degrees, got ${rotation}.`,
    );
  }
  const metersPerUnit = opts.metersPerUnit ?? metersPerUnitOfWkid(opts.wkid);
  assertPositiveFinite(metersPerUnit, "Metres per map unit");
  const resolution = (adjusted.xmax - adjusted.xmin) / opts.widthPx;
  // A box of the image's own aspect is drawn as an unstretched one is (square pixels), whatever
  // rounding its corners went through.
  const yStretched = (adjusted.ymax - adjusted.ymin) / opts.heightPx;
  const yResolution = opts.stretch && Math.abs(yStretched - resolution) > 1e-9 * resolution
    ? yStretched
    : resolution;
  if (opts.stretch && rotation % 360 !== 0) {
    throw new InvalidRequestError("A stretched map cannot be rotated.");
  }
  const base = {
    extent: adjusted,
    visibleExtent: adjusted,
    widthPx: opts.widthPx,
    heightPx: opts.heightPx,
    dpi,
    rotation,
    resolution,
    yResolution,
    scale: scaleFromResolution(resolution, metersPerUnit, dpi),
    metersPerUnit,
  };
  if (rotation % 360 === 0) return base;
  const corners: Position[] = [
    [0, 0],
    [opts.widthPx, 0],
    [opts.widthPx, opts.heightPx],
    [0, opts.heightPx],
  ].map((p) => toMap(base, p as Position));
  const xs = corners.map((c) => c[0]);
  const ys = corners.map((c) => c[1]);
  return {
    ...base,
    visibleExtent: {
      xmin: Math.min(...xs),
      ymin: Math.min(...ys),
      xmax: Math.max(...xs),
      ymax: Math.max(...ys),
    },
  };
}

/**
 * Map coordinates → pixel coordinates (fractional; round for integer
 * screen points as FromMapPoints does).
 *
 * @example
 * ```ts
 * const d = createDisplay({ xmin: 0, ymin: 0, xmax: 40, ymax: 30 }, { widthPx: 400, heightPx: 300, dpi: 96, wkid: 4326 });
 * toScreen(d, [d.extent.xmin, d.extent.ymax]); // [0, 0]
 * ```
 */
export function toScreen(d: MapDisplay, p: Position): Position {
  const { extent, resolution: res } = d;
  if (d.rotation % 360 === 0) {
    return [(p[0] - extent.xmin) / res, (extent.ymax - p[1]) / d.yResolution];
  }
  const cx = (extent.xmin + extent.xmax) / 2;
  const cy = (extent.ymin + extent.ymax) / 2;
  const t = (d.rotation * Math.PI) / 180;
  const dx = p[0] - cx;
  const dy = p[1] - cy;
  const sx = dx * Math.cos(t) - dy * Math.sin(t);
  const sy = dx * Math.sin(t) + dy * Math.cos(t);
  return [d.widthPx / 2 + sx / res, d.heightPx / 2 - sy / res];
}

/**
 * Pixel coordinates → map coordinates.
 *
 * @example
 * ```ts
 * const d = createDisplay({ xmin: 0, ymin: 0, xmax: 40, ymax: 30 }, { widthPx: 400, heightPx: 300, dpi: 96, wkid: 4326 });
 * toMap(d, [0, d.heightPx]); // [d.extent.xmin, d.extent.ymin]
 * ```
 */
export function toMap(d: MapDisplay, px: Position): Position {
  const { extent, resolution: res } = d;
  if (d.rotation % 360 === 0) {
    return [extent.xmin + px[0] * res, extent.ymax - px[1] * d.yResolution];
  }
  const cx = (extent.xmin + extent.xmax) / 2;
  const cy = (extent.ymin + extent.ymax) / 2;
  const t = (d.rotation * Math.PI) / 180;
  const sx = (px[0] - d.widthPx / 2) * res;
  const sy = (d.heightPx / 2 - px[1]) * res;
  // Inverse rotation (by -t) of the screen offset.
  return [cx + sx * Math.cos(t) + sy * Math.sin(t), cy - sx * Math.sin(t) + sy * Math.cos(t)];
}

/**
 * A tolerance in pixels expressed in map units (Identify's Tolerance).
 *
 * @example
 * ```ts
 * const d = createDisplay({ xmin: 0, ymin: 0, xmax: 40, ymax: 30 }, { widthPx: 400, heightPx: 300, dpi: 96, wkid: 4326 });
 * toleranceToMapUnits(d, 3); // 3 × d.resolution
 * ```
 */
export function toleranceToMapUnits(d: MapDisplay, tolerancePx: number): number {
  return Math.max(0, tolerancePx) * d.resolution;
}

/**
 * ArcGIS scale-range test. `minScale` is the zoomed-out limit and
 * `maxScale` the zoomed-in one; 0 means no limit. Visible iff
 * (minScale = 0 or scale ≤ minScale) and (maxScale = 0 or scale ≥ maxScale).
 *
 * @example
 * ```ts
 * isVisibleAtScale(50_000, 100_000, 0); // true
 * isVisibleAtScale(500_000, 100_000, 0); // false
 * ```
 */
export function isVisibleAtScale(scale: number, minScale: number, maxScale: number): boolean {
  return (minScale <= 0 || scale <= minScale) && (maxScale <= 0 || scale >= maxScale);
}
