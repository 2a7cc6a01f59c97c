/**
 * Per-isolate snapshots of point layers: every matching feature's id,
 * attributes (the renderer and label fields) and coordinates projected to
 * the output spatial reference, keyed by source revision, filter, fields
 * and output SR.
 *
 * Why: reading 100,000 points from a GeoPackage (row decoding, geometry
 * blobs) took about a second per render, while filtering a snapshot by the
 * view takes milliseconds. Any data change changes the source revision and
 * with it the snapshot.
 *
 * @module
 */
import type { WhereNode } from "../query/ast.ts";
import type { FeatureSource } from "../sources/source.ts";
import type { AttributeValue } from "../types.ts";
import { normalizeWkid, projectPoint } from "../geo/projection.ts";

/** Points of a layer in the output SR. */
export interface PointSnapshot {
  ids: number[];
  xs: Float64Array;
  ys: Float64Array;
  attributes: Record<string, AttributeValue>[];
}

/** Layers with more features than this are read per request instead. */
const MAX_POINTS = 500_000;
/** Snapshots kept per source (different filters, fields or output SRs). */
const PER_SOURCE = 6;

const cache = new Map<
  FeatureSource,
  { revision: string; byKey: Map<string, PointSnapshot | null> }
>();

/**
 * The snapshot of a point layer, or null when the layer is too large to
 * keep (the caller then queries the source with the view's bbox).
 */
export function pointSnapshot(
  src: FeatureSource,
  where: WhereNode | undefined,
  fields: string[],
  toWkid: number,
): PointSnapshot | null {
  const revision = src.revision();
  let entry = cache.get(src);
  if (!entry || entry.revision !== revision) {
    entry = { revision, byKey: new Map() };
    cache.set(src, entry);
  }
  const key = `${normalizeWkid(toWkid)}|${fields.join(",")}|${where ? JSON.stringify(where) : ""}`;
  if (entry.byKey.has(key)) {
    const hit = entry.byKey.get(key)!;
    // Refresh recency.
    entry.byKey.delete(key);
    entry.byKey.set(key, hit);
    return hit;
  }
  let snap: PointSnapshot | null = null;
  if (src.count({ where }) <= MAX_POINTS) {
    const features = src.query({ where, fields, returnGeometry: true });
    const from = normalizeWkid(src.wkid), to = normalizeWkid(toWkid);
    const ids: number[] = [], attrs: Record<string, AttributeValue>[] = [];
    const xs: number[] = [], ys: number[] = [];
    for (const f of features) {
      const g = f.geometry;
      if (!g || g.type !== "Point") continue;
      let p: [number, number] = [g.x, g.y];
      if (from !== to) {
        try {
          p = projectPoint(p, from, to) as [number, number];
        } catch {
          continue; // outside what the output SR can show
        }
      }
      ids.push(f.id);
      attrs.push(f.attributes);
      xs.push(p[0]);
      ys.push(p[1]);
    }
    snap = { ids, xs: Float64Array.from(xs), ys: Float64Array.from(ys), attributes: attrs };
  }
  entry.byKey.set(key, snap);
  if (entry.byKey.size > PER_SOURCE) entry.byKey.delete(entry.byKey.keys().next().value!);
  return snap;
}
