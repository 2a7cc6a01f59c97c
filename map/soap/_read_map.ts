/**
 * Reading the nested map values of SOAP requests (MapDescription with its
 * MapArea, LayerDescriptions and custom graphics; ImageDisplay and
 * ImageDescription; QueryFilter / SpatialFilter; LegendPatch) into the typed
 * values of map/ops. This is the one place their shapes are checked: a
 * missing required member or a wrong shape is an InvalidRequestError naming
 * the element.
 *
 * @module
 */
import { InvalidRequestError } from "../errors.ts";
import { parseEsriUnits } from "../geo/units.ts";
import { SPATIAL_RELATIONS, type SpatialRelation } from "../geo/relate.ts";
import type {
  GeometryResultOptions,
  GraphicElement,
  ImageDescription,
  ImageDisplay,
  LayerDescription,
  LayerResultOptions,
  LegendPatch,
  MapArea,
  MapDescription,
  QueryFilter,
  ShapeGraphic,
} from "../ops/values.ts";
import {
  complexOrAbsent,
  type Decoded,
  intList,
  isDecoded,
  optionalBoolean,
  optionalNumber,
  optionalObject,
  optionalString,
  requiredNumber,
} from "./_decoded.ts";
import {
  envelopeFromSoap,
  geometryFromSoap,
  pointFromSoap,
  wkidOfSpatialReference,
} from "./_read_geometry.ts";
import {
  colorFromSoap,
  imageTypeFromSoap,
  symbolFromSoap,
  textSymbolFromSoap,
} from "./_read_symbols.ts";

/** Deepest nesting of GroupElements read. */
const MAX_GROUP_DEPTH = 8;

/** Drops the members whose value is undefined (so typed values compare and print cleanly). */
function defined<T extends object>(v: T): T {
  return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined)) as T;
}

/**
 * A MapArea (MapExtent, CenterAndScale, CenterAndSize, FeatureExtent or
 * MapServerBookmark); undefined when absent.
 *
 * @example
 * ```ts
 * mapAreaFromSoap({
 *   $type: "MapExtent",
 *   Extent: { $type: "EnvelopeN", XMin: 0, YMin: 0, XMax: 10, YMax: 10 },
 * });
 * ```
 */
export function mapAreaFromSoap(value: unknown, what = "MapArea"): MapArea | undefined {
  const v = complexOrAbsent(value, what);
  if (!v) return undefined;
  switch (v.$type) {
    case "MapExtent":
      if (v.Extent === undefined || v.Extent === null) {
        throw new InvalidRequestError(
          `${what}/Extent is required for a MapExtent; give the area as an EnvelopeN.`,
        );
      }
      return { type: "MapExtent", Extent: envelopeFromSoap(v.Extent, `${what}/Extent`) };
    case "CenterAndScale":
      return defined({
        type: "CenterAndScale" as const,
        Center: pointFromSoap(v.Center, `${what}/Center`),
        Scale: requiredNumber(v, "Scale", `${what}/Scale`),
        DPI: optionalNumber(v, "DPI", `${what}/DPI`),
      });
    case "CenterAndSize":
      return {
        type: "CenterAndSize",
        Center: pointFromSoap(v.Center, `${what}/Center`),
        Width: requiredNumber(v, "Width", `${what}/Width`),
        Height: requiredNumber(v, "Height", `${what}/Height`),
        Units: parseEsriUnits(optionalString(v, "Units", `${what}/Units`) || "esriUnknownUnits"),
      };
    case "FeatureExtent": {
      const id = v.LayerID;
      if (typeof id !== "number" || !Number.isInteger(id)) {
        throw new InvalidRequestError(
          `${what}/LayerID is required and must be an integer layer id.`,
        );
      }
      return defined({
        type: "FeatureExtent" as const,
        MapName: optionalString(v, "MapName", `${what}/MapName`) || undefined,
        LayerID: id,
        FeatureIDs: intList(v, "FeatureIDs", { what: `${what}/FeatureIDs` }),
        ExpandRatio: optionalNumber(v, "ExpandRatio", `${what}/ExpandRatio`),
        DefaultScale: optionalNumber(v, "DefaultScale", `${what}/DefaultScale`),
      });
    }
    case "MapServerBookmark":
      return { type: "MapServerBookmark", Name: optionalString(v, "Name", `${what}/Name`) ?? "" };
    default:
      throw new InvalidRequestError(
        `${what} has type ${String(v.$type ?? "(none)")}; use MapExtent, CenterAndScale, ` +
          "CenterAndSize, FeatureExtent or MapServerBookmark.",
      );
  }
}

function geometryResultOptions(v: Decoded, what: string): GeometryResultOptions | undefined {
  const g = optionalObject(v, "GeometryResultOptions", `${what}/GeometryResultOptions`);
  if (!g) return undefined;
  const at = (name: string) => `${what}/GeometryResultOptions/${name}`;
  return defined({
    GeneralizeGeometries: optionalBoolean(g, "GeneralizeGeometries", at("GeneralizeGeometries")),
    MaximumAllowableOffset: optionalNumber(
      g,
      "MaximumAllowableOffset",
      at("MaximumAllowableOffset"),
    ),
    DensifyGeometries: optionalBoolean(g, "DensifyGeometries", at("DensifyGeometries")),
    MaximumSegmentLength: optionalNumber(g, "MaximumSegmentLength", at("MaximumSegmentLength")),
  });
}

function layerResultOptions(v: Decoded, what: string): LayerResultOptions | undefined {
  const o = optionalObject(v, "LayerResultOptions", `${what}/LayerResultOptions`);
  if (!o) return undefined;
  const at = `${what}/LayerResultOptions`;
  return defined({
    IncludeGeometry: optionalBoolean(o, "IncludeGeometry", `${at}/IncludeGeometry`),
    ReturnFieldNamesInResults: optionalBoolean(
      o,
      "ReturnFieldNamesInResults",
      `${at}/ReturnFieldNamesInResults`,
    ),
    GeometryResultOptions: geometryResultOptions(o, at),
  });
}

/**
 * A LayerDescription; its LayerID is required.
 *
 * @example
 * ```ts
 * layerDescriptionFromSoap({ $type: "LayerDescription", LayerID: 0, Visible: false }, "LayerDescription");
 * // { LayerID: 0, Visible: false }
 * ```
 */
export function layerDescriptionFromSoap(v: unknown, what: string): LayerDescription {
  if (!isDecoded(v)) {
    throw new InvalidRequestError(`${what} is required (with its LayerID).`);
  }
  const id = v.LayerID;
  if (typeof id !== "number" || !Number.isInteger(id)) {
    throw new InvalidRequestError(`${what}/LayerID is required and must be an integer layer id.`);
  }
  const selection = intList(v, "SelectionFeatures", { what: `${what}/SelectionFeatures` });
  return defined({
    LayerID: id,
    Visible: optionalBoolean(v, "Visible", `${what}/Visible`),
    ShowLabels: optionalBoolean(v, "ShowLabels", `${what}/ShowLabels`),
    DefinitionExpression: optionalString(v, "DefinitionExpression", `${what}/DefinitionExpression`),
    SelectionFeatures: selection.length > 0 ? selection : undefined,
    SelectionColor: colorFromSoap(v.SelectionColor, null) ?? undefined,
    SelectionSymbol: v.SetSelectionSymbol === true
      ? symbolFromSoap(v.SelectionSymbol, `LayerDescription ${id}/SelectionSymbol`)
      : undefined,
    LayerResultOptions: layerResultOptions(v, what),
  });
}

/** Graphic elements drawn as one shape: their kind and the member holding the geometry. */
const SHAPE_ELEMENTS: ReadonlyMap<unknown, [ShapeGraphic["type"], string]> = new Map([
  ["MarkerElement", ["marker", "Point"]],
  ["LineElement", ["line", "Line"]],
  ["PolygonElement", ["fill", "Polygon"]],
  ["RectangleElement", ["fill", "Rectangle"]],
]);

/** CustomGraphics elements, GroupElements flattened. */
function graphicsFromSoap(elements: unknown, out: GraphicElement[], depth: number): void {
  if (!Array.isArray(elements) || depth > MAX_GROUP_DEPTH) return;
  elements.forEach((el, i) => {
    if (!isDecoded(el)) return;
    const what = `CustomGraphics[${i}]`;
    const geom = (name: string) => geometryFromSoap(el[name], `${what}/${name}`);
    const symbol = () => symbolFromSoap(el.Symbol, what);
    const shape = SHAPE_ELEMENTS.get(el.$type);
    if (shape) {
      const [type, member] = shape;
      out.push(defined({ type, Geometry: geom(member), Symbol: symbol() }));
      return;
    }
    switch (el.$type) {
      case "GroupElement":
        graphicsFromSoap(el.Elements, out, depth + 1);
        break;
      case "CircleElement":
      case "EllipseElement":
        out.push(defined({
          type: "ellipse",
          Rectangle: envelopeFromSoap(el.Rectangle, `${what}/Rectangle`),
          Symbol: symbol(),
        }));
        break;
      case "TextElement":
      case "ParagraphTextElement": {
        const symbolText = isDecoded(el.Symbol) && typeof el.Symbol.Text === "string"
          ? el.Symbol.Text
          : "";
        out.push(defined({
          type: "text",
          TextGeometry: geom("TextGeometry"),
          Text: typeof el.Text === "string" ? el.Text : symbolText,
          Symbol: textSymbolFromSoap(el.Symbol),
        }));
        break;
      }
      default:
        throw new InvalidRequestError(
          `${what}: graphic element ${String(el.$type ?? "(none)")} is not supported.`,
        );
    }
  });
}

/**
 * A MapDescription; an absent one is undefined (the default map as published).
 *
 * @example
 * ```ts
 * mapDescriptionFromSoap({ $type: "MapDescription", Name: "Layers", Rotation: 0 });
 * // { Name: "Layers", Rotation: 0 }
 * ```
 */
export function mapDescriptionFromSoap(value: unknown, what = "MapDescription"): MapDescription {
  const v = complexOrAbsent(value, what);
  if (!v) return {};
  const graphics: GraphicElement[] = [];
  graphicsFromSoap(v.CustomGraphics, graphics, 0);
  const background = optionalObject(v, "BackgroundSymbol", `${what}/BackgroundSymbol`);
  return defined({
    Name: optionalString(v, "Name", `${what}/Name`),
    MapArea: mapAreaFromSoap(v.MapArea, `${what}/MapArea`),
    SpatialReference: wkidOfSpatialReference(v.SpatialReference) ?? undefined,
    Rotation: optionalNumber(v, "Rotation", `${what}/Rotation`),
    LayerDescriptions: Array.isArray(v.LayerDescriptions)
      ? v.LayerDescriptions.flatMap((d, i) =>
        d === null ? [] : [layerDescriptionFromSoap(d, `${what}/LayerDescriptions[${i}]`)]
      )
      : undefined,
    TransparentColor: colorFromSoap(v.TransparentColor, null) ?? undefined,
    SelectionColor: colorFromSoap(v.SelectionColor, null) ?? undefined,
    BackgroundColor: background ? colorFromSoap(background.Color, null) : undefined,
    CustomGraphics: graphics.length > 0 ? graphics : undefined,
  });
}

/**
 * An ImageDisplay (size in pixels, DPI, transparent colour); undefined when absent.
 *
 * @example
 * ```ts
 * imageDisplayFromSoap({ ImageWidth: 400, ImageHeight: 300, ImageDPI: 96 }, "MapImageDisplay");
 * ```
 */
export function imageDisplayFromSoap(value: unknown, what: string): ImageDisplay | undefined {
  const v = complexOrAbsent(value, what);
  if (!v) return undefined;
  return defined({
    ImageWidth: optionalNumber(v, "ImageWidth", `${what}/ImageWidth`),
    ImageHeight: optionalNumber(v, "ImageHeight", `${what}/ImageHeight`),
    ImageDPI: optionalNumber(v, "ImageDPI", `${what}/ImageDPI`),
    TransparentColor: colorFromSoap(v.TransparentColor, null) ?? undefined,
  });
}

/**
 * An ImageDescription: its ImageDisplay and ImageType (an absent one has neither).
 *
 * @example
 * ```ts
 * imageDescriptionFromSoap({ ImageType: { ImageFormat: "esriImagePNG" } }, "ImageDescription");
 * ```
 */
export function imageDescriptionFromSoap(value: unknown, what: string): ImageDescription {
  const v = complexOrAbsent(value, what);
  if (!v) return {};
  return defined({
    ImageDisplay: imageDisplayFromSoap(v.ImageDisplay, `${what}/ImageDisplay`),
    ImageType: imageTypeFromSoap(v.ImageType),
  });
}

/**
 * A LegendPatch's size and DPI; undefined when absent.
 *
 * @example
 * ```ts
 * legendPatchFromSoap({ Width: 20, Height: 10 }); // { Width: 20, Height: 10 }
 * ```
 */
export function legendPatchFromSoap(
  value: unknown,
  what = "LegendPatch",
): LegendPatch | undefined {
  const v = complexOrAbsent(value, what);
  if (!v) return undefined;
  return defined({
    Width: optionalNumber(v, "Width", `${what}/Width`),
    Height: optionalNumber(v, "Height", `${what}/Height`),
    ImageDPI: optionalNumber(v, "ImageDPI", `${what}/ImageDPI`),
  });
}

function spatialRelation(v: Decoded): SpatialRelation | undefined {
  const rel = v.SpatialRel;
  if (rel === undefined || rel === null || rel === "") return undefined;
  if (typeof rel === "string" && (SPATIAL_RELATIONS as readonly string[]).includes(rel)) {
    return rel as SpatialRelation;
  }
  throw new InvalidRequestError(
    `SpatialFilter/SpatialRel must be one of ${SPATIAL_RELATIONS.join(", ")}.`,
  );
}

const SPATIAL_FILTERS = new Set(["SpatialFilter", "TimeQueryFilter", "ImageQueryFilter"]);

/**
 * A QueryFilter, or a SpatialFilter (also its Time/Image kinds) with its
 * required FilterGeometry; undefined when absent (every feature).
 *
 * @example
 * ```ts
 * queryFilterFromSoap({ $type: "QueryFilter", WhereClause: "POP > 0", SubFields: "*" });
 * // { WhereClause: "POP > 0", SubFields: "*" }
 * ```
 */
export function queryFilterFromSoap(value: unknown, what = "QueryFilter"): QueryFilter | undefined {
  const v = complexOrAbsent(value, what);
  if (!v) return undefined;
  const fidSet = optionalObject(v, "FIDSet", `${what}/FIDSet`);
  const fids = fidSet ? intList(fidSet, "FIDArray", { what: `${what}/FIDSet/FIDArray` }) : [];
  const filter: QueryFilter = {
    WhereClause: optionalString(v, "WhereClause", `${what}/WhereClause`),
    SubFields: optionalString(v, "SubFields", `${what}/SubFields`),
    FIDSet: fids.length > 0 ? fids : undefined,
    OutputSpatialReference: wkidOfSpatialReference(v.OutputSpatialReference) ?? undefined,
    PrefixClause: optionalString(v, "PrefixClause", `${what}/PrefixClause`),
    PostfixClause: optionalString(v, "PostfixClause", `${what}/PostfixClause`),
  };
  if (typeof v.$type === "string" && SPATIAL_FILTERS.has(v.$type)) {
    if (!isDecoded(v.FilterGeometry)) {
      throw new InvalidRequestError(
        "SpatialFilter/FilterGeometry is required (e.g. an EnvelopeN).",
      );
    }
    filter.FilterGeometry = geometryFromSoap(v.FilterGeometry, "SpatialFilter/FilterGeometry");
    filter.SpatialRel = spatialRelation(v);
    filter.SpatialRelDescription = optionalString(
      v,
      "SpatialRelDescription",
      "SpatialFilter/SpatialRelDescription",
    );
  }
  return defined(filter);
}
