/**
 * Drawing one layer of a map: the features of the view (from point
 * snapshots, the generalised-geometry cache or the source), their symbols,
 * label candidates, and the layer's selected features.
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
  type SimpleFillSymbol,
  type SymbolSpec,
} from "../document/renderer.ts";
import type { MapDisplay } from "../geo/display.ts";
import { projectExtent } from "../geo/projection.ts";
import { parseWhere, type WhereNode } from "../query/mod.ts";
import type { Extent, Feature, Geometry } from "../types.ts";
import { cachedGeometry, preparedGeometry } from "./_geomcache.ts";
import {
  addStoredRings,
  polygonStore,
  ringWindow,
  storedRingsReachMeridian,
} from "./_geomstore.ts";
import { labelText, pointStore, type PointStoreData } from "./_pointstore.ts";
import {
  addPath,
  addPoint,
  addPointAt,
  addPolygon,
  type ScreenView,
  screenView,
} from "./_geometry.ts";
import { type Box, polygonAnchor } from "./_labels.ts";
import { type FeatureStart, fillBatches } from "./_fill_batches.ts";
import { PathCmds } from "./_path_cmds.ts";
import { scratchOf } from "./_canvaskit.ts";
import type { Scratch } from "./_scratch.ts";
import type { MarkerSink, Painter } from "./_painter.ts";
import type { RenderLayer } from "./types.ts";

/** A label waiting for placement: text and candidate anchor boxes in preference order. */
export interface LabelCandidate {
  text: string;
  layer: RenderLayer;
  /** Baseline-left positions to try. */
  spots: [number, number][];
  width: number;
  /** The labelled point symbol's box: no label may cover it. */
  obstacle?: Box;
}

const parsedDefinitions = new WeakMap<
  RenderLayer,
  { text: string; where: WhereNode | undefined }
>();

/** The layer's own definition expression, parsed once per layer object. */
export function layerDefinition(layer: RenderLayer): WhereNode | undefined {
  const text = layer.definitionExpression ?? "";
  const hit = parsedDefinitions.get(layer);
  if (hit && hit.text === text) return hit.where;
  const where = parseWhere(text, layer.source.fields());
  parsedDefinitions.set(layer, { text, where });
  return where;
}

/** Both filters (either may be missing). */
export function andWhere(
  a: WhereNode | undefined,
  b: WhereNode | undefined,
): WhereNode | undefined {
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

/** Screen geometry of one symbol's features, in drawing order. */
interface Group {
  cmds: PathCmds;
  xy: number[];
  outline: PathCmds;
  /** Where each feature's fill and outline commands begin. */
  starts: FeatureStart[];
}

/**
 * The `index`th group of a layer, its paths the thread's kept ones (the
 * groups of one layer are drawn before the next layer asks for them).
 */
function newGroup(scratch: Scratch, index: number): Group {
  return {
    cmds: scratch.path(`group ${index} fill`),
    xy: [],
    outline: scratch.path(`group ${index} outline`),
    starts: [],
  };
}

/**
 * Fills and outlines polygons feature by feature, as ArcGIS does (holes
 * come only from a feature's own rings; overlapping features never cancel
 * and blend one over another), batching features that cannot share a
 * pixel so the result is the same with far fewer draws (_fill_batches.ts).
 */
function drawFills(canvas: Canvas, painter: Painter, symbol: SimpleFillSymbol, g: Group): void {
  const reach = (symbol.outline ? painter.lineWidthPx(symbol.outline.width) / 2 : 0) + 2;
  for (const batch of fillBatches(g.cmds, g.outline, g.starts, reach, scratchOf(painter.kit))) {
    painter.fillPath(canvas, batch.fill, symbol, batch.outline);
  }
}

/** Label candidates collected per layer at most. */
const MAX_LABEL_CANDIDATES = 5000;

/**
 * Screen positions of a point store's markers, appended to `out[class]`
 * (null: the class draws nothing at a point). A small function of its own
 * so V8 optimises the loop early (inside drawLayer it left ~12 MiB of heap
 * numbers per world view of 100,000 points). With a `pad` the view lies
 * inside one world and points further than that outside it are skipped
 * before any arithmetic.
 */
function collectMarkers(
  data: PointStoreData,
  out: (number[] | null)[],
  view: ScreenView,
  pad: number | null,
): void {
  const { xs, ys, cls } = data;
  const v = view.visible, p = pad ?? 0, test = pad !== null;
  const x0 = v.xmin - p, x1 = v.xmax + p, y0 = v.ymin - p, y1 = v.ymax + p;
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i], y = ys[i];
    if (test && (x < x0 || x > x1 || y < y0 || y > y1)) continue;
    const xy = out[cls[i]];
    if (xy) addPointAt(x, y, view, xy);
  }
}

/** The (empty, never written) commands of a point feature. */
const NO_CMDS = new PathCmds(0);

/** Stands for "geometry already prepared in the cache" (never drawn itself). */
const CACHED: Geometry = { type: "Polygon", rings: [] };

/** Draws one layer; returns its label candidates. */
export function drawLayer(
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
  const bbox = sourceBbox(view, wkid, src.wkid, reachPx * coarsest(display));
  const fields = [
    ...new Set([
      ...rendererFields(layer.renderer),
      ...(withLabels && layer.labels ? [layer.labels.field] : []),
    ]),
  ];
  const groups = new Map<SymbolSpec, Group>();
  const scratch = scratchOf(painter.kit);
  /** The symbol's group, made on first use. */
  const groupOf = (symbol: SymbolSpec): Group => {
    let group = groups.get(symbol);
    if (!group) groups.set(symbol, group = newGroup(scratch, groups.size));
    return group;
  };
  for (const c of rendererClasses(layer.renderer)) groupOf(c.symbol);
  const labels: LabelCandidate[] = [];
  const font = withLabels && layer.labels ? painter.font(layer.labels.sizePt) : null;

  /** A feature's label text, when labels are drawn. */
  const textOf = (attributes: Record<string, unknown>) =>
    font && layer.labels ? labelText(attributes[layer.labels.field]) : "";
  /** Files one feature's screen geometry under its symbol and collects its label. */
  const emit = (
    text: string,
    symbol: SymbolSpec,
    featXy: number[],
    featCmds: PathCmds,
    featOutline?: PathCmds,
  ) => {
    const group = groupOf(symbol);
    if (symbol.type === "simple-marker") {
      // Markers on line/polygon layers would need vertices; points are what marker symbols draw.
      for (const v of featXy) group.xy.push(v);
    } else {
      if (!featCmds.empty) {
        group.starts.push({ fill: group.cmds.mark(), outline: group.outline.mark() });
      }
      group.cmds.append(featCmds);
      // Only fills are outlined from their own path (lines draw their commands alone).
      if (symbol.type === "simple-fill") group.outline.append(featOutline ?? featCmds);
    }
    if (!font || !layer.labels || (featXy.length === 0 && featCmds.empty)) return;
    // Far more candidates than an image can hold would only cost time: later ones could not be placed.
    if (labels.length >= MAX_LABEL_CANDIDATES) return;
    if (!text) return;
    const width = painter.textWidth(font, text);
    const size = font.getSize();
    if (featXy.length >= 2) {
      const radius = symbol.type === "simple-marker" ? (symbol.size * painter.pxPerPt) / 2 : 1;
      // Clear of the symbol by the halo and a pixel, so a label never covers its own point.
      const r = radius + (layer.labels.halo?.sizePt ?? 0) * painter.pxPerPt + 2;
      const [x, y] = featXy;
      labels.push({
        text,
        layer,
        width,
        obstacle: { x0: x - radius, y0: y - radius, x1: x + radius, y1: y + radius },
        spots: [
          [x + r, y - r],
          [x + r, y + r + size * 0.8],
          [x - r - width, y - r],
          [x - r - width, y + r + size * 0.8],
        ],
      });
    } else if (!featCmds.empty) {
      const a = polygonAnchor(featCmds);
      if (a) labels.push({ text, layer, width, spots: [[a[0] - width / 2, a[1] + size * 0.35]] });
    }
  };

  const points = layer.geometryType === "Point"
    ? pointStore(src, where, layer.renderer, layer.labels?.field, wkid)
    : null;
  const store = !points && layer.geometryType === "Polygon" ? polygonStore(src, wkid) : null;
  if (points) {
    const { xs, ys, cls } = points.data;
    const classes = rendererClasses(layer.renderer);
    // Views inside one world need no antimeridian copies: a plain extent test rejects most points.
    const pad = reachPx * coarsest(display);
    const v = view.visible;
    const simple = view.period === 0 || (v.xmin >= -view.period / 2 && v.xmax <= view.period / 2);
    if (!font) {
      // Without labels a marker's screen copies go straight into its symbol's group (what emit
      // does): no garbage per point. Other symbols draw nothing at a point.
      const out = classes.map((c) =>
        c.symbol.type === "simple-marker" ? groups.get(c.symbol)!.xy : null
      );
      collectMarkers(points.data, out, view, simple ? pad : null);
    } else {
      for (let i = 0; i < xs.length; i++) {
        const x = xs[i], y = ys[i];
        if (
          simple && (x < v.xmin - pad || x > v.xmax + pad || y < v.ymin - pad || y > v.ymax + pad)
        ) continue;
        const featXy: number[] = [];
        addPointAt(x, y, view, featXy);
        if (featXy.length) emit(points.label(i), classes[cls[i]].symbol, featXy, NO_CMDS);
      }
    }
  } else if (store) {
    // Same tolerance as the cache's levels, so both paths draw the same pixels.
    const tol = 2 ** Math.floor(Math.log2(finest(display))) / 2;
    const win = ringWindow(view, reachPx * coarsest(display));
    for (const f of src.query({ where, bbox, fields, returnGeometry: false })) {
      const symbol = pickSymbol(layer.renderer, f.attributes);
      if (!symbol) continue;
      const minDiag = finest(display) / 2;
      if (symbol.type === "simple-fill" && !font) {
        // Straight into the symbol's group: no per-feature arrays to copy (what emit does).
        const group = groupOf(symbol);
        // A feature whose outline is its fill commands is not appended twice (_fill_batches.ts).
        const outlineIsFill = !storedRingsReachMeridian(store, f.id, view);
        const start = { fill: group.cmds.mark(), outline: group.outline.mark(), outlineIsFill };
        const outline = outlineIsFill ? undefined : group.outline;
        addStoredRings(store, f.id, win, tol, minDiag, view, group.cmds, outline);
        if (group.cmds.verbCount > start.fill.verbs) group.starts.push(start);
        continue;
      }
      const featCmds = new PathCmds();
      const featOutline = symbol.type === "simple-fill" ? new PathCmds() : undefined;
      const taken = addStoredRings(store, f.id, win, tol, minDiag, view, featCmds, featOutline);
      if (!taken) continue;
      emit(textOf(f.attributes), symbol, [], featCmds, featOutline);
    }
  } else {
    for (const f of queryFeatures(layer, where, bbox, fields, wkid, finest(display))) {
      if (!f.geometry) continue;
      const symbol = pickSymbol(layer.renderer, f.attributes);
      if (!symbol) continue;
      const g = preparedGeometry(src, f.id, f.geometry, wkid, finest(display));
      if (!g) continue; // outside what the output SR can show, or below a pixel
      const featCmds = new PathCmds();
      const featXy: number[] = [];
      const featOutline = symbol.type === "simple-fill" ? new PathCmds() : undefined;
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
          addPolygon(g.rings, view, featCmds, featOutline);
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
      emit(
        textOf(f.attributes),
        symbol,
        featXy,
        featCmds,
        g.type === "Polygon" ? featOutline : undefined,
      );
    }
  }
  const opacity = 1 - (layer.renderer.transparency ?? 0) / 100;
  if (opacity < 1) {
    const p = new ck.Paint();
    try {
      p.setAlphaf(opacity);
      canvas.saveLayer(p); // the layer keeps its own copy of the paint
    } finally {
      p.delete();
    }
  }
  // Stamped markers bypass the canvas, so inside a transparency layer they are drawn as paths.
  for (const [symbol, g] of groups) {
    if (symbol.type === "simple-fill") drawFills(canvas, painter, symbol, g);
    else painter.draw(canvas, symbol, g.cmds, g.xy, opacity < 1 ? undefined : sink);
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

/** Map units per pixel, the finer of a (stretched) display's two: shapes are generalised to it. */
function finest(d: MapDisplay): number {
  return Math.min(d.resolution, d.yResolution);
}

/** Map units per pixel, the coarser of a display's two: what a reach in pixels covers at most. */
function coarsest(d: MapDisplay): number {
  return Math.max(d.resolution, d.yResolution);
}

/** Draws the selected features of a layer over it. */
export function drawSelection(
  canvas: Canvas,
  painter: Painter,
  layer: RenderLayer,
  sel: { ids: number[]; color: Rgba; symbol?: SymbolSpec },
  wkid: number,
  display: MapDisplay,
): void {
  const symbol = sel.symbol ?? selectionSymbol(layer, sel.color);
  const view = screenView(display, wkid, 50 * painter.pxPerPt);
  const cmds = new PathCmds();
  const xy: number[] = [];
  for (
    const f of layer.source.query({
      objectIds: sel.ids.slice(0, 100_000),
      fields: [],
      returnGeometry: true,
    })
  ) {
    const g = f.geometry &&
      preparedGeometry(layer.source, f.id, f.geometry, wkid, finest(display));
    if (!g) continue;
    if (g.type === "Point") addPoint([g.x, g.y], view, xy);
    else if (g.type === "Multipoint") { for (const p of g.points) addPoint(p, view, xy); }
    else if (g.type === "Polyline") { for (const p of g.paths) addPath(p, view, cmds); }
    else if (g.type === "Polygon") addPolygon(g.rings, view, cmds);
  }
  painter.draw(canvas, symbol, cmds, xy);
}
