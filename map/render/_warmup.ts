/**
 * Start-up work of a render worker, so the first requests of a server do
 * not pay for it: the shared geometry stores (built by one worker, see
 * _geomstore.ts, _pointstore.ts), one small draw of each map, which
 * compiles the drawing code, and full-size draws at a few zoom levels.
 *
 * Why the full-size draws: a fresh server's first 1024x768 views took 2-6x
 * their later time (the first world view of the 50m countries 181 ms, then
 * 31 ms): the optimising compiler had seen only one small image, and the
 * image-sized buffers (surface pixels, work buffers, deflate state) were
 * allocated by the first request that needed them.
 *
 * @module
 */
import { unionExtent } from "../geo/relate.ts";
import { heapBytes, type Kit } from "./_canvaskit.ts";
import { renderMap } from "./draw_map.ts";
import { layerDefinition } from "./_draw_layer.ts";
import { preparePolygonStores } from "./_geomstore.ts";
import { pointStore } from "./_pointstore.ts";
import { normalizeWkid } from "../geo/projection.ts";
import type { Extent } from "../types.ts";
import type { RenderMap } from "./types.ts";

/** The union of the extents of the layers stored in the map's own SR, or null. */
function mapExtent(map: RenderMap): Extent | null {
  let out: Extent | null = null;
  for (const l of map.layers) {
    if (normalizeWkid(l.source.wkid) !== normalizeWkid(map.wkid)) continue;
    const e = l.source.extent();
    if (!e || ![e.xmin, e.ymin, e.xmax, e.ymax].every(Number.isFinite)) continue;
    out = unionExtent(out, e);
  }
  return out && out.xmax > out.xmin && out.ymax > out.ymin ? out : null;
}

/**
 * Builds the shared geometry stores of every map's layers as drawn without a
 * request's filter: polygon rings, and point layers with their own
 * definition, renderer and label field (the first draw of a point layer
 * would build its store otherwise, and every worker starting at once would
 * build its own). A layer whose store fails is left to the requests.
 *
 * @example
 * ```ts
 * import { prepareStores } from "./_warmup.ts";
 * prepareStores([]);
 * ```
 */
export function prepareStores(maps: RenderMap[]): void {
  preparePolygonStores(maps);
  for (const m of maps) {
    for (const l of m.layers) {
      if (l.geometryType !== "Point") continue;
      try {
        pointStore(l.source, layerDefinition(l), l.renderer, l.labels?.field, m.wkid);
      } catch {
        // Reported by the request that draws it.
      }
    }
  }
}

/**
 * Views of the full-size draws: a part of the data's extent as wide as
 * `scale` of it, centred at (`cx`, `cy`) of it.
 */
const FULL_SIZE_VIEWS = [
  { scale: 1, cx: 0.5, cy: 0.5 },
  { scale: 1 / 4, cx: 0.55, cy: 0.6 },
  { scale: 1 / 16, cx: 0.4, cy: 0.65 },
  { scale: 1 / 64, cx: 0.6, cy: 0.45 },
  // Views nearly empty of a world layer's features take other paths (the first one a worker
  // drew took 13-22 ms, later ones 4 ms).
  { scale: 1 / 128, cx: 0.45, cy: 0.55 },
  { scale: 1 / 512, cx: 0.52, cy: 0.48 },
  { scale: 1, cx: 0.5, cy: 0.5 },
];

/**
 * Rounds of the full-size draws when the workers warm up before the server
 * takes requests (`RenderPool.warmUp`, an eager start), where a longer
 * warm-up delays no client. In one thread, 30 random 1024x768 views drawn
 * after the warm-up, then again: after one round the 100,000 points' first
 * ten views took 90-109 ms more than the second time (the worst view 2.7-2.9x
 * its second drawing) and the 50m countries' 12-14 ms more; after two
 * rounds -33 to 9 ms and 2 ms (worst 1.2-1.4x). A warm-up between requests
 * (a lazy start) keeps one round: its draws share the CPU with the views.
 */
export const ROUNDS_BEFORE_REQUESTS = 2;

/** A common full-size image (what web maps and the benchmarks ask for). */
const FULL_W = 1024, FULL_H = 768;

/** The part of `e` as wide as `scale` of it, centred at (`cx`, `cy`) of it. */
function part(e: Extent, scale: number, cx: number, cy: number): Extent {
  const w = (e.xmax - e.xmin) * scale, h = (e.ymax - e.ymin) * scale;
  const x = e.xmin + (e.xmax - e.xmin) * cx, y = e.ymin + (e.ymax - e.ymin) * cy;
  return { xmin: x - w / 2, ymin: y - h / 2, xmax: x + w / 2, ymax: y + h / 2 };
}

/**
 * The start-up draws, one per step: each map once small over its data's
 * extent, then at full size over the extent and parts of it from a quarter
 * to a 512th as wide, `rounds` times. The worker runs the steps one at a
 * time between its jobs, so a request that arrives during the warm-up waits
 * for one draw at most, not for all of them.
 *
 * The full-size draws are skipped when the wasm heap is within 32 image
 * sizes of `heapLimitBytes` (the pool replaces a worker over its limit after
 * a job; the warm-up must not be what puts it there). Failures are left to
 * the requests that meet them: a map whose draw fails is not drawn again.
 */
export function* warmUpSteps(
  kit: Kit,
  maps: RenderMap[],
  heapLimitBytes = Infinity,
  rounds = 1,
): Generator<void, void, void> {
  for (const map of maps) {
    const extent = mapExtent(map);
    if (!extent) continue;
    const full = FULL_SIZE_VIEWS.map((v) => ({
      extent: part(extent, v.scale, v.cx, v.cy),
      widthPx: FULL_W,
      heightPx: FULL_H,
    }));
    const draws = [
      { extent, widthPx: 256, heightPx: 192 },
      ...Array.from({ length: Math.max(1, rounds) }, () => full).flat(),
    ];
    for (const [i, d] of draws.entries()) {
      if (i > 0 && heapBytes(kit) + 32 * FULL_W * FULL_H * 4 > heapLimitBytes) break;
      try {
        renderMap(kit, map, { ...d, wkid: map.wkid, format: "png24" });
      } catch {
        // The same error reaches the request that draws this map.
        break;
      }
      yield;
    }
  }
}
