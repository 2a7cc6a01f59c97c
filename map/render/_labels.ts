/**
 * Label placement: anchors for points (above-right, then the other three
 * diagonal positions) and polygons (centroid of the largest visible ring,
 * or the middle of its widest interior span when the centroid falls
 * outside), with greedy collision avoidance on a grid of placed boxes.
 *
 * @module
 */
import { CLOSE, LINE, MOVE, type PathCmds } from "./_path_cmds.ts";

/** An axis-aligned box in pixels. */
export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Placed label boxes, indexed on a coarse grid so each test is cheap. */
export class Collisions {
  #cells = new Map<number, Box[]>();
  readonly #cell = 64;
  readonly #w: number;
  readonly #h: number;

  /** Collision index for an image of `widthPx` x `heightPx`. */
  constructor(widthPx: number, heightPx: number) {
    this.#w = widthPx;
    this.#h = heightPx;
  }

  #keys(b: Box): number[] {
    const out: number[] = [];
    const c = this.#cell;
    for (let gx = Math.floor(b.x0 / c); gx <= Math.floor(b.x1 / c); gx++) {
      for (let gy = Math.floor(b.y0 / c); gy <= Math.floor(b.y1 / c); gy++) {
        out.push(gx * 100003 + gy);
      }
    }
    return out;
  }

  /** Marks `b` as taken (a point symbol labels must not cover), wherever it lies. */
  block(b: Box): void {
    for (const k of this.#keys(b)) {
      const list = this.#cells.get(k);
      if (list) list.push(b);
      else this.#cells.set(k, [b]);
    }
  }

  /** Places `b` unless it leaves the image or overlaps a placed box; true when placed. */
  tryPlace(b: Box): boolean {
    if (b.x0 < 0 || b.y0 < 0 || b.x1 > this.#w || b.y1 > this.#h) return false;
    const keys = this.#keys(b);
    for (const k of keys) {
      for (const o of this.#cells.get(k) ?? []) {
        if (b.x0 < o.x1 && b.x1 > o.x0 && b.y0 < o.y1 && b.y1 > o.y0) return false;
      }
    }
    for (const k of keys) {
      const list = this.#cells.get(k);
      if (list) list.push(b);
      else this.#cells.set(k, [b]);
    }
    return true;
  }
}

/** Splits a screen path into flat rings [x0, y0, x1, y1, ...]. */
export function ringsOfCmds(cmds: PathCmds): number[][] {
  const rings: number[][] = [];
  let cur: number[] = [];
  const { verbs, coords } = cmds;
  for (let i = 0, p = 0; i < cmds.verbCount; i++) {
    const v = verbs[i];
    if (v === MOVE) {
      if (cur.length) rings.push(cur);
      cur = [coords[p++], coords[p++]];
    } else if (v === LINE) {
      cur.push(coords[p++], coords[p++]);
    } else if (v === CLOSE) {
      if (cur.length) rings.push(cur);
      cur = [];
    }
  }
  if (cur.length) rings.push(cur);
  return rings;
}

function ringArea(r: number[]): number {
  let a = 0;
  for (let i = 0, j = r.length - 2; i < r.length; j = i, i += 2) {
    a += (r[j] * r[i + 1]) - (r[i] * r[j + 1]);
  }
  return a / 2;
}

function inside(rings: number[][], x: number, y: number): boolean {
  let c = false;
  for (const r of rings) {
    for (let i = 0, j = r.length - 2; i < r.length; j = i, i += 2) {
      const yi = r[i + 1], yj = r[j + 1];
      if ((yi > y) !== (yj > y) && x < ((r[j] - r[i]) * (y - yi)) / (yj - yi) + r[i]) c = !c;
    }
  }
  return c;
}

/**
 * A label anchor inside a polygon given as a screen path, or null when
 * nothing of it is visible.
 */
export function polygonAnchor(cmds: PathCmds): [number, number] | null {
  const rings = ringsOfCmds(cmds);
  let best: number[] | null = null;
  let bestArea = 0;
  for (const r of rings) {
    const a = Math.abs(ringArea(r));
    if (a > bestArea) (bestArea = a), (best = r);
  }
  if (!best || bestArea < 1) return null;
  let cx = 0, cy = 0, a2 = 0;
  for (let i = 0, j = best.length - 2; i < best.length; j = i, i += 2) {
    const f = best[j] * best[i + 1] - best[i] * best[j + 1];
    cx += (best[j] + best[i]) * f;
    cy += (best[j + 1] + best[i + 1]) * f;
    a2 += f;
  }
  if (a2 === 0) return null;
  cx /= 3 * a2;
  cy /= 3 * a2;
  if (inside(rings, cx, cy)) return [cx, cy];
  // Widest interior span on the centroid's scanline (C-shaped or ringed polygons).
  const xs: number[] = [];
  for (const r of rings) {
    for (let i = 0, j = r.length - 2; i < r.length; j = i, i += 2) {
      const yi = r[i + 1], yj = r[j + 1];
      if ((yi > cy) !== (yj > cy)) xs.push(((r[j] - r[i]) * (cy - yi)) / (yj - yi) + r[i]);
    }
  }
  xs.sort((p, q) => p - q);
  let bx = NaN, bw = 0;
  for (let i = 0; i + 1 < xs.length; i += 2) {
    if (xs[i + 1] - xs[i] > bw) (bw = xs[i + 1] - xs[i]), (bx = (xs[i] + xs[i + 1]) / 2);
  }
  return Number.isNaN(bx) ? null : [bx, cy];
}
