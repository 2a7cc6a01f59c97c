/**
 * Start-up work of a render worker, so the first requests of a server do
 * not pay for it: the shared geometry stores (built by one worker, see
 * _geomstore.ts) and one small draw of each map, which compiles the drawing
 * code, fills the point snapshots and touches CanvasKit's paths.
 *
 * @module
 */
import type { Kit } from "./_canvaskit.ts";
import { renderMap } from "./draw_map.ts";
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
    out = out
      ? {
        xmin: Math.min(out.xmin, e.xmin),
        ymin: Math.min(out.ymin, e.ymin),
        xmax: Math.max(out.xmax, e.xmax),
        ymax: Math.max(out.ymax, e.ymax),
      }
      : { ...e };
  }
  return out && out.xmax > out.xmin && out.ymax > out.ymin ? out : null;
}

/**
 * Draws each map once, small, over its data's extent. Failures are left to
 * the requests that meet them.
 */
export function warmUpMaps(kit: Kit, maps: RenderMap[]): void {
  for (const map of maps) {
    const extent = mapExtent(map);
    if (!extent) continue;
    try {
      renderMap(kit, map, { extent, wkid: map.wkid, widthPx: 256, heightPx: 192, format: "png24" });
    } catch {
      // The same error reaches the request that draws this map.
    }
  }
}
