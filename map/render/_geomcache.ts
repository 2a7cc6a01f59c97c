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

/**
 * Bytes the cache may hold in one isolate (each render worker has its own).
 * Measured in bytes, not vertices: a cached vertex is a JavaScript `[x, y]`
 * array, ~74 bytes of V8 heap (not 16), so the former budget of 6,000,000
 * vertices let each worker keep ~440 MiB, reached slowly as random extents
 * and levels filled it: the slow climb of a long soak (issue 20).
 */
export const GEOMETRY_CACHE_BYTES = 64 * 2 ** 20;

/** V8 heap per cached vertex: the `[x, y]` array and the ring's slot for it (measured: 74). */
const BYTES_PER_VERTEX = 80;
/** V8 heap per cached feature: its map slot and the geometry and ring objects. */
const BYTES_PER_FEATURE = 120;

interface Entry {
  revision: string;
  byId: Map<number, Geometry | null>;
  /** Estimated heap bytes held by `byId`. */
  bytes: number;
  /** When the entry was last used (a counter): the least recently used go first. */
  used: number;
}

const cache = new Map<FeatureSource, Map<string, Entry>>();
let storedBytes = 0;
let clock = 0;

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
    if (entry) storedBytes -= entry.bytes;
    entry = { revision, byId: new Map(), bytes: 0, used: 0 };
    perSource.set(key, entry);
  }
  entry.used = ++clock;
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
 * Drops the least recently used entries (one output SR and resolution level
 * of one source each) until the cache holds at most `maxBytes`
 * ({@link GEOMETRY_CACHE_BYTES} by default). Called between renders only,
 * so one render never sees its entries vanish.
 *
 * @example
 * ```ts
 * import { trimGeometryCache } from "./_geomcache.ts";
 * trimGeometryCache(); // before a render
 * ```
 */
export function trimGeometryCache(maxBytes = GEOMETRY_CACHE_BYTES): void {
  if (storedBytes <= maxBytes) return;
  const entries: { src: FeatureSource; key: string; entry: Entry }[] = [];
  for (const [src, perSource] of cache) {
    for (const [key, entry] of perSource) entries.push({ src, key, entry });
  }
  entries.sort((a, b) => a.entry.used - b.entry.used);
  for (const { src, key, entry } of entries) {
    if (storedBytes <= maxBytes) break;
    const perSource = cache.get(src)!;
    perSource.delete(key);
    if (perSource.size === 0) cache.delete(src);
    storedBytes -= entry.bytes;
  }
}

/**
 * The estimated heap bytes the cache holds in this isolate.
 *
 * @example
 * ```ts
 * import { geometryCacheBytes } from "./_geomcache.ts";
 * geometryCacheBytes(); // 0 before the first render
 * ```
 */
export function geometryCacheBytes(): number {
  return storedBytes;
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
    entry.bytes += BYTES_PER_FEATURE;
    storedBytes += BYTES_PER_FEATURE;
    entry.byId.set(id, null);
    return null;
  }
  const { g: out, n } = generalise(projected, 2 ** level / 2);
  // Nothing to draw from no coordinates: do not remember it (placeholders of evicted entries).
  if (n === 0 && out === null && isEmpty(g)) return null;
  const bytes = BYTES_PER_FEATURE + n * BYTES_PER_VERTEX;
  entry.bytes += bytes;
  storedBytes += bytes;
  entry.byId.set(id, out);
  return out;
}
