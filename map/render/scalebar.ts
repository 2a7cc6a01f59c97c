/**
 * Scale bars (ExportScaleBar): alternating, single-division, stepped-line
 * and hollow bars and a scale line, with units, divisions, subdivisions,
 * divisions before zero, label position and frequency, unit-label
 * position, fonts and colours, on a transparent or given background.
 *
 * The ground length of the bar comes from the map's scale at its centre
 * ({@link groundScale}): one inch of the scale-bar image at its DPI is
 * `scale` inches on the ground.
 *
 * @module
 */
import type { Rgba } from "../document/renderer.ts";
import type { EsriUnits } from "../geo/units.ts";
import type { MapDisplay } from "../geo/display.ts";
import {
  isGeographic,
  normalizeWkid,
  projectPoint,
  WEB_MERCATOR,
  WGS84,
} from "../geo/projection.ts";
import { freeSurface, type Kit, makeRasterSurface, readUnpremultiplied } from "./_canvaskit.ts";
import { Painter } from "./_painter.ts";
import { encodeImage, type OutputFormat } from "./encode.ts";
import { drawBar, type ScaleBarLayout, unitName } from "./_scalebar_draw.ts";

export { type ScaleBarLayout, unitName };

/** Drawing styles (ArcGIS scale-bar classes). */
export type ScaleBarStyle = "alternating" | "single" | "stepped" | "line" | "hollow";

/** Where labels sit relative to the bar (esriVertPosEnum). */
export type VertPos = "above" | "top" | "on" | "bottom" | "below";

/** Where the unit label sits (esriScaleBarPos). */
export type UnitLabelPos =
  | "above"
  | "beforeLabels"
  | "afterLabels"
  | "beforeBar"
  | "afterBar"
  | "below";

/** Which division marks get a label / a mark (esriScaleBarFrequency). */
export type Frequency =
  | "none"
  | "one"
  | "major"
  | "divisions"
  | "divisionsAndFirstMidpoint"
  | "divisionsAndFirstSubdivisions"
  | "divisionsAndSubdivisions";

/** A text style: colour and size in points. */
export interface TextStyle {
  color: Rgba;
  sizePt: number;
}

/** A complete scale-bar description (defaults in {@link defaultScaleBar}). */
export interface ScaleBarSpec {
  style: ScaleBarStyle;
  units: EsriUnits;
  /** Text after the numbers, default the unit's name. */
  unitLabel: string;
  unitLabelPosition: UnitLabelPos;
  /** Gap between unit label and bar/labels, points. */
  unitLabelGap: number;
  unitLabelSymbol: TextStyle;
  /** Bar height in points. */
  barHeight: number;
  /** Ground length of one division in `units`; 0 = choose a round value that fits. */
  division: number;
  divisions: number;
  divisionsBeforeZero: number;
  subdivisions: number;
  labelFrequency: Frequency;
  labelPosition: VertPos;
  /** Gap between labels and bar, points. */
  labelGap: number;
  labelSymbol: TextStyle;
  /** Decimal places of labels; -1 = as few as needed. */
  decimals: number;
  fill1: Rgba;
  fill2: Rgba;
  line: { color: Rgba; width: number };
  /** Mark heights in points (single-division, line and stepped styles). */
  divisionMarkHeight: number;
  subdivisionMarkHeight: number;
  markFrequency: Frequency;
  /** Fixed `division` (true) or auto-fit divisions into the image (false). */
  fixed: boolean;
}

/**
 * ArcGIS-like defaults: an alternating black/white bar in kilometres with
 * four divisions, the first split in four, labels above.
 *
 * @example
 * ```ts
 * const spec = { ...defaultScaleBar(), style: "line" as const };
 * ```
 */
export function defaultScaleBar(): ScaleBarSpec {
  return {
    style: "alternating",
    units: "esriKilometers",
    unitLabel: "",
    unitLabelPosition: "afterLabels",
    unitLabelGap: 3,
    unitLabelSymbol: { color: [0, 0, 0, 255], sizePt: 8 },
    barHeight: 6,
    division: 0,
    divisions: 4,
    divisionsBeforeZero: 0,
    subdivisions: 4,
    labelFrequency: "divisions",
    labelPosition: "above",
    labelGap: 2,
    labelSymbol: { color: [0, 0, 0, 255], sizePt: 8 },
    decimals: -1,
    fill1: [0, 0, 0, 255],
    fill2: [255, 255, 255, 255],
    line: { color: [0, 0, 0, 255], width: 1 },
    divisionMarkHeight: 7,
    subdivisionMarkHeight: 4,
    markFrequency: "divisions",
    fixed: false,
  };
}

/** Result of {@link renderScaleBar}. */
export interface ScaleBarImage {
  bytes: Uint8Array;
  mime: string;
  layout: ScaleBarLayout;
}

/**
 * The map's true scale at its centre, for a scale bar: ArcGIS's display
 * scale of a geographic or Web Mercator map holds only at the equator
 * (degrees count as 111,319.49 m; Mercator stretches by 1 / cos latitude),
 * so a bar drawn from it would be 1.7 times too long at Moscow. Other
 * projections are taken as true to scale.
 *
 * @example
 * ```ts
 * import type { MapDisplay } from "../geo/display.ts";
 * declare const display: MapDisplay;
 * groundScale(display, 4326); // display.scale * cos(centre latitude)
 * ```
 */
export function groundScale(display: MapDisplay, wkid: number): number {
  const id = normalizeWkid(wkid);
  const cx = (display.extent.xmin + display.extent.xmax) / 2;
  const cy = (display.extent.ymin + display.extent.ymax) / 2;
  let lat: number;
  if (isGeographic(id)) lat = cy;
  else if (id === WEB_MERCATOR) lat = projectPoint([cx, cy], id, WGS84)[1];
  else return display.scale;
  const f = Math.cos((Math.max(-89, Math.min(89, lat)) * Math.PI) / 180);
  return display.scale * f;
}

/**
 * Draws a scale bar into a `widthPx` x `heightPx` image at `dpi` for a map
 * at `mapScale` (1:mapScale) and encodes it.
 *
 * @example
 * ```ts
 * import { loadKit } from "./_canvaskit.ts";
 * const kit = await loadKit();
 * const img = renderScaleBar(kit, defaultScaleBar(), { mapScale: 5e6, widthPx: 300,
 *   heightPx: 40, dpi: 96, background: null, format: "png32" });
 * ```
 */
export function renderScaleBar(
  kit: Kit,
  spec: ScaleBarSpec,
  opts: {
    mapScale: number;
    widthPx: number;
    heightPx: number;
    dpi: number;
    background: Rgba | null;
    format: OutputFormat;
    quality?: number;
  },
): ScaleBarImage {
  const { ck } = kit;
  const { widthPx: w, heightPx: h } = opts;
  const surface = makeRasterSurface(kit, w, h, `a ${w}x${h} scale bar image`);
  const painter = new Painter(kit, opts.dpi / 72);
  try {
    const canvas = surface.getCanvas();
    const bg = opts.background;
    canvas.clear(bg ? ck.Color(bg[0], bg[1], bg[2], bg[3] / 255) : ck.TRANSPARENT);
    const layout = drawBar(canvas, painter, spec, opts.mapScale, w, h, opts.dpi);
    const rgba = readUnpremultiplied(kit, surface, `a ${w}x${h} scale bar image`);
    const { bytes, mime } = encodeImage(kit, rgba, w, h, opts.format, opts.quality);
    return { bytes, mime, layout };
  } finally {
    painter.dispose();
    freeSurface(surface);
  }
}
