/**
 * `/services/{Service}/MapServer/legend`: every layer's legend, with
 * swatches drawn by the same GetLegendInfo operation SOAP calls, as
 * ArcGIS REST JSON (`{layers: [{layerId, layerName, layerType, minScale,
 * maxScale, legend: [{label, url, imageData, contentType, height, width,
 * values?}]}]}`). `size=w,h` is the patch size in points (default 15,15,
 * which is 20 x 20 pixels at the default `dpi` of 96).
 *
 * A swatch's `url` is a digest of its image, served by
 * `/services/{Service}/MapServer/{layerId}/images/{url}` (with the same
 * `size` and `dpi`), as ArcGIS serves legend images.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import type { GetLegendInfoRequest, LegendInfo, MapFrame } from "../ops/mod.ts";
import { DRAW_OPERATIONS } from "../ops/mod.ts";
import { invalid, RestParams } from "./params.ts";
import { RestError, RestFile } from "./reply.ts";
import {
  frameOf,
  layerOf,
  operationContext,
  type RestCall,
  type RestEndpoint,
  serviceOf,
} from "./endpoint.ts";

/**
 * The GetLegendInfo request of a legend call on `frame` (all layers, or
 * `layerIds`), swatches as PNG 32 image data.
 *
 * @example
 * ```ts ignore
 * const req = legendRequest(new RestParams(new URLSearchParams("size=20,10&dpi=192")), frame);
 * ```
 */
export function legendRequest(
  params: RestParams,
  frame: MapFrame,
  layerIds: number[] = [],
): GetLegendInfoRequest {
  let width = 15, height = 15;
  const sizeText = params.string("size");
  if (sizeText !== undefined) {
    const parts = sizeText.split(",").map((s) => s.trim());
    const [w, h] = parts.map(Number);
    if (parts.length !== 2 || !(w > 0 && w <= 500) || !(h > 0 && h <= 500)) {
      throw invalid(
        "size",
        "width,height of a swatch in points, each up to 500 (e.g. 15,15)",
        sizeText,
      );
    }
    [width, height] = [w, h];
  }
  const dpi = params.number("dpi", { min: 1, max: 2400 }) ?? 96;
  return {
    MapName: frame.name,
    LayerIDs: layerIds,
    LegendPatch: { Width: width, Height: height, ImageDPI: dpi },
    ImageType: { ImageFormat: "png32", ImageReturnType: "MimeData" },
  };
}

/** The name of a swatch image: a digest of its bytes (32 hex digits, like ArcGIS's). */
async function imageName(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as BufferSource));
  return [...digest.slice(0, 16)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The `values` of each legend class of a layer (unique-value classes only), in class order. */
function classValues(frame: MapFrame, layerId: number): (string[] | undefined)[] {
  const r = frame.layers.find((l) => l.id === layerId)!.renderer;
  if (r.type !== "uniqueValue") return [];
  return r.values.map((v) => [String(v.value)]);
}

interface Swatch {
  label: string;
  bytes: Uint8Array;
  contentType: string;
  height: number;
  width: number;
  values?: string[];
}

function swatches(frame: MapFrame, info: LegendInfo): Swatch[] {
  const values = classValues(frame, info.layerId);
  return info.groups.flatMap((g) => g.classes).map((c, i) => ({
    label: c.label,
    // The request asks for data (legendRequest), so every swatch has its bytes.
    bytes: c.image.data!,
    contentType: c.image.mime,
    height: c.image.heightPx,
    width: c.image.widthPx,
    ...(values[i] ? { values: values[i] } : {}),
  }));
}

/**
 * GetLegendInfo results as the ArcGIS REST legend.
 *
 * @example
 * ```ts ignore
 * await legendJson(frame, await DRAW_OPERATIONS.GetLegendInfo(req, ctx));
 * ```
 */
export async function legendJson(
  frame: MapFrame,
  infos: LegendInfo[],
  patch: GetLegendInfoRequest["LegendPatch"] = DEFAULT_PATCH,
) {
  const suffix = patchSuffix(patch);
  const layers = [];
  for (const info of infos) {
    const layer = frame.layers.find((l) => l.id === info.layerId)!;
    const legend = [];
    for (const s of swatches(frame, info)) {
      legend.push({
        label: s.label,
        url: await imageName(s.bytes) + suffix,
        imageData: Buffer.from(s.bytes).toString("base64"),
        contentType: s.contentType,
        height: s.height,
        width: s.width,
        ...(s.values ? { values: s.values } : {}),
      });
    }
    layers.push({
      layerId: layer.id,
      layerName: layer.name,
      layerType: "Feature Layer",
      minScale: layer.minScale,
      maxScale: layer.maxScale,
      legend,
    });
  }
  return { layers };
}

async function legendInfos(call: RestCall, layerIds: number[] = [], params = call.params) {
  const service = serviceOf(call);
  const frame = frameOf(call, service);
  const req = legendRequest(params, frame, layerIds);
  return {
    frame,
    patch: req.LegendPatch,
    infos: await DRAW_OPERATIONS.GetLegendInfo(req, operationContext(call, service)),
  };
}

const DEFAULT_PATCH = { Width: 15, Height: 15, ImageDPI: 96 };

/**
 * What a swatch's image name adds to its digest when the legend was asked
 * for at another size or dpi ("-30x30-192"), so that the image URL a client
 * builds from it (without the legend's query string) finds the same swatch.
 */
function patchSuffix(p: GetLegendInfoRequest["LegendPatch"]): string {
  const { Width: w, Height: h, ImageDPI: dpi } = { ...DEFAULT_PATCH, ...p };
  return w === DEFAULT_PATCH.Width && h === DEFAULT_PATCH.Height && dpi === DEFAULT_PATCH.ImageDPI
    ? ""
    : `-${w}x${h}-${dpi}`;
}

/** The legend endpoint. */
export const LEGEND_ENDPOINT: RestEndpoint = {
  path: "/services/:service/MapServer/legend",
  title: (call) => `${call.path.service} (MapServer): legend`,
  async handle(call) {
    const { frame, infos, patch } = await legendInfos(call);
    return legendJson(frame, infos, patch);
  },
};

/** A legend swatch by the `url` the legend gave it: the image itself, whatever `f` says. */
export const LEGEND_IMAGE_ENDPOINT: RestEndpoint = {
  path: "/services/:service/MapServer/:layer(\\d+)/images/:image",
  formats: ["image"],
  async handle(call) {
    const service = serviceOf(call);
    const layer = layerOf(call, frameOf(call, service));
    // "{digest}" or "{digest}-{w}x{h}-{dpi}" (patchSuffix), optionally ".png".
    const name = /^([0-9a-f]+)(?:-([\d.]+)x([\d.]+)-([\d.]+))?(?:\.png)?$/i.exec(call.path.image);
    const sized = name?.[2]
      ? new RestParams(new URLSearchParams({ size: `${name[2]},${name[3]}`, dpi: name[4] }))
      : call.params;
    const { frame, infos } = await legendInfos(call, [layer.id], sized);
    const wanted = name?.[1].toLowerCase();
    for (const s of infos.flatMap((i) => swatches(frame, i))) {
      if (await imageName(s.bytes) === wanted) return new RestFile(s.contentType, s.bytes);
    }
    throw new RestError(404, `Layer ${layer.id} has no legend image '${call.path.image}'.`, [
      "The legend names its images in each entry's 'url' (for the same size and dpi).",
    ]);
  },
};
