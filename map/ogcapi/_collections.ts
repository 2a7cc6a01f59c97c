/**
 * The collections of an OGCFeatureServer: one per layer of the service's
 * default map, its id the layer id (as ArcGIS Enterprise names them), its
 * title the layer name, its extent the layer's bounding box in CRS84 and,
 * when the layer has a date field, the interval of that field's values;
 * the CRSs it is offered in and the one it is stored in (Part 2).
 *
 * @module
 */
import type { FieldInfo } from "../types.ts";
import type { MapFrame, MapLayer, MapService, OperationContext } from "../ops/mod.ts";
import { layerColumns, queryFeatureSet } from "../ops/mod.ts";
import { projectExtent } from "../geo/projection.ts";
import { type Crs, CRS84, layerCrsList, storageCrs } from "./_crs.ts";
import { MEDIA, OgcError } from "./_reply.ts";

/** The service a request is about, with what its answers need. */
export interface ServiceScope {
  service: MapService;
  /** The service's default map: its layers are the collections. */
  frame: MapFrame;
  /** Absolute URL of the landing page (`.../services/{Service}/OGCFeatureServer`). */
  base: string;
  ctx: OperationContext;
}

/** An OGC API link. */
export interface Link {
  href: string;
  rel: string;
  type?: string;
  title?: string;
}

/** The gregorian calendar, the TRS of temporal extents. */
const GREGORIAN = "http://www.opengis.net/def/uom/ISO-8601/0/Gregorian";

/**
 * The layer a collection id names; an unknown one is a 404.
 *
 * @example
 * ```ts ignore
 * const layer = collectionLayer(scope, "0");
 * ```
 */
export function collectionLayer(scope: ServiceScope, id: string): MapLayer {
  const layer = /^\d+$/.test(id) ? scope.frame.layers.find((l) => l.id === Number(id)) : undefined;
  if (!layer) {
    throw new OgcError(
      404,
      "NotFound",
      `Collection '${id}' does not exist in service '${scope.service.name}'; collections: ${
        scope.frame.layers.map((l) => l.id).join(", ")
      }.`,
    );
  }
  return layer;
}

/**
 * The field `datetime` filters on: the layer's first date field (the
 * document model has no time info), or undefined.
 *
 * @example
 * ```ts ignore
 * dateField(layer)?.name; // "FOUNDED"
 * ```
 */
export function dateField(layer: MapLayer): FieldInfo | undefined {
  return layerColumns(layer).all.find((f) => f.type === "Date");
}

/**
 * The attribute fields of a layer a filter may name (the shape excluded).
 *
 * @example
 * ```ts ignore
 * queryableFields(layer).map((f) => f.name); // ["OBJECTID", "NAME", ...]
 * ```
 */
export function queryableFields(layer: MapLayer): FieldInfo[] {
  return layerColumns(layer).all.filter((f) => f.type !== "Geometry");
}

/**
 * The CRSs a layer is offered in (CRS84 first).
 *
 * @example
 * ```ts ignore
 * collectionCrs(layer)[0].uri; // CRS84
 * ```
 */
export function collectionCrs(layer: MapLayer): Crs[] {
  return layerCrsList(layer.source.wkid);
}

function temporalInterval(
  scope: ServiceScope,
  layer: MapLayer,
  field: FieldInfo,
): [string | null, string | null] {
  const stats = queryFeatureSet({
    MapName: scope.frame.name,
    LayerDescription: { LayerID: layer.id },
    OutStatistics: [
      { statisticType: "min", onStatisticField: field.name, outStatisticFieldName: "lo" },
      { statisticType: "max", onStatisticField: field.name, outStatisticFieldName: "hi" },
    ],
  }, scope.ctx);
  const row = stats.features[0]?.attributes ?? {};
  const iso = (v: unknown) =>
    typeof v === "number" && Number.isFinite(v) ? new Date(v).toISOString() : null;
  return [iso(row.lo), iso(row.hi)];
}

function spatialBbox(layer: MapLayer): number[] {
  const e = layer.source.extent();
  if (!e) return [-180, -90, 180, 90];
  try {
    const g = projectExtent(e, layer.source.wkid, 4326);
    return [g.xmin, g.ymin, g.xmax, g.ymax];
  } catch {
    return [-180, -90, 180, 90];
  }
}

/**
 * The collection description of a layer (`/collections/{id}` and one
 * entry of `/collections`).
 *
 * @example
 * ```ts ignore
 * collectionJson(scope, layer).itemType; // "feature"
 * ```
 */
export function collectionJson(scope: ServiceScope, layer: MapLayer): Record<string, unknown> {
  const href = `${scope.base}/collections/${layer.id}`;
  const date = dateField(layer);
  const links: Link[] = [
    { href, rel: "self", type: MEDIA.json, title: "This collection" },
    {
      href: `${href}?f=html`,
      rel: "alternate",
      type: MEDIA.html,
      title: "This collection as HTML",
    },
    { href: `${href}/items`, rel: "items", type: MEDIA.geojson, title: "Features as GeoJSON" },
    { href: `${href}/items?f=html`, rel: "items", type: MEDIA.html, title: "Features as HTML" },
    {
      href: `${href}/queryables`,
      rel: "http://www.opengis.net/def/rel/ogc/1.0/queryables",
      type: MEDIA.schema,
      title: "Queryables",
    },
  ];
  return {
    id: String(layer.id),
    title: layer.name,
    description: layer.description,
    links,
    extent: {
      spatial: { bbox: [spatialBbox(layer)], crs: CRS84.uri },
      ...(date
        ? { temporal: { interval: [temporalInterval(scope, layer, date)], trs: GREGORIAN } }
        : {}),
    },
    itemType: "feature",
    crs: collectionCrs(layer).map((c) => c.uri),
    storageCrs: storageCrs(layer.source.wkid).uri,
  };
}

/**
 * `/collections`: every layer of the default map.
 *
 * @example
 * ```ts ignore
 * collectionsJson(scope).collections.length;
 * ```
 */
export function collectionsJson(
  scope: ServiceScope,
): { links: Link[]; crs: string[]; collections: Record<string, unknown>[] } {
  const href = `${scope.base}/collections`;
  const crs = [...new Set(scope.frame.layers.flatMap((l) => collectionCrs(l).map((c) => c.uri)))];
  return {
    links: [
      { href, rel: "self", type: MEDIA.json, title: "The collections" },
      { href: `${href}?f=html`, rel: "alternate", type: MEDIA.html, title: "As HTML" },
    ],
    crs,
    collections: scope.frame.layers.map((l) => collectionJson(scope, l)),
  };
}
