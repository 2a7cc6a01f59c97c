/**
 * Screen paths as the geometry pipeline builds them: verbs and coordinates
 * in two growable typed arrays, written by index. CanvasKit builds a path
 * from such a pair in one call (`Path.MakeFromVerbsPointsWeights`), about
 * three times faster than parsing the same path from one flat command list
 * (`Path.MakeFromCmds`), and the arrays make no garbage while they grow:
 * on a world view of the 50m countries, pushing every command into a JS
 * array and converting it was a third of the drawing.
 *
 * Coordinates are kept as 64-bit floats until drawn, then handed to Skia as
 * 32-bit ones, the same rounding the command lists had, so every pixel is
 * what it was.
 *
 * @module
 */
/** CanvasKit path verbs (values of `CanvasKit.MOVE_VERB` etc.). */
export const MOVE = 0, LINE = 1, CLOSE = 5;

/** A path as CanvasKit takes it: one verb per MOVE/LINE/CLOSE, two floats per point. */
export interface PathData {
  verbs: Uint8Array;
  points: Float32Array;
}

/** Where a path stood at some moment: its verb and coordinate counts. */
export interface PathMark {
  verbs: number;
  coords: number;
}

/**
 * A growable screen path: `verbs[0, verbCount)` and `coords[0, coordCount)`
 * (x0, y0, x1, y1, ...). A ring or another path is added with one native
 * copy ({@link PathCmds.ring}, {@link PathCmds.append}), after one
 * {@link PathCmds.reserve}.
 *
 * @example
 * ```ts
 * import { PathCmds } from "./_path_cmds.ts";
 * const p = new PathCmds();
 * p.move(0, 0);
 * p.line(10, 0);
 * p.line(10, 10);
 * p.close();
 * const { verbs, points } = p.data(); // [0, 1, 1, 5], [0, 0, 10, 0, 10, 10]
 * ```
 */
export class PathCmds {
  verbs: Uint8Array<ArrayBuffer>;
  coords: Float64Array<ArrayBuffer>;
  verbCount = 0;
  coordCount = 0;

  /** An empty path with room for `points` points at first. */
  constructor(points = 64) {
    this.verbs = new Uint8Array(points + 8);
    this.coords = new Float64Array(2 * points);
  }

  /** Points the coordinate array has room for. */
  get capacity(): number {
    return this.coords.length / 2;
  }

  /** Empties the path, keeping its arrays. */
  clear(): void {
    this.verbCount = 0;
    this.coordCount = 0;
  }

  /** Whether nothing was added. */
  get empty(): boolean {
    return this.verbCount === 0;
  }

  /** The counts now, to take what is added after them. */
  mark(): PathMark {
    return { verbs: this.verbCount, coords: this.coordCount };
  }

  /** Room for `verbs` more verbs and `points` more points. */
  reserve(verbs: number, points: number): void {
    if (this.verbCount + verbs > this.verbs.length) {
      const grown = new Uint8Array(Math.max(this.verbCount + verbs, 2 * this.verbs.length));
      grown.set(this.verbs.subarray(0, this.verbCount));
      this.verbs = grown;
    }
    if (this.coordCount + 2 * points > this.coords.length) {
      const grown = new Float64Array(
        Math.max(this.coordCount + 2 * points, 2 * this.coords.length),
      );
      grown.set(this.coords.subarray(0, this.coordCount));
      this.coords = grown;
    }
  }

  /** Starts a sub-path at (x, y). */
  move(x: number, y: number): void {
    this.#point(MOVE, x, y);
  }

  /** A straight line to (x, y). */
  line(x: number, y: number): void {
    this.#point(LINE, x, y);
  }

  /** Closes the current sub-path. */
  close(): void {
    this.reserve(1, 0);
    this.verbs[this.verbCount++] = CLOSE;
  }

  #point(verb: number, x: number, y: number): void {
    this.reserve(1, 1);
    this.verbs[this.verbCount++] = verb;
    this.coords[this.coordCount++] = x;
    this.coords[this.coordCount++] = y;
  }

  /**
   * Appends a closed ring of `n` points, flat x, y pairs at the start of
   * `xy`: a MOVE, n - 1 LINEs and a CLOSE.
   */
  ring(xy: Float64Array, n: number): void {
    this.reserve(n + 1, n);
    const v = this.verbCount;
    this.verbs[v] = MOVE;
    this.verbs.fill(LINE, v + 1, v + n);
    this.verbs[v + n] = CLOSE;
    this.verbCount = v + n + 1;
    this.coords.set(xy.subarray(0, 2 * n), this.coordCount);
    this.coordCount += 2 * n;
  }

  /** Appends what `from` holds after `since` (all of it by default). */
  append(from: PathCmds, since: PathMark = { verbs: 0, coords: 0 }): void {
    const nv = from.verbCount - since.verbs, nc = from.coordCount - since.coords;
    this.reserve(nv, nc / 2);
    this.verbs.set(from.verbs.subarray(since.verbs, from.verbCount), this.verbCount);
    this.coords.set(from.coords.subarray(since.coords, from.coordCount), this.coordCount);
    this.verbCount += nv;
    this.coordCount += nc;
  }

  /** The path as one flat CanvasKit command list (verb, then x, y for MOVE and LINE). */
  toCmds(): number[] {
    const out: number[] = [];
    for (let i = 0, p = 0; i < this.verbCount; i++) {
      const verb = this.verbs[i];
      out.push(verb);
      if (verb !== CLOSE) out.push(this.coords[p++], this.coords[p++]);
    }
    return out;
  }

  /**
   * The path as CanvasKit takes it: the verbs in place (valid until this
   * path grows) and the points as fresh 32-bit floats.
   */
  data(): PathData {
    return {
      verbs: this.verbs.subarray(0, this.verbCount),
      points: new Float32Array(this.coords.subarray(0, this.coordCount)),
    };
  }
}
