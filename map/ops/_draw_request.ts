/**
 * The drawing parts of a MapDescription as render inputs for draw.ts: custom
 * graphics (projected to the output spatial reference, default symbols
 * filled in) and per-layer overrides from LayerDescriptions (visibility,
 * labels, parsed definition expressions, selections).
 *
 * @module
 */
import type { Rgba, SymbolSpec } from "../document/renderer.ts";
import type { Graphic, LayerOverride } from "../render/mod.ts";
import { member } from "../errors.ts";
import { parseClause } from "./_query_filter.ts";
import { findLayer, toWkid } from "./_query_map_state.ts";
import type { GraphicElement, LayerDescription, MapFrame } from "./types.ts";
import type { Extent, Geometry } from "../types.ts";
import { geometryExtent } from "./_geometry_extent.ts";

/** Symbols of graphic elements that carry none (ArcGIS-like black and grey). */
export const DEFAULT_GRAPHIC_SYMBOLS: Record<"marker" | "line" | "fill", SymbolSpec> = {
  marker: {
    type: "simple-marker",
    style: "circle",
    color: [0, 0, 0, 255],
    size: 8,
    angle: 0,
    xoffset: 0,
    yoffset: 0,
  },
  line: { type: "simple-line", style: "solid", color: [0, 0, 0, 255], width: 1 },
  fill: {
    type: "simple-fill",
    style: "solid",
    color: [128, 128, 128, 255],
    outline: { type: "simple-line", style: "solid", color: [0, 0, 0, 255], width: 1 },
  },
};

/** Colour and size (points) of text graphics whose symbol names none. */
const DEFAULT_TEXT: { color: Rgba; sizePt: number } = { color: [0, 0, 0, 255], sizePt: 10 };

function ellipse(e: Extent): Geometry {
  const cx = (e.xmin + e.xmax) / 2,
    cy = (e.ymin + e.ymax) / 2,
    rx = (e.xmax - e.xmin) / 2,
    ry = (e.ymax - e.ymin) / 2;
  const ring: [number, number][] = [];
  for (let i = 0; i <= 72; i++) {
    const t = (i / 72) * 2 * Math.PI;
    ring.push([cx + rx * Math.cos(t), cy + ry * Math.sin(t)]);
  }
  return { type: "Polygon", rings: [ring] };
}

/** The centre of a shape's bounding box (where a text graphic is drawn). */
function centre(g: Geometry): { x: number; y: number } {
  if (g.type === "Point") return { x: g.x, y: g.y };
  const e = geometryExtent(g);
  return e ? { x: (e.xmin + e.xmax) / 2, y: (e.ymin + e.ymax) / 2 } : { x: NaN, y: NaN };
}

/** CustomGraphics elements as render graphics in the output spatial reference. */
export function graphicsOf(elements: GraphicElement[] = [], wkid: number): Graphic[] {
  const out: Graphic[] = [];
  for (const el of elements) {
    switch (el.type) {
      case "marker":
      case "line":
      case "fill":
        out.push({
          kind: "shape",
          geometry: toWkid(el.Geometry.geometry, el.Geometry.wkid, wkid),
          symbol: el.Symbol ?? DEFAULT_GRAPHIC_SYMBOLS[el.type],
        });
        break;
      case "ellipse": {
        const e = toWkid(el.Rectangle.geometry, el.Rectangle.wkid, wkid);
        out.push({
          kind: "shape",
          geometry: ellipse(geometryExtent(e)!),
          symbol: el.Symbol ?? DEFAULT_GRAPHIC_SYMBOLS.fill,
        });
        break;
      }
      case "text": {
        if (!el.Text) break;
        const at = centre(toWkid(el.TextGeometry.geometry, el.TextGeometry.wkid, wkid));
        out.push({
          kind: "text",
          ...at,
          text: el.Text.slice(0, 500),
          color: el.Symbol?.Color ?? DEFAULT_TEXT.color,
          sizePt: el.Symbol?.Size ?? DEFAULT_TEXT.sizePt,
        });
        break;
      }
    }
  }
  return out;
}

/** LayerDescription overrides with parsed definition expressions (faults on bad SQL). */
export function layerOverrides(
  frame: MapFrame,
  descriptions: LayerDescription[] = [],
  selectionColor: Rgba | undefined,
): LayerOverride[] {
  return descriptions.map((d) => {
    // An unknown id is the client's mistake, faulted as every operation faults a bad LayerID:
    // ignoring it would draw a map the client believes it changed.
    const layer = findLayer(frame, d.LayerID);
    // The same parse and fault as a query's definition expression: one reading of the SQL.
    const where = parseClause(layer, d.DefinitionExpression, member("layerDefinition"));
    const ids = d.SelectionFeatures ?? [];
    return {
      id: layer.id,
      visible: d.Visible,
      showLabels: d.ShowLabels,
      where,
      selection: ids.length
        ? {
          ids,
          color: d.SelectionColor ?? selectionColor ?? [0, 255, 255, 255],
          symbol: d.SelectionSymbol,
        }
        : undefined,
    };
  });
}
