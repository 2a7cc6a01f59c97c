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
import {
  pickSymbol,
  rendererClasses,
  rendererFields,
  rendererReachPt,
  type Rgba,
  type SymbolSpec,
} from "../document/renderer.ts";
import { createDisplay, isVisibleAtScale, type MapDisplay } from "../geo/display.ts";
import { projectExtent } from "../geo/projection.ts";
import { parseWhere, type WhereNode } from "../query/mod.ts";
import type { Extent, Feature, Geometry } from "../types.ts";
import { borrowSurface, type Kit, releaseSurface } from "./_canvaskit.ts";
import { cachedGeometry, preparedGeometry, trimGeometryCache } from "./_geomcache.ts";
import { pointSnapshot } from "./_pointcache.ts";
import { addPath, addPoint, addPolygon, type ScreenView, screenView } from "./_geometry.ts";
import { type Box, Collisions, polygonAnchor } from "./_labels.ts";
import { type MarkerSink, Painter } from "./_painter.ts";
import { compositeOver, type Sprite, stampSprites, unpremultiply } from "./_stamp.ts";
import { applyTransparentColor, encodeImage, formatHasAlpha } from "./encode.ts";
import type {
  Graphic,
  MapRenderRequest,
  MapRenderResult,
  RenderLayer,
  RenderMap,
} from "./types.ts";

/** A label waiting for placement: text and candidate anchor boxes in preference order. */
interface LabelCandidate {
  text: string;
  layer: RenderLayer;
  /** Baseline-left positions to try. */
  spots: [number, number][];
  width: number;
}

/**
 * Where marker sprites meet the canvas: the image is built in segments.
 * Skia draws into the surface; before sprites are stamped, the surface is
 * read (premultiplied) and composited onto a JS buffer and cleared, so
 * what Skia draws later (upper layers, labels) still lands on top.
 */
class Compositor implements MarkerSink {
  #buffer: Uint8Array | null = null;
  readonly #kit: Kit;
  readonly #canvas: Canvas;
  readonly #w: number;
  readonly #h: number;
  readonly pixelCount: number;

  constructor(kit: Kit, canvas: Canvas, w: number, h: number) {
    this.pixelCount = w * h;
    this.#kit = kit;
    this.#canvas = canvas;
    this.#w = w;
    this.#h = h;
  }

  #read(premultiplied: boolean): Uint8Array {
    const { ck } = this.#kit;
    const px = this.#canvas.readPixels(0, 0, {
      width: this.#w,
      height: this.#h,
      colorType: ck.ColorType.RGBA_8888,
      alphaType: premultiplied ? ck.AlphaType.Premul : ck.AlphaType.Unpremul,
      colorSpace: ck.ColorSpace.SRGB,
    }) as Uint8Array | null;
    if (!px) throw new Error("CanvasKit could not read back the drawn pixels.");
    return px;
  }

  #flush(): Uint8Array {
    const px = this.#read(true);
    if (this.#buffer) compositeOver(this.#buffer, px);
    else this.#buffer = px;
    this.#canvas.clear(this.#kit.ck.TRANSPARENT);
    return this.#buffer;
  }

  stamp(sprite: Sprite, corners: Int32Array): void {
    stampSprites(this.#flush(), this.#w, this.#h, sprite, corners);
  }

  /** The finished image, unpremultiplied RGBA. */
  finish(): Uint8Array {
    // A premultiplied read is a plain copy; opaque pixels (most of a map) need no conversion.
    const out = this.#buffer ? this.#flush() : this.#read(true);
    unpremultiply(out);
    return out;
  }
}

/** Raw pixels of a drawn map, before encoding (used by tiles and tests). */
export interface DrawnMap {
  rgba: Uint8Array;
  display: MapDisplay;
  visibleLayerIds: number[];
}

const parsedDefinitions = new WeakMap<
  RenderLayer,
  { text: string; where: WhereNode | undefined }
>();

/** The layer's own definition expression, parsed once per layer object. */
function layerDefinition(layer: RenderLayer): WhereNode | undefined {
  const text = layer.definitionExpression ?? "";
  const hit = parsedDefinitions.get(layer);
  if (hit && hit.text === text) return hit.where;
  const where = parseWhere(text, layer.source.fields());
  parsedDefinitions.set(layer, { text, where });
  return where;
}

function and(a: WhereNode | undefined, b: WhereNode | undefined): WhereNode | undefined {
  if (!a) return b;
  if (!b) return a;
  return { kind: "and", left: a, right: b };
}

/** Source-SR bounding box of what the view shows, padded; undefined when it cannot be projected. */
function sourceBbox(
  view: ScreenView,
  outWkid: number,
  srcWkid: number,
  pad: number,
): Extent | undefined {
  const v = view.visible;
  const e: Extent = {
    xmin: v.xmin - pad,
    ymin: v.ymin - pad,
    xmax: v.xmax + pad,
    ymax: v.ymax + pad,
  };
  if (view.period > 0 && (e.xmin < -view.period / 2 || e.xmax > view.period / 2)) {
    // The view reaches past the antimeridian: features from the far side show up as copies.
    e.xmin = -view.period / 2;
    e.xmax = view.period / 2;
  }
  try {
    const out = projectExtent(e, outWkid, srcWkid);
    return [out.xmin, out.ymin, out.xmax, out.ymax].every(Number.isFinite) ? out : undefined;
  } catch {
    return undefined;
  }
}

function labelText(v: unknown): string {
  if (v === null || v === undefined) return "";
  const s = String(v).trim();
  return s.length > 64 ? s.slice(0, 63) + "…" : s;
}

/**
 * The layer's features for this view. For lines and polygons whose
 * prepared geometry is already cached (same source revision, output SR and
 * resolution level) only ids and attributes are read, and geometry is
 * fetched just for the features not cached yet.
 */
function queryFeatures(
  layer: RenderLayer,
  where: WhereNode | undefined,
  bbox: Extent | undefined,
  fields: string[],
  wkid: number,
  resolution: number,
): Feature[] {
  const src = layer.source;
  if (layer.geometryType === "Point" || layer.geometryType === "Multipoint") {
    return src.query({ where, bbox, fields, returnGeometry: true });
  }
  const rows = src.query({ where, bbox, fields, returnGeometry: false });
  const missing: number[] = [];
  for (const f of rows) {
    if (cachedGeometry(src, f.id, wkid, resolution) === undefined) missing.push(f.id);
  }
  const fetched = new Map<number, Feature>();
  if (missing.length) {
    for (const f of src.query({ objectIds: missing, fields: [], returnGeometry: true })) {
      fetched.set(f.id, f);
    }
  }
  return rows.map((f) => {
    const full = fetched.get(f.id);
    // Cached features keep a placeholder geometry: preparedGeometry answers from the cache.
    return { id: f.id, attributes: f.attributes, geometry: full?.geometry ?? CACHED };
  });
}

/** Stands for "geometry already prepared in the cache" (never drawn itself). */
const CACHED: Geometry = { type: "Polygon", rings: [] };

/** Draws one layer; returns its label candidates. */
function drawLayer(
  canvas: Canvas,
  painter: Painter,
  layer: RenderLayer,
  where: WhereNode | undefined,
  wkid: number,
  display: MapDisplay,
  withLabels: boolean,
  sink: MarkerSink,
): LabelCandidate[] {
  const { ck } = painter.kit;
  const reachPx = rendererReachPt(layer.renderer) * painter.pxPerPt + 2;
  const view = screenView(display, wkid, reachPx);
  const src = layer.source;
  const bbox = sourceBbox(view, wkid, src.wkid, reachPx * display.resolution);
  const fields = [
    ...new Set([
      ...rendererFields(layer.renderer),
      ...(withLabels && layer.labels ? [layer.labels.field] : []),
    ]),
  ];
  const groups = new Map<SymbolSpec, { cmds: number[]; xy: number[] }>();
  for (const c of rendererClasses(layer.renderer)) groups.set(c.symbol, { cmds: [], xy: [] });
  const labels: LabelCandidate[] = [];
  const font = withLabels && layer.labels ? painter.font(layer.labels.sizePt) : null;

  /** Files one feature's screen geometry under its symbol and collects its label. */
  const emit = (
    attributes: Record<string, unknown>,
    symbol: SymbolSpec,
    featXy: number[],
    featCmds: number[],
  ) => {
    let group = groups.get(symbol);
    if (!group) groups.set(symbol, group = { cmds: [], xy: [] });
    if (symbol.type === "simple-marker") {
      // Markers on line/polygon layers would need vertices; points are what marker symbols draw.
      for (const v of featXy) group.xy.push(v);
    } else {
      for (const v of featCmds) group.cmds.push(v);
    }
    if (!font || !layer.labels || (featXy.length === 0 && featCmds.length === 0)) return;
    const text = labelText(attributes[layer.labels.field]);
    if (!text) return;
    const width = painter.textWidth(font, text);
    const size = font.getSize();
    if (featXy.length >= 2) {
      const r = symbol.type === "simple-marker" ? (symbol.size * painter.pxPerPt) / 2 + 1 : 2;
      const [x, y] = featXy;
      labels.push({
        text,
        layer,
        width,
        spots: [
          [x + r, y - r],
          [x + r, y + r + size * 0.8],
          [x - r - width, y - r],
          [x - r - width, y + r + size * 0.8],
        ],
      });
    } else if (featCmds.length) {
      const a = polygonAnchor(featCmds);
      if (a) labels.push({ text, layer, width, spots: [[a[0] - width / 2, a[1] + size * 0.35]] });
    }
  };

  const snapshot = layer.geometryType === "Point" ? pointSnapshot(src, where, fields, wkid) : null;
  if (snapshot) {
    const { xs, ys, attributes } = snapshot;
    // Views inside one world need no antimeridian copies: a plain extent test rejects most points.
    const pad = reachPx * display.resolution;
    const v = view.visible;
    const simple = view.period === 0 || (v.xmin >= -view.period / 2 && v.xmax <= view.period / 2);
    for (let i = 0; i < xs.length; i++) {
      const x = xs[i], y = ys[i];
      if (
        simple && (x < v.xmin - pad || x > v.xmax + pad || y < v.ymin - pad || y > v.ymax + pad)
      ) continue;
      const symbol = pickSymbol(layer.renderer, attributes[i]);
      if (!symbol) continue;
      const featXy: number[] = [];
      addPoint([x, y], view, featXy);
      if (featXy.length) emit(attributes[i], symbol, featXy, []);
    }
  } else {
    for (const f of queryFeatures(layer, where, bbox, fields, wkid, display.resolution)) {
      if (!f.geometry) continue;
      const symbol = pickSymbol(layer.renderer, f.attributes);
      if (!symbol) continue;
      const g = preparedGeometry(src, f.id, f.geometry, wkid, display.resolution);
      if (!g) continue; // outside what the output SR can show, or below a pixel
      const featCmds: number[] = [];
      const featXy: number[] = [];
      switch (g.type) {
        case "Point":
          addPoint([g.x, g.y], view, featXy);
          break;
        case "Multipoint":
          for (const p of g.points) addPoint(p, view, featXy);
          break;
        case "Polyline":
          for (const p of g.paths) addPath(p, view, featCmds);
          break;
        case "Polygon":
          addPolygon(g.rings, view, featCmds);
          break;
        case "Envelope": {
          const { xmin, ymin, xmax, ymax } = g;
          addPolygon(
            [[[xmin, ymin], [xmin, ymax], [xmax, ymax], [xmax, ymin], [xmin, ymin]]],
            view,
            featCmds,
          );
          break;
        }
      }
      emit(f.attributes, symbol, featXy, featCmds);
    }
  }
  const opacity = 1 - (layer.renderer.transparency ?? 0) / 100;
  if (opacity < 1) {
    const p = new ck.Paint();
    p.setAlphaf(opacity);
    canvas.saveLayer(p);
    p.delete();
  }
  // Stamped markers bypass the canvas, so inside a transparency layer they are drawn as paths.
  for (const [symbol, g] of groups) {
    painter.draw(canvas, symbol, g.cmds, g.xy, opacity < 1 ? undefined : sink);
  }
  if (opacity < 1) canvas.restore();
  return labels;
}

/** The default selection symbol of a layer: its geometry drawn in the selection colour. */
function selectionSymbol(layer: RenderLayer, color: Rgba): SymbolSpec {
  switch (layer.geometryType) {
    case "Polygon":
      return {
        type: "simple-fill",
        style: "none",
        color: [0, 0, 0, 0],
        outline: { type: "simple-line", style: "solid", color, width: 2 },
      };
    case "Polyline":
      return { type: "simple-line", style: "solid", color, width: 2 };
    default: {
      const reach = Math.max(4, rendererReachPt(layer.renderer));
      return {
        type: "simple-marker",
        style: "circle",
        color,
        size: reach * 2,
        angle: 0,
        xoffset: 0,
        yoffset: 0,
      };
    }
  }
}

/** Draws the selected features of a layer over it. */
function drawSelection(
  canvas: Canvas,
  painter: Painter,
  layer: RenderLayer,
  sel: { ids: number[]; color: Rgba; symbol?: SymbolSpec },
  wkid: number,
  display: MapDisplay,
): void {
  const symbol = sel.symbol ?? selectionSymbol(layer, sel.color);
  const view = screenView(display, wkid, 50 * painter.pxPerPt);
  const cmds: number[] = [];
  const xy: number[] = [];
  for (
    const f of layer.source.query({
      objectIds: sel.ids.slice(0, 100_000),
      fields: [],
      returnGeometry: true,
    })
  ) {
    const g = f.geometry &&
      preparedGeometry(layer.source, f.id, f.geometry, wkid, display.resolution);
    if (!g) continue;
    if (g.type === "Point") addPoint([g.x, g.y], view, xy);
    else if (g.type === "Multipoint") { for (const p of g.points) addPoint(p, view, xy); }
    else if (g.type === "Polyline") { for (const p of g.paths) addPath(p, view, cmds); }
    else if (g.type === "Polygon") addPolygon(g.rings, view, cmds);
  }
  painter.draw(canvas, symbol, cmds, xy);
}

function placeLabels(
  canvas: Canvas,
  painter: Painter,
  labels: LabelCandidate[],
  display: MapDisplay,
) {
  const collisions = new Collisions(display.widthPx, display.heightPx);
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
      const xy: number[] = [];
      // Text anchors may sit anywhere; compute the screen point without the view test.
      const x = view.t.a * gr.x + view.t.b * gr.y + view.t.c;
      const y = view.t.d * gr.x + view.t.e * gr.y + view.t.f;
      xy.push(x, y);
      const font = painter.font(gr.sizePt);
      const w = painter.textWidth(font, gr.text);
      painter.text(canvas, gr.text, x - w / 2, y + font.getSize() * 0.35, font, gr.color, gr.halo);
      continue;
    }
    const reach = 50 * painter.pxPerPt;
    const view = screenView(display, wkid, reach);
    const cmds: number[] = [];
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

/**
 * Draws a map into unpremultiplied RGBA pixels (no encoding).
 *
 * @example
 * ```ts
 * const { rgba, display } = drawMapPixels(kit, map, { extent, wkid: 4326, widthPx: 400,
 *   heightPx: 300, format: "png32" });
 * ```
 */
export function drawMapPixels(kit: Kit, map: RenderMap, req: MapRenderRequest): DrawnMap {
  const { ck } = kit;
  trimGeometryCache();
  const wkid = req.wkid;
  const display = createDisplay(req.extent, {
    widthPx: req.widthPx,
    heightPx: req.heightPx,
    dpi: req.dpi,
    rotation: req.rotation,
    wkid,
  });
  const surface = borrowSurface(kit, req.widthPx, req.heightPx);
  if (!surface) {
    throw new Error(`CanvasKit could not allocate a ${req.widthPx}x${req.heightPx} image.`);
  }
  const painter = new Painter(kit, display.dpi / 72);
  try {
    const canvas = surface.getCanvas();
    let bg: Rgba | null = req.background === undefined
      ? [
        map.backgroundColor[0] ?? 255,
        map.backgroundColor[1] ?? 255,
        map.backgroundColor[2] ?? 255,
        255,
      ]
      : req.background;
    if (bg && !formatHasAlpha(req.format)) bg = [bg[0], bg[1], bg[2], 255];
    canvas.clear(bg ? ck.Color(bg[0], bg[1], bg[2], bg[3] / 255) : ck.TRANSPARENT);
    const compositor = new Compositor(kit, canvas, req.widthPx, req.heightPx);
    const overrides = new Map((req.layers ?? []).map((o) => [o.id, o]));
    const visibleLayerIds: number[] = [];
    const labelsTopFirst: LabelCandidate[][] = [];
    for (let i = map.layers.length - 1; i >= 0; i--) {
      const layer = map.layers[i];
      const o = overrides.get(layer.id);
      const visible = o?.visible ?? layer.visible;
      if (!visible || !isVisibleAtScale(display.scale, layer.minScale, layer.maxScale)) continue;
      visibleLayerIds.push(layer.id);
      const where = and(layerDefinition(layer), o?.where);
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
    const rgba = compositor.finish();
    visibleLayerIds.sort((a, b) => a - b);
    return { rgba, display, visibleLayerIds };
  } finally {
    painter.dispose();
    surface.getCanvas().restoreToCount(1);
    releaseSurface(surface);
  }
}

/**
 * Draws and encodes a map image.
 *
 * @example
 * ```ts
 * const res = renderMap(kit, map, { extent, wkid: 4326, widthPx: 800, heightPx: 600, format: "png8" });
 * ```
 */
export function renderMap(kit: Kit, map: RenderMap, req: MapRenderRequest): MapRenderResult {
  const { rgba, display, visibleLayerIds } = drawMapPixels(kit, map, req);
  if (
    req.transparentColor && formatHasAlpha(req.format) ||
    req.transparentColor && req.format === "png24"
  ) {
    applyTransparentColor(rgba, req.transparentColor);
  }
  const { bytes, mime } = encodeImage(
    kit,
    rgba,
    req.widthPx,
    req.heightPx,
    req.format,
    req.quality,
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
