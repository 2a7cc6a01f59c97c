/**
 * Draws a map image: background, layers bottom-up with their renderers,
 * labels with collision avoidance, custom graphics on top; then encodes.
 *
 * Runs wherever the layer sources are open (a render worker, or the main
 * thread in tests); CanvasKit comes from the caller's {@link Kit}.
 *
 * @module
 */
import type { Canvas } from "canvaskit-wasm";
import { createDisplay, isVisibleAtScale, type MapDisplay } from "../geo/display.ts";
import { borrowSurface, freeSurface, type Kit, releaseSurface } from "./_canvaskit.ts";
import { Compositor } from "./_compositor.ts";
import {
  andWhere,
  drawLayer,
  drawSelection,
  type LabelCandidate,
  layerDefinition,
} from "./_draw_layer.ts";
import { trimGeometryCache } from "./_geomcache.ts";
import { addPath, addPoint, addPolygon, screenView } from "./_geometry.ts";
import { PathCmds } from "./_path_cmds.ts";
import { type Box, Collisions } from "./_labels.ts";
import { Painter } from "./_painter.ts";
import { applyTransparentColor, encodeImage, formatHasAlpha } from "./encode.ts";
import type { Rgba } from "../document/renderer.ts";
import type { Graphic, MapRenderRequest, MapRenderResult, RenderMap } from "./types.ts";

/** Raw pixels of a drawn map, before encoding (used by tiles and tests). */
export interface DrawnMap {
  rgba: Uint8Array;
  /** Every pixel has alpha 255 (known from drawing, without a scan). */
  opaque: boolean;
  display: MapDisplay;
  visibleLayerIds: number[];
}

function placeLabels(
  canvas: Canvas,
  painter: Painter,
  labels: LabelCandidate[],
  display: MapDisplay,
) {
  const collisions = new Collisions(display.widthPx, display.heightPx);
  // Labelled points are obstacles first, so no label hides another labelled point.
  for (const l of labels) if (l.obstacle) collisions.block(l.obstacle);
  for (const l of labels) {
    const spec = l.layer.labels!;
    const font = painter.font(spec.sizePt);
    const size = font.getSize();
    const haloPx = (spec.halo?.sizePt ?? 0) * painter.pxPerPt;
    for (const [x, y] of l.spots) {
      const box: Box = {
        x0: x - haloPx - 1,
        y0: y - size - haloPx,
        x1: x + l.width + haloPx + 1,
        y1: y + size * 0.3 + haloPx,
      };
      if (collisions.tryPlace(box)) {
        painter.text(canvas, l.text, x, y, font, spec.color, spec.halo);
        break;
      }
    }
  }
}

function drawGraphics(
  canvas: Canvas,
  painter: Painter,
  graphics: Graphic[],
  wkid: number,
  display: MapDisplay,
) {
  for (const gr of graphics) {
    if (gr.kind === "text") {
      const view = screenView(display, wkid, 0);
      // Text anchors may sit anywhere; compute the screen point without the view test.
      const x = view.t.a * gr.x + view.t.b * gr.y + view.t.c;
      const y = view.t.d * gr.x + view.t.e * gr.y + view.t.f;
      const font = painter.font(gr.sizePt);
      const w = painter.textWidth(font, gr.text);
      painter.text(canvas, gr.text, x - w / 2, y + font.getSize() * 0.35, font, gr.color, gr.halo);
      continue;
    }
    const reach = 50 * painter.pxPerPt;
    const view = screenView(display, wkid, reach);
    const cmds = new PathCmds();
    const xy: number[] = [];
    const g = gr.geometry;
    if (g.type === "Point") addPoint([g.x, g.y], view, xy);
    else if (g.type === "Multipoint") { for (const p of g.points) addPoint(p, view, xy); }
    else if (g.type === "Polyline") { for (const p of g.paths) addPath(p, view, cmds); }
    else if (g.type === "Polygon") addPolygon(g.rings, view, cmds);
    else {
      addPolygon(
        [[[g.xmin, g.ymin], [g.xmin, g.ymax], [g.xmax, g.ymax], [g.xmax, g.ymin], [
          g.xmin,
          g.ymin,
        ]]],
        view,
        cmds,
      );
    }
    painter.draw(canvas, gr.symbol, cmds, xy);
  }
}

/** The layers to draw, bottom first: `order`'s (each once), else the map's from its bottom. */
function bottomUp(map: RenderMap, order: readonly number[] | undefined): RenderMap["layers"] {
  if (!order) return [...map.layers].reverse();
  const byId = new Map(map.layers.map((l) => [l.id, l]));
  return [...new Set(order)].flatMap((id) => byId.get(id) ?? []);
}

/**
 * Draws a map into unpremultiplied RGBA pixels (no encoding). The pixels
 * are the kit's work buffer, valid until it draws its next map: copy them
 * to keep them.
 *
 * @example
 * ```ts
 * import { loadKit } from "./_canvaskit.ts";
 * import type { RenderMap } from "./types.ts";
 * declare const map: RenderMap;
 * const kit = await loadKit(), extent = { xmin: 20, ymin: 40, xmax: 60, ymax: 70 };
 * const { rgba, display } = drawMapPixels(kit, map, { extent, wkid: 4326, widthPx: 400,
 *   heightPx: 300, format: "png32" });
 * ```
 */
export function drawMapPixels(kit: Kit, map: RenderMap, req: MapRenderRequest): DrawnMap {
  return _drawMap(kit, map, req, false, (drawn) => drawn);
}

/**
 * Draws a map and hands its pixels to `use` while the surface is still
 * borrowed; returns what `use` returns. With `inPlace` the pixels may be
 * the surface's own (see Compositor.finish): `use` must read them before
 * it calls CanvasKit in any way that allocates.
 */
function _drawMap<T>(
  kit: Kit,
  map: RenderMap,
  req: MapRenderRequest,
  inPlace: boolean,
  use: (drawn: DrawnMap) => T,
): T {
  const { ck } = kit;
  trimGeometryCache();
  const wkid = req.wkid;
  const display = createDisplay(req.extent, {
    widthPx: req.widthPx,
    heightPx: req.heightPx,
    dpi: req.dpi,
    rotation: req.rotation,
    wkid,
    stretch: req.stretch,
  });
  let bg: Rgba | null = req.background === undefined
    ? [
      map.backgroundColor[0] ?? 255,
      map.backgroundColor[1] ?? 255,
      map.backgroundColor[2] ?? 255,
      255,
    ]
    : req.background;
  if (bg && !formatHasAlpha(req.format)) bg = [bg[0], bg[1], bg[2], 255];
  const surface = borrowSurface(
    kit,
    req.widthPx,
    req.heightPx,
    bg ? ck.Color(bg[0], bg[1], bg[2], bg[3] / 255) : ck.TRANSPARENT,
  );
  const painter = new Painter(kit, display.dpi / 72);
  let drawn = false;
  try {
    const canvas = surface.getCanvas();
    const compositor = new Compositor(
      kit,
      surface,
      req.widthPx,
      req.heightPx,
      !!bg && bg[3] >= 255,
    );
    const overrides = new Map((req.layers ?? []).map((o) => [o.id, o]));
    const visibleLayerIds: number[] = [];
    const labelsTopFirst: LabelCandidate[][] = [];
    for (const layer of bottomUp(map, req.drawOrder)) {
      const o = overrides.get(layer.id);
      const visible = o?.visible ?? layer.visible;
      if (!visible || !isVisibleAtScale(display.scale, layer.minScale, layer.maxScale)) continue;
      visibleLayerIds.push(layer.id);
      const where = andWhere(layerDefinition(layer), o?.where);
      const withLabels = !!layer.labels && (o?.showLabels ?? true) &&
        isVisibleAtScale(display.scale, layer.labels.minScale, layer.labels.maxScale);
      labelsTopFirst.unshift(
        drawLayer(canvas, painter, layer, where, wkid, display, withLabels, compositor),
      );
      if (o?.selection?.ids.length) {
        drawSelection(canvas, painter, layer, o.selection, wkid, display);
      }
    }
    placeLabels(canvas, painter, labelsTopFirst.flat(), display);
    if (req.graphics?.length) drawGraphics(canvas, painter, req.graphics, wkid, display);
    const rgba = compositor.finish(inPlace);
    visibleLayerIds.sort((a, b) => a - b);
    drawn = true;
    return use({ rgba, opaque: compositor.opaque, display, visibleLayerIds });
  } finally {
    if (drawn) {
      painter.dispose();
      surface.getCanvas().restoreToCount(1);
      releaseSurface(kit, surface);
    } else {
      // The draw failed (perhaps CanvasKit itself, out of memory): free what it can without
      // keeping the surface, and let the draw's own error be the one reported.
      try {
        painter.dispose();
        freeSurface(surface);
      } catch { /* the kit is broken; the pool replaces it */ }
    }
  }
}

/** Where a map job's time went (filled by {@link renderMap} when given, for traces). */
export interface MapTiming {
  /** Drawing the image, ms. */
  drawMs: number;
  /** Encoding it, ms. */
  encodeMs: number;
}

/**
 * Draws and encodes a map image; `timing`, when given, gets the time each took.
 *
 * @example
 * ```ts
 * import { loadKit } from "./_canvaskit.ts";
 * import type { RenderMap } from "./types.ts";
 * declare const map: RenderMap;
 * const kit = await loadKit(), extent = { xmin: 20, ymin: 40, xmax: 60, ymax: 70 };
 * const res = renderMap(kit, map, { extent, wkid: 4326, widthPx: 800, heightPx: 600, format: "png8" });
 * ```
 */
export function renderMap(
  kit: Kit,
  map: RenderMap,
  req: MapRenderRequest,
  timing?: MapTiming,
): MapRenderResult {
  // Encoded from the surface's own pixels, before it is released: no copy of the image. Every
  // encoder reads the pixels before it calls CanvasKit (JPEG copies them out first; the PNG24
  // packer takes their address before it finds room in CanvasKit's heap, which may grow it).
  if (!timing) return _drawMap(kit, map, req, true, (drawn) => _encodeMap(kit, req, drawn));
  const start = performance.now();
  let drawn = start;
  const result = _drawMap(kit, map, req, true, (d) => {
    drawn = performance.now();
    return _encodeMap(kit, req, d);
  });
  timing.drawMs = drawn - start;
  timing.encodeMs = performance.now() - drawn;
  return result;
}

/** The encoded image of a drawn map and what the request's answer says about it. */
function _encodeMap(kit: Kit, req: MapRenderRequest, drawn: DrawnMap): MapRenderResult {
  const { rgba, display, visibleLayerIds, opaque: drawnOpaque } = drawn;
  let opaque = drawnOpaque;
  if (
    req.transparentColor && formatHasAlpha(req.format) ||
    req.transparentColor && req.format === "png24"
  ) {
    if (applyTransparentColor(rgba, req.transparentColor)) opaque = false;
  }
  const { bytes, mime } = encodeImage(
    kit,
    rgba,
    req.widthPx,
    req.heightPx,
    req.format,
    req.quality,
    opaque,
  );
  return {
    bytes,
    mime,
    extent: display.extent,
    scale: display.scale,
    resolution: display.resolution,
    widthPx: display.widthPx,
    heightPx: display.heightPx,
    dpi: display.dpi,
    visibleLayerIds,
  };
}
