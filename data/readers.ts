/**
 * A small pool of reader workers, each with its own read-only connection, for
 * the list work that can take long (a cold count of a search with a filter, the
 * ordered ids of a deep page): the main thread keeps answering other requests
 * while it runs, and caches what comes back.
 *
 * @module
 */
import type { Catalog, ListPlan, ListWork, ListWorkResult } from "./catalog.ts";
import type { ListCollection } from "./collections.ts";
import type { ListQuery } from "./_query.ts";

interface Slot {
  worker: Worker;
  pending: number;
}

/**
 * Work items are shared by list, whatever page asked: requests for different
 * pages of one cold list join one build instead of building it once a page.
 */
function sharedKey(work: ListWork): string {
  return JSON.stringify({ ...work, pageOffset: undefined, knownCount: undefined });
}

interface Waiting {
  resolve: (r: ListWorkResult) => void;
  reject: (e: Error) => void;
}

/** Options of {@linkcode ReaderPool}. */
export interface ReaderPoolOptions {
  /** The catalogue database (opened read-only by every worker). */
  path: string;
  /** Number of workers (default 2). */
  size?: number;
  /** Start every worker now (a server), not with the first slow request (default false). */
  eager?: boolean;
  /** Called after each work item's answer was handed on (a server trims malloc then). */
  onWorkDone?: () => void;
}

/** Reader workers that run {@linkcode ListWork} off the main thread. */
export class ReaderPool {
  readonly #path: string;
  readonly #size: number;
  readonly #onWorkDone: (() => void) | undefined;
  readonly #slots: Slot[] = [];
  readonly #waiting = new Map<number, Waiting & { slot: Slot }>();
  /** Work already running, by key: concurrent requests for one list share it. */
  readonly #inFlight = new Map<string, Promise<ListWorkResult>>();
  #nextId = 1;
  #closed = false;
  /** Work items posted to a worker (tests and diagnostics: shared work counts once). */
  posted = 0;

  /** Creates the pool; unless `eager`, no worker starts before the first {@linkcode ReaderPool.run}. */
  constructor(opts: ReaderPoolOptions) {
    this.#path = opts.path;
    this.#size = Math.max(1, Math.floor(opts.size ?? 2));
    this.#onWorkDone = opts.onWorkDone;
    if (opts.eager) { while (this.#slots.length < this.#size) this.#spawn(); }
  }

  #slot(): Slot {
    const idle = this.#slots.find((s) => s.pending === 0);
    if (idle) return idle;
    if (this.#slots.length < this.#size) return this.#spawn();
    return this.#slots.reduce((a, b) => (b.pending < a.pending ? b : a));
  }

  #spawn(): Slot {
    const worker = new Worker(new URL("./_reader_worker.ts", import.meta.url).href, {
      type: "module",
    });
    const slot: Slot = { worker, pending: 0 };
    worker.onmessage = (e: MessageEvent) => {
      const msg = e.data as { id: number; result?: ListWorkResult; error?: string };
      const w = this.#waiting.get(msg.id);
      if (!w) return;
      this.#waiting.delete(msg.id);
      slot.pending--;
      if (msg.error !== undefined) w.reject(new Error(msg.error));
      else w.resolve(msg.result!);
      // The worker's temporary copies of the list are freed by now. A listener that throws
      // would end the process: logged instead.
      try {
        this.#onWorkDone?.();
      } catch (err) {
        console.error("The reader pool's work-done callback failed:", err);
      }
    };
    worker.onerror = (e: ErrorEvent) => {
      e.preventDefault();
      for (const [id, w] of this.#waiting) {
        if (w.slot !== slot) continue;
        this.#waiting.delete(id);
        w.reject(new Error(`a reader worker failed: ${e.message}`));
      }
      // A worker that threw is gone: the next work starts a fresh one.
      worker.terminate();
      this.#slots.splice(this.#slots.indexOf(slot), 1);
    };
    worker.postMessage({ type: "open", path: this.#path });
    this.#slots.push(slot);
    return slot;
  }

  /**
   * Runs `work` in a worker; the same work asked for again while it runs
   * shares the first answer.
   *
   * @example
   * ```ts
   * import type { Catalog } from "./catalog.ts";
   * declare const catalog: Catalog, pool: ReaderPool;
   * const work = catalog.listWork("vacancies", { search: "аудит", agency: [3] });
   * if (work) catalog.primeList(work, await pool.run(work));
   * ```
   */
  run(work: ListWork): Promise<ListWorkResult> {
    if (this.#closed) return Promise.reject(new Error("the reader pool is closed"));
    const key = sharedKey(work);
    let p = this.#inFlight.get(key);
    if (p) return p;
    const slot = this.#slot();
    const id = this.#nextId++;
    p = new Promise<ListWorkResult>((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject, slot });
    }).finally(() => this.#inFlight.delete(key));
    slot.pending++;
    this.posted++;
    slot.worker.postMessage({ type: "run", id, work });
    this.#inFlight.set(key, p);
    return p;
  }

  /**
   * Makes the slow facts of a list request (count, id list) cached in
   * `catalog`, computing them in a worker when they are not, so the
   * following `catalog.list(plan)` or `catalog.listBody(plan, ...)` only walks indexes. When a
   * worker fails, the facts stay uncached and that call computes them itself.
   *
   * @example
   * ```ts
   * import type { Catalog } from "./catalog.ts";
   * declare const catalog: Catalog, pool: ReaderPool;
   * const plan = catalog.plan("vacancies", { search: "аудит", agency: [3], page: 900 });
   * await pool.prepare(catalog, plan);
   * const { count, docs } = catalog.list(plan);
   * ```
   */
  prepare(catalog: Catalog, plan: ListPlan): Promise<void>;
  prepare(catalog: Catalog, collection: ListCollection, q: ListQuery): Promise<void>;
  async prepare(
    catalog: Catalog,
    of: ListCollection | ListPlan,
    q: ListQuery = {},
  ): Promise<void> {
    const plan = typeof of === "string" ? catalog.plan(of, q) : of;
    // One trip (the count, and the ids when the page exists), and retries: a revision that
    // moved in between makes an answer stale.
    for (let round = 0; round < 3; round++) {
      const work = catalog.listWork(plan);
      if (!work) return;
      let result: ListWorkResult;
      const joined = this.#inFlight.has(sharedKey(work));
      try {
        result = await this.run(work);
      } catch {
        return;
      }
      // Work joined from another page's request may lack this page's ids (that page was past
      // the end): the next round asks for what is still missing, if anything.
      if (catalog.primeList(work, result) && !joined) return;
    }
  }

  /** Stops the workers; pending work is rejected. */
  close(): void {
    this.#closed = true;
    for (const s of this.#slots) s.worker.terminate();
    this.#slots.length = 0;
    for (const w of this.#waiting.values()) w.reject(new Error("the reader pool is closed"));
    this.#waiting.clear();
  }
}
