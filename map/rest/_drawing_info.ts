/**
 * A layer's symbology in ArcGIS REST JSON: the renderer (`simple`,
 * `uniqueValue`, `classBreaks`) with `esriSMS` / `esriSLS` / `esriSFS`
 * symbols and colours as `[r, g, b, a]`, the layer transparency, and the
 * labels as `labelingInfo` with an `esriTS` text symbol.
 *
 * @module
 */
import type { LabelSpec, RendererSpec, SymbolSpec } from "../document/renderer.ts";
import type { MapLayer } from "../ops/mod.ts";

const MARKER: Readonly<Record<string, string>> = {
  circle: "esriSMSCircle",
  square: "esriSMSSquare",
  cross: "esriSMSCross",
  x: "esriSMSX",
  diamond: "esriSMSDiamond",
};
const LINE: Readonly<Record<string, string>> = {
  solid: "esriSLSSolid",
  dash: "esriSLSDash",
  dot: "esriSLSDot",
  "dash-dot": "esriSLSDashDot",
  "dash-dot-dot": "esriSLSDashDotDot",
  none: "esriSLSNull",
};
const FILL: Readonly<Record<string, string>> = {
  solid: "esriSFSSolid",
  none: "esriSFSNull",
  horizontal: "esriSFSHorizontal",
  vertical: "esriSFSVertical",
  cross: "esriSFSCross",
  "forward-diagonal": "esriSFSForwardDiagonal",
  "backward-diagonal": "esriSFSBackwardDiagonal",
  "diagonal-cross": "esriSFSDiagonalCross",
};

/**
 * One symbol as ArcGIS REST JSON.
 *
 * @example
 * ```ts
 * import { symbolJson } from "./_drawing_info.ts";
 * symbolJson({ type: "simple-line", style: "dash", color: [0, 0, 0, 255], width: 2 });
 * // { type: "esriSLS", style: "esriSLSDash", color: [0, 0, 0, 255], width: 2 }
 * ```
 */
export function symbolJson(s: SymbolSpec): Record<string, unknown> {
  switch (s.type) {
    case "simple-line":
      return { type: "esriSLS", style: LINE[s.style], color: [...s.color], width: s.width };
    case "simple-fill":
      return {
        type: "esriSFS",
        style: FILL[s.style],
        color: [...s.color],
        outline: s.outline ? symbolJson(s.outline) : null,
      };
    case "simple-marker":
      return {
        type: "esriSMS",
        style: MARKER[s.style],
        color: [...s.color],
        size: s.size,
        angle: s.angle,
        xoffset: s.xoffset,
        yoffset: s.yoffset,
        outline: s.outline
          ? {
            type: "esriSLS",
            style: "esriSLSSolid",
            color: [...s.outline.color],
            width: s.outline.width,
          }
          : null,
      };
  }
}

function rendererJson(r: RendererSpec): Record<string, unknown> {
  switch (r.type) {
    case "simple":
      return {
        type: "simple",
        symbol: symbolJson(r.symbol),
        label: r.label,
        description: r.description,
      };
    case "uniqueValue":
      return {
        type: "uniqueValue",
        field1: r.field,
        field2: null,
        field3: null,
        fieldDelimiter: ", ",
        defaultSymbol: r.default ? symbolJson(r.default.symbol) : null,
        defaultLabel: r.default?.label ?? null,
        uniqueValueInfos: r.values.map((v) => ({
          value: String(v.value),
          label: v.label,
          description: v.description,
          symbol: symbolJson(v.symbol),
        })),
      };
    case "classBreaks":
      return {
        type: "classBreaks",
        field: r.field,
        minValue: r.minValue,
        defaultSymbol: r.default ? symbolJson(r.default.symbol) : null,
        defaultLabel: r.default?.label ?? null,
        classBreakInfos: r.breaks.map((b, i) => ({
          classMinValue: i === 0 ? r.minValue : r.breaks[i - 1].max,
          classMaxValue: b.max,
          label: b.label,
          description: b.description,
          symbol: symbolJson(b.symbol),
        })),
      };
  }
}

const PLACEMENT: Readonly<Record<string, string>> = {
  Point: "esriServerPointLabelPlacementAboveRight",
  Multipoint: "esriServerPointLabelPlacementAboveRight",
  Polyline: "esriServerLinePlacementAboveAlong",
  Polygon: "esriServerPolygonPlacementAlwaysHorizontal",
};

function labelingJson(layer: MapLayer, l: LabelSpec): Record<string, unknown> {
  return {
    labelPlacement: PLACEMENT[layer.geometryType] ?? PLACEMENT.Point,
    labelExpression: `[${l.field}]`,
    useCodedValues: true,
    symbol: {
      type: "esriTS",
      color: [...l.color],
      backgroundColor: null,
      borderLineColor: null,
      verticalAlignment: "bottom",
      horizontalAlignment: "center",
      rightToLeft: false,
      angle: 0,
      xoffset: 0,
      yoffset: 0,
      haloColor: l.halo ? [...l.halo.color] : null,
      haloSize: l.halo ? l.halo.sizePt : null,
      font: {
        family: "DejaVu Sans",
        size: l.sizePt,
        style: "normal",
        weight: "normal",
        decoration: "none",
      },
    },
    minScale: l.minScale,
    maxScale: l.maxScale,
  };
}

/**
 * The `drawingInfo` of a layer.
 *
 * @example
 * ```ts ignore
 * drawingInfo(layer).renderer.type; // "uniqueValue"
 * ```
 */
export function drawingInfo(layer: MapLayer): Record<string, unknown> {
  return {
    renderer: rendererJson(layer.renderer),
    transparency: layer.renderer.transparency,
    labelingInfo: layer.labels ? [labelingJson(layer, layer.labels)] : null,
  };
}
