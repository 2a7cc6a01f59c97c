/**
 * The server's wiring: the catalogue, the reader and render pools, the map
 * services and their faces, the HTTP server, each started in order and
 * closed in reverse ({@link startServer}). `serve.ts` is the command around it.
 *
 * @module
 */
import { existsSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import {
  baseUrl,
  COMMON_HEADERS,
  createApp,
  type MallocControl,
  MallocTrimmer,
  type MallocTrimmerOptions,
  openGlibcMalloc,
  YoungCollector,
} from "../../routes/mod.ts";
import { arcgisRoutes, BodyBudget } from "../../routes/arcgis.ts";
import { createSoapFace } from "../../map/soap/server.ts";
import { arcgisFileRoutes } from "../../routes/arcgis_files.ts";
import { arcgisRestRoutes } from "../../routes/arcgis_rest.ts";
import { ogcFeaturesRoutes } from "../../routes/ogc_features.ts";
import { wmtsRoutes } from "../../routes/ogc_wmts.ts";
import { ogcWmsRoutes } from "../../routes/ogc_wms.ts";
import { ogcWfsRoutes } from "../../routes/ogc_wfs.ts";
import { homeRoutes } from "../../routes/home.ts";
import { type HttpEngine, serveHttp } from "../../routes/server.ts";
import { bodyTimeoutResponse } from "../../routes/timeout_response.ts";
import { TileCaches } from "../../map/tiles/mod.ts";
import { createMapServer } from "../../map/mod.ts";
import {
  documentRenderPool,
  InProcessRenderer,
  OutputFolder,
  RenderPool,
} from "../../map/render/mod.ts";
import { loadServices } from "../../map/document/mod.ts";
import { catalogApiData } from "../../routes/catalog_data.ts";
import {
  type Catalog,
  COMPETITION_CATALOG_MODULE,
  createDemoDatabase,
  openCatalog,
  ReaderPool,
} from "../../data/mod.ts";

/** Options of `startServer`. */
export interface StartOptions {
  dbPath: string;
  port: number;
  hostname: string;
  publicUrl?: string;
  trustProxy?: boolean;
  mapsDir?: string;
  /** Let map documents name data outside `mapsDir` (`--allow-map-paths-outside`). */
  allowMapPathsOutside?: boolean;
  outputDir?: string;
  accessLog?: boolean;
  /** Minutes an image returned by URL stays in the output folder (default 10). */
  outputMaxAgeMinutes?: number;
  /** Rendered API bodies kept per data revision, in bytes (default 16 MiB; 0 = off). */
  responseCacheBytes?: number;
  /** MBTiles folder (default: `tiles/` beside the database, so each database has its own tiles). */
  tilesDir?: string;
  /** Render workers (default: one per core, at most 4); 0 renders on the main thread. */
  renderWorkers?: number;
  /** Wasm heap limit of each render worker in MiB (default 512); over it, a worker is replaced. */
  renderHeapMb?: number;
  /**
   * When the render workers start (`--render-start`): "lazy" (default) with
   * the first drawing request, so a server only asked for JSON never holds
   * their CanvasKit instances (~120 MB each); "eager" with the server, which
   * then listens only once every worker has its geometry stores and has
   * drawn its start-up views, so no client's view runs on a worker still
   * warming up or beside its warm-up draws (as ArcGIS Server starts a
   * service's minimum instances before it reports the service started).
   */
  renderStart?: "eager" | "lazy";
  /**
   * Reader workers for slow list work (cold counts, deep pages' id lists;
   * default 1, started with the server); 0 runs it on the main thread.
   */
  readerWorkers?: number;
  /** Print nothing on start (tests). */
  quiet?: boolean;
  /** SOAP and REST request bodies read at once, in bytes (default 64 MiB). */
  soapBodyBudgetBytes?: number;
  /** From accept to a connection's first complete request head, ms (default 15 s). */
  headerTimeoutMs?: number;
  /** From a request head to the end of its body, ms (default 60 s). */
  bodyTimeoutMs?: number;
  /** Keep-alive: from a response to the next request head, ms (default 30 s). */
  idleTimeoutMs?: number;
  /** How long `shutdown()` lets requests in flight finish, ms (default 10 s). */
  shutdownTimeoutMs?: number;
  /** Open connections allowed; more get a 503 (default: from the open-file limit). */
  maxConnections?: number;
  /** Who speaks HTTP/1.1: Deno's hyper (default) or "js", which writes each answer whole. */
  httpEngine?: HttpEngine;
  /**
   * The minor collection run every `youngGcBytes` of API bodies (default:
   * V8's under `--expose-gc`, as `deno task start` runs; null: never).
   */
  minorGc?: (() => void) | null;
  /** Bytes of API bodies between two minor collections (default 4 MiB). */
  youngGcBytes?: number;
  /**
   * The C library's malloc, trimmed when a spike of allocations has ended
   * (default: glibc's through FFI where there is one; null: never trimmed).
   */
  malloc?: MallocControl | null;
  /** When a trim is due (tests). */
  mallocTrim?: MallocTrimmerOptions;
  /** How often the server looks at malloc's totals between known spikes, ms (default 1,000). */
  mallocCheckMs?: number;
}

/** A started server. */
export interface RunningServer {
  url: string;
  catalog: Catalog;
  services: readonly { name: string }[];
  /** Connections served at once; more get a 503. */
  maxConnections: number;
  /** What gives malloc's free memory back (null without glibc or FFI). */
  mallocTrimmer: MallocTrimmer | null;
  /** Render jobs queued or running. */
  renderJobs(): number;
  shutdown(): Promise<void>;
  finished: Promise<void>;
}

/**
 * Opens the database read-only (creating the demo database first when the
 * file does not exist) and serves the API and the map services.
 *
 * @example
 * ```ts
 * const s = await startServer({ dbPath: "var/catalog.db", port: 0, hostname: "127.0.0.1" });
 * await s.shutdown();
 * ```
 */
export async function startServer(opts: StartOptions): Promise<RunningServer> {
  if (!existsSync(opts.dbPath)) {
    mkdirSync(dirname(opts.dbPath), { recursive: true });
    if (!opts.quiet) console.log(`No database at ${opts.dbPath}: creating the demo data...`);
    await createDemoDatabase(opts.dbPath);
  }
  // Requests answered in one event-loop turn read one snapshot (one WAL read lock, not one per query).
  const catalog = openCatalog(opts.dbPath, { readonly: true, shareReads: true });
  // What has started so far, closed in reverse if a later step of the start-up fails
  // (a reader worker left running would keep the process alive).
  const started: (() => void)[] = [() => catalog.close()];
  try {
    return await serveOn(opts, catalog, started);
  } catch (err) {
    // The start-up error is the one to report; a failed close only goes to the log.
    closeInReverse(started, "Closing after a failed start-up:");
    throw err;
  }
}

/** Runs the closers last first; one that throws is logged and does not stop the others. */
function closeInReverse(closers: (() => void)[], logPrefix: string): void {
  for (const close of [...closers].reverse()) {
    try {
      close();
    } catch (err) {
      console.error(logPrefix, err);
    }
  }
}

/** The rest of {@linkcode startServer}: each thing started registers its `close` in `started`. */
async function serveOn(
  opts: StartOptions,
  catalog: Catalog,
  started: (() => void)[],
): Promise<RunningServer> {
  // Memory freed after a spike goes back to the system (routes/_malloc_trim.ts): looked at on a
  // timer, and after the known spikes (a list built, a collection of dead bodies).
  const malloc = opts.malloc === undefined ? openGlibcMalloc() : opts.malloc;
  const trimmer = malloc ? new MallocTrimmer(malloc, opts.mallocTrim) : null;
  if (trimmer) {
    const timer = setInterval(
      guarded("Trimming malloc", () => trimmer.check()),
      opts.mallocCheckMs ?? 1000,
    );
    Deno.unrefTimer(timer);
    started.push(() => clearInterval(timer));
  }
  const readers = opts.readerWorkers === 0 ? undefined : new ReaderPool({
    path: opts.dbPath,
    size: opts.readerWorkers ?? 1,
    eager: true,
    onWorkDone: trimmer ? () => trimmer.check() : undefined,
  });
  if (readers) started.push(() => readers.close());
  const services = await loadServices({
    mapsDir: opts.mapsDir,
    catalog,
    catalogPath: opts.dbPath,
    catalogModule: COMPETITION_CATALOG_MODULE,
    allowPathsOutside: opts.allowMapPathsOutside,
  });
  const closeServices = () => services.forEach((s) => s.close?.());
  started.push(closeServices);
  // Drawing runs in a worker pool (each worker loads the same documents and
  // opens the database read-only) so the main thread only routes. Workers
  // start with the first drawing request: a JSON-only server never pays for
  // their CanvasKit instances (~120 MB each).
  const renderer = opts.renderWorkers === 0
    ? new InProcessRenderer({ heapLimitMb: opts.renderHeapMb })
    : documentRenderPool({
      mapsDir: opts.mapsDir,
      allowPathsOutside: opts.allowMapPathsOutside,
      catalogPath: opts.dbPath,
      catalogModule: COMPETITION_CATALOG_MODULE,
      size: opts.renderWorkers,
      lazy: true,
      heapLimitMb: opts.renderHeapMb,
      // RENDER_TRACE=1: one line per drawing job on stderr (queue wait, worker, its state).
      trace: Deno.env.get("RENDER_TRACE") ? (line) => console.error(line) : undefined,
    });
  started.push(() => renderer.close());
  // Tiles live beside the database they were drawn from; the catalogue tells
  // which ones an import made stale.
  const tiles = new TileCaches({
    dir: opts.tilesDir ?? join(dirname(opts.dbPath), "tiles"),
    renderer,
    changes: catalog,
  });
  const outputDir = opts.outputDir ?? "var/output";
  mkdirSync(outputDir, { recursive: true });
  const output = new OutputFolder({
    maxAgeMs: opts.outputMaxAgeMinutes === undefined
      ? undefined
      : opts.outputMaxAgeMinutes * 60_000,
  });
  const maps = createMapServer({
    services,
    outputDir,
    renderer,
    tiles,
    output,
  });
  const soap = createSoapFace(maps, {
    onError: (err, op) =>
      console.error(`${new Date().toISOString()} SOAP ${op ?? "request"} failed:`, err),
  });
  // The map server closes the services (and its tiles) from now on.
  started.splice(started.indexOf(closeServices), 1, () => maps.close());
  const urls = { publicUrl: opts.publicUrl, trustProxy: opts.trustProxy };
  // Dead API bodies are freed by a scavenge every few MiB served, not left to pile up in
  // malloc's arena until V8 scavenges for its own reasons (routes/_young_gc.ts).
  const young = new YoungCollector(opts.minorGc, opts.youngGcBytes);
  // SOAP envelopes and REST forms being read at once share one budget of memory.
  const bodyBudget = new BodyBudget({ bytes: opts.soapBodyBudgetBytes });
  const handler = createApp({
    data: catalogApiData(catalog, readers),
    onBody: (bytes) => {
      if (young.add(bytes)) trimmer?.check();
    },
    ...urls,
    responseCacheBytes: opts.responseCacheBytes,
    extraRoutes: [
      ...homeRoutes(services.map((s) => ({
        name: s.name,
        description: s.description,
        maps: [
          s.defaultMapName,
          ...s.maps.map((m) => m.name).filter((n) => n !== s.defaultMapName),
        ],
      }))),
      // Before the SOAP routes' 405 fallbacks and the catch-all REST routes.
      ...ogcWmsRoutes({
        maps,
        baseUrl: (req) => baseUrl(req, urls),
        bodyBudget,
        onError: (err) => console.error(`${new Date().toISOString()} WMS failed:`, err),
      }),
      ...ogcWfsRoutes({
        maps,
        baseUrl: (req) => baseUrl(req, urls),
        bodyBudget,
        onError: (err) => console.error(`${new Date().toISOString()} WFS failed:`, err),
      }),
      ...arcgisRoutes({ maps, soap, baseUrl: (req) => baseUrl(req, urls), bodyBudget }),
      ...arcgisFileRoutes({ maps, outputDir }),
      ...wmtsRoutes({ maps, baseUrl: (req) => baseUrl(req, urls) }),
      // Before the REST routes, which answer everything below /arcgis/rest.
      ...ogcFeaturesRoutes({
        maps,
        baseUrl: (req) => baseUrl(req, urls),
        onError: (err, path) =>
          console.error(`${new Date().toISOString()} OGC API ${path} failed:`, err),
      }),
      ...arcgisRestRoutes({
        maps,
        baseUrl: (req) => baseUrl(req, urls),
        bodyBudget,
        onError: (err, path) =>
          console.error(`${new Date().toISOString()} REST ${path} failed:`, err),
      }),
    ],
    log: opts.accessLog ? accessLog : undefined,
  });
  if (opts.renderStart === "eager" && renderer instanceof RenderPool) {
    const began = performance.now();
    // At most two minutes (RenderPool.warmUp's default): a server that cannot warm up still serves.
    const warm = await renderer.warmUp();
    const took = `${((performance.now() - began) / 1000).toFixed(1)} s`;
    if (!warm) {
      console.error(`The render workers were not warm after ${took}: serving anyway.`);
    } else if (!opts.quiet) {
      console.log(`Render workers (${renderer.size}) warmed up in ${took}: maps are drawn warm.`);
    }
  }
  const server = serveHttp({
    port: opts.port,
    hostname: opts.hostname,
    handler,
    onError: (err) => {
      console.error("Unhandled error:", err);
      return new Response(JSON.stringify({ detail: "Internal server error." }), {
        status: 500,
        headers: { ...COMMON_HEADERS, "content-type": "application/json" },
      });
    },
    headerTimeoutMs: opts.headerTimeoutMs,
    bodyTimeoutMs: opts.bodyTimeoutMs,
    idleTimeoutMs: opts.idleTimeoutMs,
    shutdownTimeoutMs: opts.shutdownTimeoutMs,
    maxConnections: opts.maxConnections,
    engine: opts.httpEngine,
    bodyTimeoutResponse,
  });
  const addr = server.addr;
  const shownHost = addr.hostname === "0.0.0.0" || addr.hostname === "::"
    ? "localhost"
    : addr.hostname;
  const url = `http://${shownHost}:${addr.port}/`;
  // One shutdown however often it is asked for (a second signal, the
  // launcher watch): later callers wait for the same one.
  let closing: Promise<void> | undefined;
  const close = async () => {
    await server.shutdown();
    closeInReverse(started, "Closing at shutdown:");
  };
  return {
    url,
    catalog,
    services,
    finished: server.finished,
    maxConnections: server.maxConnections,
    renderJobs: () => renderer.pending,
    shutdown: () => closing ??= close(),
    mallocTrimmer: trimmer,
  };
}

function accessLog(req: Request, res: Response, ms: number): void {
  const u = new URL(req.url);
  console.log(
    `${new Date().toISOString()} ${req.method} ${u.pathname}${u.search} ${res.status} ${
      ms.toFixed(1)
    }ms`,
  );
}

/**
 * `fn` as a callback that logs what it throws instead of letting it end the
 * process (a timer or signal callback that throws is fatal in Deno).
 */
export function guarded(what: string, fn: () => unknown): () => void {
  return () => {
    try {
      fn();
    } catch (err) {
      console.error(`${new Date().toISOString()} ${what} failed:`, err);
    }
  };
}
