/**
 * Plain, serialisable descriptions of what to draw. The map operations
 * turn requests into these; the renderer (in a worker or in process)
 * turns them into encoded images.
 *
 * `RenderMap`/`RenderLayer` are the parts of map/document's `MapFrame` and
 * `MapLayer` the renderer reads (picked from them, so one definition holds),
 * and a `MapFrame` fits them as is.
 *
 * @module
 */
import type { Rgba, SymbolSpec } from "../document/renderer.ts";
import type { MapFrame, MapLayer } from "../document/types.ts";
import type { WhereNode } from "../query/ast.ts";
import type { Extent, Geometry } from "../types.ts";
import type { OutputFormat } from "./encode.ts";

/**
 * A layer as the renderer sees it: the members of a map document's layer
 * it draws by; the layer's own definition query may be left out (none).
 */
export type RenderLayer =
  & Pick<
    MapLayer,
    "id" | "name" | "geometryType" | "source" | "visible" | "minScale" | "maxScale" | "renderer"
  >
  & Partial<Pick<MapLayer, "labels" | "definitionExpression">>;

/** A map (data frame) as the renderer sees it; `layers` in table-of-contents order, index 0 on top. */
export type RenderMap = Pick<MapFrame, "name" | "wkid" | "backgroundColor"> & {
  layers: RenderLayer[];
};

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
  /** Draw exactly `extent`, stretched to the image (WMS GetMap); default false (widened). */
  stretch?: boolean;
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
  /**
   * Layer ids in drawing order, bottom first (WMS LAYERS): only these are drawn, each at most
   * once; absent = every layer in the map's order.
   */
  drawOrder?: number[];
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
