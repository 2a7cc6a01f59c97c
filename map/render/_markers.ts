/**
 * Marker batching helpers: duplicate removal and overlap-free runs (so a
 * run can be one fill and one outline draw with the same result as drawing
 * each marker in turn), and the sink that takes sprites to stamp.
 *
 * @module
 */
import type { Sprite } from "./_stamp.ts";

/** Receives marker sprites to stamp into the image's pixels (see draw_map.ts). */
export interface MarkerSink {
  /** Pixels of the image (the cost of one read and composite pass). */
  readonly pixelCount: number;
  stamp(sprite: Sprite, corners: Int32Array): void;
}

/**
 * Offset positions with exact duplicates removed, keeping the last: a
 * marker drawn later at the same spot covers every pixel of the earlier
 * one, so the image is the same.
 */
export function dedupeKeepLast(xy: number[], ox: number, oy: number): number[] {
  // Quarter-pixel grid keys: closer than that is the same spot for a raster.
  const seen = new Set<number>();
  const keep: number[] = [];
  for (let i = xy.length - 2; i >= 0; i -= 2) {
    const key = (Math.round(xy[i] * 4) + 65536) * 262144 + Math.round(xy[i + 1] * 4) + 65536;
    if (seen.has(key)) continue;
    seen.add(key);
    keep.push(i);
  }
  const out: number[] = new Array(keep.length * 2);
  for (let k = 0; k < keep.length; k++) {
    const i = keep[keep.length - 1 - k];
    out[k * 2] = xy[i] + ox;
    out[k * 2 + 1] = xy[i + 1] + oy;
  }
  return out;
}

/**
 * Splits markers (in drawing order) into consecutive runs in which no two
 * can overlap (grid cells of `cell` pixels, neighbours included), so each
 * run is one fill and one outline draw with the same result as drawing
 * them one by one. Returns [start, end) index pairs into `xy`.
 */
export function overlapFreeGroups(xy: number[], cell: number): [number, number][] {
  const groups: [number, number][] = [];
  const owner = new Map<number, number>();
  let start = 0, group = 0;
  for (let i = 0; i < xy.length; i += 2) {
    const cx = Math.floor(xy[i] / cell), cy = Math.floor(xy[i + 1] / cell);
    let clash = false;
    for (let dx = -1; dx <= 1 && !clash; dx++) {
      for (let dy = -1; dy <= 1; dy++) {
        if (owner.get((cx + dx) * 65536 + (cy + dy)) === group) {
          clash = true;
          break;
        }
      }
    }
    if (clash) {
      groups.push([start, i]);
      start = i;
      group++;
    }
    owner.set(cx * 65536 + cy, group);
  }
  groups.push([start, xy.length]);
  return groups;
}
