/**
 * The drawing operations: ExportMapImage, ExportScaleBar, GetLegendInfo(2)
 * and the tile-cache operations (GetTileCacheInfo, HasSingleFusedMapCache,
 * GetMapTile, HasLayerCache, GetLayerTile, GetVirtualCacheDirectory,
 * GetCacheName, GetTileImageInfo, GetCacheControlInfo).
 *
 * Requests are turned into plain render jobs here (map state from
 * `_query_map_state.ts`, so every operation agrees on extent and scale)
 * and drawn by the server's renderer (`ctx.renderer`, a worker pool or in process).
 *
 * @module
 */
import { rendererClasses } from "../document/renderer.ts";
import {
  defaultScaleBar,
  extensionOf,
  groundScale,
  type OutputFormat,
  patchPixels,
  type PatchSpec,
} from "../render/mod.ts";
import { InvalidRequestError, member, type RequestMember, say } from "../errors.ts";
import { imageDpi } from "./_image_dpi.ts";
import type {
  ExportMapImageRequest,
  ExportScaleBarRequest,
  GetLegendInfo2Request,
  GetLegendInfoRequest,
  ImageDisplay,
  ImageResult,
  ImageType,
  LegendClassInfo,
  LegendInfo,
  LegendPatch,
  MapFrame,
  MapImageResult,
  MapService,
  Operation,
  OperationContext,
} from "./types.ts";
import { findLayer, findMap, isLayerVisible, mapStateFrom } from "./_query_map_state.ts";
import { serviceLimits } from "./metadata.ts";
import { graphicsOf, layerOverrides } from "./_draw_request.ts";

/** Width/height/DPI of an ImageDisplay, checked against the service's image limits before drawing. */
function imageSize(
  service: MapService,
  display: ImageDisplay | undefined,
  within: RequestMember,
  fallback?: { w: number; h: number },
): { w: number; h: number; dpi: number } {
  const d = display ?? {};
  let w = d.ImageWidth ?? 0, h = d.ImageHeight ?? 0;
  if (w === 0 && h === 0 && fallback) ({ w, h } = fallback);
  if (!Number.isInteger(w) || !Number.isInteger(h) || w <= 0 || h <= 0) {
    throw new InvalidRequestError(
      say`${member("imageSize", { within })} must be positive whole pixel counts.`,
    );
  }
  const lim = serviceLimits(service);
  if (w > lim.maxImageWidth || h > lim.maxImageHeight) {
    throw new InvalidRequestError(
      `The requested image of ${w} x ${h} pixels is larger than this service allows ` +
        `(MaximumImageWidth ${lim.maxImageWidth}, MaximumImageHeight ${lim.maxImageHeight}); ask for a smaller image.`,
      { ImageWidth: w, ImageHeight: h },
    );
  }
  const dpi = imageDpi(d.ImageDPI, within);
  return { w, h, dpi };
}

/** What an ImageType asks for, defaults applied. */
interface ImageTypeSpec {
  format: OutputFormat;
  returnUrl: boolean;
}

/** An ImageType with the operation's default format; data unless a URL is asked for. */
function imageTypeOf(type: ImageType | undefined, fallback: OutputFormat): ImageTypeSpec {
  return { format: type?.ImageFormat ?? fallback, returnUrl: type?.ImageReturnType === "URL" };
}

/** The bytes or the URL of an encoded image, per the ImageType's return type. */
async function imagePayload(
  ctx: OperationContext,
  type: ImageTypeSpec,
  kind: "map" | "leg" | "sb",
  bytes: Uint8Array,
  mime: string,
): Promise<{ data?: Uint8Array; url: string }> {
  if (!type.returnUrl) return { data: bytes, url: "" };
  const name = await ctx.output.write(ctx.outputDir, kind, extensionOf(mime), bytes);
  return { url: `${ctx.outputUrl}/${name}` };
}

/** The drawing operations by their ArcGIS names, each with its request and result type. */
export interface DrawOperations {
  ExportMapImage: Operation<ExportMapImageRequest, MapImageResult>;
  ExportScaleBar: Operation<ExportScaleBarRequest, ImageResult>;
  GetLegendInfo: Operation<GetLegendInfoRequest, LegendInfo[]>;
  GetLegendInfo2: Operation<GetLegendInfo2Request, LegendInfo[]>;
}

const exportMapImage: DrawOperations["ExportMapImage"] = async (req, ctx) => {
  const idesc = req.ImageDescription;
  const size = imageSize(ctx.service, idesc.ImageDisplay, "exportImage");
  const type = imageTypeOf(idesc.ImageType, "png8");
  const md = req.MapDescription;
  const state = mapStateFrom(ctx.service, md, {
    ImageWidth: size.w,
    ImageHeight: size.h,
    ImageDPI: size.dpi,
    Stretch: idesc.ImageDisplay?.Stretch,
  }, {
    displayName: "exportImage",
    requireDisplay: true,
  });
  const display = state.display!;
  const transparent = md.TransparentColor ?? idesc.ImageDisplay?.TransparentColor;
  const result = await ctx.renderer.run({
    kind: "map",
    service: ctx.service.name,
    map: state.frame.name,
    request: {
      extent: state.extent,
      ...(idesc.ImageDisplay?.Stretch ? { stretch: true } : {}),
      wkid: state.wkid,
      widthPx: size.w,
      heightPx: size.h,
      dpi: size.dpi,
      rotation: display.rotation,
      background: md.BackgroundColor,
      transparentColor: transparent,
      layers: layerOverrides(state.frame, md.LayerDescriptions, md.SelectionColor),
      ...(md.DrawOrder
        ? { drawOrder: md.DrawOrder.map((id) => findLayer(state.frame, id).id) }
        : {}),
      graphics: graphicsOf(md.CustomGraphics, state.wkid),
      format: type.format,
    },
  }, () => state.frame);
  return {
    ...(await imagePayload(ctx, type, "map", result.bytes, result.mime)),
    widthPx: result.widthPx,
    heightPx: result.heightPx,
    dpi: result.dpi,
    mime: result.mime,
    extent: result.extent,
    wkid: state.wkid,
    visibleLayerIds: result.visibleLayerIds,
    scale: result.scale,
  };
};

const exportScaleBar: DrawOperations["ExportScaleBar"] = async (req, ctx) => {
  const idesc = req.ImageDescription;
  const size = imageSize(ctx.service, idesc.ImageDisplay, "exportImage", {
    w: 400,
    h: 50,
  });
  const type = imageTypeOf(idesc.ImageType, "png32");
  const state = mapStateFrom(ctx.service, req.MapDescription, req.MapDisplay, {
    displayName: "mapDisplay",
    requireDisplay: true,
  });
  const spec = req.ScaleBar ?? defaultScaleBar();
  const background = req.BackGroundColor ?? null;
  const img = await ctx.renderer.run({
    kind: "scalebar",
    spec,
    opts: {
      mapScale: groundScale(state.display!, state.wkid),
      widthPx: size.w,
      heightPx: size.h,
      dpi: size.dpi,
      background,
      format: type.format,
    },
  });
  return {
    ...(await imagePayload(ctx, type, "sb", img.bytes, img.mime)),
    widthPx: size.w,
    heightPx: size.h,
    dpi: size.dpi,
    mime: img.mime,
  };
};

/** A legend patch's size and DPI with the defaults (15 x 15 points at 96 DPI). */
function patchOf(v: LegendPatch | undefined, format: OutputFormat): PatchSpec {
  const p = v ?? {};
  const dim = (x: number | undefined, d: number) =>
    x !== undefined && x > 0 && Number.isFinite(x) ? x : d;
  return {
    widthPt: dim(p.Width, 15),
    heightPt: dim(p.Height, 15),
    dpi: Math.min(dim(p.ImageDPI, 96), 2400),
    format,
  };
}

/** Legend infos of `layerIds`, each layer once. */
async function legendInfos(
  ctx: OperationContext,
  frame: MapFrame,
  layerIds: number[],
  patchValue: LegendPatch | undefined,
  imageType: ImageType | undefined,
): Promise<LegendInfo[]> {
  const type = imageTypeOf(imageType, "png32");
  const patch = patchOf(patchValue, type.format);
  // Each layer once, whatever the request repeats.
  const layers = [...new Set(layerIds)].map((id) => findLayer(frame, id));
  const classes = layers.map((l) => rendererClasses(l.renderer));
  const symbols = layers.flatMap((l, i) =>
    classes[i].map((c) => ({ symbol: c.symbol, transparency: l.renderer.transparency }))
  );
  const swatches = symbols.length
    ? await ctx.renderer.run({ kind: "swatches", symbols, patch })
    : [];
  const { w, h } = patchPixels(patch);
  let k = 0;
  const out: LegendInfo[] = [];
  for (const [i, layer] of layers.entries()) {
    const r = layer.renderer;
    const legendClasses: LegendClassInfo[] = [];
    for (const c of classes[i]) {
      const s = swatches[k++];
      legendClasses.push({
        label: c.label,
        description: c.description,
        image: {
          ...(await imagePayload(ctx, type, "leg", s.bytes, s.mime)),
          widthPx: w,
          heightPx: h,
          dpi: patch.dpi,
          mime: s.mime,
        },
      });
    }
    out.push({
      layerId: layer.id,
      name: layer.name,
      groups: [{ heading: r.type === "simple" ? "" : r.field, classes: legendClasses }],
    });
  }
  return out;
}

const getLegendInfo: DrawOperations["GetLegendInfo"] = (req, ctx) => {
  const frame = findMap(ctx.service, req.MapName);
  const ids = req.LayerIDs;
  return legendInfos(
    ctx,
    frame,
    ids.length ? ids : frame.layers.map((l) => l.id),
    req.LegendPatch,
    req.ImageType,
  );
};

const getLegendInfo2: DrawOperations["GetLegendInfo2"] = (req, ctx) => {
  const state = mapStateFrom(ctx.service, req.MapDescription, req.MapImageDisplay, {
    displayName: "mapImage",
  });
  const ids = req.LayerIDs;
  // Without explicit ids the legend shows what the described map draws: visible layers in scale range.
  const shown = ids.length
    ? ids
    : state.layers.filter((ls) => isLayerVisible(state, ls)).map((ls) => ls.layer.id);
  return legendInfos(ctx, state.frame, shown, req.LegendPatch, req.ImageType);
};

/**
 * The drawing operations: map images, scale bars and legends.
 *
 * @example
 * ```ts ignore
 * const image = await DRAW_OPERATIONS.ExportMapImage({ MapDescription, ImageDescription }, ctx);
 * ```
 */
export const DRAW_OPERATIONS: DrawOperations = {
  ExportMapImage: exportMapImage,
  ExportScaleBar: exportScaleBar,
  GetLegendInfo: getLegendInfo,
  GetLegendInfo2: getLegendInfo2,
};

export { TILE_OPERATIONS, type TileOperations } from "./_draw_tiles.ts";
