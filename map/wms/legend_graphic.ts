/**
 * GetLegendGraphic (the SLD extension WMS clients use for legends): one
 * layer's legend as an image, a row per renderer class with the swatch the
 * REST legend draws (the same symbol painter) and the class's label. WIDTH
 * and HEIGHT set the swatch size in pixels (default 20 x 20, the REST
 * legend's 15 points at 96 DPI); FORMAT is a GetMap format.
 *
 * @module
 */
import { rendererClasses } from "../document/renderer.ts";
import type { MapLayer } from "../ops/mod.ts";
import { legendImageSize, type LegendRow, type PatchSpec } from "../render/mod.ts";
import { WmsError } from "./_exception.ts";
import { layerIds, WMS_DPI, type WmsCall } from "./_map_request.ts";
import { mapFormat } from "./get_map.ts";
import type { WmsReply } from "./reply.ts";

/** Points per pixel at the legend's DPI. */
const PT_PER_PX = 72 / WMS_DPI;

/** The default swatch side in pixels (15 points at 96 DPI). */
const DEFAULT_SWATCH_PX = 20;

/**
 * The rows of a layer's legend: its renderer's classes, labelled (the layer's name for a lone one).
 *
 * @example
 * ```ts ignore
 * legendRows(frame.layers[0]).map((r) => r.label); // ["Vacancy", "Reserve"]
 * ```
 */
export function legendRows(layer: MapLayer): LegendRow[] {
  return rendererClasses(layer.renderer).map((c) => ({
    symbol: c.symbol,
    transparency: layer.renderer.transparency,
    label: c.label || layer.name,
  }));
}

/**
 * The size of a layer's legend image with swatches of `swatchPx` (what a
 * LegendURL states).
 *
 * @example
 * ```ts ignore
 * legendSize(frame.layers[0]); // { w: 120, h: 22 }
 * ```
 */
export function legendSize(
  layer: MapLayer,
  swatchPx = { w: DEFAULT_SWATCH_PX, h: DEFAULT_SWATCH_PX },
): { w: number; h: number } {
  return legendImageSize(legendRows(layer).map((r) => r.label), patchOf(swatchPx, "png32"));
}

function patchOf(px: { w: number; h: number }, format: PatchSpec["format"]): PatchSpec {
  return { widthPt: px.w * PT_PER_PX, heightPt: px.h * PT_PER_PX, dpi: WMS_DPI, format };
}

function swatchSide(call: WmsCall, name: string): number {
  const text = call.params.get(name);
  if (text === undefined || text.trim() === "") return DEFAULT_SWATCH_PX;
  return call.params.pixels(name, 512);
}

/**
 * Answers GetLegendGraphic.
 *
 * @example
 * ```ts ignore
 * const reply = await getLegendGraphic(call); // LAYER=0&FORMAT=image/png
 * ```
 */
export async function getLegendGraphic(call: WmsCall): Promise<WmsReply> {
  const p = call.params;
  const ids = layerIds(call.frame, p.required("LAYER", "the id of the layer (e.g. 0)"), "LAYER");
  if (ids.length !== 1) {
    throw new WmsError(
      "InvalidParameterValue",
      `LAYER names one layer, not ${ids.length}; ask for each layer's legend on its own.`,
      "LAYER",
    );
  }
  const [id] = ids;
  const style = (p.get("STYLE") ?? "").trim();
  if (style !== "" && style.toLowerCase() !== "default") {
    throw new WmsError(
      "StyleNotDefined",
      `Style "${style}" is not defined; the layer has the style "default".`,
      "STYLE",
    );
  }
  const { format } = mapFormat(p.get("FORMAT") ?? "image/png");
  const layer = call.frame.layers.find((l) => l.id === id)!;
  const patch = patchOf({ w: swatchSide(call, "WIDTH"), h: swatchSide(call, "HEIGHT") }, format);
  const image = await call.ctx.renderer.run({
    kind: "legendImage",
    rows: legendRows(layer),
    patch,
  });
  return { status: 200, contentType: image.mime, body: image.bytes };
}
