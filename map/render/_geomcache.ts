/**
 * A per-isolate cache of feature geometry projected to the output spatial
 * reference and generalised for a power-of-two resolution level.
 *
 * Why: a whole-world view of the 10 m countries has ~545,000 vertices;
 * projecting them to Web Mercator and walking them costs ~200 ms per
 * render, while the image can show only a few tens of thousands. Entries
 * are keyed by source revision, so data changes never draw stale shapes.
 *
 * @module
 */
import type { FeatureSource } from "../sources/source.ts";
import type { Geometry, Position } from "../types.ts";
import { normalizeWkid, projectGeometry } from "../geo/projection.ts";

/** Vertices kept across all entries before the cache starts over. */
const MAX_VERTICES = 6_000_000;

interface Entry {
  revision: string;
  byId: Map<number, Geometry | null>;
}

const cache = new Map<FeatureSource, Map<string, Entry>>();
let storedVertices = 0;

/** Radial simplification of a ring/path: drops vertices within `tol` of the last kept one. */
function simplify(pts: Position[], tol: number, closed: boolean): Position[] {
  if (pts.length <= (closed ? 4 : 2)) return pts;
  const t2 = tol * tol;
  const out: Position[] = [pts[0]];
  let last = pts[0];
  for (let i = 1; i < pts.length - 1; i++) {
    const p = pts[i];
    const dx = p[0] - last[0], dy = p[1] - last[1];
    if (dx * dx + dy * dy >= t2) {
      out.push(p);
      last = p;
    }
  }
  out.push(pts[pts.length - 1]);
  return out;
}

function generalise(g: Geometry, tol: number): { g: Geometry | null; n: number } {
  switch (g.type) {
    case "Polyline": {
      const paths = g.paths.map((p) => simplify(p, tol, false)).filter((p) => p.length >= 2);
      return { g: paths.length ? { type: "Polyline", paths } : null, n: paths.flat().length };
    }
    case "Polygon": {
      const rings = g.rings.map((r) => simplify(r, tol, true)).filter((r) => r.length >= 4);
      return { g: rings.length ? { type: "Polygon", rings } : null, n: rings.flat().length };
    }
    default:
      return { g, n: 1 };
  }
}

function entryFor(src: FeatureSource, toWkid: number, resolution: number): Entry {
  const key = `${normalizeWkid(toWkid)}|${Math.floor(Math.log2(resolution))}`;
  let perSource = cache.get(src);
  if (!perSource) cache.set(src, perSource = new Map());
  const revision = src.revision();
  let entry = perSource.get(key);
  if (!entry || entry.revision !== revision) {
    entry = { revision, byId: new Map() };
    perSource.set(key, entry);
  }
  return entry;
}

function isEmpty(g: Geometry): boolean {
  return g.type === "Polygon"
    ? g.rings.length === 0
    : g.type === "Polyline"
    ? g.paths.length === 0
    : false;
}

/**
 * Empties the cache when it holds more than its vertex budget. Called
 * between renders only, so one render never sees its entries vanish.
 */
export function trimGeometryCache(): void {
  if (storedVertices > MAX_VERTICES) {
    cache.clear();
    storedVertices = 0;
  }
}

/**
 * The prepared geometry of feature `id` when it is cached for this output
 * SR, resolution level and source revision (null: cached as not drawable),
 * or undefined when the source must be read. Lets a warm render fetch
 * attributes only and skip decoding geometry blobs.
 */
export function cachedGeometry(
  src: FeatureSource,
  id: number,
  toWkid: number,
  resolution: number,
): Geometry | null | undefined {
  const entry = entryFor(src, toWkid, resolution);
  return entry.byId.has(id) ? entry.byId.get(id)! : undefined;
}

/**
 * The feature's geometry in `toWkid`, generalised to half of the
 * power-of-two resolution at or below `resolution` (map units per pixel).
 * Null when the geometry cannot be projected or vanishes at this level.
 * Points are passed through uncached (nothing to gain).
 */
export function preparedGeometry(
  src: FeatureSource,
  id: number,
  g: Geometry,
  toWkid: number,
  resolution: number,
): Geometry | null {
  const from = normalizeWkid(src.wkid), to = normalizeWkid(toWkid);
  if (g.type === "Point" || g.type === "Envelope" || g.type === "Multipoint") {
    try {
      return from === to ? g : projectGeometry(g, from, to);
    } catch {
      return null;
    }
  }
  const level = Math.floor(Math.log2(resolution));
  const entry = entryFor(src, toWkid, resolution);
  if (entry.byId.has(id)) return entry.byId.get(id)!;
  let projected: Geometry;
  try {
    projected = from === to ? g : projectGeometry(g, from, to);
  } catch {
    entry.byId.set(id, null);
    return null;
  }
  const { g: out, n } = generalise(projected, 2 ** level / 2);
  // Nothing to draw from no coordinates: do not remember it (placeholders of evicted entries).
  if (n === 0 && out === null && isEmpty(g)) return null;
  storedVertices += n;
  entry.byId.set(id, out);
  return out;
}
