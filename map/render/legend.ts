/**
 * Legends: one group per layer with one class per renderer class, each
 * with a swatch drawn by the same painter as the map (so a swatch shows
 * exactly the map's symbol) at the requested patch size in points and DPI.
 *
 * @module
 */
import type { Rgba, SymbolSpec } from "../document/renderer.ts";
import { rendererClasses } from "../document/renderer.ts";
import { freeSurface, type Kit, makeRasterSurface, readUnpremultiplied } from "./_canvaskit.ts";
import { Painter } from "./_painter.ts";
import { encodeImage, formatHasAlpha, type OutputFormat } from "./encode.ts";
import type { RenderLayer } from "./types.ts";

/** Swatch size and format. */
export interface PatchSpec {
  /** Patch width in points (ArcGIS LegendPatch.Width). */
  widthPt: number;
  /** Patch height in points. */
  heightPt: number;
  dpi: number;
  format: OutputFormat;
}

/** ArcGIS REST's swatch size: 20 x 20 pixels at 96 DPI (15 points). */
export const DEFAULT_PATCH: PatchSpec = { widthPt: 15, heightPt: 15, dpi: 96, format: "png32" };

/** Largest swatch side in pixels (a legend patch is a thumbnail). */
const MAX_PATCH_PX = 1024;

/** One encoded swatch. */
export interface Swatch {
  bytes: Uint8Array;
  mime: string;
  widthPx: number;
  heightPx: number;
  dpi: number;
}

/** One legend class of a layer. */
export interface LegendClassImage {
  label: string;
  description: string;
  swatch: Swatch;
}

/** A layer's legend. */
export interface LayerLegend {
  layerId: number;
  name: string;
  /** One group (ArcGIS uses one per renderer); heading is the renderer field, if any. */
  heading: string;
  classes: LegendClassImage[];
}

/** Pixel size of a patch, clamped to 1..1024. */
export function patchPixels(p: PatchSpec): { w: number; h: number } {
  const clamp = (v: number) => Math.max(1, Math.min(MAX_PATCH_PX, Math.round(v)));
  return { w: clamp((p.widthPt * p.dpi) / 72), h: clamp((p.heightPt * p.dpi) / 72) };
}

/**
 * Draws one symbol as a legend swatch: a marker in the centre, a
 * horizontal line, or a filled rectangle with its outline.
 *
 * @example
 * ```ts
 * const s = renderSwatch(kit, symbol, DEFAULT_PATCH, 0);
 * ```
 */
export function renderSwatch(
  kit: Kit,
  symbol: SymbolSpec,
  patch: PatchSpec,
  transparencyPct = 0,
): Swatch {
  const { ck } = kit;
  const { w, h } = patchPixels(patch);
  const surface = makeRasterSurface(kit, w, h, `a ${w}x${h} legend swatch`);
  const painter = new Painter(kit, patch.dpi / 72);
  try {
    const canvas = surface.getCanvas();
    const bg: Rgba = formatHasAlpha(patch.format) ? [255, 255, 255, 0] : [255, 255, 255, 255];
    canvas.clear(ck.Color(bg[0], bg[1], bg[2], bg[3] / 255));
    if (transparencyPct > 0) {
      const p = new ck.Paint();
      try {
        p.setAlphaf(1 - transparencyPct / 100);
        canvas.saveLayer(p); // the layer keeps its own copy of the paint
      } finally {
        p.delete();
      }
    }
    if (symbol.type === "simple-marker") {
      painter.markers(canvas, [w / 2, h / 2], symbol);
    } else if (symbol.type === "simple-line") {
      const m = Math.min(2, w / 4);
      painter.strokeCmds(canvas, [0, m, h / 2, 1, w - m, h / 2], symbol);
    } else {
      // Inset by half the outline so the whole outline shows.
      const inset = Math.max(0.5, ((symbol.outline?.width ?? 0) * painter.pxPerPt) / 2);
      const [x0, y0, x1, y1] = [inset, inset, w - inset, h - inset];
      painter.fillCmds(canvas, [0, x0, y0, 1, x1, y0, 1, x1, y1, 1, x0, y1, 5], symbol);
    }
    if (transparencyPct > 0) canvas.restore();
    const rgba = readUnpremultiplied(kit, surface, `a ${w}x${h} legend swatch`);
    const { bytes, mime } = encodeImage(kit, rgba, w, h, patch.format);
    return { bytes, mime, widthPx: w, heightPx: h, dpi: patch.dpi };
  } finally {
    painter.dispose();
    freeSurface(surface);
  }
}

/**
 * The legend of a layer: its renderer classes with swatches.
 *
 * @example
 * ```ts
 * const legend = layerLegend(kit, layer, DEFAULT_PATCH);
 * ```
 */
export function layerLegend(kit: Kit, layer: RenderLayer, patch: PatchSpec): LayerLegend {
  const r = layer.renderer;
  return {
    layerId: layer.id,
    name: layer.name,
    heading: r.type === "simple" ? "" : r.field,
    classes: rendererClasses(r).map((c) => ({
      label: c.label,
      description: c.description,
      swatch: renderSwatch(kit, c.symbol, patch, r.transparency),
    })),
  };
}
