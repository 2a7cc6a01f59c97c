/**
 * Image formats: which `esriImageFormat` values we produce, and the
 * encoders (our PNG encoder, JPEG through CanvasKit's full build, BMP and
 * TIFF written directly).
 *
 * @module
 */
import type { Rgba } from "../document/renderer.ts";
import { InvalidRequestError } from "../errors.ts";
import { type Kit, RenderMemoryError, scratchOf } from "./_canvaskit.ts";
import { encodePng } from "./png.ts";
import { everyAlpha } from "./_stamp.ts";
import { encodeGif } from "./gif.ts";

/** Formats the renderer writes. */
export type OutputFormat = "png8" | "png24" | "png32" | "jpg" | "jpgpng" | "bmp" | "tiff" | "gif";

/** esriImageFormat values and what we do with them (null: refused). */
const ESRI_FORMATS: Readonly<Record<string, OutputFormat | null>> = {
  esriImagePNG: "png8",
  esriImagePNG24: "png24",
  esriImagePNG32: "png32",
  esriImageJPG: "jpg",
  esriImageJPGPNG: "jpgpng",
  esriImageBMP: "bmp",
  esriImageDIB: "bmp",
  esriImageTIFF: "tiff",
  esriImageGIF: "gif",
  esriImageNone: null,
  esriImageEMF: null,
  esriImagePS: null,
  esriImagePDF: null,
  esriImageAI: null,
  esriImageSVG: null,
};

/** The esriImageFormat values this server can produce (for SupportedImageFormatTypes). */
export const SUPPORTED_ESRI_FORMATS: readonly string[] = Object.keys(ESRI_FORMATS).filter((k) =>
  ESRI_FORMATS[k] !== null
);

/** Raised for a format we cannot or will not produce; the message names the alternatives. */
export class UnsupportedFormatError extends InvalidRequestError {
  /** Creates the error for an esriImageFormat value or tile format name. */
  constructor(format: string) {
    super(
      `Image format '${format}' is not supported by this server. Use one of ` +
        `${
          SUPPORTED_ESRI_FORMATS.join(", ")
        } (vector formats such as PDF, SVG, EMF, PS and AI are not produced).`,
    );
    this.name = "UnsupportedFormatError";
  }
}

/**
 * The output format for an esriImageFormat value (empty or missing means
 * PNG, ArcGIS's default); throws {@link UnsupportedFormatError}.
 *
 * @example
 * ```ts
 * formatFromEsri("esriImagePNG32"); // "png32"
 * ```
 */
export function formatFromEsri(value: string | undefined): OutputFormat {
  if (value === undefined || value === "") return "png8";
  const f = ESRI_FORMATS[value];
  if (!f) throw new UnsupportedFormatError(value);
  return f;
}

/**
 * The output format for a tile/file extension (`png`, `png8`, `png24`,
 * `png32`, `jpg`, `jpeg`, `mixed`); throws {@link UnsupportedFormatError}.
 *
 * @example
 * ```ts
 * formatFromName("jpg"); // "jpg"
 * ```
 */
export function formatFromName(name: string): OutputFormat {
  const n = name.toLowerCase().replace(/^\./, "");
  const map: Record<string, OutputFormat> = {
    png: "png8",
    png8: "png8",
    png24: "png24",
    png32: "png32",
    jpg: "jpg",
    jpeg: "jpg",
    mixed: "jpgpng",
    jpgpng: "jpgpng",
    bmp: "bmp",
    tif: "tiff",
    tiff: "tiff",
    gif: "gif",
  };
  const f = map[n];
  if (!f) throw new UnsupportedFormatError(name);
  return f;
}

/** MIME type of a format (JPGPNG resolves per image, see {@link encodeImage}). */
export function mimeOf(format: Exclude<OutputFormat, "jpgpng">): string {
  switch (format) {
    case "jpg":
      return "image/jpeg";
    case "bmp":
      return "image/bmp";
    case "tiff":
      return "image/tiff";
    case "gif":
      return "image/gif";
    default:
      return "image/png";
  }
}

/**
 * Every image type this server writes for URL returns: its MIME type and
 * the extension of its file. The one table both the writer (the file's
 * name) and the file route (its `Content-Type`) read, so they cannot
 * disagree. SVG, PDF and EMF are not drawn (requests for them fault).
 */
export const IMAGE_FILE_TYPES: readonly { mime: string; ext: string }[] = [
  { mime: "image/png", ext: "png" },
  { mime: "image/jpeg", ext: "jpg" },
  { mime: "image/gif", ext: "gif" },
  { mime: "image/bmp", ext: "bmp" },
  { mime: "image/tiff", ext: "tif" },
];

/**
 * File extension of a MIME type we write.
 *
 * @example
 * ```ts
 * extensionOf("image/gif"); // "gif"
 * ```
 */
export function extensionOf(mime: string): string {
  const t = IMAGE_FILE_TYPES.find((t) => t.mime === mime);
  if (!t) throw new Error(`No file extension is known for ${mime} images.`);
  return t.ext;
}

/**
 * MIME type of a file extension we write, or undefined.
 *
 * @example
 * ```ts
 * mimeOfExtension("tif"); // "image/tiff"
 * ```
 */
export function mimeOfExtension(ext: string): string | undefined {
  const e = ext.toLowerCase();
  return IMAGE_FILE_TYPES.find((t) => t.ext === e)?.mime;
}

/** Whether a format keeps an alpha channel (the background may be transparent). */
export function formatHasAlpha(format: OutputFormat): boolean {
  return format === "png8" || format === "png32" || format === "jpgpng" || format === "tiff" ||
    format === "gif";
}

/** Makes every pixel of exactly `color` (RGB) fully transparent, in place. */
export function applyTransparentColor(rgba: Uint8Array, color: Rgba): boolean {
  let hit = false;
  for (let i = 0; i < rgba.length; i += 4) {
    if (rgba[i] === color[0] && rgba[i + 1] === color[1] && rgba[i + 2] === color[2]) {
      rgba[i + 3] = 0;
      hit = true;
    }
  }
  return hit;
}

function hasTransparency(rgba: Uint8Array): boolean {
  return !everyAlpha(rgba, 255);
}

function encodeJpeg(kit: Kit, rgba: Uint8Array, w: number, h: number, quality: number) {
  const { ck } = kit;
  // JPEG has no alpha: flatten over white so transparent areas do not turn black.
  const flat = scratchOf(kit).bytes("jpeg flat", rgba.length);
  for (let i = 0; i < rgba.length; i += 4) {
    const a = rgba[i + 3] / 255;
    flat[i] = rgba[i] * a + 255 * (1 - a);
    flat[i + 1] = rgba[i + 1] * a + 255 * (1 - a);
    flat[i + 2] = rgba[i + 2] * a + 255 * (1 - a);
    flat[i + 3] = 255;
  }
  const img = ck.MakeImage(
    {
      width: w,
      height: h,
      colorType: ck.ColorType.RGBA_8888,
      alphaType: ck.AlphaType.Opaque,
      colorSpace: ck.ColorSpace.SRGB,
    },
    flat,
    w * 4,
  );
  // MakeImage copies the pixels into the wasm heap: null when they do not fit.
  if (!img) throw new RenderMemoryError(`JPEG encoding of a ${w}x${h} image`);
  const q = Math.max(1, Math.min(100, Math.round(quality)));
  let bytes: Uint8Array | null;
  try {
    bytes = img.encodeToBytes(ck.ImageFormat.JPEG, q);
  } finally {
    img.delete(); // frees the pixel copy with it
  }
  if (!bytes) throw new RenderMemoryError(`JPEG encoding of a ${w}x${h} image`);
  return bytes;
}

function encodeBmp(rgba: Uint8Array, w: number, h: number): Uint8Array {
  // 32-bit BI_BITFIELDS would carry alpha but few readers honour it; write 24-bit.
  const stride = Math.ceil((w * 3) / 4) * 4;
  const size = 54 + stride * h;
  const out = new Uint8Array(size);
  const dv = new DataView(out.buffer);
  out[0] = 0x42;
  out[1] = 0x4d;
  dv.setUint32(2, size, true);
  dv.setUint32(10, 54, true);
  dv.setUint32(14, 40, true);
  dv.setInt32(18, w, true);
  dv.setInt32(22, h, true);
  dv.setUint16(26, 1, true);
  dv.setUint16(28, 24, true);
  dv.setUint32(34, stride * h, true);
  dv.setInt32(38, 3780, true); // 96 DPI in pixels per metre
  dv.setInt32(42, 3780, true);
  for (let y = 0; y < h; y++) {
    const row = 54 + (h - 1 - y) * stride; // bottom-up
    for (let x = 0; x < w; x++) {
      const s = (y * w + x) * 4, d = row + x * 3;
      out[d] = rgba[s + 2];
      out[d + 1] = rgba[s + 1];
      out[d + 2] = rgba[s];
    }
  }
  return out;
}

function encodeTiff(rgba: Uint8Array, w: number, h: number): Uint8Array {
  // Baseline little-endian TIFF, one uncompressed RGBA strip with unassociated alpha.
  const entries: [number, number, number, number][] = [];
  const dataOffset = 8;
  const ifdOffset = dataOffset + rgba.length;
  const nEntries = 11;
  const bitsOffset = ifdOffset + 2 + nEntries * 12 + 4;
  entries.push([256, 4, 1, w]); // ImageWidth
  entries.push([257, 4, 1, h]); // ImageLength
  entries.push([258, 3, 4, bitsOffset]); // BitsPerSample 8,8,8,8
  entries.push([259, 3, 1, 1]); // Compression none
  entries.push([262, 3, 1, 2]); // RGB
  entries.push([273, 4, 1, dataOffset]); // StripOffsets
  entries.push([277, 3, 1, 4]); // SamplesPerPixel
  entries.push([278, 4, 1, h]); // RowsPerStrip
  entries.push([279, 4, 1, rgba.length]); // StripByteCounts
  entries.push([284, 3, 1, 1]); // PlanarConfiguration chunky
  entries.push([338, 3, 1, 2]); // ExtraSamples: unassociated alpha
  const out = new Uint8Array(bitsOffset + 8);
  const dv = new DataView(out.buffer);
  out[0] = 0x49;
  out[1] = 0x49;
  dv.setUint16(2, 42, true);
  dv.setUint32(4, ifdOffset, true);
  out.set(rgba, dataOffset);
  dv.setUint16(ifdOffset, nEntries, true);
  entries.forEach(([tag, type, count, value], i) => {
    const o = ifdOffset + 2 + i * 12;
    dv.setUint16(o, tag, true);
    dv.setUint16(o + 2, type, true);
    dv.setUint32(o + 4, count, true);
    if (type === 3 && count === 1) dv.setUint16(o + 8, value, true);
    else dv.setUint32(o + 8, value, true);
  });
  dv.setUint32(ifdOffset + 2 + nEntries * 12, 0, true);
  for (let i = 0; i < 4; i++) dv.setUint16(bitsOffset + i * 2, 8, true);
  return out;
}

/** Encoded image bytes and their MIME type. */
export interface EncodedImage {
  bytes: Uint8Array;
  mime: string;
}

/**
 * Encodes unpremultiplied RGBA pixels. `quality` (1-100) applies to JPEG;
 * `opaque` says the caller knows every alpha is 255 (no scan for
 * transparency then).
 *
 * @example
 * ```ts
 * import { loadKit } from "./_canvaskit.ts";
 * const kit = await loadKit(), rgba = new Uint8Array(256 * 256 * 4);
 * const { bytes, mime } = encodeImage(kit, rgba, 256, 256, "png32", 75);
 * ```
 */
export function encodeImage(
  kit: Kit,
  rgba: Uint8Array,
  w: number,
  h: number,
  format: OutputFormat,
  quality = 75,
  opaque = false,
): EncodedImage {
  // The encoders' work arrays are the kit's, reused job after job; the encoded bytes are new.
  const scratch = scratchOf(kit);
  switch (format) {
    case "png8":
      return { bytes: encodePng(rgba, w, h, { kind: "palette", scratch }), mime: "image/png" };
    case "png24":
      // PNG24 with transparent pixels becomes 32-bit with binary alpha, as ArcGIS does.
      return {
        bytes: encodePng(rgba, w, h, {
          kind: !opaque && hasTransparency(rgba) ? "rgba" : "rgb",
          scratch,
        }),
        mime: "image/png",
      };
    case "png32":
      return { bytes: encodePng(rgba, w, h, { kind: "rgba", scratch }), mime: "image/png" };
    case "jpg":
      return { bytes: encodeJpeg(kit, rgba, w, h, quality), mime: "image/jpeg" };
    case "jpgpng":
      return !opaque && hasTransparency(rgba)
        ? { bytes: encodePng(rgba, w, h, { kind: "rgba", scratch }), mime: "image/png" }
        : { bytes: encodeJpeg(kit, rgba, w, h, quality), mime: "image/jpeg" };
    case "bmp":
      return { bytes: encodeBmp(rgba, w, h), mime: "image/bmp" };
    case "tiff":
      return { bytes: encodeTiff(rgba, w, h), mime: "image/tiff" };
    case "gif":
      return { bytes: encodeGif(rgba, w, h), mime: "image/gif" };
  }
}
