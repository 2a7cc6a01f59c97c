/**
 * Render worker: one CanvasKit instance, the map services opened through
 * the loader named in the `init` message, and a loop that runs jobs.
 *
 * @module
 */
/// <reference lib="deno.worker" />
import { loadKit } from "./_canvaskit.ts";
import { runJob, transferablesOf } from "./jobs.ts";
import { mapResolverFor, type ServiceLoaderSpec } from "./_loader.ts";
import type { MapResolver, RenderJob } from "./jobs.ts";

let resolve: MapResolver | null = null;

self.onmessage = async (e: MessageEvent) => {
  const msg = e.data as
    | { type: "init"; loader: ServiceLoaderSpec | null }
    | { type: "job"; id: number; job: RenderJob };
  if (msg.type === "init") {
    resolve = msg.loader ? mapResolverFor(msg.loader) : null;
    // Warm up at start rather than on the first request: CanvasKit, fonts, and
    // the services (the lookup of no map fails, but only after loading them).
    loadKit().catch(() => {});
    Promise.resolve(resolve?.("", "")).catch(() => {});
    return;
  }
  try {
    const kit = await loadKit();
    const result = await runJob(kit, msg.job, (service, map) => {
      if (!resolve) {
        throw new Error("This render worker has no service loader; map jobs cannot run here.");
      }
      return resolve(service, map);
    });
    self.postMessage({ id: msg.id, ok: true, result }, { transfer: transferablesOf(result) });
  } catch (err) {
    const error = err instanceof Error
      ? { name: err.name, message: err.message }
      : { name: "Error", message: String(err) };
    self.postMessage({ id: msg.id, ok: false, error });
  }
};
