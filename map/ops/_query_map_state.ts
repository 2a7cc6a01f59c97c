/**
 * The map state an operation works against: which map, which spatial
 * reference, the display (MapArea fitted to ImageDisplay, §5.1/§5.3) and
 * the per-layer overrides of `MapDescription.LayerDescriptions` (§5.7).
 *
 * Every MapDescription + ImageDisplay operation of this folder (Find,
 * Identify, QueryHyperlinks, ComputeScale, To/FromMapPoints) builds one
 * {@linkcode MapState} here, so they all agree on the extent and scale.
 *
 * @module
 */
import { unionExtent } from "../geo/relate.ts";
import type { Extent, Geometry, Position } from "../types.ts";
import type {
  FeatureExtentArea,
  ImageDisplay,
  LayerDescription,
  MapArea,
  MapDescription,
  MapFrame,
  MapLayer,
  MapService,
  PointGeometry,
  SpatialGeometry,
} from "./types.ts";
import {
  createDisplay,
  DEFAULT_DPI,
  extentFromCenterAndScale,
  isVisibleAtScale,
  type MapDisplay,
} from "../geo/display.ts";
import {
  canProject,
  normalizeWkid,
  projectExtent,
  projectGeometry,
  unitsOfWkid,
} from "../geo/projection.ts";
import { displayMetersPerUnit } from "../geo/units.ts";
import { InvalidRequestError, member, type RequestMember, say } from "../errors.ts";
import { imageDpi } from "./_image_dpi.ts";
import { type ShapeOptions, shapeOptionsOf } from "./_query_shape_options.ts";
import { geometryExtent } from "./_geometry_extent.ts";

/** Per-layer state after applying a LayerDescription. */
export interface LayerState {
  layer: MapLayer;
  /** Visibility switch (LayerDescription.Visible or the layer's default). */
  visible: boolean;
  /** Extra definition expression from the LayerDescription ("" = none). */
  definitionExpression: string;
  /** Whether results carry geometry (LayerResultOptions.IncludeGeometry, default true). */
  includeGeometry: boolean;
  /** Properties keyed by field name instead of alias (ReturnFieldNamesInResults). */
  returnFieldNames: boolean;
  /** GeometryResultOptions: generalise / densify returned shapes. */
  shapeOptions: ShapeOptions;
}

/** Everything an operation needs from MapDescription (+ ImageDisplay). */
export interface MapState {
  frame: MapFrame;
  /** WKID the request's geometry is in and results are returned in. */
  wkid: number;
  /** The display, when an ImageDisplay was given. */
  display: MapDisplay | null;
  /** Requested extent (before aspect adjustment), in `wkid`. */
  extent: Extent;
  layers: LayerState[];
}

/**
 * The map called `name`; empty or missing means the default map.
 *
 * @throws InvalidRequestError listing the map names when unknown
 */
export function findMap(service: MapService, name: string | undefined): MapFrame {
  const wanted = name?.trim() ?? "";
  const key = wanted === "" ? service.defaultMapName : wanted;
  const frame = service.maps.find((m) => m.name === key) ??
    service.maps.find((m) => m.name.toLowerCase() === key.toLowerCase());
  if (frame) return frame;
  throw new InvalidRequestError(
    `Map "${wanted}" does not exist in service ${service.name}. ` +
      `Available maps: ${service.maps.map((m) => m.name).join(", ")} (see GetMapName).`,
    { MapName: wanted },
  );
}

/**
 * The layer with `id` in `frame`.
 *
 * @throws InvalidRequestError listing the layer ids when unknown
 */
export function findLayer(frame: MapFrame, id: number): MapLayer {
  const layer = frame.layers.find((l) => l.id === id);
  if (layer) return layer;
  throw new InvalidRequestError(
    `Layer ${id} does not exist in map ${frame.name}. ` +
      `Layer ids: ${frame.layers.map((l) => `${l.id} (${l.name})`).join(", ")}.`,
    { MapName: frame.name, LayerID: id },
  );
}

/** Projects `g` (declared in `fromWkid`, or null = `toWkid`) to `toWkid`, faulting when impossible. */
export function toWkid(g: Geometry, fromWkid: number | null, to: number): Geometry {
  if (fromWkid === null || normalizeWkid(fromWkid) === normalizeWkid(to)) return g;
  if (!canProject(fromWkid, to)) {
    throw new InvalidRequestError(
      `Cannot project from spatial reference ${fromWkid} to ${to}; use WKID 4326 or 3857 (102100).`,
    );
  }
  return projectGeometry(g, fromWkid, to);
}

/** The WKID of the request's MapDescription (its SpatialReference, else the map's). */
function descriptionWkid(frame: MapFrame, md: MapDescription): number {
  const wkid = md.SpatialReference ?? frame.wkid;
  if (!canProject(frame.wkid, wkid)) {
    throw new InvalidRequestError(
      say`${
        member("mapSpatialReference")
      } ${wkid} is not supported; use WKID 4326 or 3857 (102100).`,
    );
  }
  return wkid;
}

interface ImageSize {
  widthPx: number;
  heightPx: number;
  dpi: number;
  stretch: boolean;
}

function imageSize(
  display: ImageDisplay | undefined,
  within: RequestMember,
  required: boolean,
): ImageSize | null {
  const d = display ?? {};
  const w = d.ImageWidth ?? 0, h = d.ImageHeight ?? 0;
  if (w === 0 && h === 0 && !required) return null;
  if (!(w > 0 && h > 0)) {
    throw new InvalidRequestError(
      say`${member("imageSize", { within })} must be positive pixel sizes.`,
    );
  }
  const dpi = imageDpi(d.ImageDPI, within);
  return { widthPx: w, heightPx: h, dpi, stretch: d.Stretch === true };
}

/** The extent a MapArea asks for, in `wkid`. */
function mapAreaExtent(
  service: MapService,
  frame: MapFrame,
  area: MapArea | undefined,
  wkid: number,
  size: ImageSize | null,
): Extent {
  const initial = () => projectExtent(frame.initialExtent, frame.wkid, wkid);
  if (!area) return initial();
  const sizeOr = () => size ?? { widthPx: 400, heightPx: 400, dpi: DEFAULT_DPI, stretch: false };
  const center = (c: SpatialGeometry<PointGeometry>): Position => {
    const g = toWkid(c.geometry, c.wkid, wkid) as PointGeometry;
    return [g.x, g.y];
  };
  switch (area.type) {
    case "MapExtent": {
      const e = geometryExtent(toWkid(area.Extent.geometry, area.Extent.wkid, wkid));
      return e ?? initial();
    }
    case "CenterAndScale": {
      const s = sizeOr();
      // 0 or absent: the image's DPI; anything else is checked like ImageDPI.
      const dpi = area.DPI === undefined || area.DPI === 0
        ? s.dpi
        : imageDpi(area.DPI, "mapArea", "dpi");
      return extentFromCenterAndScale(center(area.Center), area.Scale, {
        widthPx: s.widthPx,
        heightPx: s.heightPx,
        dpi,
        wkid,
      });
    }
    case "CenterAndSize": {
      const c = center(area.Center);
      const units = area.Units;
      const mapUnits = unitsOfWkid(wkid);
      const factor = units === "esriUnknownUnits" || units === mapUnits
        ? 1
        : displayMetersPerUnit(units) / displayMetersPerUnit(mapUnits);
      const w = area.Width * factor;
      const h = area.Height * factor;
      return { xmin: c[0] - w / 2, ymin: c[1] - h / 2, xmax: c[0] + w / 2, ymax: c[1] + h / 2 };
    }
    case "FeatureExtent":
      return featureExtent(service, frame, area, wkid, sizeOr());
    case "MapServerBookmark":
      throw new InvalidRequestError(
        `Map ${frame.name} has no bookmark "${area.Name}"; use MapExtent instead.`,
      );
  }
}

function featureExtent(
  service: MapService,
  frame: MapFrame,
  area: FeatureExtentArea,
  wkid: number,
  size: ImageSize,
): Extent {
  const layerFrame = area.MapName ? findMap(service, area.MapName) : frame;
  const layer = findLayer(layerFrame, area.LayerID);
  const ids = area.FeatureIDs;
  if (ids.length === 0) {
    throw new InvalidRequestError("FeatureExtent needs at least one FeatureIDs entry.");
  }
  const features = layer.source.query({ objectIds: ids, fields: [], returnGeometry: true });
  let box: Extent | null = null;
  for (const f of features) {
    if (!f.geometry) continue;
    const e = geometryExtent(toWkid(f.geometry, layer.source.wkid, wkid));
    if (!e) continue;
    box = unionExtent(box, e);
  }
  if (!box) {
    throw new InvalidRequestError(
      `None of FeatureIDs ${ids.join(", ")} exists in layer ${layer.id}.`,
    );
  }
  const ratio = area.ExpandRatio !== undefined && area.ExpandRatio > 0 ? area.ExpandRatio : 1;
  const cx = (box.xmin + box.xmax) / 2, cy = (box.ymin + box.ymax) / 2;
  const hw = (box.xmax - box.xmin) / 2 * ratio, hh = (box.ymax - box.ymin) / 2 * ratio;
  if (hw === 0 && hh === 0) {
    const scale = area.DefaultScale !== undefined && area.DefaultScale > 0
      ? area.DefaultScale
      : 10000;
    return extentFromCenterAndScale([cx, cy], scale, {
      widthPx: size.widthPx,
      heightPx: size.heightPx,
      dpi: size.dpi,
      wkid,
    });
  }
  return { xmin: cx - hw, ymin: cy - hh, xmax: cx + hw, ymax: cy + hh };
}

function layerStates(frame: MapFrame, descriptions: LayerDescription[] = []): LayerState[] {
  const byId = new Map(descriptions.map((d) => [d.LayerID, d]));
  return frame.layers.map((layer) => {
    const d = byId.get(layer.id);
    const opts = d?.LayerResultOptions ?? {};
    return {
      layer,
      visible: d?.Visible ?? layer.visible,
      definitionExpression: d?.DefinitionExpression ?? "",
      includeGeometry: opts.IncludeGeometry !== false,
      returnFieldNames: opts.ReturnFieldNamesInResults === true,
      shapeOptions: shapeOptionsOf(opts),
    };
  });
}

/** Options of {@linkcode mapStateFrom}. */
export interface MapStateOptions {
  /** The request member holding the ImageDisplay, for messages (default the client's map image). */
  displayName?: RequestMember;
  /** Fault when the ImageDisplay is missing (ComputeScale, To/FromMapPoints, Identify). */
  requireDisplay?: boolean;
}

/**
 * Builds the map state of a request from its MapDescription and ImageDisplay.
 *
 * @example
 * const state = mapStateFrom(ctx.service, req.MapDescription, req.MapImageDisplay, { requireDisplay: true });
 * state.display!.scale;
 */
export function mapStateFrom(
  service: MapService,
  mapDescription: MapDescription | undefined,
  imageDisplay: ImageDisplay | undefined,
  opts: MapStateOptions = {},
): MapState {
  const md = mapDescription ?? {};
  const frame = findMap(service, md.Name);
  const wkid = descriptionWkid(frame, md);
  const size = imageSize(
    imageDisplay,
    opts.displayName ?? "mapImage",
    opts.requireDisplay ?? false,
  );
  const extent = mapAreaExtent(service, frame, md.MapArea, wkid, size);
  const rotation = md.Rotation ?? 0;
  const display = size
    ? createDisplay(extent, {
      widthPx: size.widthPx,
      heightPx: size.heightPx,
      dpi: size.dpi,
      rotation,
      wkid,
      stretch: size.stretch,
    })
    : null;
  return { frame, wkid, display, extent, layers: layerStates(frame, md.LayerDescriptions) };
}

/** Whether a layer is drawn in this state: visible switch and scale range. */
export function isLayerVisible(state: MapState, ls: LayerState): boolean {
  if (!ls.visible) return false;
  if (!state.display) return true;
  return isVisibleAtScale(state.display.scale, ls.layer.minScale, ls.layer.maxScale);
}
