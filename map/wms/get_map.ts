/**
 * GetMap: the map image of a box, drawn by the same ExportMapImage
 * operation the REST export and SOAP call, with the box drawn exactly
 * (stretched over WIDTH x HEIGHT, as WMS asks; a box of the image's aspect
 * gives the export's pixels). FORMAT `image/png` is a 32-bit PNG,
 * `image/png8` (or `image/png; mode=8bit`) a palette PNG, and `image/jpeg`,
 * `image/gif`; TRANSPARENT=TRUE clears the background to transparent,
 * BGCOLOR (0xRRGGBB) replaces the map's background colour.
 *
 * With EXCEPTIONS=INIMAGE (1.1.1: `application/vnd.ogc.se_inimage`) an
 * error after the image's size and format are known is drawn into an image
 * of that size; with BLANK (`application/vnd.ogc.se_blank`) the answer is
 * an empty image.
 *
 * @module
 */
import type { ExportMapImageRequest, OutputFormat } from "../ops/mod.ts";
import { DRAW_OPERATIONS, serviceLimits } from "../ops/mod.ts";
import type { Rgba } from "../document/renderer.ts";
import { asWmsError, WmsError } from "./_exception.ts";
import { imageDisplay, mapDescription, mapView, type WmsCall } from "./_map_request.ts";
import type { WmsReply } from "./reply.ts";

/** GetMap formats and the image format each is drawn in. */
export const MAP_FORMATS: Readonly<Record<string, OutputFormat>> = {
  "image/png": "png32",
  "image/png8": "png8",
  "image/jpeg": "jpg",
  "image/gif": "gif",
};

/** Other names clients send for the formats above. */
const FORMAT_ALIASES: Readonly<Record<string, string>> = {
  "image/png;mode=8bit": "image/png8",
  "image/png;mode=32bit": "image/png",
  "image/png;mode=24bit": "image/png",
  "png": "image/png",
  "png8": "image/png8",
  "image/jpg": "image/jpeg",
  "jpeg": "image/jpeg",
  "jpg": "image/jpeg",
  "gif": "image/gif",
};

/**
 * The image format of a FORMAT value; InvalidFormat for one not offered.
 *
 * @example
 * ```ts
 * mapFormat("image/png; mode=8bit"); // { mime: "image/png8", format: "png8" }
 * ```
 */
export function mapFormat(text: string, name = "FORMAT"): { mime: string; format: OutputFormat } {
  const key = text.trim().toLowerCase().replace(/\s+/g, "");
  const mime = FORMAT_ALIASES[key] ?? key;
  const format = MAP_FORMATS[mime];
  if (!format) {
    throw new WmsError(
      "InvalidFormat",
      `${name} "${text}" is not offered; use one of ${Object.keys(MAP_FORMATS).join(", ")}.`,
      name,
    );
  }
  return { mime, format };
}

/** How errors are answered: an exception report, drawn into the image, or a blank image. */
type ExceptionMode = "xml" | "inimage" | "blank";

function exceptionMode(text: string | undefined): ExceptionMode {
  const t = (text ?? "").trim().toLowerCase();
  if (t === "" || t === "xml" || t === "application/vnd.ogc.se_xml") return "xml";
  if (t === "inimage" || t === "application/vnd.ogc.se_inimage") return "inimage";
  if (t === "blank" || t === "application/vnd.ogc.se_blank") return "blank";
  throw new WmsError(
    "InvalidParameterValue",
    `EXCEPTIONS "${text}" is not offered; use XML, INIMAGE or BLANK.`,
    "EXCEPTIONS",
  );
}

function booleanParam(text: string | undefined, name: string): boolean {
  const t = (text ?? "FALSE").trim().toUpperCase();
  if (t === "TRUE") return true;
  if (t === "FALSE" || t === "") return false;
  throw new WmsError(
    "InvalidParameterValue",
    `${name} must be TRUE or FALSE, not "${text}".`,
    name,
  );
}

function colorParam(text: string | undefined): [number, number, number] | undefined {
  if (text === undefined || text.trim() === "") return undefined;
  const m = /^(?:0x|#)?([0-9a-f]{6})$/i.exec(text.trim());
  if (!m) {
    throw new WmsError(
      "InvalidParameterValue",
      `BGCOLOR must be a colour as 0xRRGGBB, not "${text}".`,
      "BGCOLOR",
    );
  }
  const n = parseInt(m[1], 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/**
 * Answers GetMap.
 *
 * @example
 * ```ts ignore
 * const reply = await getMap(call); // reply.contentType: "image/png"
 * ```
 */
export async function getMap(call: WmsCall): Promise<WmsReply> {
  const p = call.params;
  const mode = exceptionMode(p.get("EXCEPTIONS"));
  const { mime, format } = mapFormat(p.required("FORMAT", "the image format (e.g. image/png)"));
  const transparent = booleanParam(p.get("TRANSPARENT"), "TRANSPARENT");
  const bg = colorParam(p.get("BGCOLOR")) ?? call.frame.backgroundColor;
  const background: Rgba = [bg[0], bg[1], bg[2], transparent ? 0 : 255];
  try {
    const view = mapView(call);
    const req: ExportMapImageRequest = {
      MapDescription: {
        ...mapDescription(call.frame, view),
        DrawOrder: view.layerIds,
        BackgroundColor: background,
      },
      ImageDescription: {
        ImageDisplay: imageDisplay(view),
        ImageType: { ImageFormat: format, ImageReturnType: "MimeData" },
      },
    };
    const image = await DRAW_OPERATIONS.ExportMapImage(req, call.ctx);
    return { status: 200, contentType: image.mime, body: image.data! };
  } catch (caught) {
    const e = asWmsError(caught);
    if (mode === "xml" || !e) throw caught;
    // The image the client asked for, as far as it can be known.
    const limits = serviceLimits(call.service);
    const size = (name: string, max: number) => {
      const n = Number(p.get(name));
      return Number.isInteger(n) && n >= 1 && n <= max ? n : 256;
    };
    const image = await call.ctx.renderer.run({
      kind: "message",
      spec: {
        widthPx: size("WIDTH", limits.maxImageWidth),
        heightPx: size("HEIGHT", limits.maxImageHeight),
        text: mode === "inimage" ? `${e.code ?? "Error"}: ${e.message}` : "",
        background: transparent ? null : [bg[0], bg[1], bg[2], 255],
        format,
      },
    });
    return { status: 200, contentType: image.mime || mime, body: image.bytes };
  }
}
