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
import { RestParams } from "./params.ts";
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
  const { width, height } = params.size("size", {
    max: 500,
    what: "of a swatch in points",
    example: "15,15",
  }) ?? { width: 15, height: 15 };
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
  /** The digest naming the image (its `url` without the size suffix). */
  digest: string;
}

/** The swatches of one layer's legend, each kept in the call's cache for its image request. */
async function swatches(call: RestCall, drawn: DrawnLegend, info: LegendInfo): Promise<Swatch[]> {
  const values = classValues(drawn.frame, info.layerId);
  const out: Swatch[] = [];
  for (const [i, c] of info.groups.flatMap((g) => g.classes).entries()) {
    // The request asks for data (legendRequest), so every swatch has its bytes.
    const bytes = c.image.data!;
    const digest = await imageName(bytes);
    call.swatches.put(
      { service: drawn.service, frame: drawn.frame, layerId: info.layerId, digest },
      { contentType: c.image.mime, bytes },
    );
    out.push({
      label: c.label,
      bytes,
      contentType: c.image.mime,
      height: c.image.heightPx,
      width: c.image.widthPx,
      ...(values[i] ? { values: values[i] } : {}),
      digest,
    });
  }
  return out;
}

/** Legend infos drawn for a call, with what they were drawn for. */
interface DrawnLegend {
  service: string;
  frame: MapFrame;
  patch: GetLegendInfoRequest["LegendPatch"];
  infos: LegendInfo[];
}

/**
 * GetLegendInfo results as the ArcGIS REST legend.
 *
 * @example
 * ```ts ignore
 * await legendJson(call, await drawLegend(call));
 * ```
 */
export async function legendJson(call: RestCall, drawn: DrawnLegend) {
  const suffix = patchSuffix(drawn.patch);
  const layers = [];
  for (const info of drawn.infos) {
    const layer = drawn.frame.layers.find((l) => l.id === info.layerId)!;
    const legend = (await swatches(call, drawn, info)).map((s) => ({
      label: s.label,
      url: s.digest + suffix,
      imageData: Buffer.from(s.bytes).toString("base64"),
      contentType: s.contentType,
      height: s.height,
      width: s.width,
      ...(s.values ? { values: s.values } : {}),
    }));
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

/** Draws the legend of `layerIds` (all when empty) at the size and dpi `params` ask. */
async function drawLegend(
  call: RestCall,
  layerIds: number[] = [],
  params = call.params,
): Promise<DrawnLegend> {
  const service = serviceOf(call);
  const frame = frameOf(call, service);
  const req = legendRequest(params, frame, layerIds);
  return {
    service: service.name,
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
    return legendJson(call, await drawLegend(call));
  },
};

/**
 * A legend swatch by the `url` the legend gave it: the image itself,
 * whatever `f` says. Kept images answer at once; otherwise the layer's
 * legend is drawn once (at the size the name carries) and kept.
 */
export const LEGEND_IMAGE_ENDPOINT: RestEndpoint = {
  path: "/services/:service/MapServer/:layer(\\d+)/images/:image",
  formats: ["image"],
  async handle(call) {
    const service = serviceOf(call);
    const frame = frameOf(call, service);
    const layer = layerOf(call, frame);
    // "{digest}" or "{digest}-{w}x{h}-{dpi}" (patchSuffix), optionally ".png".
    const name = /^([0-9a-f]+)(?:-([\d.]+)x([\d.]+)-([\d.]+))?(?:\.png)?$/i.exec(call.path.image);
    if (name) {
      const key = { service: service.name, frame, layerId: layer.id, digest: name[1] };
      let image = call.swatches.get(key);
      if (!image) {
        const sized = name[2]
          ? new RestParams(new URLSearchParams({ size: `${name[2]},${name[3]}`, dpi: name[4] }))
          : call.params;
        const what = [service.name, frame.name, layer.id, sized.string("size"), sized.string("dpi")]
          .join("\n");
        await call.swatches.drawOnce(what, async () => {
          const drawn = await drawLegend(call, [layer.id], sized);
          await Promise.all(drawn.infos.map((i) => swatches(call, drawn, i)));
        });
        image = call.swatches.get(key);
      }
      if (image) return new RestFile(image.contentType, image.bytes);
    }
    throw new RestError(404, `Layer ${layer.id} has no legend image '${call.path.image}'.`, [
      "The legend names its images in each entry's 'url' (for the same size and dpi).",
    ]);
  },
};
