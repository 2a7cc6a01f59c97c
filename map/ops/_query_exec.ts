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
import type { MapLayer } from "../soap/operation.ts";
import { geometryDistance, type SpatialRelation, spatialRelation } from "../geo/relate.ts";
import { SoapFault } from "../soap/fault.ts";
import { geometryExtent } from "./_geometry_xml.ts";

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

function predicate(q: LayerQuery): (f: Feature) => boolean {
  const s = q.spatial;
  return (f) => {
    if (s) {
      if (!f.geometry) return false;
      try {
        if (!spatialRelation(s.relation, s.geometry, f.geometry, s.description)) return false;
      } catch (e) {
        if (e instanceof RangeError) throw new SoapFault("Client", e.message);
        throw e;
      }
    }
    return q.accept ? q.accept(f) : true;
  };
}

/** The envelope prefilter of a query, or null when it can match nothing. */
function prefilter(q: LayerQuery): Extent | undefined | null {
  const spatialBox = q.spatial ? geometryExtent(q.spatial.geometry) : undefined;
  if (spatialBox === null) return null;
  return intersectBoxes(spatialBox, q.bbox);
}

/**
 * Features of `layer` matching `q`, ordered by object id.
 *
 * @example
 * queryLayer(layer, { where, returnGeometry: true, limit: 1000 });
 */
export function queryLayer(layer: MapLayer, q: LayerQuery): Feature[] {
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

/** Object ids of the features matching `q`, ascending. */
export function queryLayerIds(layer: MapLayer, q: LayerQuery): number[] {
  if (q.objectIds && q.objectIds.length === 0) return [];
  const bbox = prefilter(q);
  if (bbox === null) return [];
  const needGeometry = hasPredicate(q);
  const test = predicate(q);
  const ids: number[] = [];
  for (let offset = 0;; offset += PAGE) {
    const page = layer.source.query({
      ...sourceQuery(
        { ...q, attributeNames: needGeometry && q.accept ? undefined : [] },
        bbox,
        needGeometry,
      ),
      limit: PAGE,
      offset,
    });
    for (const f of page) if (!needGeometry || test(f)) ids.push(f.id);
    if (page.length < PAGE) break;
  }
  return ids;
}

/** Number of features matching `q`. */
export function countLayer(layer: MapLayer, q: LayerQuery): number {
  if (q.objectIds && q.objectIds.length === 0) return 0;
  const bbox = prefilter(q);
  if (bbox === null) return 0;
  if (!hasPredicate(q)) return layer.source.count(sourceQuery(q, bbox, false));
  return queryLayerIds(layer, q).length;
}

/** Identify helper: a predicate "within `tolerance` of `shape`" (same spatial reference). */
export function withinDistance(shape: Geometry, tolerance: number): (g: Geometry) => boolean {
  return (g) => geometryDistance(shape, g) <= tolerance;
}
