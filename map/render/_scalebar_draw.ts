/**
 * The geometry and drawing of a scale bar (see scalebar.ts for the
 * description type, defaults and the image entry point).
 *
 * @module
 */
import type { Canvas } from "canvaskit-wasm";
import type { Rgba } from "../document/renderer.ts";
import { displayMetersPerUnit, type EsriUnits, INCHES_PER_METER } from "../geo/units.ts";
import type { Painter } from "./_painter.ts";
import type { Frequency, ScaleBarSpec } from "./scalebar.ts";

const UNIT_NAMES: Partial<Record<EsriUnits, string>> = {
  esriInches: "Inches",
  esriPoints: "Points",
  esriFeet: "Feet",
  esriYards: "Yards",
  esriMiles: "Miles",
  esriNauticalMiles: "Nautical Miles",
  esriMillimeters: "Millimeters",
  esriCentimeters: "Centimeters",
  esriMeters: "Meters",
  esriKilometers: "Kilometers",
  esriDecimalDegrees: "Degrees",
  esriDecimeters: "Decimeters",
};

/** The unit's display name (`Kilometers`), used when no UnitLabel is given. */
export function unitName(units: EsriUnits): string {
  return UNIT_NAMES[units] ?? "Meters";
}

/** The largest 1, 2, 2.5, 5 x 10^k not above `x`. */
function niceFloor(x: number): number {
  if (!(x > 0) || !Number.isFinite(x)) return 1;
  const k = Math.floor(Math.log10(x));
  const base = 10 ** k;
  for (const m of [5, 2.5, 2, 1]) if (m * base <= x) return m * base;
  return base;
}

function formatNumber(v: number, decimals: number): string {
  if (decimals >= 0) return v.toFixed(decimals);
  const r = Math.round(v * 1e6) / 1e6;
  return String(r);
}

/** What the image shows, for callers and tests. */
export interface ScaleBarLayout {
  /** Ground length of one division in the bar's units. */
  division: number;
  /** Pixels per division. */
  divisionPx: number;
  /** Bar rectangle in pixels. */
  bar: { x0: number; y0: number; x1: number; y1: number };
  /** Labels drawn: text and baseline-left position. */
  labels: { text: string; x: number; y: number }[];
}

function labelledAt(i: number, n: number, f: Frequency): boolean {
  switch (f) {
    case "none":
      return false;
    case "one":
      return i === n;
    case "major":
      return i === 0 || i === n;
    default:
      return true;
  }
}

/** Draws the bar, its labels and unit label; returns where they went. */
export function drawBar(
  canvas: Canvas,
  p: Painter,
  s: ScaleBarSpec,
  mapScale: number,
  w: number,
  h: number,
  dpi: number,
): ScaleBarLayout {
  const pt = p.pxPerPt;
  const labelFont = p.font(s.labelSymbol.sizePt);
  const unitFont = p.font(s.unitLabelSymbol.sizePt);
  const unitText = s.unitLabel || unitName(s.units);
  const unitW = p.textWidth(unitFont, unitText);
  const gapU = Math.max(s.unitLabelGap * pt, unitFont.getSize() * 0.4);
  const unitBeside = s.unitLabelPosition === "afterBar" || s.unitLabelPosition === "afterLabels" ||
    s.unitLabelPosition === "beforeBar" || s.unitLabelPosition === "beforeLabels";
  const margin = Math.max(2, p.textWidth(labelFont, "0000") / 2);
  const before = s.unitLabelPosition.startsWith("before") ? unitW + gapU : 0;
  const halfLabel = p.textWidth(labelFont, "000") / 2;
  const after = s.unitLabelPosition.startsWith("after")
    ? unitW + gapU + (s.unitLabelPosition === "afterLabels" ? halfLabel : 0)
    : 0;
  const available = Math.max(4, w - 2 * margin - before - after);
  // Ground metres per scale-bar pixel, from the map scale and the bar image's DPI.
  const metersPerPx = mapScale / (dpi * INCHES_PER_METER);
  const unitMeters = displayMetersPerUnit(s.units);
  let nDiv = Math.max(1, Math.round(s.divisions));
  const nBefore = Math.max(0, Math.round(s.divisionsBeforeZero));
  const fixed = s.fixed && s.division > 0;
  let division = fixed ? s.division : 0;
  for (;;) {
    if (!fixed) division = niceFloor((available * metersPerPx) / unitMeters / (nDiv + nBefore));
    // Auto-fit: fewer divisions rather than labels too close to read.
    const widest = p.textWidth(labelFont, formatNumber(nDiv * division, s.decimals));
    if (fixed || nDiv === 1 || (division * unitMeters) / metersPerPx >= widest + 6) break;
    nDiv--;
  }
  const totalDivs = nDiv + nBefore;
  const divisionPx = (division * unitMeters) / metersPerPx;
  const x0 = margin + before;
  const zeroX = x0 + nBefore * divisionPx;
  const barH = Math.max(1, s.barHeight * pt);
  const labelH = labelFont.getSize();
  const labelGap = s.labelGap * pt;
  const labelsAbove = s.labelPosition === "above" || s.labelPosition === "top";
  const unitAbove = s.unitLabelPosition === "above";
  const unitBelow = s.unitLabelPosition === "below";
  // Vertical layout: [unit above] [labels above] bar [labels below] [unit below], centred.
  const stackH = barH + labelH + labelGap +
    (unitAbove || unitBelow ? unitFont.getSize() + gapU : 0);
  let y = Math.max(0, (h - stackH) / 2);
  if (unitAbove) y += unitFont.getSize() + gapU;
  if (labelsAbove) y += labelH + labelGap;
  const by0 = y, by1 = y + barH;
  const bx1 = zeroX + nDiv * divisionPx;
  const line = {
    type: "simple-line" as const,
    style: "solid" as const,
    color: s.line.color,
    width: s.line.width,
  };
  const rect = (a: number, b: number, c: number, d: number, color: Rgba) => {
    canvas.drawRect(p.kit.ck.LTRBRect(a, b, c, d), p.paint(color, "fill"));
  };
  const segments: [number, number][] = [];
  for (let i = -nBefore; i < nDiv; i++) {
    if (i === 0 && s.subdivisions > 1) {
      const n = Math.round(s.subdivisions);
      for (let j = 0; j < n; j++) {
        segments.push([zeroX + (j * divisionPx) / n, zeroX + ((j + 1) * divisionPx) / n]);
      }
    } else segments.push([zeroX + i * divisionPx, zeroX + (i + 1) * divisionPx]);
  }
  const markH = s.divisionMarkHeight * pt;
  const subH = s.subdivisionMarkHeight * pt;
  const ticks = (baseY: number, dir: number) => {
    const cmds: number[] = [];
    for (let i = -nBefore; i <= nDiv; i++) {
      const x = zeroX + i * divisionPx;
      if (!labelledAt(i + nBefore, totalDivs, s.markFrequency) && i !== -nBefore && i !== nDiv) {
        continue;
      }
      cmds.push(0, x, baseY, 1, x, baseY + dir * markH);
    }
    if (
      s.markFrequency === "divisionsAndSubdivisions" ||
      s.markFrequency === "divisionsAndFirstSubdivisions"
    ) {
      const n = Math.max(1, Math.round(s.subdivisions));
      for (let j = 1; j < n; j++) {
        const x = zeroX + (j * divisionPx) / n;
        cmds.push(0, x, baseY, 1, x, baseY + dir * subH);
      }
    }
    p.strokeCmds(canvas, cmds, line);
  };
  switch (s.style) {
    case "alternating":
    case "hollow": {
      segments.forEach(([a, b], i) => {
        const color = s.style === "hollow" ? s.fill2 : i % 2 === 0 ? s.fill1 : s.fill2;
        rect(a, by0, b, by1, color);
      });
      const outline: number[] = [];
      for (const [a, b] of segments) outline.push(0, a, by0, 1, b, by0, 1, b, by1, 1, a, by1, 5);
      p.strokeCmds(canvas, outline, line);
      break;
    }
    case "single": {
      rect(x0, by0, bx1, by1, s.fill1);
      p.strokeCmds(canvas, [0, x0, by0, 1, bx1, by0, 1, bx1, by1, 1, x0, by1, 5], line);
      // Marks point away from the labels so neither hides the other.
      if (labelsAbove) ticks(by1, 1);
      else ticks(by0, -1);
      break;
    }
    case "line": {
      const yl = (by0 + by1) / 2;
      p.strokeCmds(canvas, [0, x0, yl, 1, bx1, yl], line);
      ticks(yl, labelsAbove ? 1 : -1);
      break;
    }
    case "stepped": {
      const cmds: number[] = [0, segments[0][0], by1];
      segments.forEach(([a, b], i) => {
        const yy = i % 2 === 0 ? by0 : by1;
        cmds.push(1, a, yy, 1, b, yy);
      });
      cmds.push(1, segments[segments.length - 1][1], segments.length % 2 === 0 ? by0 : by1);
      p.strokeCmds(canvas, cmds, line);
      break;
    }
  }
  // Labels at division marks (0 in the middle when divisions lie before zero).
  const labels: ScaleBarLayout["labels"] = [];
  const labelY = labelsAbove ? by0 - labelGap - labelH * 0.2 : by1 + labelGap + labelH * 0.8;
  const onY = (by0 + by1) / 2 + labelH * 0.35;
  const ly = s.labelPosition === "on" ? onY : labelY;
  let lastRight = -Infinity;
  const put = (text: string, cx: number) => {
    const tw = p.textWidth(labelFont, text);
    const x = cx - tw / 2;
    if (x < lastRight + 2) return; // skip labels that would overlap the previous one
    p.text(canvas, text, x, ly, labelFont, s.labelSymbol.color);
    labels.push({ text, x, y: ly });
    lastRight = x + tw;
  };
  for (let i = -nBefore; i <= nDiv; i++) {
    if (!labelledAt(i + nBefore, totalDivs, s.labelFrequency)) continue;
    put(formatNumber(Math.abs(i) * division, s.decimals), zeroX + i * divisionPx);
    if (i === 0 && s.subdivisions > 1) {
      const n = Math.round(s.subdivisions);
      if (s.labelFrequency === "divisionsAndFirstMidpoint" && n % 2 === 0) {
        put(formatNumber(division / 2, s.decimals), zeroX + divisionPx / 2);
      } else if (
        s.labelFrequency === "divisionsAndFirstSubdivisions" ||
        s.labelFrequency === "divisionsAndSubdivisions"
      ) {
        for (let j = 1; j < n; j++) {
          put(formatNumber((division * j) / n, s.decimals), zeroX + (j * divisionPx) / n);
        }
      }
    }
  }
  // Unit label.
  const uh = unitFont.getSize();
  if (unitBeside) {
    const ux = s.unitLabelPosition.startsWith("after")
      ? Math.max(bx1, s.unitLabelPosition === "afterLabels" ? lastRight : bx1) + gapU
      : x0 - gapU - unitW;
    const uy = s.unitLabelPosition.endsWith("Labels") && s.labelPosition !== "on"
      ? ly
      : (by0 + by1) / 2 + uh * 0.35;
    p.text(canvas, unitText, ux, uy, unitFont, s.unitLabelSymbol.color);
    labels.push({ text: unitText, x: ux, y: uy });
  } else {
    const cx = (x0 + bx1) / 2 - unitW / 2;
    const uy = unitAbove
      ? by0 - (labelsAbove ? labelH + labelGap : 0) - gapU - uh * 0.2
      : by1 + (labelsAbove ? 0 : labelH + labelGap) + gapU + uh * 0.8;
    p.text(canvas, unitText, cx, uy, unitFont, s.unitLabelSymbol.color);
    labels.push({ text: unitText, x: cx, y: uy });
  }
  return { division, divisionPx, bar: { x0, y0: by0, x1: bx1, y1: by1 }, labels };
}
