/**
 * `/services/{Service}/MapServer/export`: a map image, drawn by the same
 * ExportMapImage operation SOAP calls. `f=image` answers the image itself;
 * `f=json` answers `{href, width, height, extent, scale}` with `href` in
 * the output directory (`/arcgis/rest/directories/arcgisoutput/...`).
 *
 * Parameters (ArcGIS Server 10.3): `bbox` (required; corners in any
 * order, or an Esri JSON envelope), `bboxSR`, `size`
 * (default 400,400), `dpi` (96), `imageSR` (default `bboxSR`, else the
 * map's), `format` (png, png8, png24, png32, jpg, gif, bmp, tiff),
 * `transparent`, `layers` (`show:`/`hide:`/`include:`/`exclude:` ids),
 * `layerDefs`, `rotation`; `time` and `layerTimeOptions` are accepted and
 * ignored (no layer is time-aware).
 *
 * @module
 */
import type {
  EnvelopeGeometry,
  ExportMapImageRequest,
  MapFrame,
  MapImageResult,
  OutputFormat,
} from "../ops/mod.ts";
import { DRAW_OPERATIONS } from "../ops/mod.ts";
import { InvalidRequestError } from "../errors.ts";
import { decimalNumber, invalid, type RestParams } from "./params.ts";
import { RestFile } from "./reply.ts";
import { frameOf, operationContext, type RestEndpoint, serviceOf } from "./endpoint.ts";
import {
  parseGeometry,
  parseSpatialReferenceValue,
  type SpatialReferenceValue,
} from "./_geometry_json.ts";
import { canProject } from "../geo/projection.ts";
import { envelopeFromCorners } from "../geo/envelope.ts";
import { restExtent } from "./_services.ts";
import { layerDescriptions, parseLayerDefs, parseLayerVisibility } from "./_map_request.ts";

/** REST `format` values and the image format each asks for (png is 8-bit, as ArcGIS's). */
export const EXPORT_FORMATS: Readonly<Record<string, OutputFormat>> = {
  png: "png8",
  png8: "png8",
  png24: "png24",
  png32: "png32",
  jpg: "jpg",
  gif: "gif",
  bmp: "bmp",
  tiff: "tiff",
};

/**
 * MIME types clients send for the format names (GDAL's AGS mini-driver
 * passes its `ImageFormat` as written, e.g. `image/png`): each means the
 * format name whose image it answers with.
 */
const FORMAT_MIME_TYPES: Readonly<Record<string, keyof typeof EXPORT_FORMATS>> = {
  "image/png": "png",
  "image/png8": "png8",
  "image/png24": "png24",
  "image/png32": "png32",
  "image/jpeg": "jpg",
  "image/jpg": "jpg",
  "image/gif": "gif",
  "image/bmp": "bmp",
  "image/tiff": "tiff",
};

/** The image format of a `format` value: a format name or its MIME type, any case. */
function exportFormat(text: string): OutputFormat {
  const t = text.trim().toLowerCase();
  const format = EXPORT_FORMATS[FORMAT_MIME_TYPES[t] ?? t];
  if (!format) {
    throw invalid(
      "format",
      `one of ${Object.keys(EXPORT_FORMATS).join(", ")} (or its MIME type, e.g. image/png)`,
      text,
    );
  }
  return format;
}

function numbers(name: string, text: string, count: number, expected: string): number[] {
  const parts = text.split(",").map((s) => s.trim());
  const values = parts.map((p) => decimalNumber(p));
  if (
    parts.length !== count || parts.some((s) => s === "") ||
    values.some((n) => !Number.isFinite(n))
  ) {
    throw invalid(name, expected, text);
  }
  return values;
}

/** `bbox` as `xmin,ymin,xmax,ymax` or an Esri JSON envelope (whose spatialReference is bboxSR's). */
function bboxValue(text: string): { envelope: EnvelopeGeometry; wkid: number | null } {
  if (text.trim().startsWith("{")) {
    const { geometry, wkid } = parseGeometry("bbox", text, "Envelope");
    return { envelope: geometry as EnvelopeGeometry, wkid };
  }
  const [x1, y1, x2, y2] = numbers("bbox", text, 4, "xmin,ymin,xmax,ymax as four numbers");
  return { envelope: envelopeFromCorners(x1, y1, x2, y2), wkid: null };
}

/** The largest bbox coordinate accepted (far past any projected world: Web Mercator's is 2e7). */
const MAX_COORDINATE = 1e15;

/**
 * The ExportMapImage request of an export call on `frame`: `format`
 * `image` asks for the image's bytes, any other for its URL.
 *
 * @example
 * ```ts ignore
 * const req = exportRequest(new RestParams(new URLSearchParams("bbox=-180,-90,180,90")), frame, "image");
 * ```
 */
export function exportRequest(
  params: RestParams,
  frame: MapFrame,
  format: string,
): ExportMapImageRequest {
  const bboxText = params.string("bbox");
  if (bboxText === undefined) {
    throw new InvalidRequestError(
      "Parameter 'bbox' is required: the extent to draw as xmin,ymin,xmax,ymax.",
      {},
      ["'bbox' parameter is required"],
    );
  }
  // Corners in any order (esri-leaflet sends xmin,ymax,xmax,ymin), as ArcGIS reads them.
  const { envelope, wkid: bboxWkid } = bboxValue(bboxText);
  const { xmin, ymin, xmax, ymax } = envelope;
  if (!(xmin < xmax && ymin < ymax)) {
    throw invalid("bbox", "xmin,ymin,xmax,ymax of an extent with a width and a height", bboxText);
  }
  // Beyond this, fitting the extent to the image's aspect overflows (1e308 gave NaN extents).
  if (![xmin, ymin, xmax, ymax].every((v) => Math.abs(v) <= MAX_COORDINATE)) {
    throw invalid("bbox", `coordinates within ±${MAX_COORDINATE}`, bboxText);
  }
  const bboxSRText = params.string("bboxSR");
  const bboxSR = bboxSRText === undefined
    ? (bboxWkid === null ? null : { wkid: bboxWkid, xShift: 0 })
    : parseSpatialReferenceValue("bboxSR", bboxSRText);
  const imageSRText = params.string("imageSR");
  // Without imageSR the image is drawn in bboxSR: an SR it cannot be drawn in is bboxSR's fault.
  if (imageSRText === undefined && bboxSR !== null && !canProject(frame.wkid, bboxSR.wkid)) {
    throw invalid(
      bboxSRText === undefined ? "bbox" : "bboxSR",
      "a spatial reference the map can be drawn in (4326, 3857)",
      bboxSRText ?? bboxText,
    );
  }
  const imageSR = imageSRText === undefined
    ? bboxSR
    : parseSpatialReferenceValue("imageSR", imageSRText);
  // A frame with a moved central meridian is its WKID's, moved: the bbox is
  // where it lies there. The image of that extent, drawn with the copies of
  // the world across the antimeridian, is the image in the moved frame (the
  // two differ by a translation of x only); f=json moves the extent back.
  const shift = bboxSR?.xShift ?? 0;
  const extent = shift === 0
    ? envelope
    : { ...envelope, xmin: envelope.xmin + shift, xmax: envelope.xmax + shift };
  // Positive pixel counts, fractions rounded (OpenLayers); the limits are the operation's.
  const size = params.size("size", { round: true, what: "in pixels", example: "400,400" }) ??
    { width: 400, height: 400 };
  const dpi = params.number("dpi", { min: 1, max: 2400 }) ?? 96;
  const imageFormat = exportFormat(params.string("format") ?? "png");
  const transparent = params.boolean("transparent") ?? false;
  const rotation = params.number("rotation", { min: -360, max: 360 }) ?? 0;
  const visibility = parseLayerVisibility(frame, params.string("layers"));
  const definitions = parseLayerDefs(frame, params.string("layerDefs"));
  const [r, g, b] = frame.backgroundColor;
  return {
    MapDescription: {
      Name: frame.name,
      MapArea: {
        type: "MapExtent",
        Extent: { geometry: extent, wkid: bboxSR?.wkid ?? null },
      },
      Rotation: rotation,
      LayerDescriptions: layerDescriptions(frame, { visibility, definitions }),
      // ArcGIS makes the map's background colour the transparent one.
      ...(transparent ? { TransparentColor: [r, g, b, 255] } : {}),
      ...(imageSR !== null ? { SpatialReference: imageSR.wkid } : {}),
    },
    ImageDescription: {
      ImageDisplay: { ImageWidth: size.width, ImageHeight: size.height, ImageDPI: dpi },
      ImageType: {
        ImageFormat: imageFormat,
        ImageReturnType: format === "image" ? "MimeData" : "URL",
      },
    },
  };
}

/**
 * The spatial reference an export's image is drawn in, as the request
 * gave it (imageSR, else bboxSR); null for the map's own.
 *
 * @example
 * ```ts ignore
 * exportImageSR(new RestParams(new URLSearchParams("bbox=0,0,1,1&imageSR=3857"))); // { wkid: 3857, xShift: 0 }
 * ```
 */
export function exportImageSR(params: RestParams): SpatialReferenceValue | null {
  const text = params.string("imageSR") ?? params.string("bboxSR");
  return text === undefined ? null : parseSpatialReferenceValue("imageSR", text);
}

/**
 * The `f=json` answer of export from an ExportMapImage result (a MapImage),
 * its extent in the frame of `imageSR` (moved back when its central
 * meridian is moved, with the WKT as its spatial reference).
 */
export function exportJson(
  image: MapImageResult,
  imageSR: SpatialReferenceValue | null = null,
): Record<string, unknown> {
  const shift = imageSR?.xShift ?? 0;
  const e = image.extent;
  const extent = shift === 0 ? restExtent(e, image.wkid) : {
    ...restExtent({ ...e, xmin: e.xmin - shift, xmax: e.xmax - shift }, image.wkid),
    spatialReference: { wkt: imageSR!.wkt },
  };
  return {
    href: image.url,
    width: image.widthPx,
    height: image.heightPx,
    extent,
    scale: image.scale,
  };
}

/** The export endpoint. */
export const EXPORT_ENDPOINT: RestEndpoint = {
  path: "/services/:service/MapServer/export",
  formats: ["image"],
  words: { mapSpatialReference: "imageSR" },
  title: (call) => `${call.path.service} (MapServer): export`,
  async handle(call) {
    const service = serviceOf(call);
    const frame = frameOf(call, service);
    const req = exportRequest(call.params, frame, call.format);
    const image = await DRAW_OPERATIONS.ExportMapImage(req, operationContext(call, service));
    if (call.format === "image") {
      return new RestFile(image.mime, image.data!);
    }
    return exportJson(image, exportImageSR(call.params));
  },
};
