/**
 * Reading the drawing parts of SOAP requests (ArcGIS values as the type
 * table names them) into the engine's types: colours (RGB, gray, HSV, HLS,
 * CMYK), simple symbols, text symbols, image types and scale bars. Anything
 * the server cannot draw is refused with an InvalidRequestError that says
 * what to send.
 *
 * @module
 */
import { isDecoded } from "./_decoded.ts";
import { InvalidRequestError } from "../errors.ts";
import type { ImageType, Rgba, SymbolSpec, TextSymbol } from "../ops/values.ts";
import { isEsriUnits } from "../geo/units.ts";
import { formatFromEsri, UnsupportedFormatError } from "../render/encode.ts";
import {
  defaultScaleBar,
  type Frequency,
  type ScaleBarSpec,
  type ScaleBarStyle,
  type TextStyle,
  type UnitLabelPos,
  type VertPos,
} from "../render/scalebar.ts";

function num(v: unknown, fallback: number): number {
  return typeof v === "number" && Number.isFinite(v) ? v : fallback;
}

const clamp255 = (v: number) => Math.max(0, Math.min(255, Math.round(v)));

function hsvToRgb(h: number, s: number, v: number): [number, number, number] {
  const c = v * s, x = c * (1 - Math.abs(((h / 60) % 2) - 1)), m = v - c;
  const [r, g, b] = h < 60
    ? [c, x, 0]
    : h < 120
    ? [x, c, 0]
    : h < 180
    ? [0, c, x]
    : h < 240
    ? [0, x, c]
    : h < 300
    ? [x, 0, c]
    : [c, 0, x];
  return [(r + m) * 255, (g + m) * 255, (b + m) * 255];
}

/**
 * An RGBA colour from a SOAP Color (RgbColor, GrayColor, HsvColor,
 * HlsColor, CmykColor; AlphaValue 0 = transparent), or `fallback` when
 * absent.
 *
 * @example
 * ```ts
 * colorFromSoap({ $type: "RgbColor", Red: 255, Green: 0, Blue: 0 }); // [255, 0, 0, 255]
 * ```
 */
export function colorFromSoap(v: unknown, fallback: Rgba | null = null): Rgba | null {
  if (!isDecoded(v)) return fallback;
  const a = clamp255(num(v.AlphaValue, 255));
  let rgb: [number, number, number];
  switch (v.$type) {
    case "GrayColor": {
      const g = num(v.GrayLevel, 0);
      rgb = [g, g, g];
      break;
    }
    case "HsvColor": {
      rgb = hsvToRgb(
        ((num(v.Hue, 0) % 360) + 360) % 360,
        num(v.Saturation, 0) / 100,
        num(v.Value, 0) / 100,
      );
      break;
    }
    case "HlsColor": {
      const h = ((num(v.Hue, 0) % 360) + 360) % 360,
        l = num(v.Lightness, 0) / 100,
        s = num(v.Saturation, 0) / 100;
      const vv = l + s * Math.min(l, 1 - l);
      rgb = hsvToRgb(h, vv === 0 ? 0 : 2 * (1 - l / vv), vv);
      break;
    }
    case "CmykColor": {
      const k = num(v.Black, 0) / 100;
      rgb = [num(v.Cyan, 0), num(v.Magenta, 0), num(v.Yellow, 0)].map((c) =>
        255 * (1 - c / 100) * (1 - k)
      ) as [
        number,
        number,
        number,
      ];
      break;
    }
    default:
      rgb = [num(v.Red, 0), num(v.Green, 0), num(v.Blue, 0)];
  }
  return [clamp255(rgb[0]), clamp255(rgb[1]), clamp255(rgb[2]), a];
}

const MARKER_STYLES: Record<string, "circle" | "square" | "cross" | "x" | "diamond"> = {
  esriSMSCircle: "circle",
  esriSMSSquare: "square",
  esriSMSCross: "cross",
  esriSMSX: "x",
  esriSMSDiamond: "diamond",
};
const LINE_STYLES: Record<string, "solid" | "dash" | "dot" | "dash-dot" | "dash-dot-dot" | "none"> =
  {
    esriSLSSolid: "solid",
    esriSLSDash: "dash",
    esriSLSDot: "dot",
    esriSLSDashDot: "dash-dot",
    esriSLSDashDotDot: "dash-dot-dot",
    esriSLSNull: "none",
    esriSLSInsideFrame: "solid",
  };
const FILL_STYLES: Record<string, Extract<SymbolSpec, { type: "simple-fill" }>["style"]> = {
  esriSFSSolid: "solid",
  esriSFSNull: "none",
  esriSFSHollow: "none",
  esriSFSHorizontal: "horizontal",
  esriSFSVertical: "vertical",
  esriSFSForwardDiagonal: "forward-diagonal",
  esriSFSBackwardDiagonal: "backward-diagonal",
  esriSFSCross: "cross",
  esriSFSDiagonalCross: "diagonal-cross",
};

/** A SimpleLineSymbol (or any LineSymbol) as a simple line; null when absent. */
export function lineFromSoap(v: unknown): Extract<SymbolSpec, { type: "simple-line" }> | null {
  if (!isDecoded(v)) return null;
  return {
    type: "simple-line",
    style: LINE_STYLES[String(v.Style)] ?? "solid",
    color: colorFromSoap(v.Color, [0, 0, 0, 255])!,
    width: Math.max(0, num(v.Width, 1)),
  };
}

/**
 * A drawable symbol from a SOAP Symbol; undefined when absent. Faults
 * for picture, character and binary symbols.
 *
 * @example
 * ```ts
 * symbolFromSoap({ $type: "SimpleLineSymbol", Width: 2 }, "CustomGraphics[0]");
 * ```
 */
export function symbolFromSoap(v: unknown, what: string): SymbolSpec | undefined {
  if (!isDecoded(v)) return undefined;
  switch (v.$type) {
    case "SimpleMarkerSymbol":
      return {
        type: "simple-marker",
        style: MARKER_STYLES[String(v.Style)] ?? "circle",
        color: colorFromSoap(v.Color, [0, 0, 0, 255])!,
        size: Math.max(0, num(v.Size, 8)),
        angle: num(v.Angle, 0),
        xoffset: num(v.XOffset, 0),
        yoffset: num(v.YOffset, 0),
        outline: v.Outline === true
          ? {
            color: colorFromSoap(v.OutlineColor, [0, 0, 0, 255])!,
            width: Math.max(0, num(v.OutlineSize, 1)),
          }
          : undefined,
      };
    case "SimpleLineSymbol":
      return lineFromSoap(v)!;
    case "SimpleFillSymbol":
      return {
        type: "simple-fill",
        style: FILL_STYLES[String(v.Style)] ?? "solid",
        color: colorFromSoap(v.Color, [0, 0, 0, 0])!,
        outline: lineFromSoap(v.Outline) ?? undefined,
      };
    default:
      throw new InvalidRequestError(
        `${what}: symbol type ${String(v.$type ?? "(none)")} cannot be drawn by this server; ` +
          "use SimpleMarkerSymbol, SimpleLineSymbol or SimpleFillSymbol.",
      );
  }
}

/**
 * Colour and size (points) of a TextSymbol / SimpleTextSymbol; a size out
 * of (0, 500] counts as absent. Undefined when there is no symbol.
 *
 * @example
 * ```ts
 * textSymbolFromSoap({ $type: "TextSymbol", Size: 12 }); // { Color: undefined, Size: 12 }
 * ```
 */
export function textSymbolFromSoap(v: unknown): TextSymbol | undefined {
  if (!isDecoded(v)) return undefined;
  const size = num(v.Size, 0);
  return {
    Color: colorFromSoap(v.Color, null) ?? undefined,
    Size: size > 0 && size <= 500 ? size : undefined,
  };
}

function textStyleFromSoap(v: unknown, fallback: TextStyle): TextStyle {
  const t = textSymbolFromSoap(v);
  return { color: t?.Color ?? fallback.color, sizePt: t?.Size ?? fallback.sizePt };
}

/**
 * Format and return kind of an ImageType; undefined members when absent.
 * Faults for formats the server does not produce.
 *
 * @example
 * ```ts
 * imageTypeFromSoap({ ImageFormat: "esriImageJPG", ImageReturnType: "esriImageReturnURL" });
 * // { ImageFormat: "jpg", ImageReturnType: "URL" }
 * ```
 */
export function imageTypeFromSoap(v: unknown): ImageType | undefined {
  if (!isDecoded(v)) return undefined;
  const out: ImageType = {};
  try {
    if (typeof v.ImageFormat === "string" && v.ImageFormat !== "") {
      out.ImageFormat = formatFromEsri(v.ImageFormat);
    }
  } catch (e) {
    if (e instanceof UnsupportedFormatError) {
      throw new InvalidRequestError(e.message, { ImageFormat: String(v.ImageFormat) });
    }
    throw e;
  }
  if (v.ImageReturnType === "esriImageReturnURL") out.ImageReturnType = "URL";
  else if (v.ImageReturnType === "esriImageReturnMimeData") out.ImageReturnType = "MimeData";
  return out;
}

const SB_STYLES: Record<string, ScaleBarStyle> = {
  AlternatingScaleBar: "alternating",
  SingleDivisionScaleBar: "single",
  SteppedScaleLine: "stepped",
  SteppedLineScaleBar: "stepped",
  ScaleLine: "line",
  HollowScaleBar: "hollow",
  DoubleAlternatingScaleBar: "alternating",
};
const UNIT_POS: Record<string, UnitLabelPos> = {
  esriScaleBarAbove: "above",
  esriScaleBarBeforeLabels: "beforeLabels",
  esriScaleBarAfterLabels: "afterLabels",
  esriScaleBarBeforeBar: "beforeBar",
  esriScaleBarAfterBar: "afterBar",
  esriScaleBarBelow: "below",
};
const VERT_POS: Record<string, VertPos> = {
  esriAbove: "above",
  esriTop: "top",
  esriOn: "on",
  esriBottom: "bottom",
  esriBelow: "below",
};
const FREQ: Record<string, Frequency> = {
  esriScaleBarNone: "none",
  esriScaleBarOne: "one",
  esriScaleBarMajorDivisions: "major",
  esriScaleBarDivisions: "divisions",
  esriScaleBarDivisionsAndFirstMidpoint: "divisionsAndFirstMidpoint",
  esriScaleBarDivisionsAndFirstSubdivisions: "divisionsAndFirstSubdivisions",
  esriScaleBarDivisionsAndSubdivisions: "divisionsAndSubdivisions",
};

/**
 * A scale-bar description from a SOAP ScaleBar (AlternatingScaleBar,
 * SingleDivisionScaleBar; also ArcObjects' stepped, line and hollow class
 * names); missing members keep the defaults; undefined when absent.
 *
 * @example
 * ```ts
 * scaleBarFromSoap({ $type: "ScaleLine", Units: "esriMiles" })?.style; // "line"
 * ```
 */
export function scaleBarFromSoap(v: unknown): ScaleBarSpec | undefined {
  if (!isDecoded(v)) return undefined;
  const s = defaultScaleBar();
  const style = SB_STYLES[String(v.$type ?? "AlternatingScaleBar")];
  if (!style) {
    throw new InvalidRequestError(
      `ScaleBar type ${
        String(v.$type)
      } is not supported; use AlternatingScaleBar or SingleDivisionScaleBar.`,
    );
  }
  s.style = style;
  if (typeof v.Units === "string" && isEsriUnits(v.Units) && v.Units !== "esriUnknownUnits") {
    s.units = v.Units;
  }
  if (typeof v.UnitLabel === "string") s.unitLabel = v.UnitLabel;
  s.unitLabelPosition = UNIT_POS[String(v.UnitLabelPosition)] ?? s.unitLabelPosition;
  s.unitLabelGap = Math.max(0, num(v.UnitLabelGap, s.unitLabelGap));
  s.unitLabelSymbol = textStyleFromSoap(v.UnitLabelSymbol, s.unitLabelSymbol);
  s.barHeight = Math.max(0.5, Math.min(200, num(v.BarHeight, s.barHeight)));
  s.division = Math.max(0, num(v.Division, 0));
  s.divisions = Math.max(1, Math.min(100, Math.round(num(v.Divisions, s.divisions))));
  s.divisionsBeforeZero = Math.max(0, Math.min(100, Math.round(num(v.DivisionsBeforeZero, 0))));
  s.subdivisions = Math.max(0, Math.min(100, Math.round(num(v.Subdivisions, s.subdivisions))));
  s.labelFrequency = FREQ[String(v.LabelFrequency)] ?? s.labelFrequency;
  s.labelPosition = VERT_POS[String(v.LabelPosition)] ?? s.labelPosition;
  s.labelGap = Math.max(0, num(v.LabelGap, s.labelGap));
  s.labelSymbol = textStyleFromSoap(v.LabelSymbol, s.labelSymbol);
  if (
    isDecoded(v.NumberFormat) &&
    v.NumberFormat.RoundingOption !== "esriRoundNumberOfSignificantDigits"
  ) {
    const d = num(v.NumberFormat.RoundingValue, -1);
    s.decimals = d >= 0 && d <= 10 ? Math.round(d) : -1;
  }
  s.fixed = v.ResizeHint === "esriScaleBarFixed";
  const fill1 = isDecoded(v.FillSymbol1)
    ? v.FillSymbol1
    : isDecoded(v.FillSymbol)
    ? v.FillSymbol
    : null;
  if (fill1) s.fill1 = colorFromSoap(fill1.Color, s.fill1)!;
  if (isDecoded(v.FillSymbol2)) s.fill2 = colorFromSoap(v.FillSymbol2.Color, s.fill2)!;
  const mark = lineFromSoap(v.DivisionMarkSymbol);
  if (mark) s.line = { color: mark.color, width: mark.width };
  s.divisionMarkHeight = Math.max(0, num(v.DivisionMarkHeight, s.divisionMarkHeight));
  s.subdivisionMarkHeight = Math.max(0, num(v.SubdivisionMarkHeight, s.subdivisionMarkHeight));
  s.markFrequency = FREQ[String(v.MarkFrequency)] ?? s.markFrequency;
  return s;
}
