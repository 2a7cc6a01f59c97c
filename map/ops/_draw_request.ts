/**
 * Reading the drawing parts of a MapDescription for draw.ts: custom
 * graphics (graphic elements with their symbols, projected to the output
 * spatial reference) and per-layer overrides from LayerDescriptions
 * (visibility, labels, parsed definition expressions, selections).
 *
 * @module
 */
import { isArcgisObject } from "./arcgis_value.ts";
import type { Rgba, SymbolSpec } from "../document/renderer.ts";
import { parseWhere, WhereClauseError } from "../query/mod.ts";
import type { Graphic, LayerOverride } from "../render/mod.ts";
import { colorFromSoap, symbolFromSoap, textStyleFromSoap } from "./_arcgis_symbols.ts";
import { InvalidRequestError } from "../errors.ts";
import { findLayer } from "./_query_map_state.ts";
import type { MapFrame } from "./types.ts";
import type { Geometry } from "../types.ts";
import { geometryFromSoap } from "./_geometry_xml.ts";
import { toWkid } from "./_query_map_state.ts";

/** The integers of an ArrayOfInt value (anything else is skipped). */
export function intList(v: unknown): number[] {
  return Array.isArray(v)
    ? v.filter((x): x is number => typeof x === "number" && Number.isInteger(x))
    : [];
}

/** Symbols of graphic elements that carry none (ArcGIS-like black and grey). */
export const DEFAULT_GRAPHIC_SYMBOLS: Record<string, SymbolSpec> = {
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

function ellipse(e: { xmin: number; ymin: number; xmax: number; ymax: number }): Geometry {
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

/** CustomGraphics elements as render graphics in the output spatial reference. */
export function graphicsFromSoap(elements: unknown, wkid: number, depth = 0): Graphic[] {
  const out: Graphic[] = [];
  if (!Array.isArray(elements) || depth > 8) return out;
  elements.forEach((el, i) => {
    if (!isArcgisObject(el)) return;
    const what = `CustomGraphics[${i}]`;
    const geom = (v: unknown, name: string) => {
      const g = geometryFromSoap(v, `${what}/${name}`);
      return toWkid(g.geometry, g.wkid, wkid);
    };
    switch (el.$type) {
      case "GroupElement":
        out.push(...graphicsFromSoap(el.Elements, wkid, depth + 1));
        break;
      case "MarkerElement":
        out.push({
          kind: "shape",
          geometry: geom(el.Point, "Point"),
          symbol: symbolFromSoap(el.Symbol, DEFAULT_GRAPHIC_SYMBOLS.marker, what),
        });
        break;
      case "LineElement":
        out.push({
          kind: "shape",
          geometry: geom(el.Line, "Line"),
          symbol: symbolFromSoap(el.Symbol, DEFAULT_GRAPHIC_SYMBOLS.line, what),
        });
        break;
      case "PolygonElement":
      case "RectangleElement": {
        const g = geom(
          el.$type === "PolygonElement" ? el.Polygon : el.Rectangle,
          el.$type === "PolygonElement" ? "Polygon" : "Rectangle",
        );
        out.push({
          kind: "shape",
          geometry: g,
          symbol: symbolFromSoap(el.Symbol, DEFAULT_GRAPHIC_SYMBOLS.fill, what),
        });
        break;
      }
      case "CircleElement":
      case "EllipseElement": {
        const g = geom(el.Rectangle, "Rectangle");
        const e = g.type === "Envelope" ? g : null;
        if (!e) throw new InvalidRequestError(`${what}/Rectangle must be an EnvelopeN.`);
        out.push({
          kind: "shape",
          geometry: ellipse(e),
          symbol: symbolFromSoap(el.Symbol, DEFAULT_GRAPHIC_SYMBOLS.fill, what),
        });
        break;
      }
      case "TextElement":
      case "ParagraphTextElement": {
        const g = geom(el.TextGeometry, "TextGeometry");
        const e = g.type === "Point" ? { x: g.x, y: g.y } : (() => {
          const pts = g.type === "Envelope"
            ? [[g.xmin, g.ymin], [g.xmax, g.ymax]]
            : g.type === "Polygon"
            ? g.rings.flat()
            : g.type === "Polyline"
            ? g.paths.flat()
            : g.points;
          const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
          return {
            x: (Math.min(...xs) + Math.max(...xs)) / 2,
            y: (Math.min(...ys) + Math.max(...ys)) / 2,
          };
        })();
        const style = textStyleFromSoap(el.Symbol, { color: [0, 0, 0, 255], sizePt: 10 });
        const text = typeof el.Text === "string"
          ? el.Text
          : isArcgisObject(el.Symbol) && typeof el.Symbol.Text === "string"
          ? el.Symbol.Text
          : "";
        if (text) out.push({ kind: "text", x: e.x, y: e.y, text: text.slice(0, 500), ...style });
        break;
      }
      default:
        throw new InvalidRequestError(
          `${what}: graphic element ${String(el.$type ?? "(none)")} is not supported.`,
        );
    }
  });
  return out;
}

/** LayerDescription overrides with parsed definition expressions (faults on bad SQL). */
export function layerOverrides(
  frame: MapFrame,
  descriptions: unknown,
  selectionColor: Rgba | null,
): LayerOverride[] {
  const out: LayerOverride[] = [];
  for (const d of Array.isArray(descriptions) ? descriptions : []) {
    if (!isArcgisObject(d)) continue;
    // An unknown id is the client's mistake, faulted as every operation faults a bad LayerID:
    // ignoring it would draw a map the client believes it changed.
    const layer = findLayer(frame, d.LayerID, "LayerDescription/LayerID");
    let where;
    try {
      where = parseWhere(
        typeof d.DefinitionExpression === "string" ? d.DefinitionExpression : "",
        layer.source.fields(),
      );
    } catch (e) {
      if (e instanceof WhereClauseError) {
        throw new InvalidRequestError(
          `LayerDescription ${layer.id}: invalid DefinitionExpression: ${e.message}`,
        );
      }
      throw e;
    }
    const ids = intList(d.SelectionFeatures);
    out.push({
      id: layer.id,
      visible: typeof d.Visible === "boolean" ? d.Visible : undefined,
      showLabels: typeof d.ShowLabels === "boolean" ? d.ShowLabels : undefined,
      where,
      selection: ids.length
        ? {
          ids,
          color: colorFromSoap(d.SelectionColor, null) ?? selectionColor ?? [0, 255, 255, 255],
          symbol: d.SetSelectionSymbol === true && isArcgisObject(d.SelectionSymbol)
            ? symbolFromSoap(
              d.SelectionSymbol,
              DEFAULT_GRAPHIC_SYMBOLS.fill,
              `LayerDescription ${layer.id}/SelectionSymbol`,
            )
            : undefined,
        }
        : undefined,
    });
  }
  return out;
}
