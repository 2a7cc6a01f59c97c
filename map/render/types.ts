/**
 * Plain, serialisable descriptions of what to draw. The map operations
 * turn requests into these; the renderer (in a worker or in process)
 * turns them into encoded images.
 *
 * `RenderMap`/`RenderLayer` are the subset of the map document the
 * renderer reads, so a `MapFrame` of `map/document` fits them as is.
 *
 * @module
 */
import type { LabelSpec, RendererSpec, Rgba, SymbolSpec } from "../document/renderer.ts";
import type { WhereNode } from "../query/ast.ts";
import type { FeatureSource } from "../sources/source.ts";
import type { Extent, Geometry, LayerGeometryType } from "../types.ts";
import type { OutputFormat } from "./encode.ts";

/** A layer as the renderer sees it. */
export interface RenderLayer {
  id: number;
  name: string;
  geometryType: LayerGeometryType;
  source: FeatureSource;
  visible: boolean;
  /** Zoomed-out limit (0 = none). */
  minScale: number;
  /** Zoomed-in limit (0 = none). */
  maxScale: number;
  renderer: RendererSpec;
  labels?: LabelSpec;
  /** The layer's own definition query (always applied, ANDed with the request's). */
  definitionExpression?: string;
}

/** A map (data frame) as the renderer sees it. */
export interface RenderMap {
  name: string;
  wkid: number;
  /** Background RGB (0-255). */
  backgroundColor: readonly number[];
  /** Layers in table-of-contents order: index 0 is drawn on top. */
  layers: RenderLayer[];
}

/** Per-layer overrides from a LayerDescription; unlisted layers keep their defaults. */
export interface LayerOverride {
  id: number;
  visible?: boolean;
  /** Whether to draw the layer's labels (LayerDescription.ShowLabels). */
  showLabels?: boolean;
  /** Already parsed and field-checked definition expression (ANDed with the layer's own). */
  where?: WhereNode;
  /**
   * Features drawn as selected (LayerDescription.SelectionFeatures), over the
   * layer, with `symbol` or else a default symbol in `color`.
   */
  selection?: { ids: number[]; color: Rgba; symbol?: SymbolSpec };
}

/** A custom graphic drawn on top of the map, geometry in the output spatial reference. */
export type Graphic =
  | { kind: "shape"; geometry: Geometry; symbol: SymbolSpec }
  | {
    kind: "text";
    x: number;
    y: number;
    text: string;
    color: Rgba;
    sizePt: number;
    halo?: { color: Rgba; sizePt: number };
  };

/** Everything needed to draw one map image. */
export interface MapRenderRequest {
  /** Requested extent in `wkid` (widened to the image aspect by the display math). */
  extent: Extent;
  /** Output spatial reference. */
  wkid: number;
  widthPx: number;
  heightPx: number;
  dpi?: number;
  /** Degrees counter-clockwise. */
  rotation?: number;
  /** Background; undefined = the map's background, null = fully transparent. */
  background?: Rgba | null;
  /** Pixels of exactly this RGB become transparent (PNG formats). */
  transparentColor?: Rgba;
  layers?: LayerOverride[];
  graphics?: Graphic[];
  format: OutputFormat;
  /** JPEG quality 1-100 (default 75). */
  quality?: number;
}

/** An encoded map image and the display facts MapImage reports. */
export interface MapRenderResult {
  bytes: Uint8Array;
  mime: string;
  /** Aspect-adjusted extent actually drawn. */
  extent: Extent;
  scale: number;
  resolution: number;
  widthPx: number;
  heightPx: number;
  dpi: number;
  /** Layers drawn (visible and within their scale range). */
  visibleLayerIds: number[];
}
