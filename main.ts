/**
 * Command line of the recruitment catalogue and map server.
 *
 * ```
 * deno task start [--port 8000] [--host 0.0.0.0] [--db var/catalog.db] [--maps DIR]
 *                 [--public-url URL] [--trust-proxy] [--access-log]
 * deno task import FILE... [--db PATH] [--collection agency|vacancy|competition]
 * deno task sync URL [--db PATH] [--max-pages N] [--max-records N]
 * deno task demo [--db PATH] [--scale N] [--force]
 * deno task seed-tiles --levels 0-6 [--service NAME] [--map NAME]
 * ```
 *
 * @module
 */
import { parseArgs } from "node:util";
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
} from "./routes/mod.ts";
import { arcgisRoutes, BodyBudget } from "./routes/arcgis.ts";
import { MapDocumentError } from "./map/document/mod.ts";
import { createSoapFace } from "./map/soap/server.ts";
import { arcgisFileRoutes } from "./routes/arcgis_files.ts";
import { arcgisRestRoutes } from "./routes/arcgis_rest.ts";
import { ogcFeaturesRoutes } from "./routes/ogc_features.ts";
import { wmtsRoutes } from "./routes/ogc_wmts.ts";
import { ogcWmsRoutes } from "./routes/ogc_wms.ts";
import { ogcWfsRoutes } from "./routes/ogc_wfs.ts";
import { homeRoutes } from "./routes/home.ts";
import { serveHttp, SERVER_DEFAULTS } from "./routes/server.ts";
import { bodyTimeoutResponse } from "./routes/timeout_response.ts";
import { watchLauncher } from "./routes/launcher_watch.ts";
import { parseLevels, progressPrinter, TileCaches } from "./map/tiles/mod.ts";
import { createMapServer } from "./map/mod.ts";
import {
  collectUnlessBusy,
  documentRenderPool,
  GcBudget,
  InProcessRenderer,
  OutputFolder,
} from "./map/render/mod.ts";
import { loadServices } from "./map/document/mod.ts";
import { catalogApiData } from "./routes/catalog_data.ts";
import {
  type Catalog,
  CatalogOpenError,
  type CollectionName,
  COLLECTIONS,
  COMPETITION_CATALOG_MODULE,
  createDemoDatabase,
  ImportError,
  importFiles,
  openCatalog,
  progressBar,
  ReaderPool,
  sync,
  SYNC_DEFAULTS,
  SyncError,
  WriterBusyError,
} from "./data/mod.ts";

/** Where the database lives unless `--db` says otherwise. */
export const DEFAULT_DB = "var/catalog.db";

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

const USAGE = `Usage:
  main.ts serve [--port N] [--host H] [--db PATH] [--maps DIR] [--public-url URL] [--trust-proxy]
                [--access-log] [--output-dir DIR] [--tiles-dir DIR] [--render-workers N] [--reader-workers N]
                [--response-cache-mb N] [--output-max-age MINUTES] [--render-heap-mb N]
                [--body-budget-mb N] [--allow-map-paths-outside]
                [--header-timeout S] [--body-timeout S] [--idle-timeout S] [--shutdown-timeout S]
                [--max-connections N]
  main.ts import FILE... [--db PATH] [--collection agency|vacancy|competition]
  main.ts sync URL [--db PATH] [--max-pages N] [--max-records N]
  main.ts demo [--db PATH] [--scale VACANCIES] [--force]
  main.ts seed-tiles [--levels 0-6] [--service NAME] [--map NAME] [--db PATH] [--maps DIR] [--tiles-dir DIR]
                     [--allow-map-paths-outside]`;

/** The usage lines of one command (its first line and the indented lines after it). */
function usageOf(command: string): string | undefined {
  const lines = USAGE.split("\n").slice(1);
  const start = lines.findIndex((l) => l.startsWith(`  main.ts ${command} `));
  if (start < 0) return undefined;
  const end = lines.findIndex((l, i) => i > start && l.startsWith("  main.ts "));
  const doc = ["serve", "seed-tiles"].includes(command)
    ? "docs/operations.md and docs/map-documents.md"
    : "docs/data.md";
  return `Usage:\n${lines.slice(start, end < 0 ? undefined : end).join("\n")}\n\nSee ${doc}.`;
}

/**
 * `fn` as a callback that logs what it throws instead of letting it end the
 * process (a timer or signal callback that throws is fatal in Deno).
 */
function guarded(what: string, fn: () => unknown): () => void {
  return () => {
    try {
      fn();
    } catch (err) {
      console.error(`${new Date().toISOString()} ${what} failed:`, err);
    }
  };
}

/**
 * The last line of defence of a running server: an exception no code caught
 * (a timer, a stream or worker callback, a promise nobody awaited) is logged
 * with its stack, and the server keeps serving instead of exiting. Safe
 * because the server holds no state that such an error leaves half-updated
 * for others: each request's state is its own, the connections' bookkeeping
 * is swept on a timer that tolerates failures, and the worker pools replace
 * a worker that failed. Ending the process would drop every connection and
 * request in flight for one request's error. Only `serve` installs it: the
 * one-shot commands (import, sync, ...) should still fail loudly.
 */
function keepServingOnStrayErrors(): void {
  globalThis.addEventListener("error", (e) => {
    e.preventDefault();
    console.error(
      `${new Date().toISOString()} Uncaught error (the server keeps serving):`,
      e.error,
    );
  });
  globalThis.addEventListener("unhandledrejection", (e) => {
    e.preventDefault();
    console.error(
      `${new Date().toISOString()} Unhandled rejection (the server keeps serving):`,
      e.reason,
    );
  });
}

async function serveCommand(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      port: { type: "string" },
      host: { type: "string", default: "0.0.0.0" },
      db: { type: "string", default: DEFAULT_DB },
      maps: { type: "string" },
      "public-url": { type: "string" },
      "trust-proxy": { type: "boolean", default: false },
      "access-log": { type: "boolean", default: false },
      "output-dir": { type: "string", default: "var/output" },
      "render-workers": { type: "string" },
      "reader-workers": { type: "string" },
      "render-heap-mb": { type: "string" },
      "tiles-dir": { type: "string" },
      // Resident in full once wrapped: 16 MiB leaves room under 300 MB at 256 connections.
      "response-cache-mb": { type: "string", default: "16" },
      "output-max-age": { type: "string", default: "10" },
      "body-budget-mb": { type: "string", default: "64" },
      "allow-map-paths-outside": { type: "boolean", default: false },
      "header-timeout": { type: "string", default: String(SERVER_DEFAULTS.headerTimeoutMs / 1000) },
      "body-timeout": { type: "string", default: String(SERVER_DEFAULTS.bodyTimeoutMs / 1000) },
      "idle-timeout": { type: "string", default: String(SERVER_DEFAULTS.idleTimeoutMs / 1000) },
      "shutdown-timeout": {
        type: "string",
        default: String(SERVER_DEFAULTS.shutdownTimeoutMs / 1000),
      },
      "max-connections": { type: "string" },
    },
  });
  const budgetMb = values["body-budget-mb"];
  if (!/^\d+$/.test(budgetMb) || Number(budgetMb) < 1) {
    throw new UsageError(
      `--body-budget-mb must be a whole number of MiB (1 or more), got "${budgetMb}".`,
    );
  }
  const timeoutMs = (flag: string): number => {
    const text = values[flag as "header-timeout"];
    if (!/^\d+(\.\d+)?$/.test(text) || Number(text) <= 0) {
      throw new UsageError(`--${flag} must be a positive number of seconds, got "${text}".`);
    }
    return Number(text) * 1000;
  };
  const maxConnections = values["max-connections"];
  if (maxConnections !== undefined && !/^[1-9]\d*$/.test(maxConnections)) {
    throw new UsageError(
      `--max-connections must be a whole number of at least 1, got "${maxConnections}".`,
    );
  }
  const maxAge = values["output-max-age"];
  if (!/^\d+(\.\d+)?$/.test(maxAge) || Number(maxAge) <= 0) {
    throw new UsageError(`--output-max-age must be a positive number of minutes, got "${maxAge}".`);
  }
  const cacheMb = values["response-cache-mb"];
  if (!/^\d+$/.test(cacheMb)) {
    throw new UsageError(`--response-cache-mb must be a whole number, got "${cacheMb}".`);
  }
  const portText = values.port ?? Deno.env.get("PORT") ?? "8000";
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) {
    throw new UsageError(`--port must be 0-65535, got "${portText}".`);
  }
  const workers = values["render-workers"];
  if (workers !== undefined && !/^\d+$/.test(workers)) {
    throw new UsageError(
      `--render-workers must be a whole number (0 = render on the main thread), got "${workers}".`,
    );
  }
  const readerWorkers = values["reader-workers"];
  if (readerWorkers !== undefined && !/^\d+$/.test(readerWorkers)) {
    throw new UsageError(
      `--reader-workers must be a whole number (0 = slow list queries on the main thread), got "${readerWorkers}".`,
    );
  }
  const heapMb = values["render-heap-mb"];
  if (heapMb !== undefined && (!/^\d+$/.test(heapMb) || Number(heapMb) < 1)) {
    throw new UsageError(
      `--render-heap-mb must be a whole number of MiB, at least 1, got "${heapMb}".`,
    );
  }
  if (values["public-url"] && !/^https?:\/\/[^/\s]+(\/[^\s]*)?$/.test(values["public-url"])) {
    throw new UsageError(
      `--public-url must be an absolute http(s) URL, got "${values["public-url"]}".`,
    );
  }
  const server = await startServer({
    dbPath: values.db,
    port,
    hostname: values.host,
    mapsDir: values.maps,
    allowMapPathsOutside: values["allow-map-paths-outside"],
    publicUrl: values["public-url"],
    trustProxy: values["trust-proxy"],
    accessLog: values["access-log"],
    outputDir: values["output-dir"],
    tilesDir: values["tiles-dir"],
    responseCacheBytes: Number(cacheMb) * 2 ** 20,
    soapBodyBudgetBytes: Number(budgetMb) * 2 ** 20,
    outputMaxAgeMinutes: Number(maxAge),
    renderWorkers: values["render-workers"] === undefined
      ? undefined
      : Number(values["render-workers"]),
    renderHeapMb: heapMb === undefined ? undefined : Number(heapMb),
    readerWorkers: readerWorkers === undefined ? undefined : Number(readerWorkers),
    headerTimeoutMs: timeoutMs("header-timeout"),
    bodyTimeoutMs: timeoutMs("body-timeout"),
    idleTimeoutMs: timeoutMs("idle-timeout"),
    shutdownTimeoutMs: timeoutMs("shutdown-timeout"),
    maxConnections: maxConnections === undefined ? undefined : Number(maxConnections),
  });
  // Only once it serves: a failed start-up must still end the process with its error.
  keepServingOnStrayErrors();
  // Listen for signals before announcing the URL: a supervisor may stop us right after.
  let stopping = false;
  const stop = (why = "Shutting down...") => {
    if (stopping) return;
    stopping = true;
    console.log(why);
    server.shutdown().then(() => Deno.exit(0), (err) => {
      console.error("Shutting down failed:", err);
      Deno.exit(1);
    });
  };
  Deno.addSignalListener("SIGINT", guarded("Stopping on SIGINT", () => stop()));
  Deno.addSignalListener("SIGTERM", guarded("Stopping on SIGTERM", () => stop()));
  // Started through npx: npm does not pass SIGTERM/SIGINT on to us.
  watchLauncher((pid) =>
    stop(`The npx/npm process that started the server (${pid}) is gone: shutting down...`)
  );
  // The main isolate's garbage (request bodies, SOAP and JSON responses) is collected once it
  // grew by a budget, so it does not pile up between V8's own collections (map/render/collect.ts);
  // not while render jobs are in flight, whose answers the collection's pause would delay.
  const gcBudget = new GcBudget();
  if (gcBudget.enabled) {
    // A collection freed the dead buffers it found: what malloc got back can go back to the system.
    Deno.unrefTimer(
      setInterval(
        guarded(
          "Collecting garbage",
          () =>
            collectUnlessBusy(gcBudget, () => server.renderJobs() > 0) &&
            server.mallocTrimmer?.check(),
        ),
        1000,
      ),
    );
  }
  console.log(`Serving ${values.db} at ${server.url} (API: ${server.url}api/v1/)`);
  for (const s of server.services) {
    console.log(`Map service ${s.name}: ${server.url}arcgis/services/${s.name}/MapServer?wsdl`);
  }
  console.log(
    `Up to ${server.maxConnections} connections; timeouts: header ${
      values["header-timeout"]
    } s, body ${values["body-timeout"]} s, idle ${values["idle-timeout"]} s; ` +
      `shutdown within ${values["shutdown-timeout"]} s.`,
  );
  console.log(
    server.mallocTrimmer
      ? "Freed memory goes back to the system after spikes (glibc malloc_trim through FFI)."
      : "Freed memory is left to malloc (no glibc malloc_trim through FFI here).",
  );
  await server.finished;
}

async function demoCommand(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      db: { type: "string", default: DEFAULT_DB },
      scale: { type: "string" },
      force: { type: "boolean", default: false },
    },
  });
  if (existsSync(values.db)) {
    if (!values.force) throw new UsageError(`${values.db} exists; pass --force to replace it.`);
    for (const suffix of ["", "-wal", "-shm"]) {
      await Deno.remove(values.db + suffix).catch(() => {});
    }
  }
  const vacancies = values.scale === undefined ? undefined : Number(values.scale);
  if (vacancies !== undefined && !(Number.isInteger(vacancies) && vacancies > 0)) {
    throw new UsageError(
      `--scale must be a positive whole number of vacancies, got "${values.scale}".`,
    );
  }
  mkdirSync(dirname(values.db), { recursive: true });
  const t0 = performance.now();
  const bar = progressBar("demo data");
  const report = createDemoDatabase(values.db, {
    vacancies,
    onProgress: (done, total) => bar.update(done, total),
  });
  bar.finish();
  console.log(
    `Created ${values.db}: ${report.agencies} agencies, ${report.vacancies} vacancies, ` +
      `${report.competitions} competitions, ${(report.bytes / 2 ** 20).toFixed(1)} MiB in ` +
      `${((performance.now() - t0) / 1000).toFixed(1)} s.`,
  );
}

async function importCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      db: { type: "string", default: DEFAULT_DB },
      collection: { type: "string" },
    },
  });
  if (positionals.length === 0) throw new UsageError("import needs at least one FILE.");
  const collection = values.collection === undefined
    ? undefined
    : collectionName(values.collection);
  mkdirSync(dirname(values.db), { recursive: true });
  try {
    const bar = progressBar("import");
    const r = await importFiles(values.db, positionals, {
      collection,
      onProgress: (n) => bar.update(n, 0, "records"),
    }).then((r) => (bar.finish(), r), (err) => {
      bar.stop();
      throw err;
    });
    const read = Object.entries(r.records as Record<string, number>).filter(([, n]) => n > 0).map((
      [c, n],
    ) => `${n} ${c}`);
    console.log(
      `Imported ${read.join(", ") || "nothing"} into ${values.db}: ${r.inserted} inserted, ` +
        `${r.updated} updated, ${r.unchanged} unchanged (revision ${r.revision}).`,
    );
    return 0;
  } catch (err) {
    if (err instanceof ImportError) {
      console.error(`Import rejected, nothing was written: ${err.message}`);
      return 1;
    }
    if (err instanceof WriterBusyError) {
      console.error(`Import rejected: ${err.message}`);
      return 1;
    }
    if (isSqliteError(err)) {
      // e.g. "database or disk is full": SQLite rolled the transaction back.
      console.error(`Import failed, nothing was written: ${(err as Error).message}.`);
      return 1;
    }
    throw err;
  }
}

/** Errors of SQLite itself (full disk, I/O, read-only file): a sentence, not a stack. */
function isSqliteError(err: unknown): boolean {
  return (err as { code?: string })?.code === "ERR_SQLITE_ERROR";
}

async function syncCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      db: { type: "string", default: DEFAULT_DB },
      "max-pages": { type: "string", default: String(SYNC_DEFAULTS.maxPages) },
      "max-records": { type: "string", default: String(SYNC_DEFAULTS.maxRecords) },
    },
  });
  if (positionals.length !== 1) throw new UsageError("sync needs exactly one URL.");
  const url = positionals[0];
  if (!/^https?:\/\/[^\s/]+/.test(url)) {
    throw new UsageError(`sync needs an http(s) URL, got "${url}".`);
  }
  const cap = (flag: "max-pages" | "max-records") => {
    const raw = values[flag];
    if (!/^\d+$/.test(raw) || Number(raw) < 1) {
      throw new UsageError(`--${flag} must be a positive whole number, got "${raw}".`);
    }
    return Number(raw);
  };
  const maxPages = cap("max-pages");
  const maxRecords = cap("max-records");
  mkdirSync(dirname(values.db), { recursive: true });
  try {
    const r = await sync(url, { target: values.db, progress: true, maxPages, maxRecords });
    const read = Object.entries(r.records as Record<string, number>).map(([c, n]) => `${n} ${c}`);
    console.log(
      `Synced ${read.join(", ")} from ${url} into ${values.db}: ${r.inserted} inserted, ` +
        `${r.updated} updated, ${r.unchanged} unchanged (revision ${r.revision}).`,
    );
    return 0;
  } catch (err) {
    if (err instanceof SyncError && err.committed > 0) {
      console.error(`Sync stopped: ${err.message}`);
      return 1;
    }
    if (
      err instanceof SyncError || err instanceof ImportError || err instanceof WriterBusyError ||
      isSqliteError(err)
    ) {
      console.error(`Sync failed, nothing was written: ${(err as Error).message}`);
      return 1;
    }
    throw err;
  }
}

async function seedTilesCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      db: { type: "string", default: DEFAULT_DB },
      maps: { type: "string" },
      levels: { type: "string", default: "0-6" },
      service: { type: "string" },
      map: { type: "string" },
      "tiles-dir": { type: "string" },
      "allow-map-paths-outside": { type: "boolean", default: false },
    },
  });
  let levels: number[];
  try {
    levels = parseLevels(values.levels);
  } catch (err) {
    throw new UsageError(`--levels: ${(err as Error).message}`);
  }
  if (!existsSync(values.db)) {
    throw new UsageError(`${values.db} does not exist; run the server or 'demo' first.`);
  }
  const catalog = openCatalog(values.db, { readonly: true });
  const allowPathsOutside = values["allow-map-paths-outside"];
  const services = await loadServices({
    mapsDir: values.maps,
    catalog,
    catalogPath: values.db,
    catalogModule: COMPETITION_CATALOG_MODULE,
    allowPathsOutside,
  });
  const service = values.service === undefined
    ? services[0]
    : services.find((s) => s.name.toLowerCase() === values.service!.toLowerCase());
  if (!service) {
    catalog.close();
    throw new UsageError(
      `No service "${values.service}"; there are: ${services.map((s) => s.name).join(", ")}.`,
    );
  }
  const pool = documentRenderPool({
    mapsDir: values.maps,
    catalogPath: values.db,
    catalogModule: COMPETITION_CATALOG_MODULE,
    allowPathsOutside,
  });
  const tiles = new TileCaches({
    dir: values["tiles-dir"] ?? join(dirname(values.db), "tiles"),
    renderer: pool,
    changes: catalog,
  });
  const t0 = performance.now();
  try {
    const p = await tiles.seed({
      service,
      map: values.map,
      levels,
      onProgress: progressPrinter(progressBar("tiles")),
    });
    const s = (performance.now() - t0) / 1000;
    console.log(
      `${p.total} tiles of ${service.name} (${p.rendered} rendered, the rest already stored) in ${
        s.toFixed(1)
      } s.`,
    );
    return 0;
  } catch (err) {
    console.error(`Seeding failed: ${(err as Error).message}`);
    return 1;
  } finally {
    tiles.close();
    pool.close();
    for (const s of services) s.close?.();
    catalog.close();
  }
}

function collectionName(raw: string): CollectionName {
  const aliases: Record<string, CollectionName> = {
    agency: "agencies",
    agencies: "agencies",
    vacancy: "vacancies",
    vacancies: "vacancies",
    competition: "competitions",
    competitions: "competitions",
  };
  const name = aliases[raw];
  if (!name || !(name in COLLECTIONS)) {
    throw new UsageError(`--collection must be agencies, vacancies or competitions, got "${raw}".`);
  }
  return name;
}

class UsageError extends Error {}

/** Runs a command line; returns the process exit code. */
export async function run(argv: string[]): Promise<number> {
  const [command = "serve", ...rest] = argv[0]?.startsWith("-") && argv[0] !== "--help"
    ? ["serve", ...argv]
    : argv;
  const usage = usageOf(command);
  if (usage && rest.some((a) => a === "--help" || a === "-h")) {
    console.log(usage);
    return 0;
  }
  try {
    switch (command) {
      case "serve":
        await serveCommand(rest);
        return 0;
      case "demo":
        await demoCommand(rest);
        return 0;
      case "import":
        return await importCommand(rest);
      case "sync":
        return await syncCommand(rest);
      case "seed-tiles":
        return await seedTilesCommand(rest);
      case "help":
      case "--help":
        console.log(USAGE);
        return 0;
      default:
        console.error(`Unknown command "${command}".\n${USAGE}`);
        return 2;
    }
  } catch (err) {
    if (err instanceof CatalogOpenError) {
      console.error(err.message);
      return 1;
    }
    // Start-up failures a user can fix: one line naming what to change, no stack trace.
    if (err instanceof MapDocumentError) {
      console.error(`Cannot start: ${err.message}`);
      return 1;
    }
    if (err instanceof Deno.errors.AddrInUse || err instanceof Deno.errors.AddrNotAvailable) {
      console.error(
        `Cannot start: ${err.message}; another process holds that address, choose another --port or --host.`,
      );
      return 1;
    }
    if (err instanceof Deno.errors.PermissionDenied && command === "serve") {
      console.error(
        `Cannot start: ${err.message} (ports below 1024 need privileges; choose --port 1024 or above).`,
      );
      return 1;
    }
    if (
      err instanceof UsageError || (err as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")
    ) {
      console.error(`${(err as Error).message}\n${USAGE}`);
      return 2;
    }
    throw err;
  }
}

if (import.meta.main) Deno.exit(await run(Deno.args));
