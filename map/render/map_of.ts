/**
 * Map documents as the renderer sees them: {@link toRenderMap} adapts a
 * map frame (map/document's MapFrame, or any structurally similar object)
 * into a {@link RenderMap}, giving layers without a renderer a default
 * symbology by geometry type. Results are cached per frame and layer object
 * so per-layer caches (parsed definition queries, generalised geometry)
 * survive across requests.
 *
 * @module
 */
import { type RendererSpec, RendererSpecSchema } from "../document/renderer.ts";
import type { LabelSpec } from "../document/renderer.ts";
import type { FeatureSource } from "../sources/source.ts";
import type { LayerGeometryType } from "../types.ts";
import type { RenderLayer, RenderMap } from "./types.ts";

/** The layer fields the renderer reads (map/document's MapLayer has them all). */
export interface LayerLike {
  id: number;
  name: string;
  geometryType: LayerGeometryType;
  source: FeatureSource;
  visible: boolean;
  minScale: number;
  maxScale: number;
  definitionExpression?: string;
  renderer?: RendererSpec;
  labels?: LabelSpec;
}

/** The map fields the renderer reads. */
export interface FrameLike {
  name: string;
  wkid: number;
  backgroundColor: readonly number[];
  layers: readonly LayerLike[];
}

const DEFAULTS: Record<LayerGeometryType, RendererSpec> = {
  Point: RendererSpecSchema.parse({
    type: "simple",
    symbol: {
      type: "simple-marker",
      style: "circle",
      color: [230, 76, 0],
      size: 6,
      outline: { color: [255, 255, 255], width: 0.75 },
    },
  }),
  Multipoint: RendererSpecSchema.parse({
    type: "simple",
    symbol: { type: "simple-marker", style: "square", color: [230, 76, 0], size: 5 },
  }),
  Polyline: RendererSpecSchema.parse({
    type: "simple",
    symbol: { type: "simple-line", style: "solid", color: [70, 90, 160], width: 1 },
  }),
  Polygon: RendererSpecSchema.parse({
    type: "simple",
    symbol: {
      type: "simple-fill",
      style: "solid",
      color: [235, 230, 215],
      outline: { type: "simple-line", style: "solid", color: [130, 130, 130], width: 0.5 },
    },
  }),
};

/** The renderer of a layer, or the default symbology of its geometry type. */
export function rendererOf(layer: LayerLike): RendererSpec {
  return layer.renderer ?? DEFAULTS[layer.geometryType] ?? DEFAULTS.Point;
}

const layerCache = new WeakMap<LayerLike, RenderLayer>();
const frameCache = new WeakMap<FrameLike, RenderMap>();

/** A layer as the renderer sees it (cached per layer object). */
export function toRenderLayer(layer: LayerLike): RenderLayer {
  let r = layerCache.get(layer);
  if (!r) {
    r = {
      id: layer.id,
      name: layer.name,
      geometryType: layer.geometryType,
      source: layer.source,
      visible: layer.visible,
      minScale: layer.minScale,
      maxScale: layer.maxScale,
      renderer: rendererOf(layer),
      labels: layer.labels,
      definitionExpression: layer.definitionExpression ?? "",
    };
    layerCache.set(layer, r);
  }
  return r;
}

/**
 * A map frame as the renderer sees it (cached per frame object).
 *
 * @example
 * ```ts
 * const map = toRenderMap(service.maps[0]);
 * ```
 */
export function toRenderMap(frame: FrameLike): RenderMap {
  let m = frameCache.get(frame);
  if (!m) {
    m = {
      name: frame.name,
      wkid: frame.wkid,
      backgroundColor: frame.backgroundColor,
      layers: frame.layers.map(toRenderLayer),
    };
    frameCache.set(frame, m);
  }
  return m;
}
