/**
 * The drawing operations: ExportMapImage, ExportScaleBar, GetLegendInfo(2)
 * and the tile-cache operations (GetTileCacheInfo, HasSingleFusedMapCache,
 * GetMapTile, HasLayerCache, GetLayerTile, GetVirtualCacheDirectory,
 * GetCacheName, GetTileImageInfo, GetCacheControlInfo).
 *
 * Requests are turned into plain render jobs here (map state from
 * `_query_map_state.ts`, so every operation agrees on extent and scale)
 * and drawn by the shared renderer (a worker pool when configured).
 *
 * @module
 */
import type { Rgba, SymbolSpec } from "../document/renderer.ts";
import { esriSpatialReference } from "../geo/projection.ts";
import { parseWhere, WhereClauseError } from "../query/mod.ts";
import {
  colorFromSoap,
  extensionOf,
  type Graphic,
  imageTypeFromSoap,
  type ImageTypeSpec,
  type LayerOverride,
  type OutputFormat,
  patchPixels,
  type PatchSpec,
  RenderBusyError,
  rendererOf,
  scaleBarFromSoap,
  sharedRenderer,
  symbolFromSoap,
  textStyleFromSoap,
  toRenderMap,
  writeOutput,
} from "../render/mod.ts";
import { rendererClasses } from "../document/renderer.ts";
import { SoapFault } from "../soap/fault.ts";
import type {
  MapFrame,
  MapService,
  OperationContext,
  OperationHandler,
} from "../soap/operation.ts";
import type { Geometry } from "../types.ts";
import { envelopeToSoap, geometryFromSoap, type SoapObject } from "./_geometry_xml.ts";
import { asClientFault, findLayer, findMap, mapStateFrom, toWkid } from "./_query_map_state.ts";
import { serviceLimits } from "./metadata.ts";
import { TILE_OPERATIONS } from "./_draw_tiles.ts";

function isObject(v: unknown): v is SoapObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Runs a render job, turning renderer errors into faults a client can act on. */
async function render<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof RenderBusyError) throw new SoapFault("Server", e.message);
    if (e instanceof RangeError || (e instanceof Error && e.name === "RangeError")) {
      throw new SoapFault("Client", (e as Error).message);
    }
    if (e instanceof Error && e.name === "UnsupportedFormatError") {
      throw new SoapFault("Client", e.message);
    }
    throw e;
  }
}

/** Width/height/DPI of an ImageDisplay, checked against the service's image limits before drawing. */
function imageSize(
  service: MapService,
  display: unknown,
  what: string,
  fallback?: { w: number; h: number },
): { w: number; h: number; dpi: number } {
  const d = isObject(display) ? display : {};
  let w = d.ImageWidth, h = d.ImageHeight;
  if ((w === undefined || w === 0) && (h === undefined || h === 0) && fallback) {
    ({ w, h } = fallback);
  }
  if (
    typeof w !== "number" || typeof h !== "number" || !Number.isInteger(w) ||
    !Number.isInteger(h) || w <= 0 || h <= 0
  ) {
    throw new SoapFault(
      "Client",
      `${what}/ImageWidth and ImageHeight must be positive whole pixel counts.`,
    );
  }
  const lim = serviceLimits(service);
  if (w > lim.maxImageWidth || h > lim.maxImageHeight) {
    throw new SoapFault(
      "Client",
      `The requested image of ${w} x ${h} pixels is larger than this service allows ` +
        `(MaximumImageWidth ${lim.maxImageWidth}, MaximumImageHeight ${lim.maxImageHeight}); ask for a smaller image.`,
      { ImageWidth: w, ImageHeight: h },
    );
  }
  const dpi = typeof d.ImageDPI === "number" && d.ImageDPI > 0 ? Math.min(d.ImageDPI, 2400) : 96;
  return { w, h, dpi };
}

/** ImageData or ImageURL of an encoded image, per the ImageType's return type. */
async function imagePayload(
  ctx: OperationContext,
  type: ImageTypeSpec,
  kind: "map" | "leg" | "sb",
  bytes: Uint8Array,
  mime: string,
): Promise<{ ImageData?: Uint8Array; ImageURL: string }> {
  if (!type.returnUrl) return { ImageData: bytes, ImageURL: "" };
  const name = await writeOutput(ctx.outputDir, kind, extensionOf(mime), bytes);
  return { ImageURL: `${ctx.outputUrl}/${name}` };
}

const DEFAULT_GRAPHIC_SYMBOLS: Record<string, SymbolSpec> = {
  marker: {
    type: "simple-marker",
    style: "circle",
    color: [0, 0, 0, 255],
    size: 8,
    angle: 0,
    xoffset: 0,
    yoffset: 0,
  },
  line: { type: "simple-line", style: "solid", color: [0, 0, 0, 255], width: 1 },
  fill: {
    type: "simple-fill",
    style: "solid",
    color: [128, 128, 128, 255],
    outline: { type: "simple-line", style: "solid", color: [0, 0, 0, 255], width: 1 },
  },
};

function ellipse(e: { xmin: number; ymin: number; xmax: number; ymax: number }): Geometry {
  const cx = (e.xmin + e.xmax) / 2,
    cy = (e.ymin + e.ymax) / 2,
    rx = (e.xmax - e.xmin) / 2,
    ry = (e.ymax - e.ymin) / 2;
  const ring: [number, number][] = [];
  for (let i = 0; i <= 72; i++) {
    const t = (i / 72) * 2 * Math.PI;
    ring.push([cx + rx * Math.cos(t), cy + ry * Math.sin(t)]);
  }
  return { type: "Polygon", rings: [ring] };
}

/** CustomGraphics elements as render graphics in the output spatial reference. */
function graphicsFromSoap(elements: unknown, wkid: number, depth = 0): Graphic[] {
  const out: Graphic[] = [];
  if (!Array.isArray(elements) || depth > 8) return out;
  elements.forEach((el, i) => {
    if (!isObject(el)) return;
    const what = `CustomGraphics[${i}]`;
    const geom = (v: unknown, name: string) => {
      const g = geometryFromSoap(v, `${what}/${name}`);
      return toWkid(g.geometry, g.wkid, wkid);
    };
    switch (el.$type) {
      case "GroupElement":
        out.push(...graphicsFromSoap(el.Elements, wkid, depth + 1));
        break;
      case "MarkerElement":
        out.push({
          kind: "shape",
          geometry: geom(el.Point, "Point"),
          symbol: symbolFromSoap(el.Symbol, DEFAULT_GRAPHIC_SYMBOLS.marker, what),
        });
        break;
      case "LineElement":
        out.push({
          kind: "shape",
          geometry: geom(el.Line, "Line"),
          symbol: symbolFromSoap(el.Symbol, DEFAULT_GRAPHIC_SYMBOLS.line, what),
        });
        break;
      case "PolygonElement":
      case "RectangleElement": {
        const g = geom(
          el.$type === "PolygonElement" ? el.Polygon : el.Rectangle,
          el.$type === "PolygonElement" ? "Polygon" : "Rectangle",
        );
        out.push({
          kind: "shape",
          geometry: g,
          symbol: symbolFromSoap(el.Symbol, DEFAULT_GRAPHIC_SYMBOLS.fill, what),
        });
        break;
      }
      case "CircleElement":
      case "EllipseElement": {
        const g = geom(el.Rectangle, "Rectangle");
        const e = g.type === "Envelope" ? g : null;
        if (!e) throw new SoapFault("Client", `${what}/Rectangle must be an EnvelopeN.`);
        out.push({
          kind: "shape",
          geometry: ellipse(e),
          symbol: symbolFromSoap(el.Symbol, DEFAULT_GRAPHIC_SYMBOLS.fill, what),
        });
        break;
      }
      case "TextElement":
      case "ParagraphTextElement": {
        const g = geom(el.TextGeometry, "TextGeometry");
        const e = g.type === "Point" ? { x: g.x, y: g.y } : (() => {
          const pts = g.type === "Envelope"
            ? [[g.xmin, g.ymin], [g.xmax, g.ymax]]
            : g.type === "Polygon"
            ? g.rings.flat()
            : g.type === "Polyline"
            ? g.paths.flat()
            : g.points;
          const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
          return {
            x: (Math.min(...xs) + Math.max(...xs)) / 2,
            y: (Math.min(...ys) + Math.max(...ys)) / 2,
          };
        })();
        const style = textStyleFromSoap(el.Symbol, { color: [0, 0, 0, 255], sizePt: 10 });
        const text = typeof el.Text === "string"
          ? el.Text
          : isObject(el.Symbol) && typeof el.Symbol.Text === "string"
          ? el.Symbol.Text
          : "";
        if (text) out.push({ kind: "text", x: e.x, y: e.y, text: text.slice(0, 500), ...style });
        break;
      }
      default:
        throw new SoapFault(
          "Client",
          `${what}: graphic element ${String(el.$type ?? "(none)")} is not supported.`,
        );
    }
  });
  return out;
}

/** LayerDescription overrides with parsed definition expressions (faults on bad SQL). */
function layerOverrides(
  frame: MapFrame,
  descriptions: unknown,
  selectionColor: Rgba | null,
): LayerOverride[] {
  const out: LayerOverride[] = [];
  for (const d of Array.isArray(descriptions) ? descriptions : []) {
    if (!isObject(d) || typeof d.LayerID !== "number") continue;
    const layer = frame.layers.find((l) => l.id === d.LayerID);
    if (!layer) continue; // ArcGIS ignores descriptions of layers it does not have
    let where;
    try {
      where = parseWhere(
        typeof d.DefinitionExpression === "string" ? d.DefinitionExpression : "",
        layer.source.fields(),
      );
    } catch (e) {
      if (e instanceof WhereClauseError) {
        throw new SoapFault(
          "Client",
          `LayerDescription ${layer.id}: invalid DefinitionExpression: ${e.message}`,
        );
      }
      throw e;
    }
    const ids = intList(d.SelectionFeatures);
    out.push({
      id: layer.id,
      visible: typeof d.Visible === "boolean" ? d.Visible : undefined,
      showLabels: typeof d.ShowLabels === "boolean" ? d.ShowLabels : undefined,
      where,
      selection: ids.length
        ? {
          ids,
          color: colorFromSoap(d.SelectionColor, null) ?? selectionColor ?? [0, 255, 255, 255],
          symbol: d.SetSelectionSymbol === true && isObject(d.SelectionSymbol)
            ? symbolFromSoap(
              d.SelectionSymbol,
              DEFAULT_GRAPHIC_SYMBOLS.fill,
              `LayerDescription ${layer.id}/SelectionSymbol`,
            )
            : undefined,
        }
        : undefined,
    });
  }
  return out;
}

const exportMapImage: OperationHandler = async (req, ctx) => {
  const idesc = isObject(req.ImageDescription) ? req.ImageDescription : {};
  const size = imageSize(ctx.service, idesc.ImageDisplay, "ImageDescription/ImageDisplay");
  const type = imageTypeFromSoap(idesc.ImageType);
  const md = isObject(req.MapDescription) ? req.MapDescription : {};
  const state = mapStateFrom(ctx.service, md, {
    ImageWidth: size.w,
    ImageHeight: size.h,
    ImageDPI: size.dpi,
  }, {
    displayName: "ImageDescription/ImageDisplay",
    requireDisplay: true,
  });
  const display = state.display!;
  const imageDisplay = isObject(idesc.ImageDisplay) ? idesc.ImageDisplay : {};
  const bgSymbol = isObject(md.BackgroundSymbol) ? md.BackgroundSymbol : null;
  const background = bgSymbol ? colorFromSoap(bgSymbol.Color, null) : undefined;
  const transparent = colorFromSoap(md.TransparentColor, null) ??
    colorFromSoap(imageDisplay.TransparentColor, null);
  const result = await render(() =>
    sharedRenderer().run({
      kind: "map",
      service: ctx.service.name,
      map: state.frame.name,
      request: {
        extent: state.extent,
        wkid: state.wkid,
        widthPx: size.w,
        heightPx: size.h,
        dpi: size.dpi,
        rotation: display.rotation,
        background: background === null ? null : background ?? undefined,
        transparentColor: transparent ?? undefined,
        layers: layerOverrides(
          state.frame,
          md.LayerDescriptions,
          colorFromSoap(md.SelectionColor, null),
        ),
        graphics: asClientFault(() => graphicsFromSoap(md.CustomGraphics, state.wkid)),
        format: type.format,
      },
    }, () => toRenderMap(state.frame))
  );
  return {
    Result: {
      ...(await imagePayload(ctx, type, "map", result.bytes, result.mime)),
      Extent: envelopeToSoap(result.extent, esriSpatialReference(state.wkid)),
      VisibleLayerIDs: result.visibleLayerIds,
      MapScale: result.scale,
      ImageHeight: result.heightPx,
      ImageWidth: result.widthPx,
      ImageDPI: result.dpi,
      ImageType: result.mime,
    },
  };
};

const exportScaleBar: OperationHandler = async (req, ctx) => {
  const idesc = isObject(req.ImageDescription) ? req.ImageDescription : {};
  const size = imageSize(ctx.service, idesc.ImageDisplay, "ImageDescription/ImageDisplay", {
    w: 400,
    h: 50,
  });
  const type = imageTypeFromSoap(idesc.ImageType, "png32");
  const state = mapStateFrom(ctx.service, req.MapDescription, req.MapDisplay, {
    displayName: "MapDisplay",
    requireDisplay: true,
  });
  const spec = scaleBarFromSoap(req.ScaleBar);
  const background: Rgba | null = colorFromSoap(req.BackGroundColor, null);
  const img = await render(() =>
    sharedRenderer().run({
      kind: "scalebar",
      spec,
      opts: {
        mapScale: state.display!.scale,
        widthPx: size.w,
        heightPx: size.h,
        dpi: size.dpi,
        background,
        format: type.format,
      },
    })
  );
  return {
    Result: {
      ...(await imagePayload(ctx, type, "sb", img.bytes, img.mime)),
      ImageHeight: size.h,
      ImageWidth: size.w,
      ImageDPI: size.dpi,
      ImageType: img.mime,
    },
  };
};

function patchFromSoap(v: unknown, format: OutputFormat): PatchSpec {
  const p = isObject(v) ? v : {};
  const dim = (x: unknown, d: number) =>
    typeof x === "number" && x > 0 && Number.isFinite(x) ? x : d;
  return {
    widthPt: dim(p.Width, 15),
    heightPt: dim(p.Height, 15),
    dpi: Math.min(dim(p.ImageDPI, 96), 2400),
    format,
  };
}

/** Legend infos of `layerIds` (all layers when empty) as MapServerLegendInfo objects. */
async function legendInfos(
  ctx: OperationContext,
  frame: MapFrame,
  layerIds: number[],
  patchValue: unknown,
  imageType: unknown,
): Promise<SoapObject[]> {
  const type = imageTypeFromSoap(imageType, "png32");
  const patch = patchFromSoap(patchValue, type.format);
  const layers = layerIds.map((id) => findLayer(frame, id));
  const classes = layers.map((l) => rendererClasses(rendererOf(l)));
  const symbols = layers.flatMap((l, i) =>
    classes[i].map((c) => ({ symbol: c.symbol, transparency: rendererOf(l).transparency }))
  );
  const swatches = symbols.length
    ? await render(() => sharedRenderer().run({ kind: "swatches", symbols, patch }))
    : [];
  const { w, h } = patchPixels(patch);
  let k = 0;
  const out: SoapObject[] = [];
  for (const [i, layer] of layers.entries()) {
    const r = rendererOf(layer);
    const legendClasses: SoapObject[] = [];
    for (const c of classes[i]) {
      const s = swatches[k++];
      legendClasses.push({
        Label: c.label,
        Description: c.description,
        SymbolImage: {
          ...(await imagePayload(ctx, type, "leg", s.bytes, s.mime)),
          ImageHeight: h,
          ImageWidth: w,
          ImageDPI: patch.dpi,
          ImageType: s.mime,
        },
      });
    }
    out.push({
      LayerID: layer.id,
      Name: layer.name,
      LegendGroups: [{ Heading: r.type === "simple" ? "" : r.field, LegendClasses: legendClasses }],
    });
  }
  return out;
}

function intList(v: unknown): number[] {
  return Array.isArray(v)
    ? v.filter((x): x is number => typeof x === "number" && Number.isInteger(x))
    : [];
}

const getLegendInfo: OperationHandler = async (req, ctx) => {
  const frame = findMap(ctx.service, req.MapName);
  const ids = intList(req.LayerIDs);
  return {
    Result: await legendInfos(
      ctx,
      frame,
      ids.length ? ids : frame.layers.map((l) => l.id),
      req.LegendPatch,
      req.ImageType,
    ),
  };
};

const getLegendInfo2: OperationHandler = async (req, ctx) => {
  const state = mapStateFrom(ctx.service, req.MapDescription, req.MapImageDisplay, {
    displayName: "MapImageDisplay",
  });
  const ids = intList(req.LayerIDs);
  // Without explicit ids the legend shows what the described map draws: visible layers in scale range.
  const shown = ids.length ? ids : state.layers.filter((ls) =>
    ls.visible && (!state.display ||
      ((ls.layer.minScale <= 0 || state.display.scale <= ls.layer.minScale) &&
        (ls.layer.maxScale <= 0 || state.display.scale >= ls.layer.maxScale)))
  ).map((ls) => ls.layer.id);
  return { Result: await legendInfos(ctx, state.frame, shown, req.LegendPatch, req.ImageType) };
};

/** Handlers of the drawing and tile-cache operations. */
export const DRAW_OPERATIONS: Readonly<Record<string, OperationHandler>> = {
  ExportMapImage: exportMapImage,
  ExportScaleBar: exportScaleBar,
  GetLegendInfo: getLegendInfo,
  GetLegendInfo2: getLegendInfo2,
  ...TILE_OPERATIONS,
};
