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
import type { Canvas } from "canvaskit-wasm";

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

/** Draws `symbol` as a patch of `w` x `h` pixels at the canvas origin (a legend swatch's picture). */
function drawSymbolPatch(
  painter: Painter,
  canvas: Canvas,
  symbol: SymbolSpec,
  w: number,
  h: number,
  transparencyPct: number,
): void {
  const { ck } = painter.kit;
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
}

/**
 * Draws one symbol as a legend swatch: a marker in the centre, a
 * horizontal line, or a filled rectangle with its outline.
 *
 * @example
 * ```ts
 * import { loadKit } from "./_canvaskit.ts";
 * import type { SymbolSpec } from "../document/renderer.ts";
 * declare const symbol: SymbolSpec;
 * const kit = await loadKit();
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
    drawSymbolPatch(painter, canvas, symbol, w, h, transparencyPct);
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
 * import { loadKit } from "./_canvaskit.ts";
 * import type { RenderLayer } from "./types.ts";
 * declare const layer: RenderLayer;
 * const kit = await loadKit();
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

/** One row of a legend image: a symbol and its label. */
export interface LegendRow {
  symbol: SymbolSpec;
  /** The layer's transparency in percent. */
  transparency: number;
  label: string;
}

/**
 * Draws a legend image: one row per class, the swatch (a `patch` in size)
 * at the left and its label beside it, on a transparent (PNG) or white
 * background; the image is as wide as the longest label needs.
 *
 * @example
 * ```ts ignore
 * const img = renderLegendImage(kit, [{ symbol, transparency: 0, label: "Roads" }], DEFAULT_PATCH);
 * ```
 */
export function renderLegendImage(kit: Kit, rows: readonly LegendRow[], patch: PatchSpec): Swatch {
  const { ck } = kit;
  const { w, h, rowH, gap, labelPt } = legendLayout(rows.map((r) => r.label), patch);
  const { w: pw, h: ph } = patchPixels(patch);
  const pxPerPt = patch.dpi / 72;
  const surface = makeRasterSurface(kit, w, h, `a ${w}x${h} legend`);
  const painter = new Painter(kit, pxPerPt);
  try {
    const canvas = surface.getCanvas();
    canvas.clear(formatHasAlpha(patch.format) ? ck.TRANSPARENT : ck.WHITE);
    const font = painter.font(labelPt);
    for (const [i, r] of rows.entries()) {
      const y = i * rowH;
      if (y >= h) break;
      canvas.save();
      canvas.translate(0, y);
      drawSymbolPatch(painter, canvas, r.symbol, pw, ph, r.transparency);
      canvas.restore();
      painter.text(canvas, r.label, pw + gap, y + ph / 2 + font.getSize() * 0.35, font, BLACK);
    }
    const rgba = readUnpremultiplied(kit, surface, `a ${w}x${h} legend`);
    const { bytes, mime } = encodeImage(kit, rgba, w, h, patch.format);
    return { bytes, mime, widthPx: w, heightPx: h, dpi: patch.dpi };
  } finally {
    painter.dispose();
    freeSurface(surface);
  }
}

/** Label size of a legend image, in points. */
const LEGEND_LABEL_PT = 8;

/**
 * The size of the legend image of rows labelled `labels` (what
 * {@link renderLegendImage} draws, known before drawing so a capabilities
 * document can state it): a swatch and a label per row, the label's room
 * reckoned at 0.72 em a character, which the font's glyphs stay within.
 *
 * @example
 * ```ts
 * legendImageSize(["Roads", "Rivers"], DEFAULT_PATCH); // { w: 74, h: 46 }
 * ```
 */
export function legendImageSize(
  labels: readonly string[],
  patch: PatchSpec,
): { w: number; h: number } {
  const { w, h } = legendLayout(labels, patch);
  return { w, h };
}

function legendLayout(labels: readonly string[], patch: PatchSpec) {
  const { w: pw, h: ph } = patchPixels(patch);
  const pxPerPt = patch.dpi / 72;
  const gap = Math.round(5 * pxPerPt);
  const rowH = ph + Math.round(2 * pxPerPt);
  const chars = Math.max(0, ...labels.map((l) => [...l].length));
  const textW = Math.ceil(chars * 0.72 * LEGEND_LABEL_PT * pxPerPt);
  const w = Math.min(MAX_LEGEND_PX, Math.max(1, pw + (textW > 0 ? gap + textW : 0)));
  const h = Math.min(MAX_LEGEND_PX, Math.max(1, labels.length * rowH));
  return { w, h, rowH, gap, labelPt: LEGEND_LABEL_PT };
}

/** What {@link renderMessageImage} draws. */
export interface MessageImageSpec {
  widthPx: number;
  heightPx: number;
  /** Drawn in black from the top left, wrapped at the image's width; "" draws an empty image. */
  text: string;
  /** null = transparent (formats with alpha), else this colour. */
  background: Rgba | null;
  format: OutputFormat;
}

/**
 * An image carrying a message (a WMS exception drawn INIMAGE), or an empty
 * one (BLANK) when the text is empty.
 *
 * @example
 * ```ts ignore
 * renderMessageImage(kit, { widthPx: 256, heightPx: 256, text: "Layer 9 is not defined.",
 *   background: [255, 255, 255, 255], format: "png32" });
 * ```
 */
export function renderMessageImage(kit: Kit, spec: MessageImageSpec): Swatch {
  const { ck } = kit;
  const { widthPx: w, heightPx: h } = spec;
  const surface = makeRasterSurface(kit, w, h, `a ${w}x${h} message image`);
  const painter = new Painter(kit, 96 / 72);
  try {
    const canvas = surface.getCanvas();
    let bg = spec.background;
    if (bg && !formatHasAlpha(spec.format)) bg = [bg[0], bg[1], bg[2], 255];
    if (!bg && !formatHasAlpha(spec.format)) bg = [255, 255, 255, 255];
    canvas.clear(bg ? ck.Color(bg[0], bg[1], bg[2], bg[3] / 255) : ck.TRANSPARENT);
    const font = painter.font(9);
    const line = font.getSize() * 1.3;
    let y = line;
    for (const text of wrapWords(spec.text, (t) => painter.textWidth(font, t), w - 8)) {
      if (y > h) break;
      painter.text(canvas, text, 4, y, font, BLACK);
      y += line;
    }
    const rgba = readUnpremultiplied(kit, surface, `a ${w}x${h} message image`);
    const { bytes, mime } = encodeImage(kit, rgba, w, h, spec.format);
    return { bytes, mime, widthPx: w, heightPx: h, dpi: 96 };
  } finally {
    painter.dispose();
    freeSurface(surface);
  }
}

const BLACK: Rgba = [0, 0, 0, 255];

/** Largest legend image side in pixels. */
const MAX_LEGEND_PX = 4096;

/** `text` cut into lines no wider than `maxWidth` (a word longer than that gets a line of its own). */
function wrapWords(text: string, width: (t: string) => number, maxWidth: number): string[] {
  const lines: string[] = [];
  let cur = "";
  for (const word of text.split(/\s+/).filter((x) => x !== "")) {
    const next = cur === "" ? word : `${cur} ${word}`;
    if (cur !== "" && width(next) > maxWidth) {
      lines.push(cur);
      cur = word;
    } else cur = next;
  }
  if (cur !== "") lines.push(cur);
  return lines;
}
