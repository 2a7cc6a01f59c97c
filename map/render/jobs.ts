/**
 * Render jobs: plain, structured-cloneable descriptions of every drawing
 * the server does (map images, legend swatches, scale bars), and the one
 * executor that runs them, in a worker or in process.
 *
 * Map jobs name their service and map instead of carrying features: the
 * worker opens the same sources itself (SQLite files are read
 * concurrently, static files are parsed once per worker and their
 * projected/generalised geometry stays cached there), so a 10 m world
 * view never copies half a million vertices between threads.
 *
 * @module
 */
import type { SymbolSpec } from "../document/renderer.ts";
import { type Kit, scratchOf } from "./_canvaskit.ts";
import { drawMapPixels, type MapTiming, renderMap } from "./draw_map.ts";
import { applyTransparentColor, encodeImage } from "./encode.ts";
import {
  type LegendRow,
  type MessageImageSpec,
  type PatchSpec,
  renderLegendImage,
  renderMessageImage,
  renderSwatch,
  type Swatch,
} from "./legend.ts";
import { renderScaleBar, type ScaleBarImage, type ScaleBarSpec } from "./scalebar.ts";
import type { MapRenderRequest, MapRenderResult, RenderMap } from "./types.ts";
import type { Rgba } from "../document/renderer.ts";
import type { OutputFormat } from "./encode.ts";

/** Draw a map image of `map` in `service`. */
export interface MapJob {
  kind: "map";
  service: string;
  map: string;
  request: MapRenderRequest;
}

/** Draw legend swatches for a list of symbols. */
export interface SwatchJob {
  kind: "swatches";
  symbols: { symbol: SymbolSpec; transparency: number }[];
  patch: PatchSpec;
}

/** Draw a legend image: swatches with their labels, one row each (WMS GetLegendGraphic). */
export interface LegendImageJob {
  kind: "legendImage";
  rows: LegendRow[];
  patch: PatchSpec;
}

/** Draw an image carrying a message, or an empty one (WMS exceptions INIMAGE and BLANK). */
export interface MessageImageJob {
  kind: "message";
  spec: MessageImageSpec;
}

/** Draw a scale bar. */
export interface ScaleBarJob {
  kind: "scalebar";
  spec: ScaleBarSpec;
  opts: {
    mapScale: number;
    widthPx: number;
    heightPx: number;
    dpi: number;
    background: Rgba | null;
    format: OutputFormat;
    quality?: number;
  };
}

/**
 * Draw one map image and cut it into a grid of `cellPx`-square cells, each
 * encoded on its own (tile metatiles: labels and symbols stay continuous
 * across the inner tile edges, and one draw serves many tiles).
 */
export interface MosaicJob {
  kind: "mosaic";
  service: string;
  map: string;
  request: MapRenderRequest;
  cellPx: number;
}

/** One encoded cell of a mosaic, by its row/column inside the grid. */
export interface MosaicCell {
  row: number;
  col: number;
  bytes: Uint8Array;
  mime: string;
}

/** Any render job. */
export type RenderJob =
  | MapJob
  | SwatchJob
  | ScaleBarJob
  | MosaicJob
  | LegendImageJob
  | MessageImageJob;

/** The result type of each job kind. */
export type JobResult<J extends RenderJob> = J extends MapJob ? MapRenderResult
  : J extends SwatchJob ? Swatch[]
  : J extends MosaicJob ? MosaicCell[]
  : J extends LegendImageJob | MessageImageJob ? Swatch
  : ScaleBarImage;

/** Finds a map by service and map name where the job runs. */
export type MapResolver = (service: string, map: string) => RenderMap | Promise<RenderMap>;

/**
 * Runs one job with `kit`; map jobs get their map from `resolve`, and fill
 * `timing` when it is given (draw and encode times, for traces).
 *
 * @example
 * ```ts
 * import { loadKit } from "./_canvaskit.ts";
 * import type { MapRenderRequest, RenderMap } from "./types.ts";
 * declare const request: MapRenderRequest, resolve: (service: string, map: string) => Promise<RenderMap>;
 * const kit = await loadKit();
 * const out = await runJob(kit, { kind: "map", service: "Default", map: "Layers", request }, resolve);
 * ```
 */
export async function runJob<J extends RenderJob>(
  kit: Kit,
  job: J,
  resolve: MapResolver,
  timing?: MapTiming,
): Promise<JobResult<J>> {
  switch (job.kind) {
    case "map": {
      const map = await resolve(job.service, job.map);
      return renderMap(kit, map, job.request, timing) as JobResult<J>;
    }
    case "swatches":
      return job.symbols.map((s) =>
        renderSwatch(kit, s.symbol, job.patch, s.transparency)
      ) as JobResult<J>;
    case "scalebar":
      return renderScaleBar(kit, job.spec, job.opts) as JobResult<J>;
    case "legendImage":
      return renderLegendImage(kit, job.rows, job.patch) as JobResult<J>;
    case "message":
      return renderMessageImage(kit, job.spec) as JobResult<J>;
    case "mosaic": {
      const map = await resolve(job.service, job.map);
      return mosaic(kit, map, job) as JobResult<J>;
    }
  }
  throw new Error(`Unknown render job kind.`);
}

function mosaic(kit: Kit, map: RenderMap, job: MosaicJob): MosaicCell[] {
  const { request: req, cellPx } = job;
  const { rgba } = drawMapPixels(kit, map, req);
  if (req.transparentColor) applyTransparentColor(rgba, req.transparentColor);
  const rows = Math.floor(req.heightPx / cellPx), cols = Math.floor(req.widthPx / cellPx);
  const out: MosaicCell[] = [];
  const cell = scratchOf(kit).bytes("cell", cellPx * cellPx * 4);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      for (let y = 0; y < cellPx; y++) {
        const src = ((r * cellPx + y) * req.widthPx + c * cellPx) * 4;
        cell.set(rgba.subarray(src, src + cellPx * 4), y * cellPx * 4);
      }
      const { bytes, mime } = encodeImage(kit, cell, cellPx, cellPx, req.format, req.quality);
      out.push({ row: r, col: c, bytes, mime });
    }
  }
  return out;
}

/** Byte buffers of a result, to transfer instead of copy between threads. */
export function transferablesOf(result: unknown): ArrayBuffer[] {
  const out: ArrayBuffer[] = [];
  const visit = (v: unknown) => {
    if (v instanceof Uint8Array) {
      if (
        v.buffer instanceof ArrayBuffer && v.byteOffset === 0 &&
        v.byteLength === v.buffer.byteLength
      ) {
        out.push(v.buffer);
      }
    } else if (Array.isArray(v)) v.forEach(visit);
    else if (v && typeof v === "object") Object.values(v).forEach(visit);
  };
  visit(result);
  return [...new Set(out)];
}
