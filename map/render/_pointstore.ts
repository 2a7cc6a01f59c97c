/**
 * Point layers as read-only stores in `SharedArrayBuffer`s: each drawable
 * feature's coordinates in the output spatial reference, the index of its
 * renderer class and, for labelled layers, its label text as UTF-8. One
 * store per source revision, filter, renderer, label field and output SR,
 * built once and shared by every render worker of the process.
 *
 * Why: reading 100,000 points from a GeoPackage (row decoding, geometry
 * blobs) takes about a second, while walking a store for a view takes
 * milliseconds. Each worker used to keep its own snapshot with every
 * feature's attribute record, so memory grew with the number of workers;
 * the store keeps only what drawing needs (20 bytes a point without labels)
 * and only once. Any data change changes the source revision and with it
 * the store.
 *
 * Sharing: as for polygons (_geomstore.ts), the worker that builds a store
 * hands it to the `publish` hook and the pool forwards it to the others,
 * which install it with {@link adoptPointStore}. A source without a
 * `storeKey` gets a store of its own in each thread, never published.
 *
 * @module
 */
import { LRUCache } from "lru-cache";
import type { WhereNode } from "../query/ast.ts";
import type { FeatureSource } from "../sources/source.ts";
import type { RendererSpec, SymbolSpec } from "../document/renderer.ts";
import { pickSymbol, rendererClasses, rendererFields } from "../document/renderer.ts";
import { normalizeWkid, projectPoint } from "../geo/projection.ts";
import { buildStart, supersedes } from "./_store_age.ts";

/** The shareable store of one point layer (typed arrays over `SharedArrayBuffer`s). */
export interface PointStoreData {
  kind: "points";
  /** Source, output SR, filter, renderer and label field (the same text in every thread). */
  key: string;
  /** The source's storeKey: the pool keeps a bounded number of stores per source. */
  source: string;
  revision: string;
  /** When its build began, a ticket (see _store_age.ts): orders stores of different revisions. */
  startedAt: number;
  /** Coordinates in the output SR, one per drawable feature. */
  xs: Float64Array;
  ys: Float64Array;
  /** Index into `rendererClasses(renderer)` of each point's symbol. */
  cls: Uint32Array;
  /** Label text of point i: UTF-8 bytes `labelStart[i]` .. `labelStart[i + 1] - 1` (empty when unlabelled). */
  labelStart: Uint32Array;
  labelBytes: Uint8Array;
}

/** A store as a thread reads it. */
export interface PointStore {
  data: PointStoreData;
  /** Label text of point i ("" when none). */
  label(i: number): string;
}

/** Layers with more drawable points than this are read per request instead. */
const MAX_POINTS = 500_000;
/** Point stores a thread keeps (the most recently used). */
export const POINT_STORES_MAX = 16;

const installed = new LRUCache<string, PointStoreData>({ max: POINT_STORES_MAX });
/** Keys built and found too large (not stored), with the revision they were found at. */
const tooLarge = new LRUCache<string, string>({ max: 64 });
let publish: ((data: PointStoreData) => void) | null = null;
const localKeys = new WeakMap<FeatureSource, string>();
let localCount = 0;
const rendererKeys = new WeakMap<RendererSpec, string>();
const decoder = new TextDecoder();

/** Where stores built in this thread are announced (the worker passes one to its pool). */
export function setPointStorePublisher(fn: ((data: PointStoreData) => void) | null): void {
  publish = fn;
}

/**
 * Installs a store (replacing this thread's own copy and the source's older
 * revisions) and returns whether it did. A store of older data than one
 * held for the same source is dropped. A store `shared` by another worker
 * under a key this thread does not hold takes a free place only: it must not
 * push out a store this thread draws with (another request's filter, say).
 */
export function adoptPointStore(data: PointStoreData, shared = true): boolean {
  const same = [...installed.values()].filter((d) => d.source === data.source);
  // A store this thread built itself read the data as they are now.
  if (shared && same.some((d) => !supersedes(data, d))) return false;
  for (const d of same) if (d.revision !== data.revision) installed.delete(d.key);
  if (shared && !installed.has(data.key) && installed.size >= POINT_STORES_MAX) return false;
  // Over the bound, the least recently used store goes.
  installed.set(data.key, data);
  return true;
}

/** The point stores this thread holds (tests and diagnostics). */
export function heldPointStores(): PointStoreData[] {
  return [...installed.values()].reverse(); // least recently used first
}

/** Memory a point store takes (its shared buffers). */
export function pointStoreBytes(d: PointStoreData): number {
  return d.xs.byteLength + d.ys.byteLength + d.cls.byteLength + d.labelStart.byteLength +
    d.labelBytes.byteLength;
}

function sourceKey(src: FeatureSource): string {
  if (src.storeKey) return src.storeKey;
  let k = localKeys.get(src);
  if (!k) localKeys.set(src, k = `local:${++localCount}`);
  return k;
}

function rendererKey(r: RendererSpec): string {
  let k = rendererKeys.get(r);
  if (k === undefined) rendererKeys.set(r, k = JSON.stringify(r));
  return k;
}

function shared<T>(make: (b: SharedArrayBuffer) => T, bytes: number): T {
  return make(new SharedArrayBuffer(Math.max(8, bytes)));
}

/** Reads the layer's points once into shared arrays; null when there are too many. */
export function buildPointStore(
  src: FeatureSource,
  key: string,
  where: WhereNode | undefined,
  renderer: RendererSpec,
  labelField: string | undefined,
  toWkid: number,
): PointStoreData | null {
  const startedAt = buildStart();
  const revision = src.revision();
  if (src.count({ where }) > MAX_POINTS) return null;
  const fields = rendererFields(renderer);
  if (labelField && !fields.includes(labelField)) fields.push(labelField);
  const classOf = new Map<SymbolSpec, number>();
  rendererClasses(renderer).forEach((c, i) => {
    if (!classOf.has(c.symbol)) classOf.set(c.symbol, i);
  });
  const from = normalizeWkid(src.wkid), to = normalizeWkid(toWkid);
  const xs: number[] = [], ys: number[] = [], cls: number[] = [], labels: string[] = [];
  for (const f of src.query({ where, fields, returnGeometry: true })) {
    const g = f.geometry;
    if (!g || g.type !== "Point") continue;
    const symbol = pickSymbol(renderer, f.attributes);
    if (!symbol) continue; // never drawn
    let p: [number, number] = [g.x, g.y];
    if (from !== to) {
      try {
        p = projectPoint(p, from, to) as [number, number];
      } catch {
        continue; // outside what the output SR can show
      }
    }
    xs.push(p[0]);
    ys.push(p[1]);
    cls.push(classOf.get(symbol) ?? 0);
    if (labelField) labels.push(labelText(f.attributes[labelField]));
  }
  const n = xs.length;
  const encoder = new TextEncoder();
  const encoded = labels.map((t) => encoder.encode(t));
  const labelStart = shared((b) => new Uint32Array(b), (labelField ? n + 1 : 0) * 4);
  let bytes = 0;
  encoded.forEach((e, i) => {
    labelStart[i] = bytes;
    bytes += e.length;
  });
  if (labelField) labelStart[n] = bytes;
  const labelBytes = shared((b) => new Uint8Array(b), bytes);
  encoded.forEach((e, i) => labelBytes.set(e, labelStart[i]));
  const data: PointStoreData = {
    kind: "points",
    key,
    startedAt,
    source: sourceKey(src),
    revision,
    xs: shared((b) => new Float64Array(b), n * 8),
    ys: shared((b) => new Float64Array(b), n * 8),
    cls: shared((b) => new Uint32Array(b), n * 4),
    labelStart,
    labelBytes,
  };
  data.xs.set(xs);
  data.ys.set(ys);
  data.cls.set(cls);
  return data;
}

/** The text a feature's label shows (trimmed, at most 64 characters). */
export function labelText(v: unknown): string {
  if (v === null || v === undefined) return "";
  const s = String(v).trim();
  return s.length > 64 ? s.slice(0, 63) + "…" : s;
}

function storeOf(data: PointStoreData): PointStore {
  const { labelStart, labelBytes } = data;
  return {
    data,
    label: (i) => {
      if (labelStart.length === 0) return "";
      const a = labelStart[i], b = labelStart[i + 1];
      // TextDecoder does not read shared memory: copy the few bytes out first.
      return a === b ? "" : decoder.decode(labelBytes.slice(a, b));
    },
  };
}

/**
 * The store of a point layer drawn in `toWkid` with this filter, renderer
 * and label field, built on first use (and announced to the publisher when
 * the source has a storeKey), or null when the layer has too many points to
 * keep (the caller then queries the source with the view's bbox).
 */
export function pointStore(
  src: FeatureSource,
  where: WhereNode | undefined,
  renderer: RendererSpec,
  labelField: string | undefined,
  toWkid: number,
): PointStore | null {
  const source = sourceKey(src);
  const key = `${source}|points|${normalizeWkid(toWkid)}|${labelField ?? ""}|${
    where ? JSON.stringify(where) : ""
  }|${rendererKey(renderer)}`;
  const revision = src.revision();
  const have = installed.get(key);
  if (have && have.revision === revision) return storeOf(have);
  if (tooLarge.get(key) === revision) return null;
  const data = buildPointStore(src, key, where, renderer, labelField, toWkid);
  if (!data) {
    tooLarge.set(key, revision);
    return null;
  }
  adoptPointStore(data, false);
  if (src.storeKey) publish?.(data);
  return storeOf(data);
}
