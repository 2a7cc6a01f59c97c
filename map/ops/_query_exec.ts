/**
 * Runs a layer query: the source answers the attribute filter, object ids
 * and the envelope prefilter from its indexes; the exact spatial predicate
 * (`map/geo/relate.ts`) then runs on the candidates only.
 *
 * @module
 */
import type { Extent, Feature, Geometry } from "../types.ts";
import type { WhereNode } from "../query/ast.ts";
import type { FeatureQuery } from "../sources/source.ts";
import type { MapLayer } from "./types.ts";
import { type SpatialRelation, spatialRelation } from "../geo/relate.ts";
import { geometryExtent } from "./_geometry_extent.ts";
import { shiftExtent, shiftGeometry, windowShifts } from "../geo/wrap.ts";

/** A spatial condition, with the query geometry in the layer source's spatial reference. */
export interface SpatialCondition {
  geometry: Geometry;
  relation: SpatialRelation;
  /** DE-9IM pattern for esriSpatialRelRelation. */
  description?: string;
}

/** What to select from one layer. */
export interface LayerQuery {
  where?: WhereNode;
  objectIds?: number[];
  spatial?: SpatialCondition;
  /**
   * Identify-style test done by the caller on candidates inside `bbox`
   * (e.g. a distance in another spatial reference). Runs after `spatial`.
   */
  accept?: (f: Feature) => boolean;
  /** Extra envelope prefilter in the source's spatial reference. */
  bbox?: Extent;
  /** Attribute names to read; undefined means all. */
  attributeNames?: string[];
  returnGeometry: boolean;
  /** Stop after this many features. */
  limit?: number;
}

/** Rows read per source call when a predicate runs in memory (bounds memory on big layers). */
const PAGE = 5000;

function intersectBoxes(a: Extent | undefined, b: Extent | undefined): Extent | undefined | null {
  if (!a) return b;
  if (!b) return a;
  const e = {
    xmin: Math.max(a.xmin, b.xmin),
    ymin: Math.max(a.ymin, b.ymin),
    xmax: Math.min(a.xmax, b.xmax),
    ymax: Math.min(a.ymax, b.ymax),
  };
  return e.xmin > e.xmax || e.ymin > e.ymax ? null : e;
}

function sourceQuery(q: LayerQuery, bbox: Extent | undefined, needGeometry: boolean): FeatureQuery {
  return {
    where: q.where,
    objectIds: q.objectIds,
    bbox,
    fields: q.attributeNames,
    returnGeometry: needGeometry,
  };
}

/** Whether the query needs an in-memory test per feature. */
function hasPredicate(q: LayerQuery): boolean {
  return q.spatial !== undefined || q.accept !== undefined;
}

/** Relations the two bounding boxes decide on their own. */
const BOX_RELATIONS: ReadonlySet<SpatialRelation> = new Set([
  "esriSpatialRelEnvelopeIntersects",
  "esriSpatialRelIndexIntersects",
]);

/** Relations meaning "intersects". */
const INTERSECTS: ReadonlySet<SpatialRelation> = new Set([
  "esriSpatialRelUndefined",
  "esriSpatialRelIntersects",
]);

function boxesMeet(a: Extent, b: Extent): boolean {
  return a.xmin <= b.xmax && a.xmax >= b.xmin && a.ymin <= b.ymax && a.ymax >= b.ymin;
}

function boxInside(inner: Extent, outer: Extent): boolean {
  return inner.xmin >= outer.xmin && inner.xmax <= outer.xmax && inner.ymin >= outer.ymin &&
    inner.ymax <= outer.ymax;
}

/**
 * Decides cheap cases without the full predicate: disjoint boxes never
 * relate; box relations need only the boxes; a feature inside an envelope
 * query (a point, or any shape whose box is inside) intersects it.
 * Undefined means "ask relate.ts".
 */
function quickTest(s: SpatialCondition, queryBox: Extent, g: Geometry): boolean | undefined {
  const box = geometryExtent(g);
  if (!box || !boxesMeet(queryBox, box)) return false;
  if (BOX_RELATIONS.has(s.relation)) return true;
  if (INTERSECTS.has(s.relation) && s.geometry.type === "Envelope") {
    if (g.type === "Point" || boxInside(box, queryBox)) return true;
  }
  return undefined;
}

function predicate(q: LayerQuery): (f: Feature) => boolean {
  const s = q.spatial;
  const queryBox = s ? geometryExtent(s.geometry) : null;
  return (f) => {
    if (s) {
      if (!f.geometry || !queryBox) return false;
      const quick = quickTest(s, queryBox, f.geometry);
      if (quick === false) return false;
      if (quick === undefined) {
        if (!spatialRelation(s.relation, s.geometry, f.geometry, s.description)) return false;
      }
    }
    return q.accept ? q.accept(f) : true;
  };
}

/**
 * The box that alone decides the spatial condition for every feature of
 * the layer (box relations; intersects with an envelope on a point
 * layer), or null when features need the full predicate.
 */
function decidingBox(layer: MapLayer, q: LayerQuery): Extent | null {
  const s = q.spatial;
  if (!s || q.accept || q.bbox) return null;
  const box = geometryExtent(s.geometry);
  if (!box) return null;
  if (BOX_RELATIONS.has(s.relation)) return box;
  if (
    INTERSECTS.has(s.relation) && s.geometry.type === "Envelope" && layer.geometryType === "Point"
  ) {
    return box;
  }
  return null;
}

/**
 * Ids the index reports inside `box` that are exactly outside it. Spatial
 * indexes may store 32-bit float boxes rounded outward (GeoPackage R*Tree),
 * so false hits lie within a hair of the box's edges: only the features in
 * thin bands along the inside of the edges are read and checked.
 */
function falseIndexHits(layer: MapLayer, q: LayerQuery, box: Extent): Set<number> {
  const size = Math.max(1, ...[box.xmin, box.ymin, box.xmax, box.ymax].map(Math.abs));
  const eps = size * 2 ** -20;
  const bands: Extent[] = [
    { ...box, xmax: Math.min(box.xmax, box.xmin + eps) },
    { ...box, xmin: Math.max(box.xmin, box.xmax - eps) },
    { ...box, ymax: Math.min(box.ymax, box.ymin + eps) },
    { ...box, ymin: Math.max(box.ymin, box.ymax - eps) },
  ];
  const seen = new Set<number>();
  const outside = new Set<number>();
  for (const band of bands) {
    for (
      const f of layer.source.query({ ...sourceQuery({ ...q, attributeNames: [] }, band, true) })
    ) {
      if (seen.has(f.id)) continue;
      seen.add(f.id);
      const g = f.geometry ? geometryExtent(f.geometry) : null;
      if (!g || !boxesMeet(g, box)) outside.add(f.id);
    }
  }
  return outside;
}

/** The envelope prefilter of a query, or null when it can match nothing. */
function prefilter(q: LayerQuery): Extent | undefined | null {
  const spatialBox = q.spatial ? geometryExtent(q.spatial.geometry) : undefined;
  if (spatialBox === null) return null;
  return intersectBoxes(spatialBox, q.bbox);
}

/** Features matching `q` in the stored world only, ordered by object id. */
function queryOneWorld(layer: MapLayer, q: LayerQuery): Feature[] {
  if (q.objectIds && q.objectIds.length === 0) return [];
  const bbox = prefilter(q);
  if (bbox === null) return [];
  const src = layer.source;
  if (!hasPredicate(q)) {
    return src.query({ ...sourceQuery(q, bbox, q.returnGeometry), limit: q.limit });
  }
  const test = predicate(q);
  const out: Feature[] = [];
  const limit = q.limit ?? Infinity;
  for (let offset = 0; out.length < limit; offset += PAGE) {
    const page = src.query({ ...sourceQuery(q, bbox, true), limit: PAGE, offset });
    for (const f of page) {
      if (!test(f)) continue;
      out.push(q.returnGeometry ? f : { ...f, geometry: null });
      if (out.length >= limit) break;
    }
    if (page.length < PAGE) break;
  }
  return out;
}

function idsOneWorld(layer: MapLayer, q: LayerQuery): number[] {
  if (q.objectIds && q.objectIds.length === 0) return [];
  const bbox = prefilter(q);
  if (bbox === null) return [];
  const deciding = decidingBox(layer, q);
  if (deciding && bbox) {
    // Ids straight from the index, without reading geometry, minus its false hits.
    const hits = layer.source.query(sourceQuery({ ...q, attributeNames: [] }, bbox, false));
    const wrong = falseIndexHits(layer, q, bbox);
    return hits.map((f) => f.id).filter((id) => !wrong.has(id));
  }
  const needGeometry = hasPredicate(q);
  if (!needGeometry) {
    // Ids only: one pass, no paging (OFFSET pages would rescan the skipped rows).
    return layer.source.query(sourceQuery({ ...q, attributeNames: [] }, bbox, false)).map((f) =>
      f.id
    );
  }
  const test = predicate(q);
  const ids: number[] = [];
  for (let offset = 0;; offset += PAGE) {
    const page = layer.source.query({
      ...sourceQuery({ ...q, attributeNames: q.accept ? undefined : [] }, bbox, true),
      limit: PAGE,
      offset,
    });
    for (const f of page) if (test(f)) ids.push(f.id);
    if (page.length < PAGE) break;
  }
  return ids;
}

function countOneWorld(layer: MapLayer, q: LayerQuery): number {
  if (q.objectIds && q.objectIds.length === 0) return 0;
  const bbox = prefilter(q);
  if (bbox === null) return 0;
  if (!hasPredicate(q)) return layer.source.count(sourceQuery(q, bbox, false));
  const deciding = decidingBox(layer, q);
  if (deciding && bbox) {
    return layer.source.count(sourceQuery(q, bbox, false)) - falseIndexHits(layer, q, bbox).size;
  }
  return idsOneWorld(layer, q).length;
}

/**
 * The query once per world copy its window meets (map/geo/wrap.ts, the
 * rule drawing uses): a window reaching past the antimeridian also
 * searches the stored world shifted back, so whatever a view draws there
 * is found there. Queries with a caller's `accept` test are not shifted
 * (Identify shifts in the map's spatial reference itself).
 */
function worldQueries(layer: MapLayer, q: LayerQuery): LayerQuery[] {
  if (q.accept) return [q];
  const box = prefilter(q);
  if (!box) return [q];
  const shifts = windowShifts(box, layer.source.wkid);
  if (shifts.length === 1 && shifts[0] === 0) return [q];
  return shifts.map((s) => ({
    ...q,
    spatial: q.spatial && { ...q.spatial, geometry: shiftGeometry(q.spatial.geometry, -s) },
    bbox: q.bbox && shiftExtent(q.bbox, -s),
  }));
}

/**
 * Features of `layer` matching `q`, ordered by object id.
 *
 * @example
 * queryLayer(layer, { where, returnGeometry: true, limit: 1000 });
 */
export function queryLayer(layer: MapLayer, q: LayerQuery): Feature[] {
  const parts = worldQueries(layer, q);
  if (parts.length === 1) return queryOneWorld(layer, parts[0]);
  const byId = new Map<number, Feature>();
  for (const part of parts) {
    for (const f of queryOneWorld(layer, part)) if (!byId.has(f.id)) byId.set(f.id, f);
  }
  const out = [...byId.values()].sort((a, b) => a.id - b.id);
  return q.limit === undefined ? out : out.slice(0, q.limit);
}

/** Object ids of the features matching `q`, ascending. */
export function queryLayerIds(layer: MapLayer, q: LayerQuery): number[] {
  const parts = worldQueries(layer, q);
  if (parts.length === 1) return idsOneWorld(layer, parts[0]);
  const ids = new Set<number>();
  for (const part of parts) for (const id of idsOneWorld(layer, part)) ids.add(id);
  return [...ids].sort((a, b) => a - b);
}

/** Number of features matching `q`. */
export function countLayer(layer: MapLayer, q: LayerQuery): number {
  const parts = worldQueries(layer, q);
  return parts.length === 1 ? countOneWorld(layer, parts[0]) : queryLayerIds(layer, q).length;
}
