/**
 * When a render worker collects its garbage: once idle, not between two
 * jobs that follow each other closely.
 *
 * Why: a full collection of a render worker takes 20-60 ms (V8's marking
 * of CanvasKit's objects), and on a machine with few cores it slows
 * whatever runs beside it. Collected right after its reply, it overlapped
 * the next request (drawn by another worker, parsed and answered by the
 * main thread): a one-at-a-time client saw that request take 15-20 ms
 * longer, 1.6-1.8x MapServer's time for a small view (bench/README.md history in git,
 * "Fixed cost per request, issue 9, sixth step"). So a worker whose memory
 * grew past the budget collects once it has had no work for `idleMs`;
 * only past `limitBytes` (traffic that never pauses) does it still
 * collect between two jobs, as before.
 *
 * @module
 */
import { GC_BUDGET_BYTES, GcBudget } from "./collect.ts";

/** Quiet time after the last job before a due collection runs (ms). */
export const IDLE_COLLECT_MS = 100;
/** Growth past which a worker collects between jobs even without a pause, in budgets. */
export const INLINE_BUDGETS = 4;

/** Options of {@link WorkerCollector}. */
export interface WorkerCollectorOptions {
  /** Growth after which a collection is due (default: GcBudget's 32 MiB). */
  budgetBytes?: number;
  /** Growth after which it runs between jobs at once (default: 4 budgets). */
  limitBytes?: number;
  /** Quiet time before a due collection runs (default 100 ms). */
  idleMs?: number;
  /** V8's collector (default: `globalThis.gc` under `--expose-gc`; null: never collects). */
  gc?: (() => void) | null;
}

/** A render worker's collection policy: at once past the limit, else when idle. */
export class WorkerCollector {
  readonly #budget: GcBudget;
  readonly #budgetBytes: number;
  readonly #limitBytes: number;
  readonly #idleMs: number;
  #timer: ReturnType<typeof setTimeout> | undefined;

  /** Creates the policy (nothing is collected until asked). */
  constructor(opts: WorkerCollectorOptions = {}) {
    this.#budgetBytes = opts.budgetBytes ?? GC_BUDGET_BYTES;
    this.#limitBytes = opts.limitBytes ?? INLINE_BUDGETS * this.#budgetBytes;
    this.#idleMs = opts.idleMs ?? IDLE_COLLECT_MS;
    this.#budget = opts.gc === undefined
      ? new GcBudget(this.#budgetBytes)
      : new GcBudget(this.#budgetBytes, opts.gc);
  }

  /** Collections run so far. */
  get collections(): number {
    return this.#budget.collections;
  }

  /**
   * After a job: whether memory grew past the limit, so the worker should
   * collect now, before its next job ({@link collectNow}).
   *
   * @example
   * ```ts
   * const c = new WorkerCollector();
   * if (c.dueNow()) c.collectNow();
   * ```
   */
  dueNow(): boolean {
    return this.#budget.due(this.#limitBytes);
  }

  /**
   * Collects now.
   *
   * @example
   * ```ts
   * new WorkerCollector().collectNow();
   * ```
   */
  collectNow(): void {
    this.cancel();
    this.#budget.collect();
  }

  /**
   * When a collection is due, asks for it after `idleMs` without work:
   * calls `busy` to ask whether work runs at that moment (then the next
   * {@link whenIdle} tries again), else `ask`, which requests the pool's
   * leave ({@link collectGranted} runs it once granted). Asking first
   * closes a race: a job the pool posted just as the timer fired would
   * otherwise wait behind the collection. Work arriving meanwhile calls
   * {@link cancel}.
   *
   * @example
   * ```ts
   * const c = new WorkerCollector();
   * c.whenIdle(() => false, () => console.log("may I collect?"));
   * c.cancel();
   * ```
   */
  whenIdle(busy: () => boolean, ask: () => void): void {
    this.cancel();
    if (!this.#budget.due(this.#budgetBytes)) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      if (busy() || !this.#budget.due(this.#budgetBytes)) return;
      ask();
    }, this.#idleMs);
  }

  /**
   * Runs the collection the pool allowed, if it is still due; returns
   * whether it ran.
   *
   * @example
   * ```ts
   * const ran: boolean = new WorkerCollector().collectGranted();
   * ```
   */
  collectGranted(): boolean {
    if (!this.#budget.due(this.#budgetBytes)) return false;
    this.collectNow();
    return true;
  }

  /** Drops a pending idle collection (work arrived). */
  cancel(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
