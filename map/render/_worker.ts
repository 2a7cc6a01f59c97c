/**
 * Render worker: one CanvasKit instance, the map services opened through
 * the loader named in the `init` message, and a loop that runs jobs.
 *
 * After each job it reports its wasm heap size and whether an allocation
 * failed; the pool then replaces the worker when the heap passed its limit
 * or the kit failed (see _heap_guard.ts), so the failure never reaches
 * later jobs.
 *
 * @module
 */
/// <reference lib="deno.worker" />
import { clearSpareSurfaces, heapBytes, type Kit, loadKit } from "./_canvaskit.ts";
import { checkJobFits, kitNeedsReplacing } from "./_heap_guard.ts";
import { runJob, transferablesOf } from "./jobs.ts";
import { mapResolverFor, type ServiceLoaderSpec, type ServiceMaps } from "./_loader.ts";
import { prepareStores, warmUpSteps } from "./_warmup.ts";
import { WorkerCollector } from "./_worker_gc.ts";
import type { MapResolver, RenderJob } from "./jobs.ts";
import type { RenderMap } from "./types.ts";
import type { JobTrace, WorkerError } from "./pool.ts";
import type { MapTiming } from "./draw_map.ts";
import { InvalidRequestError } from "../errors.ts";
import { adoptPolygonStore, type PolygonStoreData, setStorePublisher } from "./_geomstore.ts";
import { adoptPointStore, type PointStoreData, setPointStorePublisher } from "./_pointstore.ts";
import { useBuildCounter } from "./_store_age.ts";

// Stores this worker builds go to the pool, which hands them to the other workers.
setStorePublisher((data) => self.postMessage({ type: "store", data }));
setPointStorePublisher((data) => self.postMessage({ type: "store", data }));

let resolve: MapResolver | null = null;
let maps: ServiceMaps | null = null;
let heapLimitBytes = Infinity;
/** Rounds of full-size warm-up draws (more when the server waits for them: _warmup.ts). */
let warmUpRounds = 1;
/** The pool traces jobs: replies carry where their time went (see {@link JobTrace}). */
let tracing = false;
let collector = new WorkerCollector();
/** The end of the last queued piece of work: jobs and warm-up draws run one at a time, in turn. */
let tail: Promise<unknown> = Promise.resolve();
/** Pieces of work queued or running. */
let queued = 0;
/** When the last job ended (performance.now()): warm-up draws wait for a quiet moment. */
let lastJobEnd = -Infinity;
/** Quiet time after a job before a warm-up draw starts: a client's next view is likely sooner. */
const WARM_UP_QUIET_MS = 250;

/** Runs `work` after every piece queued before it (a job arriving mid-warm-up waits one draw). */
function inTurn<T>(work: () => T | Promise<T>): Promise<T> {
  queued++;
  const done = tail.then(work).finally(() => queued--);
  tail = done.catch(() => {});
  return done;
}

/**
 * Once the worker has been idle a moment and a collection is due, asks the pool for leave to
 * collect ("may-collect"); the pool grants it ("collect") only while it has sent no job here, and
 * sends none until "collected" (see _worker_gc.ts).
 */
function collectWhenIdle(): void {
  collector.whenIdle(() => queued > 0, () => self.postMessage({ type: "may-collect" }));
}

/** The pool granted an idle collection: runs it unless work arrived after all, and says so. */
function collectOnLeave(): void {
  const ran = queued === 0 && collector.collectGranted();
  self.postMessage({ type: "collected", collections: collector.collections, ran });
}

/** Resolves the step the pool last granted ("warm-step"); null while none is asked for. */
let grantWarmStep: (() => void) | null = null;
/**
 * When the last warm-up draw ended (ms since the epoch, as the pool's `sentAt`): a job sent
 * before then waited for that draw (reported in its reply).
 */
let warmStepEndedAt = -Infinity;

/**
 * Draws the start-up views, one at a time and each only with the pool's leave: the worker asks
 * ("may-warm") once it has had no job for a moment, and the pool grants the step ("warm-step")
 * only while no job is on its way here and another worker is free for jobs, so a request never
 * waits behind a warm-up draw while a worker could take it (see pool.ts). After each draw it
 * says "warm-stepped", with `done` after the last.
 */
async function warmUp(list: RenderMap[]): Promise<void> {
  try {
    const steps = warmUpSteps(await loadKit(), list, heapLimitBytes, warmUpRounds);
    let done = false;
    while (!done) {
      // While jobs come (a client's views 30-50 ms apart), the draws wait: a worker serving a
      // client is needed for its next view.
      do await new Promise((r) => setTimeout(r, queued > 0 ? 0 : 10)); while (
        queued > 0 || performance.now() - lastJobEnd < WARM_UP_QUIET_MS
      );
      await new Promise<void>((r) => {
        grantWarmStep = r;
        self.postMessage({ type: "may-warm" });
      });
      done = await inTurn(() => {
        try {
          return steps.next().done === true;
        } finally {
          warmStepEndedAt = performance.timeOrigin + performance.now();
        }
      });
      if (!done) self.postMessage({ type: "warm-stepped", done });
    }
  } catch {
    // Left to the requests that meet it.
  }
  self.postMessage({ type: "warm-stepped", done: true });
  // Building the stores and the warm-up draws leave garbage: collect it before traffic comes.
  collectWhenIdle();
}

function errorOf(err: unknown): WorkerError {
  if (err instanceof InvalidRequestError) {
    return { name: err.name, message: err.message, facts: err.facts };
  }
  return err instanceof Error
    ? { name: err.name, message: err.message }
    : { name: "Error", message: String(err) };
}

self.onmessage = async (e: MessageEvent) => {
  const msg = e.data as
    | {
      type: "init";
      loader: ServiceLoaderSpec | null;
      heapLimitBytes: number;
      /** Rounds of full-size warm-up draws (default 1). */
      warmUpRounds?: number;
      /** Growth of the heap after which the worker collects once idle (default: GcBudget's). */
      gcBudgetBytes?: number;
      /** Growth after which it collects between jobs at once (default: 4 budgets). */
      gcLimitBytes?: number;
      /** Quiet time before an idle collection (ms). */
      gcIdleMs?: number;
      /** Build the geometry stores of every map now (one worker of a pool does). */
      prepare?: boolean;
      /** The pool's build ticket counter (see _store_age.ts). */
      buildCounter?: SharedArrayBuffer;
      /** Report each job's times in its reply. */
      trace?: boolean;
    }
    | {
      type: "job";
      id: number;
      job: RenderJob;
      /** When the pool sent it, ms since the epoch. */
      sentAt: number;
    }
    | { type: "store"; data: PolygonStoreData | PointStoreData }
    | { type: "warm" }
    | { type: "warm-step" }
    | { type: "collect" };
  if (msg.type === "store") {
    if (msg.data.kind === "points") adoptPointStore(msg.data);
    else adoptPolygonStore(msg.data);
    return;
  }
  if (msg.type === "init") {
    heapLimitBytes = msg.heapLimitBytes;
    warmUpRounds = msg.warmUpRounds ?? 1;
    tracing = msg.trace === true;
    if (msg.buildCounter) useBuildCounter(msg.buildCounter);
    collector = new WorkerCollector({
      budgetBytes: msg.gcBudgetBytes,
      limitBytes: msg.gcLimitBytes,
      idleMs: msg.gcIdleMs,
    });
    // Warm up at start rather than on the first request: CanvasKit, fonts, and
    // the services (the lookup of no map fails, but only after loading them).
    loadKit().catch(() => {});
    maps = msg.loader ? mapResolverFor(msg.loader) : null;
    resolve = maps;
    if (maps && msg.prepare) {
      // The stores first (the pool shares them), then the warm-up; then the pool tells the
      // others to warm up from the stores.
      // "prepared" goes out with the stores, before the warm-up draws: the others warm up while
      // this one serves the first requests.
      maps.all().then((list) => {
        prepareStores(list);
        self.postMessage({ type: "prepared" });
        return warmUp(list);
      }, () => {
        self.postMessage({ type: "prepared" });
        self.postMessage({ type: "warm-stepped", done: true });
      });
    } else {
      Promise.resolve(resolve?.("", "")).catch(() => {});
      // Nothing to prepare or draw: the pool's other workers may go on, and this one is warm.
      if (!maps && msg.prepare) {
        self.postMessage({ type: "prepared" });
        self.postMessage({ type: "warm-stepped", done: true });
      }
    }
    return;
  }
  if (msg.type === "collect") {
    collectOnLeave();
    return;
  }
  if (msg.type === "warm") {
    if (!maps) self.postMessage({ type: "warm-stepped", done: true });
    maps?.all().then(
      (list) => warmUp(list),
      () => self.postMessage({ type: "warm-stepped", done: true }),
    );
    return;
  }
  if (msg.type === "warm-step") {
    const grant = grantWarmStep;
    grantWarmStep = null;
    grant?.();
    return;
  }
  // Work arrived: a pending idle collection would now delay it.
  const receivedAt = tracing ? _epochMs() : 0;
  collector.cancel();
  await inTurn(() => runOne(msg.id, msg.job, warmStepEndedAt > msg.sentAt, receivedAt));
  lastJobEnd = performance.now();
  if (queued === 0) collectWhenIdle();
};

/** Now, in ms since the epoch (comparable between threads, unlike performance.now()). */
function _epochMs(): number {
  return performance.timeOrigin + performance.now();
}

/**
 * Runs one job and replies (`behindWarmUp`: a warm-up draw ran after it was sent; `receivedAt`:
 * when its message arrived, traced jobs only); then collects garbage at once when it grew past
 * the limit (else the worker collects once idle), and says so when done.
 */
async function runOne(
  id: number,
  job: RenderJob,
  behindWarmUp: boolean,
  receivedAt: number,
): Promise<void> {
  let kit: Kit | null = null;
  // Set just before the reply, which tells the pool.
  let collecting = false;
  try {
    // Refused before drawing: nothing was allocated, so the worker stays.
    checkJobFits(job, heapLimitBytes);
  } catch (err) {
    self.postMessage({
      id,
      ok: false,
      error: errorOf(err),
      heapBytes: 0,
      retire: false,
      behindWarmUp,
    });
    return;
  }
  try {
    const startedAt = tracing ? _epochMs() : 0;
    const timing: MapTiming | undefined = tracing ? { drawMs: 0, encodeMs: 0 } : undefined;
    kit = await loadKit();
    const result = await runJob(kit, job, (service, map) => {
      if (!resolve) {
        throw new Error("This render worker has no service loader; map jobs cannot run here.");
      }
      return resolve(service, map);
    }, timing);
    collecting = collector.dueNow();
    const trace: JobTrace | undefined = timing && {
      receivedAt,
      startedAt,
      drawMs: timing.drawMs,
      encodeMs: timing.encodeMs,
      repliedAt: _epochMs(),
    };
    self.postMessage(
      {
        id,
        ok: true,
        result,
        heapBytes: heapBytes(kit),
        retire: kitNeedsReplacing(kit, heapLimitBytes),
        collections: collector.collections,
        collecting,
        behindWarmUp,
        trace,
      },
      { transfer: transferablesOf(result) },
    );
  } catch (err) {
    collecting = collector.dueNow();
    self.postMessage({
      id,
      ok: false,
      error: errorOf(err),
      heapBytes: kit ? heapBytes(kit) : 0,
      retire: kit ? kitNeedsReplacing(kit, heapLimitBytes, err) : true,
      collecting,
      behindWarmUp,
    });
  } finally {
    // The reply is on its way: the surface it was drawn on is cleared for the next job now,
    // while its pages are fresh, instead of at the start of that job. A kit that failed may
    // fail here too: the reply has said so, and the next job clears for itself.
    if (kit) {
      try {
        clearSpareSurfaces(kit);
      } catch { /* reported with the job */ }
    }
    // The job's garbage goes now, before the next job starts. The pool sends no job here
    // until "collected" (another worker takes it meanwhile).
    if (collecting) {
      collector.collectNow();
      self.postMessage({ type: "collected", collections: collector.collections, ran: true });
    }
  }
}
