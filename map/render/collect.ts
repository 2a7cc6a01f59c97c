/**
 * Garbage collection at quiet moments: between two jobs of a render
 * worker, and on a timer on the main thread.
 *
 * Why: a job leaves behind garbage the size of its image (JavaScript
 * arrays of projected geometry, paths, encoder output), and V8 collects an
 * isolate's old generation only when it has grown to a multiple of what
 * survived the last collection. Each worker's heap therefore swung by
 * 50-100 MB, and the server's RSS, the sum over all isolates, by hundreds
 * of MB between samples (bench/README.md history in git, "Soak memory"). Collecting when
 * a thread's heap grew by more than a budget, between two jobs (nothing is
 * in flight then), bounds that swing at a cost of a few milliseconds every
 * few dozen jobs.
 *
 * V8 exposes the collector only to processes started with
 * `--v8-flags=--expose-gc` (`deno task start` does): without it this does
 * nothing and V8's own heuristics decide.
 *
 * @module
 */

/** Growth of a thread's heap and external memory since its last collection that triggers one (bytes). */
export const GC_BUDGET_BYTES = 32 * 2 ** 20;

/** Collects once the isolate's memory grew by more than a budget since its last collection. */
export class GcBudget {
  readonly #budget: number;
  readonly #gc: (() => void) | null;
  readonly #usage: () => MemoryUse;
  #base: MemoryUse = { heapUsed: 0, external: 0 };
  /** Collections run (tests and diagnostics). */
  collections = 0;

  /**
   * `gc` is V8's collector (default: `globalThis.gc`, there under
   * `--expose-gc`); with none (null), {@link check} never collects.
   * `usage` reads the isolate's memory (default `Deno.memoryUsage`; tests).
   */
  constructor(
    budgetBytes = GC_BUDGET_BYTES,
    gc: (() => void) | null = (globalThis as { gc?: () => void }).gc ?? null,
    usage: () => MemoryUse = () => Deno.memoryUsage(),
  ) {
    this.#budget = budgetBytes;
    this.#gc = gc;
    this.#usage = usage;
  }

  /** Whether a collector is available (the process runs with `--expose-gc`). */
  get enabled(): boolean {
    return this.#gc !== null;
  }

  /**
   * Whether the memory grew by more than the budget (or `budgetBytes`, when
   * given) since the last collection: {@link collect} would be worth its
   * pause now. Always false without a collector.
   *
   * @example
   * ```ts
   * const gc = new GcBudget();
   * if (gc.due()) gc.collect();
   * ```
   */
  due(budgetBytes = this.#budget): boolean {
    return this.#gc !== null && this.#growth() > budgetBytes;
  }

  /**
   * Collects now (nothing without a collector). Call when nothing is in
   * flight: it stops the thread for as long as the collection takes.
   *
   * @example
   * ```ts
   * new GcBudget().collect();
   * ```
   */
  collect(): void {
    if (!this.#gc) return;
    this.#gc();
    this.collections++;
    this.#base = this.#usage();
  }

  /**
   * Heap and external growth, each over its own base: buffers that were in
   * flight at the last collection and are freed since must not hide the
   * heap's growth (on the main thread under 256 connections the external
   * memory at a collection was up to 96 MiB, then 40, and the heap grew
   * from 32 to 81 MiB uncollected).
   */
  #growth(): number {
    const now = this.#usage();
    return Math.max(0, now.heapUsed - this.#base.heapUsed) +
      Math.max(0, now.external - this.#base.external);
  }

  /**
   * Call when nothing is in flight (between jobs): collects when heap and
   * external memory grew by more than the budget (or `budgetBytes`) since
   * the last collection. Returns whether it collected.
   *
   * @example
   * ```ts
   * new GcBudget().check();
   * ```
   */
  check(budgetBytes = this.#budget): boolean {
    if (!this.due(budgetBytes)) return false;
    this.collect();
    return true;
  }
}

/** What {@linkcode GcBudget} watches of an isolate's memory. */
export interface MemoryUse {
  heapUsed: number;
  external: number;
}

/**
 * The main thread's timed check: collects when the budget is due, but not
 * while `busy()` (render jobs in flight). V8's `gc()` is a full, atomic
 * collection (27 ms for the main thread's 27 MB heap, against a 3 ms final
 * pause for V8's own incremental one): started while a render job is
 * drawing, it delayed that request's answer by as much (bench/README.md history in git,
 * "Fixed cost per request, issue 9, sixth step"). Meanwhile V8's own
 * collections keep the heap in check. Returns whether it collected.
 *
 * @example
 * ```ts
 * collectUnlessBusy(new GcBudget(), () => false);
 * ```
 */
export function collectUnlessBusy(budget: GcBudget, busy: () => boolean): boolean {
  return !busy() && budget.check();
}
