/**
 * V8's minor collection paced by the bytes of API bodies served.
 *
 * Why: every uncached page leaves about three times its body in
 * `ArrayBuffer`s (the records read from SQLite, the assembled body, the
 * copy `new Response` makes), and V8 frees them only when a scavenge runs.
 * Scavenges follow the JavaScript heap's own allocation (8 MB of young
 * generation), which a request barely touches, so at 256 connections tens
 * of MB of dead bodies waited in malloc's arena between two scavenges, and
 * the arena's high-water mark became resident memory (bench/README.md history in git,
 * "Uncached API traffic at 256 connections"). A scavenge of mostly dead
 * objects takes well under a millisecond; one per few MiB of bodies keeps
 * that garbage to a few MiB.
 *
 * @module
 */

/** Bytes of bodies served between two minor collections (about three times as much garbage). */
export const YOUNG_GC_BYTES = 4 * 2 ** 20;

/**
 * V8's minor collection when the process runs with `--expose-gc` (`deno task start`), else null.
 *
 * @example
 * ```ts
 * import { v8MinorGc } from "./_young_gc.ts";
 * v8MinorGc()?.(); // one scavenge, or nothing without --expose-gc
 * ```
 */
export function v8MinorGc(): (() => void) | null {
  const gc = (globalThis as { gc?: (opts: { type: "minor" }) => void }).gc;
  return gc ? () => gc({ type: "minor" }) : null;
}

/** Runs a minor collection each time the bodies counted pass a budget. */
export class YoungCollector {
  readonly #gc: (() => void) | null;
  readonly #budget: number;
  #bytes = 0;
  /** Collections run (tests and diagnostics). */
  collections = 0;

  /**
   * `gc` is the minor collection (default: V8's, under `--expose-gc`; with
   * none, nothing is collected); `budgetBytes` the bodies between two.
   */
  constructor(gc: (() => void) | null = v8MinorGc(), budgetBytes = YOUNG_GC_BYTES) {
    this.#gc = gc;
    this.#budget = budgetBytes;
  }

  /**
   * Counts a body of `bytes`; collects when the bodies since the last
   * collection pass the budget. Returns whether it collected.
   *
   * @example
   * ```ts
   * import { YoungCollector } from "./_young_gc.ts";
   * const young = new YoungCollector(() => {}, 100);
   * young.add(60); // false
   * young.add(60); // true: 120 bytes passed the budget of 100
   * ```
   */
  add(bytes: number): boolean {
    if (this.#gc === null) return false;
    this.#bytes += bytes;
    if (this.#bytes <= this.#budget) return false;
    this.#bytes = 0;
    this.#gc();
    this.collections++;
    return true;
  }
}
