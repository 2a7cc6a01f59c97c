/**
 * The renderer: map images, legend swatches and scale bars drawn with
 * CanvasKit, encoded to PNG (8/24/32), JPEG, BMP or TIFF, run in a worker
 * pool or in process.
 *
 * @module
 */
export { type Kit, loadKit } from "./_canvaskit.ts";
export { drawMapPixels, type DrawnMap, renderMap } from "./draw_map.ts";
export {
  applyTransparentColor,
  encodeImage,
  extensionOf,
  formatFromEsri,
  formatFromName,
  type OutputFormat,
  SUPPORTED_ESRI_FORMATS,
  UnsupportedFormatError,
} from "./encode.ts";
export { encodePng, type PngKind } from "./png.ts";
export type {
  JobResult,
  MapJob,
  MapResolver,
  MosaicCell,
  MosaicJob,
  RenderJob,
  ScaleBarJob,
  SwatchJob,
} from "./jobs.ts";
export {
  DEFAULT_PATCH,
  layerLegend,
  patchPixels,
  type PatchSpec,
  renderSwatch,
  type Swatch,
} from "./legend.ts";
export {
  type FrameLike,
  type LayerLike,
  rendererOf,
  toRenderLayer,
  toRenderMap,
} from "./map_of.ts";
export { configureOutput, sweepOutput, writeOutput } from "./output.ts";
export {
  configureRenderer,
  configureRendererForDocuments,
  InProcessRenderer,
  RenderBusyError,
  type Renderer,
  RenderPool,
  type RenderPoolOptions,
  type ServiceLoaderSpec,
  setSharedRenderer,
  sharedRenderer,
} from "./pool.ts";
export {
  defaultScaleBar,
  groundScale,
  renderScaleBar,
  type ScaleBarSpec,
  type ScaleBarStyle,
  unitName,
} from "./scalebar.ts";
export * from "./soap.ts";
export type {
  Graphic,
  LayerOverride,
  MapRenderRequest,
  MapRenderResult,
  RenderLayer,
  RenderMap,
} from "./types.ts";
