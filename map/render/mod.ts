/**
 * The renderer: map images, legend swatches and scale bars drawn with
 * CanvasKit (Skia in WebAssembly, the `bin/full` build for JPEG), encoded to
 * PNG (8/24/32), JPEG, GIF, BMP or TIFF, run in a worker pool or in process.
 *
 * Pipeline of a map image (draw_map.ts):
 * 1. the display (extent widened to the image, scale, rotation) from
 *    map/geo/display.ts;
 * 2. per layer, bottom-up: features of the view (point snapshots,
 *    generalised-geometry cache, or the source with a bbox), reprojected,
 *    drawn as stored once per world copy in the view, simplified to half a
 *    pixel and clipped in screen space (_geometry.ts), batched per symbol
 *    (polygons in batches whose features cannot share a pixel, _fill_batches.ts);
 * 3. fills and lines through Skia; markers as overlap-free path batches or
 *    stamped from one sprite in JS (cost model in _painter.ts);
 * 4. labels with collision avoidance, then custom graphics;
 * 5. pixels read once and encoded (our PNG encoder over node:zlib).
 *
 * Jobs (jobs.ts) are plain data; a {@link RenderPool} of Deno workers opens
 * the map documents itself, so geometry never crosses threads.
 *
 * @module
 */
export { type Kit, loadKit, RenderMemoryError } from "./_canvaskit.ts";
export { DEFAULT_HEAP_LIMIT_MB } from "./_heap_guard.ts";
export { collectUnlessBusy, GC_BUDGET_BYTES, GcBudget, type MemoryUse } from "./collect.ts";
export { drawMapPixels, type DrawnMap, renderMap } from "./draw_map.ts";
export {
  applyTransparentColor,
  encodeImage,
  extensionOf,
  formatFromEsri,
  formatFromName,
  IMAGE_FILE_TYPES,
  mimeOfExtension,
  type OutputFormat,
  SUPPORTED_ESRI_FORMATS,
  UnsupportedFormatError,
} from "./encode.ts";
export { encodePng, type PngKind } from "./png.ts";
export type {
  JobResult,
  LegendImageJob,
  MapJob,
  MapResolver,
  MessageImageJob,
  MosaicCell,
  MosaicJob,
  RenderJob,
  ScaleBarJob,
  SwatchJob,
} from "./jobs.ts";
export {
  DEFAULT_PATCH,
  layerLegend,
  legendImageSize,
  type LegendRow,
  type MessageImageSpec,
  patchPixels,
  type PatchSpec,
  renderSwatch,
  type Swatch,
} from "./legend.ts";
export { DEFAULT_OUTPUT_MAX_AGE_MS, OutputFolder, sweepOutput } from "./output.ts";
export {
  documentRenderPool,
  InProcessRenderer,
  type InProcessRendererOptions,
  RenderBusyError,
  type Renderer,
  RenderPool,
  type RenderPoolOptions,
  type RenderPoolStats,
  type ServiceLoaderSpec,
} from "./pool.ts";
export {
  defaultScaleBar,
  groundScale,
  renderScaleBar,
  type ScaleBarSpec,
  type ScaleBarStyle,
  unitName,
} from "./scalebar.ts";
export type {
  Graphic,
  LayerOverride,
  MapRenderRequest,
  MapRenderResult,
  RenderLayer,
  RenderMap,
} from "./types.ts";
