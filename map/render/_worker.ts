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
import { heapBytes, type Kit, loadKit } from "./_canvaskit.ts";
import { checkJobFits, kitNeedsReplacing } from "./_heap_guard.ts";
import { runJob, transferablesOf } from "./jobs.ts";
import { mapResolverFor, type ServiceLoaderSpec, type ServiceMaps } from "./_loader.ts";
import { warmUpMaps } from "./_warmup.ts";
import { GcBudget } from "./collect.ts";
import type { MapResolver, RenderJob } from "./jobs.ts";
import type { WorkerError } from "./pool.ts";
import { InvalidRequestError } from "../errors.ts";
import {
  adoptPolygonStore,
  type PolygonStoreData,
  preparePolygonStores,
  setStorePublisher,
} from "./_geomstore.ts";
import { adoptPointStore, type PointStoreData, setPointStorePublisher } from "./_pointstore.ts";

// Stores this worker builds go to the pool, which hands them to the other workers.
setStorePublisher((data) => self.postMessage({ type: "store", data }));
setPointStorePublisher((data) => self.postMessage({ type: "store", data }));

let resolve: MapResolver | null = null;
let maps: ServiceMaps | null = null;
let heapLimitBytes = Infinity;
let collector = new GcBudget();

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
      /** Growth of the heap that triggers a collection between jobs (default: GcBudget's). */
      gcBudgetBytes?: number;
      /** Build the geometry stores of every map now (one worker of a pool does). */
      prepare?: boolean;
    }
    | { type: "job"; id: number; job: RenderJob }
    | { type: "store"; data: PolygonStoreData | PointStoreData }
    | { type: "warm" };
  if (msg.type === "store") {
    if (msg.data.kind === "points") adoptPointStore(msg.data);
    else adoptPolygonStore(msg.data);
    return;
  }
  if (msg.type === "init") {
    heapLimitBytes = msg.heapLimitBytes;
    if (msg.gcBudgetBytes !== undefined) collector = new GcBudget(msg.gcBudgetBytes);
    // Warm up at start rather than on the first request: CanvasKit, fonts, and
    // the services (the lookup of no map fails, but only after loading them).
    loadKit().catch(() => {});
    maps = msg.loader ? mapResolverFor(msg.loader) : null;
    resolve = maps;
    if (maps && msg.prepare) {
      // The stores first (the pool shares them), then tell the pool the others may warm up.
      maps.all().then(async (list) => {
        preparePolygonStores(list);
        warmUpMaps(await loadKit(), list, heapLimitBytes);
      }).catch(() => {}).finally(() => self.postMessage({ type: "prepared" }));
    } else Promise.resolve(resolve?.("", "")).catch(() => {});
    return;
  }
  if (msg.type === "warm") {
    maps?.all().then(async (list) => warmUpMaps(await loadKit(), list, heapLimitBytes))
      .catch(() => {})
      .finally(() => self.postMessage({ type: "warmed" }));
    return;
  }
  let kit: Kit | null = null;
  try {
    // Refused before drawing: nothing was allocated, so the worker stays.
    checkJobFits(msg.job, heapLimitBytes);
  } catch (err) {
    self.postMessage({ id: msg.id, ok: false, error: errorOf(err), heapBytes: 0, retire: false });
    return;
  }
  try {
    kit = await loadKit();
    const result = await runJob(kit, msg.job, (service, map) => {
      if (!resolve) {
        throw new Error("This render worker has no service loader; map jobs cannot run here.");
      }
      return resolve(service, map);
    });
    self.postMessage(
      {
        id: msg.id,
        ok: true,
        result,
        heapBytes: heapBytes(kit),
        retire: kitNeedsReplacing(kit, heapLimitBytes),
        collections: collector.collections,
      },
      { transfer: transferablesOf(result) },
    );
  } catch (err) {
    self.postMessage({
      id: msg.id,
      ok: false,
      error: errorOf(err),
      heapBytes: kit ? heapBytes(kit) : 0,
      retire: kit ? kitNeedsReplacing(kit, heapLimitBytes, err) : true,
    });
  } finally {
    // The reply is on its way; the job's garbage goes now, before the next job starts.
    collector.check();
  }
};
