/**
 * The parts GetMap and GetFeatureInfo share: the service's map, LAYERS
 * (ids, bottom first), STYLES, CRS/SRS and BBOX in the version's axis
 * order, WIDTH/HEIGHT within the service's image limits, and the
 * MapDescription and ImageDisplay that ask the engine for exactly that
 * box, stretched over the image as WMS draws it.
 *
 * @module
 */
import type {
  ImageDisplay,
  MapDescription,
  MapFrame,
  MapService,
  OperationContext,
} from "../ops/mod.ts";
import { serviceLimits } from "../ops/mod.ts";
import type { Extent } from "../types.ts";
import { WmsError } from "./_exception.ts";
import type { WmsParams, WmsVersion } from "./_kvp.ts";
import { bboxExtent, parseCrs, type WmsCrs } from "./_crs.ts";

/** One WMS request against one service, as the operations see it. */
export interface WmsCall {
  service: MapService;
  /** The map WMS serves: the service's default map (ArcGIS publishes one data frame). */
  frame: MapFrame;
  version: WmsVersion;
  params: WmsParams;
  ctx: OperationContext;
  /** This service's WMSServer URL, without a query. */
  endpoint: string;
}

/** The style every layer has (its renderer); "" asks for it too. */
export const DEFAULT_STYLE = "default";

/** The DPI maps are drawn at (ArcGIS's, and what the scale denominators assume). */
export const WMS_DPI = 96;

/** A map view as GetMap and GetFeatureInfo give it. */
export interface MapView {
  /** Layer ids, bottom first, each once. */
  layerIds: number[];
  crs: WmsCrs;
  extent: Extent;
  width: number;
  height: number;
}

/**
 * The ids named by a comma-separated layer list (`LAYERS`, `QUERY_LAYERS`),
 * in order, each once; LayerNotDefined for a name that is no layer.
 *
 * @example
 * ```ts ignore
 * layerIds(frame, "1,0", "LAYERS"); // [1, 0]
 * ```
 */
export function layerIds(frame: MapFrame, text: string, name: string): number[] {
  const ids: number[] = [];
  for (const item of text.split(",").map((s) => s.trim())) {
    const layer = /^\d+$/.test(item) ? frame.layers.find((l) => l.id === Number(item)) : undefined;
    if (!layer) {
      throw new WmsError(
        "LayerNotDefined",
        `Layer "${item}" is not defined. Layers are named by id: ${
          frame.layers.map((l) => `${l.id} (${l.name})`).join(", ")
        }.`,
        name,
      );
    }
    if (!ids.includes(layer.id)) ids.push(layer.id);
  }
  return ids;
}

/** STYLES: empty, or one entry per layer, each empty or "default". */
function checkStyles(text: string | undefined, count: number): void {
  if (text === undefined || text.trim() === "") return;
  const styles = text.split(",").map((s) => s.trim());
  const unknown = styles.find((s) => s !== "" && s.toLowerCase() !== DEFAULT_STYLE);
  if (unknown !== undefined) {
    throw new WmsError(
      "StyleNotDefined",
      `Style "${unknown}" is not defined; every layer has the style "${DEFAULT_STYLE}" (or leave STYLES empty).`,
      "STYLES",
    );
  }
  if (styles.length !== count) {
    throw new WmsError(
      "StyleNotDefined",
      `STYLES lists ${styles.length} styles for ${count} layers; give one per layer or leave it empty.`,
      "STYLES",
    );
  }
}

/**
 * The map view of a GetMap or GetFeatureInfo request.
 *
 * @example
 * ```ts ignore
 * const view = mapView(call); // LAYERS, STYLES, CRS, BBOX, WIDTH, HEIGHT
 * ```
 */
export function mapView(call: WmsCall): MapView {
  const p = call.params;
  const layersText = p.required("LAYERS", "the layer ids to draw, bottom first (e.g. 1,0)");
  const layerIdsList = layerIds(call.frame, layersText, "LAYERS");
  checkStyles(p.get("STYLES"), layerIdsList.length);
  const crsName = call.version === "1.1.1" ? "SRS" : "CRS";
  // Clients of one version now and then send the other's name: read either.
  const crsText = p.get(crsName) ?? p.get(crsName === "CRS" ? "SRS" : "CRS");
  if (crsText === undefined || crsText.trim() === "") {
    throw new WmsError(
      "MissingParameterValue",
      `Parameter ${crsName} is required: the coordinate reference system of BBOX (e.g. EPSG:3857).`,
      crsName,
    );
  }
  const crs = parseCrs(crsText, call.version, call.frame);
  const extent = bboxExtent(p.required("BBOX", "the extent to draw, minx,miny,maxx,maxy"), crs);
  const limits = serviceLimits(call.service);
  return {
    layerIds: layerIdsList,
    crs,
    extent,
    width: p.pixels("WIDTH", limits.maxImageWidth),
    height: p.pixels("HEIGHT", limits.maxImageHeight),
  };
}

/**
 * The MapDescription of a view: the box in its CRS, only its layers
 * visible, drawn in its order.
 *
 * @example
 * ```ts ignore
 * const md = mapDescription(call.frame, mapView(call));
 * ```
 */
export function mapDescription(
  frame: MapFrame,
  view: MapView,
  visible: readonly number[] = view.layerIds,
): MapDescription {
  return {
    Name: frame.name,
    MapArea: {
      type: "MapExtent",
      Extent: { geometry: { type: "Envelope", ...view.extent }, wkid: view.crs.wkid },
    },
    SpatialReference: view.crs.wkid,
    LayerDescriptions: frame.layers.map((l) => ({
      LayerID: l.id,
      Visible: visible.includes(l.id),
    })),
  };
}

/**
 * The ImageDisplay of a view: its size at {@link WMS_DPI}, the box stretched over it.
 *
 * @example
 * ```ts ignore
 * imageDisplay(mapView(call)); // { ImageWidth: 400, ImageHeight: 300, ImageDPI: 96, Stretch: true }
 * ```
 */
export function imageDisplay(view: MapView): ImageDisplay {
  return { ImageWidth: view.width, ImageHeight: view.height, ImageDPI: WMS_DPI, Stretch: true };
}
