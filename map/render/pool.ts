/**
 * Where render jobs run: a pool of Deno workers (one CanvasKit each, sized
 * to the cores, 1-4) so the main thread only routes, or in process (tests,
 * or when no service loader is configured).
 *
 * Background work never holds up a job while a worker could take it: a
 * worker's start-up draws (_warmup.ts) and its idle garbage collections run
 * one at a time, each with the pool's leave, which it grants only while no
 * job waits and another worker stays able to take the next one; jobs go to a
 * warmed-up worker first. The first worker builds the geometry stores and
 * says "prepared" before its own warm-up, so the others warm up while it
 * serves the first requests (`RENDER_TRACE=1` traces jobs and grants). A
 * server that can wait, `serve --render-start eager`, awaits
 * {@link RenderPool.warmUp} before it listens: the workers then warm up side
 * by side, and no request meets that work at all.
 *
 * Memory: each worker's wasm heap is bounded by `heapLimitMb`. A worker
 * whose heap passed it after a job, or whose job failed to allocate, is
 * replaced by a fresh one before it takes another job (the wasm heap never
 * shrinks, and an exhausted one would fail every later request).
 *
 * @module
 */
import {
  DataUnavailableError,
  InvalidRequestError,
  type RequestFacts,
  ServerBusyError,
} from "../errors.ts";
import { discardKit, loadKit } from "./_canvaskit.ts";
import { checkJobFits, DEFAULT_HEAP_LIMIT_MB, kitNeedsReplacing } from "./_heap_guard.ts";
import type { ServiceLoaderSpec } from "./_loader.ts";
import { type PolygonStoreData, storeBytes } from "./_geomstore.ts";
import { pointStoreBytes, type PointStoreData } from "./_pointstore.ts";
import { supersedes } from "./_store_age.ts";
import { type JobResult, type MapResolver, type RenderJob, runJob } from "./jobs.ts";
import { ROUNDS_BEFORE_REQUESTS } from "./_warmup.ts";

export type { ServiceLoaderSpec };

/** Something that runs render jobs. */
export interface Renderer {
  /**
   * Runs a job. `localResolve` is used by the in-process renderer only
   * (a pool's workers open their own services).
   */
  run<J extends RenderJob>(job: J, localResolve?: MapResolver): Promise<JobResult<J>>;
  /** Stops workers; pending jobs are rejected. */
  close(): void;
}

/** Options of {@link RenderPool}. */
export interface RenderPoolOptions {
  /** Worker count; default: cores, clamped to 1..4. */
  size?: number;
  /** How workers open the map services (needed for map jobs). */
  loader: ServiceLoaderSpec | null;
  /** Most jobs waiting for a worker before new ones are refused (default 256). */
  maxQueue?: number;
  /**
   * Start the workers with the first job instead of at once (default false).
   * Each worker holds a CanvasKit instance and its own copy of the services
   * (~120 MB), which a server that is only asked for JSON never needs.
   */
  lazy?: boolean;
  /**
   * Wasm heap limit of each worker in MiB (default 512): a job whose image
   * alone needs more is refused, and a worker whose heap passed it after a
   * job is replaced.
   */
  heapLimitMb?: number;
  /**
   * Growth of a worker's heap and buffers, in MiB, after which it collects
   * its garbage once it has been idle `gcIdleMs` (default 32; only when the
   * process runs with `--expose-gc`, see collect.ts and _worker_gc.ts).
   */
  gcBudgetMb?: number;
  /** Growth after which a worker collects between two jobs at once (default: 4 budgets). */
  gcLimitMb?: number;
  /** Quiet time of a worker before its due collection runs (default 100 ms). */
  gcIdleMs?: number;
  /**
   * Per-job trace (off by default): called once a job is answered with its queue wait, run
   * time, worker and that worker's state when the job was handed to it.
   */
  trace?: (line: string) => void;
}

/** What a pool has done about memory (diagnostics and tests). */
export interface RenderPoolStats {
  /** Workers replaced: heap over the limit, a failed allocation, or a crash. */
  recycled: number;
  /** Wasm heap of each worker after its last job (0 before its first). */
  heapBytes: number[];
  /**
   * Geometry stores (polygon rings, point layers) built by the workers,
   * duplicates included (one per source revision, and per filter and
   * renderer for points, when shared).
   */
  storeBuilds: number;
  /** Workers that finished their start-up draws (replacements included). */
  warmedWorkers: number;
  /** Bytes of the geometry stores all workers share (held once, whatever the pool size). */
  sharedStoreBytes: number;
  /** Garbage collections the current workers ran between jobs, as of their last replies. */
  collections: number;
  /** Jobs each current worker answered (a replacement starts at 0). */
  jobs: number[];
  /** Jobs that reached a worker while it collected its garbage, and waited for it. */
  jobsBehindCollection: number;
  /**
   * Jobs that waited for a warm-up draw of their worker (one ran between the job's sending and
   * its start): none while another worker is free (see {@link RenderPool}).
   */
  jobsBehindWarmUp: number;
  /** Warm-up draws the pool granted its workers (replacements included). */
  warmUpSteps: number;
}

/** Raised when the queue is full: the client should retry later. */
export class RenderBusyError extends ServerBusyError {
  /** Creates the error. */
  constructor() {
    super("The server is busy rendering other requests; try again in a moment.");
    this.name = "RenderBusyError";
  }
}

interface Pending {
  id: number;
  /** When it was queued and handed to a worker (performance.now(), with a trace only). */
  queuedAt?: number;
  sentAt?: number;
  /** When it was handed to a worker, ms since the epoch (with a trace only). */
  sentAtEpoch?: number;
  /** The worker's index and state when it got the job (with a trace only). */
  sentTo?: string;
  job: RenderJob;
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
}

interface Slot {
  worker: Worker;
  busy: Pending | null;
  /** Collecting its garbage after a job: it takes the next job only when done. */
  collecting: boolean;
  /** Finished its start-up draws: preferred for jobs over a worker still warming up. */
  warm: boolean;
  /** Builds the stores for the others (until it says "prepared"). */
  preparing: boolean;
  /** Asked for leave to collect its garbage ("may-collect"). */
  wantsCollect: boolean;
  /** Asked for leave to draw its next warm-up view ("may-warm"). */
  wantsWarmStep: boolean;
  /** Drawing a warm-up view with the pool's leave: it takes no job until "warm-stepped". */
  warmStepping: boolean;
  heapBytes: number;
  collections: number;
  /** Jobs it answered. */
  jobs: number;
}

/** A worker's answer to a job. */
interface JobReply {
  id: number;
  ok: boolean;
  result?: unknown;
  error?: WorkerError;
  /** Its wasm heap after the job. */
  heapBytes: number;
  /** Whether it must be replaced (heap over the limit, or its kit failed). */
  retire: boolean;
  /** Collections it ran between jobs so far (before this job's, which follows the reply). */
  collections?: number;
  /** It collects its garbage now, and sends "collected" when done. */
  collecting?: boolean;
  /** A warm-up draw ran between the job's sending and its start. */
  behindWarmUp?: boolean;
  /** Where the job's time went (traced pools only). */
  trace?: JobTrace;
}

/**
 * Where a traced job's time went in its worker (ms since the epoch, comparable between threads,
 * and ms): the pool's trace line shows the hops, the wait for the worker's turn, the draw and
 * the encoding.
 */
export interface JobTrace {
  /** When the job's message reached the worker. */
  receivedAt: number;
  /** When the worker began it (after the piece of work before it, if any). */
  startedAt: number;
  /** Drawing (map jobs; 0 for others). */
  drawMs: number;
  /** Encoding (map jobs; 0 for others). */
  encodeMs: number;
  /** When the worker posted the reply. */
  repliedAt: number;
}

/** An error as a worker sends it; `facts` is set for the client's errors. */
export interface WorkerError {
  name: string;
  message: string;
  facts?: RequestFacts;
}

/** MiB to bytes; undefined stays undefined (the worker's default). */
function mib(v: number | undefined): number | undefined {
  return v === undefined ? undefined : v * 2 ** 20;
}

/**
 * Rebuilds a worker's error; only an InvalidRequestError stays the client's
 * fault, and a DataUnavailableError keeps its message for the client.
 */
function errorFrom(e: WorkerError): Error {
  const err = e.facts
    ? new InvalidRequestError(e.message, e.facts)
    : e.name === "DataUnavailableError"
    ? new DataUnavailableError(e.message)
    : new Error(e.message);
  err.name = e.name;
  return err;
}

/** A fixed pool of render workers with a FIFO queue. */
export class RenderPool implements Renderer {
  #slots: Slot[] = [];
  #queue: Pending[] = [];
  #nextId = 1;
  #closed = false;
  #recycled = 0;
  #behindCollection = 0;
  #behindWarmUp = 0;
  #warmUpSteps = 0;
  #storeBuilds = 0;
  #prepared = false;
  #warmed = 0;
  /**
   * Callers of {@link RenderPool.warmUp} waiting for every worker to be warm; while any waits
   * and no job is queued or running, warm-up draws need not leave a worker free for jobs.
   */
  #warmWaiters: (() => void)[] = [];
  readonly #stores = new Map<string, PolygonStoreData | PointStoreData>();
  /** Build tickets of the workers' stores (see _store_age.ts). */
  readonly #buildCounter = new SharedArrayBuffer(4);
  readonly #opts: RenderPoolOptions;
  readonly #heapLimitBytes: number;
  readonly size: number;

  /** Starts the workers. */
  constructor(opts: RenderPoolOptions) {
    this.#opts = opts;
    this.#heapLimitBytes = (opts.heapLimitMb ?? DEFAULT_HEAP_LIMIT_MB) * 2 ** 20;
    const cores = navigator.hardwareConcurrency || 1;
    this.size = Math.max(1, Math.min(4, Math.floor(opts.size ?? cores)));
    if (!opts.lazy) this.#start();
  }

  /** Starts the workers; `warmUpRounds` of full-size warm-up draws each (_warmup.ts). */
  #start(warmUpRounds = 1): void {
    // One worker builds the geometry stores at start; the others receive them.
    for (let i = this.#slots.length; i < this.size; i++) {
      this.#slots.push(this.#spawn(i === 0 && this.#stores.size === 0, warmUpRounds));
    }
  }

  #spawn(prepare = false, warmUpRounds = 1): Slot {
    const worker = new Worker(new URL("./_worker.ts", import.meta.url).href, { type: "module" });
    const slot: Slot = {
      worker,
      busy: null,
      collecting: false,
      warm: false,
      preparing: prepare,
      wantsCollect: false,
      wantsWarmStep: false,
      warmStepping: false,
      heapBytes: 0,
      collections: 0,
      jobs: 0,
    };
    worker.postMessage({
      type: "init",
      loader: this.#opts.loader,
      heapLimitBytes: this.#heapLimitBytes,
      gcBudgetBytes: mib(this.#opts.gcBudgetMb),
      gcLimitBytes: mib(this.#opts.gcLimitMb),
      gcIdleMs: this.#opts.gcIdleMs,
      prepare,
      warmUpRounds,
      buildCounter: this.#buildCounter,
      trace: this.#opts.trace !== undefined,
    });
    for (const data of this.#stores.values()) worker.postMessage({ type: "store", data });
    if (this.#prepared) worker.postMessage({ type: "warm" });
    const onMessage = (e: MessageEvent) => {
      const type = (e.data as { type?: string }).type;
      if (type === "store") {
        this.#shareStore(slot, (e.data as { data: PolygonStoreData | PointStoreData }).data);
        return;
      }
      if (type === "may-collect") {
        // An idle worker asks to collect: granted by #pump.
        slot.wantsCollect = true;
        this.#pump();
        return;
      }
      if (type === "collected") {
        const m = e.data as { collections: number; ran: boolean };
        // A job posted before the worker collected waited for it (never, when leave is asked).
        if (m.ran && slot.busy) this.#behindCollection++;
        slot.collecting = false;
        slot.collections = m.collections;
        this.#pump();
        return;
      }
      if (type === "may-warm") {
        slot.wantsWarmStep = true;
        this.#opts.trace?.(`render warm-up draw asked by worker ${this.#slots.indexOf(slot)}`);
        this.#pump();
        return;
      }
      if (type === "warm-stepped") {
        if (slot.warmStepping) {
          this.#opts.trace?.(`render warm-up draw by worker ${this.#slots.indexOf(slot)} done`);
        }
        slot.warmStepping = false;
        if ((e.data as { done: boolean }).done && !slot.warm) {
          slot.warm = true;
          this.#warmed++;
          this.#settleWarmWaiters();
        }
        this.#pump();
        return;
      }
      if (type === "prepared") {
        slot.preparing = false;
        // The stores went out before this message, so the others warm up from them, while this
        // one serves the first requests.
        this.#prepared = true;
        for (const s of this.#slots) if (s !== slot) s.worker.postMessage({ type: "warm" });
        this.#pump();
        return;
      }
      const msg = e.data as JobReply;
      const p = slot.busy;
      slot.busy = null;
      slot.heapBytes = msg.heapBytes;
      slot.collections = msg.collections ?? slot.collections;
      slot.collecting = msg.collecting === true;
      slot.jobs++;
      if (msg.behindWarmUp) this.#behindWarmUp++;
      // The worker is idle now (one job at a time), so replacing it loses nothing;
      // queued jobs go to the new one.
      if (msg.retire) this.#replace(slot);
      if (p && p.id === msg.id) {
        if (this.#opts.trace) this.#trace(p, msg);
        if (msg.ok) p.resolve(msg.result);
        else p.reject(errorFrom(msg.error ?? { name: "Error", message: "Render failed." }));
      }
      this.#pump();
    };
    const onError = (e: ErrorEvent) => {
      // A crashed worker (e.g. out of wasm memory) is replaced; its job fails.
      const p = slot.busy;
      slot.busy = null;
      this.#replace(slot);
      p?.reject(new Error(`The render worker failed: ${e.message}`));
      this.#pump();
    };
    // What a listener throws would end the process: the pool logs it and goes on.
    worker.onmessage = (e: MessageEvent) => {
      try {
        onMessage(e);
      } catch (err) {
        console.error("The render pool could not handle a worker's message:", err);
      }
    };
    worker.onerror = (e: ErrorEvent) => {
      e.preventDefault();
      try {
        onError(e);
      } catch (err) {
        console.error("The render pool could not replace a failed worker:", err);
      }
    };
    return slot;
  }

  /**
   * A worker built a geometry store: the first of its key and revision is
   * kept and sent to every other worker (shared memory, not copied); a
   * duplicate (two workers built it at once), or a store of older data than
   * one kept (a build that began before a change and ended after a newer
   * one), is answered with the kept one, so the builder drops its own copy.
   */
  #shareStore(from: Slot, data: PolygonStoreData | PointStoreData): void {
    this.#storeBuilds++;
    const kept = this.#stores.get(data.key);
    if (kept && (kept.revision === data.revision || !supersedes(data, kept))) {
      from.worker.postMessage({ type: "store", data: kept });
      return;
    }
    if (data.kind === "points") {
      // Workers keep a few point stores each (other filters and renderers): the pool keeps the
      // newest of each source's current revision, for workers that start later.
      const same = [...this.#stores.values()].filter((d) =>
        d.kind === "points" && d.source === data.source
      );
      // Another key of this source already holds newer data: this one is not shared.
      if (same.some((d) => !supersedes(data, d))) return;
      this.#stores.delete(data.key);
      for (const d of same) if (d.revision !== data.revision) this.#stores.delete(d.key);
      const current = same.filter((d) => d.revision === data.revision);
      for (const d of current.slice(0, Math.max(0, current.length - 5))) {
        this.#stores.delete(d.key);
      }
    }
    this.#stores.set(data.key, data);
    for (const s of this.#slots) if (s !== from) s.worker.postMessage({ type: "store", data });
  }

  /** Reports an answered job to the trace. */
  #trace(p: Pending, msg: JobReply): void {
    const now = performance.now(), sent = p.sentAt ?? now, queued = p.queuedAt ?? sent;
    this.#opts.trace?.(
      `render job ${p.id} ${p.job.kind}: queued ${(sent - queued).toFixed(1)} ms, ` +
        `on ${p.sentTo} ${(now - sent).toFixed(1)} ms, ok ${msg.ok}, ` +
        `collections ${msg.collections ?? "?"}, behind collection ${this.#behindCollection}, ` +
        `behind warm-up ${msg.behindWarmUp === true}` + this.#phases(p, msg.trace),
    );
  }

  /** A traced job's phases in its worker: hops, wait for its turn, draw, encode. */
  #phases(p: Pending, t: JobTrace | undefined): string {
    if (!t || p.sentAtEpoch === undefined) return "";
    const ms = (v: number) => v.toFixed(2);
    return `; hop ${ms(t.receivedAt - p.sentAtEpoch)} ms, turn ${
      ms(t.startedAt - t.receivedAt)
    }, ` +
      `draw ${ms(t.drawMs)}, encode ${ms(t.encodeMs)}, ` +
      `rest ${ms(t.repliedAt - t.startedAt - t.drawMs - t.encodeMs)}, ` +
      `reply hop ${ms(performance.timeOrigin + performance.now() - t.repliedAt)}`;
  }

  /** Terminates an idle slot's worker and puts a fresh one in its place. */
  #replace(slot: Slot): void {
    slot.worker.terminate();
    const i = this.#slots.indexOf(slot);
    if (this.#closed || i < 0) return;
    // Replaced before it finished preparing (jobs run between its warm-up draws): its
    // replacement prepares, or no other worker would ever be told to warm up.
    this.#slots[i] = this.#spawn(slot.preparing);
    this.#recycled++;
  }

  /** Jobs queued or running (the main thread defers its own collection meanwhile, main.ts). */
  get pending(): number {
    return this.#queue.length + this.#slots.filter((s) => s.busy).length;
  }

  /** Workers replaced so far and each worker's last reported heap. */
  stats(): RenderPoolStats {
    return {
      recycled: this.#recycled,
      heapBytes: this.#slots.map((s) => s.heapBytes),
      storeBuilds: this.#storeBuilds,
      warmedWorkers: this.#warmed,
      sharedStoreBytes: [...this.#stores.values()].reduce(
        (n, d) => n + (d.kind === "points" ? pointStoreBytes(d) : storeBytes(d)),
        0,
      ),
      collections: this.#slots.reduce((n, s) => n + s.collections, 0),
      jobs: this.#slots.map((s) => s.jobs),
      jobsBehindCollection: this.#behindCollection,
      jobsBehindWarmUp: this.#behindWarmUp,
      warmUpSteps: this.#warmUpSteps,
    };
  }

  /** Takes jobs now: not busy, collecting or drawing a warm-up view. */
  #free(s: Slot): boolean {
    return !s.busy && !s.collecting && !s.warmStepping;
  }

  /**
   * Hands queued jobs to free workers: not one busy with a job, collecting
   * its garbage or drawing a warm-up view (the job would wait for it while
   * another worker is idle), and a warmed-up one before one still warming
   * up. Then grants warm-up draws: one at a time per worker, while no job
   * waits and another worker stays free for the next one (in a pool of one,
   * whenever it is idle: the worker asks only after a quiet moment).
   */
  #pump(): void {
    while (this.#queue.length > 0) {
      let slot: Slot | undefined;
      let warmCollecting = false;
      for (const s of this.#slots) {
        if (s.busy) continue;
        if (s.collecting) {
          warmCollecting ||= s.warm;
          continue;
        }
        if (s.warmStepping) continue;
        if (s.warm) {
          slot = s;
          break;
        }
        slot ??= s;
      }
      // A warmed-up worker that is collecting is free in a moment; one still warming up would
      // run the job cold: the job waits for the collection ("collected" pumps).
      if (slot && !slot.warm && warmCollecting) return;
      if (!slot) return;
      const p = this.#queue.shift()!;
      slot.busy = p;
      if (this.#opts.trace) {
        p.sentAt = performance.now();
        p.sentAtEpoch = performance.timeOrigin + p.sentAt;
        p.sentTo = `worker ${this.#slots.indexOf(slot)} ${slot.warm ? "warm" : "warming"}`;
      }
      slot.worker.postMessage({
        type: "job",
        id: p.id,
        job: p.job,
        sentAt: performance.timeOrigin + performance.now(),
      });
    }
    if (this.#closed || this.#queue.length > 0) return;
    const single = this.#slots.length === 1;
    // A collection only while another worker is free for the next job (that job would wait
    // behind it); refused, the worker asks again once idle after its next job.
    for (const s of this.#slots) {
      if (!s.wantsCollect || !this.#free(s)) continue;
      if (!single && !this.#slots.some((o) => o !== s && this.#free(o))) continue;
      s.wantsCollect = false;
      s.collecting = true;
      s.worker.postMessage({ type: "collect" });
      this.#opts.trace?.(`render collection granted to worker ${this.#slots.indexOf(s)}`);
    }
    // A warm-up draw while another worker is not drawing one nor collecting, so a job never
    // waits for background work on every worker; a worker drawing a job may draw beside it.
    // Before the server takes requests (warmUp() pending, no job queued or running), every
    // worker draws at once.
    const beforeRequests = this.#warmWaiters.length > 0 && this.pending === 0;
    for (const s of this.#slots) {
      if (!s.wantsWarmStep || !this.#free(s)) continue;
      if (
        !single && !beforeRequests &&
        !this.#slots.some((o) => o !== s && !o.warmStepping && !o.collecting)
      ) {
        continue;
      }
      s.wantsWarmStep = false;
      s.warmStepping = true;
      this.#warmUpSteps++;
      s.worker.postMessage({ type: "warm-step" });
      this.#opts.trace?.(
        `render warm-up draw ${this.#warmUpSteps} granted to worker ${this.#slots.indexOf(s)}`,
      );
    }
  }

  /**
   * Starts the workers now (a lazy pool too) and resolves once every one of
   * them has built or received the geometry stores and drawn its start-up
   * views (_warmup.ts), with `true`; with `false` when `timeoutMs` passed
   * first or the pool was closed. A server awaits it before it listens, so
   * no client's view runs on a worker still warming up, or beside its
   * warm-up draws; meanwhile the workers draw at once, not one at a time.
   * A worker that fails to warm up (no CanvasKit, a map that does not draw)
   * counts as warm: its requests report the error.
   *
   * @example
   * ```ts
   * import { RenderPool } from "./pool.ts";
   * const pool = new RenderPool({ loader: null, size: 1, lazy: true });
   * await pool.warmUp(30_000); // true
   * pool.close();
   * ```
   */
  warmUp(timeoutMs = 120_000): Promise<boolean> {
    if (this.#closed) return Promise.resolve(false);
    // Workers started here warm up before any request: more rounds delay no client.
    if (this.#slots.length === 0) this.#start(ROUNDS_BEFORE_REQUESTS);
    if (this.#allWarm()) return Promise.resolve(true);
    return new Promise((resolve) => {
      let timer: ReturnType<typeof setTimeout> | undefined = undefined;
      const done = (warm: boolean) => {
        clearTimeout(timer);
        this.#warmWaiters = this.#warmWaiters.filter((w) => w !== waiter);
        resolve(warm);
      };
      const waiter = () => done(!this.#closed && this.#allWarm());
      timer = setTimeout(() => done(false), timeoutMs);
      this.#warmWaiters.push(waiter);
      // Workers that asked for a warm-up draw before now may all draw at once.
      this.#pump();
    });
  }

  #allWarm(): boolean {
    return this.#slots.length > 0 && this.#slots.every((s) => s.warm);
  }

  /** Resolves the warmUp() callers once every worker is warm (or the pool closed). */
  #settleWarmWaiters(): void {
    if (this.#closed || this.#allWarm()) { for (const w of [...this.#warmWaiters]) w(); }
  }

  /** Runs a job on the next free worker. */
  run<J extends RenderJob>(job: J): Promise<JobResult<J>> {
    if (this.#closed) return Promise.reject(new Error("The render pool is closed."));
    if (this.#slots.length === 0) this.#start();
    if (this.#queue.length >= (this.#opts.maxQueue ?? 256)) {
      return Promise.reject(new RenderBusyError());
    }
    return new Promise((resolve, reject) => {
      this.#queue.push({
        id: this.#nextId++,
        queuedAt: this.#opts.trace ? performance.now() : undefined,
        job,
        resolve: resolve as (v: unknown) => void,
        reject,
      });
      this.#pump();
    });
  }

  /** Terminates the workers and rejects queued and running jobs. */
  close(): void {
    this.#closed = true;
    const err = new Error("The render pool was closed.");
    for (const s of this.#slots) {
      s.worker.terminate();
      s.busy?.reject(err);
    }
    for (const p of this.#queue) p.reject(err);
    this.#queue = [];
    this.#slots = [];
    this.#settleWarmWaiters();
  }
}

/** Options of {@link InProcessRenderer}. */
export interface InProcessRendererOptions {
  /** Wasm heap limit of the thread's CanvasKit in MiB (default 512), as in {@link RenderPool}. */
  heapLimitMb?: number;
}

/**
 * Runs jobs on the calling thread (its own CanvasKit), resolving maps with
 * `localResolve`. The thread's CanvasKit is dropped for a fresh one when its
 * heap passes the limit or an allocation fails.
 */
export class InProcessRenderer implements Renderer {
  readonly #heapLimitBytes: number;
  #pending = 0;

  /** Creates the renderer. */
  constructor(opts: InProcessRendererOptions = {}) {
    this.#heapLimitBytes = (opts.heapLimitMb ?? DEFAULT_HEAP_LIMIT_MB) * 2 ** 20;
  }

  /** Jobs running (as {@link RenderPool.pending}). */
  get pending(): number {
    return this.#pending;
  }

  /** Runs a job now. */
  async run<J extends RenderJob>(job: J, localResolve?: MapResolver): Promise<JobResult<J>> {
    this.#pending++;
    try {
      return await this.#run(job, localResolve);
    } finally {
      this.#pending--;
    }
  }

  async #run<J extends RenderJob>(job: J, localResolve?: MapResolver): Promise<JobResult<J>> {
    checkJobFits(job, this.#heapLimitBytes);
    const kit = await loadKit();
    let result: JobResult<J>;
    try {
      result = await runJob(
        kit,
        job,
        localResolve ?? (() => {
          throw new Error("No map resolver was given to the in-process renderer.");
        }),
      );
    } catch (err) {
      if (kitNeedsReplacing(kit, this.#heapLimitBytes, err)) discardKit(kit);
      throw err;
    }
    if (kitNeedsReplacing(kit, this.#heapLimitBytes)) discardKit(kit);
    return result;
  }

  /** Nothing to release. */
  close(): void {}
}

/**
 * A worker pool for services loaded from map documents: each worker calls
 * map/document's `loadServices({ mapsDir, catalogPath, catalogModule })`
 * itself (the recruitment database is opened read-only per worker, by the
 * application's `catalogModule`). The caller owns the
 * pool and closes it.
 *
 * @example
 * ```ts
 * const renderer = documentRenderPool({
 *   catalogPath: "var/catalog.db",
 *   catalogModule: new URL("../../data/mod.ts", import.meta.url).href,
 *   lazy: true,
 * });
 * renderer.close();
 * ```
 */
export function documentRenderPool(
  opts: {
    mapsDir?: string;
    catalogPath?: string;
    catalogModule?: string;
    allowPathsOutside?: boolean;
    size?: number;
    lazy?: boolean;
    heapLimitMb?: number;
    trace?: (line: string) => void;
  },
): RenderPool {
  return new RenderPool({
    trace: opts.trace,
    size: opts.size,
    lazy: opts.lazy,
    heapLimitMb: opts.heapLimitMb,
    loader: {
      module: new URL("../document/mod.ts", import.meta.url).href,
      export: "loadServices",
      args: [{
        mapsDir: opts.mapsDir,
        catalogPath: opts.catalogPath,
        catalogModule: opts.catalogModule,
        allowPathsOutside: opts.allowPathsOutside,
      }],
    },
  });
}
