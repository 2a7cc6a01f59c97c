/**
 * Where render jobs run: a pool of Deno workers (one CanvasKit each, sized
 * to the cores, 1-4) so the main thread only routes, or in process (tests,
 * or when no service loader is configured).
 *
 * @module
 */
import { loadKit } from "./_canvaskit.ts";
import type { ServiceLoaderSpec } from "./_loader.ts";
import { type JobResult, type MapResolver, type RenderJob, runJob } from "./jobs.ts";

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
}

/** Raised when the queue is full: the client should retry later. */
export class RenderBusyError extends Error {
  /** Creates the error. */
  constructor() {
    super("The server is busy rendering other requests; try again in a moment.");
    this.name = "RenderBusyError";
  }
}

interface Pending {
  id: number;
  job: RenderJob;
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
}

interface Slot {
  worker: Worker;
  busy: Pending | null;
}

function errorFrom(e: { name: string; message: string }): Error {
  const err = e.name === "RangeError" ? new RangeError(e.message) : new Error(e.message);
  err.name = e.name;
  return err;
}

/** A fixed pool of render workers with a FIFO queue. */
export class RenderPool implements Renderer {
  #slots: Slot[] = [];
  #queue: Pending[] = [];
  #nextId = 1;
  #closed = false;
  readonly #opts: RenderPoolOptions;
  readonly size: number;

  /** Starts the workers. */
  constructor(opts: RenderPoolOptions) {
    this.#opts = opts;
    const cores = navigator.hardwareConcurrency || 1;
    this.size = Math.max(1, Math.min(4, Math.floor(opts.size ?? cores)));
    if (!opts.lazy) this.#start();
  }

  #start(): void {
    for (let i = this.#slots.length; i < this.size; i++) this.#slots.push(this.#spawn());
  }

  #spawn(): Slot {
    const worker = new Worker(new URL("./_worker.ts", import.meta.url).href, { type: "module" });
    const slot: Slot = { worker, busy: null };
    worker.postMessage({ type: "init", loader: this.#opts.loader });
    worker.onmessage = (e: MessageEvent) => {
      const msg = e.data as {
        id: number;
        ok: boolean;
        result?: unknown;
        error?: { name: string; message: string };
      };
      const p = slot.busy;
      slot.busy = null;
      if (p && p.id === msg.id) {
        if (msg.ok) p.resolve(msg.result);
        else p.reject(errorFrom(msg.error ?? { name: "Error", message: "Render failed." }));
      }
      this.#pump();
    };
    worker.onerror = (e: ErrorEvent) => {
      e.preventDefault();
      // A crashed worker (e.g. out of wasm memory) is replaced; its job fails.
      const p = slot.busy;
      slot.busy = null;
      worker.terminate();
      const i = this.#slots.indexOf(slot);
      if (!this.#closed && i >= 0) this.#slots[i] = this.#spawn();
      p?.reject(new Error(`The render worker failed: ${e.message}`));
      this.#pump();
    };
    return slot;
  }

  #pump(): void {
    for (const slot of this.#slots) {
      if (slot.busy || this.#queue.length === 0) continue;
      const p = this.#queue.shift()!;
      slot.busy = p;
      slot.worker.postMessage({ type: "job", id: p.id, job: p.job });
    }
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
  }
}

/** Runs jobs on the calling thread (its own CanvasKit), resolving maps with `localResolve`. */
export class InProcessRenderer implements Renderer {
  /** Runs a job now. */
  async run<J extends RenderJob>(job: J, localResolve?: MapResolver): Promise<JobResult<J>> {
    const kit = await loadKit();
    return runJob(
      kit,
      job,
      localResolve ?? (() => {
        throw new Error("No map resolver was given to the in-process renderer.");
      }),
    );
  }

  /** Nothing to release. */
  close(): void {}
}

let shared: Renderer | null = null;

/**
 * The process-wide renderer: the pool set with {@link configureRenderer},
 * or an in-process renderer.
 *
 * @example
 * ```ts
 * const result = await sharedRenderer().run(job, resolve);
 * ```
 */
export function sharedRenderer(): Renderer {
  shared ??= new InProcessRenderer();
  return shared;
}

/**
 * Starts the shared worker pool (call once at server start-up) and returns it.
 *
 * @example
 * ```ts
 * configureRenderer({ loader: { module: new URL("./map/document/mod.ts", import.meta.url).href,
 *   export: "loadServices", args: [mapsDir] } });
 * ```
 */
export function configureRenderer(opts: RenderPoolOptions): Renderer {
  shared?.close();
  shared = new RenderPool(opts);
  return shared;
}

/**
 * Starts the shared worker pool for services loaded from map documents:
 * each worker calls map/document's `loadServices({ mapsDir, catalogPath })`
 * itself (the recruitment database is opened read-only per worker).
 *
 * @example
 * ```ts
 * configureRendererForDocuments({ mapsDir: values.maps, catalogPath: "var/catalog.db" });
 * ```
 */
export function configureRendererForDocuments(
  opts: {
    mapsDir?: string;
    catalogPath?: string;
    allowPathsOutside?: boolean;
    size?: number;
    lazy?: boolean;
  },
): Renderer {
  return configureRenderer({
    size: opts.size,
    lazy: opts.lazy,
    loader: {
      module: new URL("../document/mod.ts", import.meta.url).href,
      export: "loadServices",
      args: [{
        mapsDir: opts.mapsDir,
        catalogPath: opts.catalogPath,
        allowPathsOutside: opts.allowPathsOutside,
      }],
    },
  });
}

/** Replaces the shared renderer (tests), returning the previous one. */
export function setSharedRenderer(r: Renderer | null): Renderer | null {
  const prev = shared;
  shared = r;
  return prev;
}
