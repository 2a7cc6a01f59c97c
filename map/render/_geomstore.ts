/**
 * A read-only store of a polygon source's rings as flat coordinates in
 * `SharedArrayBuffer`s, built once per source revision and shared by every
 * render worker of the process.
 *
 * Why: the per-level geometry cache (_geomcache.ts) keeps whole features
 * generalised per zoom level, per worker. For heavy data (8.2M vertices in
 * 977k rings, a few hundred features) every new zoom level re-read and
 * re-generalised whole continents even for a 3-degree view, each worker
 * paid that again, and the cache's vertex budget made levels evict each
 * other. The store keeps each ring once with its bounding box, so a view
 * walks only the rings that meet it and are larger than the tolerance; no
 * level is ever prepared, and one copy serves all workers.
 *
 * Sharing: the worker that builds a store hands it to the `publish` hook
 * (the pool forwards it to the other workers, see pool.ts); a worker that
 * receives one installs it with {@link adoptPolygonStore}. Only sources with
 * a `storeKey` (the same name in every thread) and in the output SR are
 * stored; others keep the cache path.
 *
 * @module
 */
import type { FeatureSource } from "../sources/source.ts";
import { normalizeWkid } from "../geo/projection.ts";
import { addRing, reachesMeridian, type RingChunks, type ScreenView } from "./_geometry.ts";
import type { PathCmds } from "./_path_cmds.ts";
import { buildStart, supersedes } from "./_store_age.ts";

/** The shareable part of a store: plain typed arrays over `SharedArrayBuffer`s. */
export interface PolygonStoreData {
  kind: "polygons";
  key: string;
  revision: string;
  /** When its build began, a ticket (see _store_age.ts): orders stores of different revisions. */
  startedAt: number;
  /** Object id of each feature. */
  ids: Float64Array;
  /** Feature i's rings are `featRing[i]` .. `featRing[i + 1] - 1`. */
  featRing: Uint32Array;
  /** Ring r's vertices are `ringStart[r]` .. `ringStart[r + 1] - 1`. */
  ringStart: Uint32Array;
  /** xmin, ymin, xmax, ymax of each ring. */
  ringBox: Float64Array;
  /**
   * Ring r's chunks are `ringChunk[r]` .. `ringChunk[r + 1] - 1` (none for
   * a ring of at most {@link RING_CHUNK} vertices): chunk k of a ring that
   * starts at vertex s spans vertices s + kC .. s + (k + 1)C (C =
   * RING_CHUNK; the last ends at the ring's end), so neighbours share their
   * end vertex and every edge is in one chunk. Absent in stores made
   * without chunks: then no ring has any.
   */
  ringChunk?: Uint32Array;
  /** xmin, ymin, xmax, ymax of each chunk. */
  chunkBox?: Float64Array;
  /** x0, y0, x1, y1, ... of all vertices. */
  xy: Float64Array;
}

interface Installed {
  data: PolygonStoreData;
  index: Map<number, number>;
}

/** A window in source coordinates; x unbounded when the view wraps the world. */
export interface RingWindow {
  xmin: number;
  ymin: number;
  xmax: number;
  ymax: number;
}

const installed = new Map<string, Installed>();
let publish: ((data: PolygonStoreData) => void) | null = null;

/** Features read from the source at a time while building (bounds the transient memory). */
const CHUNK = 16;

/**
 * Vertices per ring chunk (see {@link PolygonStoreData.ringChunk}); chosen
 * by measurement (bench/README.md history in git, "Chunk boxes for large rings").
 */
export const RING_CHUNK = 128;

/** Where stores built in this thread are announced (the worker passes one to its pool). */
export function setStorePublisher(fn: ((data: PolygonStoreData) => void) | null): void {
  publish = fn;
}

/**
 * Installs a store built elsewhere (replacing this thread's own copy of it),
 * unless this thread holds one of newer data: an older build arriving late
 * is dropped. A store this thread built itself (`own`) is always installed:
 * it read the data as they are now. Returns whether it was installed.
 */
export function adoptPolygonStore(data: PolygonStoreData, own = false): boolean {
  const held = installed.get(data.key);
  if (held && !own && !supersedes(data, held.data)) return false;
  const index = new Map<number, number>();
  for (let i = 0; i < data.ids.length; i++) index.set(data.ids[i], i);
  installed.set(data.key, { data, index });
  return true;
}

/** Memory a store takes (its shared buffers). */
export function storeBytes(d: PolygonStoreData): number {
  return d.ids.byteLength + d.featRing.byteLength + d.ringStart.byteLength +
    d.ringBox.byteLength + d.xy.byteLength + (d.ringChunk?.byteLength ?? 0) +
    (d.chunkBox?.byteLength ?? 0);
}

/** The stores this thread holds (for tests and the pool's bookkeeping). */
export function heldPolygonStores(): PolygonStoreData[] {
  return [...installed.values()].map((s) => s.data);
}

function shared<T extends Float64Array | Uint32Array>(
  make: (b: SharedArrayBuffer) => T,
  bytes: number,
): T {
  return make(new SharedArrayBuffer(Math.max(8, bytes)));
}

/** Growable number list backed by a typed array. */
class Grow {
  a: Float64Array = new Float64Array(1 << 16);
  n = 0;
  push(v: number): void {
    if (this.n === this.a.length) {
      const b = new Float64Array(this.a.length * 2);
      b.set(this.a);
      this.a = b;
    }
    this.a[this.n++] = v;
  }
}

/** Appends xmin, ymin, xmax, ymax of vertices a .. b (inclusive) of flat coordinates `xy`. */
function pushBox(xy: Float64Array, a: number, b: number, out: Grow): void {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (let i = a; i <= b; i++) {
    const x = xy[2 * i], y = xy[2 * i + 1];
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
  }
  out.push(x0);
  out.push(y0);
  out.push(x1);
  out.push(y1);
}

/** Reads every polygon of the source once into shared flat arrays. */
export function buildPolygonStore(src: FeatureSource, key: string): PolygonStoreData {
  const startedAt = buildStart();
  const revision = src.revision();
  const ids = src.query({ fields: [], returnGeometry: false }).map((f) => f.id);
  const featRing = new Grow(), ringStart = new Grow(), ringBox = new Grow(), xy = new Grow();
  const ringChunk = new Grow(), chunkBox = new Grow();
  const featIds: number[] = [];
  for (let c = 0; c < ids.length; c += CHUNK) {
    const chunk = ids.slice(c, c + CHUNK);
    for (const f of src.query({ objectIds: chunk, fields: [], returnGeometry: true })) {
      featIds.push(f.id);
      featRing.push(ringStart.n);
      const g = f.geometry;
      if (!g || g.type !== "Polygon") continue;
      for (const ring of g.rings) {
        ringStart.push(xy.n / 2);
        ringChunk.push(chunkBox.n / 4);
        for (const p of ring) {
          xy.push(p[0]);
          xy.push(p[1]);
        }
        const e = xy.n / 2, s = e - ring.length;
        pushBox(xy.a, s, e - 1, ringBox);
        // Chunk k: vertices s + kC .. s + (k + 1)C, the last one ending at the ring's end.
        for (let a = s; ring.length > RING_CHUNK && a < e - 1; a += RING_CHUNK) {
          pushBox(xy.a, a, Math.min(a + RING_CHUNK, e - 1), chunkBox);
        }
      }
    }
  }
  featRing.push(ringStart.n);
  ringStart.push(xy.n / 2);
  ringChunk.push(chunkBox.n / 4);
  const copy = <T extends Float64Array | Uint32Array>(
    g: Grow,
    make: (b: SharedArrayBuffer) => T,
    width: number,
  ) => {
    const out = shared(make, g.n * width);
    out.set(g.a.subarray(0, g.n));
    return out;
  };
  const data: PolygonStoreData = {
    kind: "polygons",
    key,
    revision,
    startedAt,
    ids: shared((b) => new Float64Array(b), featIds.length * 8),
    featRing: copy(featRing, (b) => new Uint32Array(b), 4),
    ringStart: copy(ringStart, (b) => new Uint32Array(b), 4),
    ringBox: copy(ringBox, (b) => new Float64Array(b), 8),
    ringChunk: copy(ringChunk, (b) => new Uint32Array(b), 4),
    chunkBox: copy(chunkBox, (b) => new Float64Array(b), 8),
    xy: copy(xy, (b) => new Float64Array(b), 8),
  };
  data.ids.set(featIds);
  return data;
}

/**
 * The store of a polygon source drawn in `toWkid`, built on first use (and
 * announced to the publisher), or null when the source cannot be stored
 * (no storeKey, not polygons, or another SR than the output's).
 */
export function polygonStore(src: FeatureSource, toWkid: number): Installed | null {
  const key = src.storeKey;
  if (!key || src.geometryType !== "Polygon") return null;
  if (normalizeWkid(src.wkid) !== normalizeWkid(toWkid)) return null;
  const revision = src.revision();
  const have = installed.get(key);
  if (have && have.data.revision === revision) return have;
  const data = buildPolygonStore(src, key);
  adoptPolygonStore(data, true);
  publish?.(data);
  return installed.get(key)!;
}

/**
 * Builds the stores of every polygon layer of these maps (at a worker's
 * start, so the first request of the server does not pay for them). A layer
 * whose source cannot be read is left to fail on its own request.
 */
export function preparePolygonStores(
  maps: { wkid: number; layers: { source: FeatureSource }[] }[],
): void {
  for (const m of maps) {
    for (const l of m.layers) {
      try {
        polygonStore(l.source, m.wkid);
      } catch {
        // Reported by the request that draws it.
      }
    }
  }
}

/** The view in output coordinates, padded; x unbounded when the view reaches past the antimeridian. */
export function ringWindow(view: ScreenView, pad: number): RingWindow {
  const v = view.visible;
  const wraps = view.period > 0 && (v.xmin < -view.period / 2 || v.xmax > view.period / 2);
  return {
    xmin: wraps ? -Infinity : v.xmin - pad,
    ymin: v.ymin - pad,
    xmax: wraps ? Infinity : v.xmax + pad,
    ymax: v.ymax + pad,
  };
}

/** Work arrays of {@link addStoredRings}: one simplified ring at a time, and its vertices' chunks. */
let simplified = new Float64Array(1024);
/** The chunks of the ring in `simplified` as addRing takes them (`of` is the work array). */
const ringChunks: RingChunks = {
  of: new Int32Array(512),
  box: new Float64Array(0),
  first: 0,
  count: 0,
};

/**
 * Radial simplification of ring r (as _geomcache.ts generalises) into
 * `simplified`; returns its vertex count, 0 when the ring simplifies to
 * fewer than 4 vertices. With `chunked`, `ringChunks.of` gets each kept
 * vertex's chunk (a vertex two chunks share counts in the earlier one).
 */
function simplifyRing(d: PolygonStoreData, r: number, tol: number, chunked: boolean): number {
  const s = d.ringStart[r], e = d.ringStart[r + 1], xy = d.xy;
  const n = e - s;
  if (simplified.length < 2 * n) {
    simplified = new Float64Array(Math.max(2 * n, 2 * simplified.length));
  }
  if (chunked && ringChunks.of.length < n) {
    ringChunks.of = new Int32Array(Math.max(n, 2 * ringChunks.of.length));
  }
  const out = simplified, outChunk = ringChunks.of;
  if (n <= 4) {
    if (n !== 4) return 0;
    out.set(xy.subarray(2 * s, 2 * e));
    return 4;
  }
  const t2 = tol * tol;
  let lx = xy[2 * s], ly = xy[2 * s + 1];
  out[0] = lx;
  out[1] = ly;
  // Vertex i is in chunk k, which ends at vertex `end` (inclusive).
  let k = 0, end = s + RING_CHUNK;
  if (chunked) outChunk[0] = 0;
  let m = 1;
  for (let i = s + 1; i < e - 1; i++) {
    if (i > end) {
      k++;
      end += RING_CHUNK;
    }
    const x = xy[2 * i], y = xy[2 * i + 1];
    const dx = x - lx, dy = y - ly;
    if (dx * dx + dy * dy >= t2) {
      out[2 * m] = x;
      out[2 * m + 1] = y;
      if (chunked) outChunk[m] = k;
      m++;
      lx = x;
      ly = y;
    }
  }
  out[2 * m] = xy[2 * (e - 1)];
  out[2 * m + 1] = xy[2 * (e - 1) + 1];
  if (chunked) outChunk[m] = e - 1 > end ? k + 1 : k;
  m++;
  return m >= 4 ? m : 0;
}

/**
 * Appends the rings of feature `id` that meet `win` and can show at
 * tolerance `tol` (map units), simplified to it, as screen path commands
 * (addRing in _geometry.ts); returns how many rings it took, or undefined
 * when the store does not hold the feature. A ring whose box diagonal is
 * under `tol` would simplify to nothing, and one under `minDiag` (half a
 * pixel) would draw nothing, so both are skipped without reading their
 * vertices.
 *
 * A ring of more than {@link RING_CHUNK} vertices is handed over with its
 * chunks, so addRing clips only the ends of the runs of chunks beyond the
 * view (a small view of a continent clips a few hundred points, not the
 * whole coastline) and the pixels are exactly those without chunks. The
 * simplifications (here and addRing's to half a pixel) still walk every
 * vertex, in loops over typed arrays: skipping a run's vertices would
 * change which vertices are kept after it, so the path, by fractions of
 * a pixel, and antialiased pixels along it.
 */
export function addStoredRings(
  store: Installed,
  id: number,
  win: RingWindow,
  tol: number,
  minDiag: number,
  view: ScreenView,
  cmds: PathCmds,
  outline?: PathCmds,
): number | undefined {
  const i = store.index.get(id);
  if (i === undefined) return undefined;
  const d = store.data, box = d.ringBox, chunks = d.ringChunk;
  let taken = 0;
  for (let r = d.featRing[i]; r < d.featRing[i + 1]; r++) {
    const x0 = box[4 * r], y0 = box[4 * r + 1], x1 = box[4 * r + 2], y1 = box[4 * r + 3];
    if (x1 < win.xmin || x0 > win.xmax || y1 < win.ymin || y0 > win.ymax) continue;
    const n = d.ringStart[r + 1] - d.ringStart[r];
    const w = x1 - x0, h = y1 - y0, diag2 = w * w + h * h;
    // No vertex can be `tol` from the first: the ring would simplify to its two ends.
    if (n > 4 && diag2 < tol * tol) continue;
    // Every vertex within half a pixel of the first: drawing keeps one point and emits nothing.
    if (diag2 < minDiag * minDiag) continue;
    // A ring inside the window has no chunk beyond the clip rectangle (in a rotated view
    // perhaps a few in its corners).
    const chunked = chunks !== undefined && chunks[r + 1] > chunks[r] &&
      (x0 < win.xmin || x1 > win.xmax || y0 < win.ymin || y1 > win.ymax);
    const m = simplifyRing(d, r, tol, chunked);
    if (m === 0) continue;
    if (chunked) {
      ringChunks.box = d.chunkBox!;
      ringChunks.first = chunks[r];
      ringChunks.count = chunks[r + 1] - chunks[r];
    }
    addRing(simplified, m, view, cmds, outline, chunked ? ringChunks : null);
    taken++;
  }
  return taken;
}

/**
 * Whether a ring of feature `id` reaches an antimeridian of the view's
 * spatial reference (by its box): only then can its outline leave out edges
 * (see addRing), so otherwise the feature's outline is its fill commands,
 * and {@link addStoredRings} need not append them twice.
 */
export function storedRingsReachMeridian(store: Installed, id: number, view: ScreenView): boolean {
  const i = store.index.get(id);
  if (i === undefined || view.period <= 0) return false;
  const d = store.data, box = d.ringBox;
  for (let r = d.featRing[i]; r < d.featRing[i + 1]; r++) {
    if (reachesMeridian(box[4 * r], box[4 * r + 2], view.period)) return true;
  }
  return false;
}
