/**
 * `main.ts serve`: starts the server ({@link startServer}) with the flags
 * below, stops it on SIGINT/SIGTERM (or when the npx that started it is
 * gone), and keeps serving through stray errors.
 *
 * @module
 */
import { HTTP_ENGINES, SERVER_DEFAULTS } from "../../routes/server.ts";
import { watchLauncher } from "../../routes/launcher_watch.ts";
import { collectUnlessBusy, GcBudget } from "../../map/render/mod.ts";
import { defineCommand } from "./command.ts";
import { choiceFlag, DB_FLAG, numberFlag, switchFlag, textFlag } from "./flags.ts";
import { guarded, startServer } from "./server.ts";

const WHOLE = { whole: true, must: "a whole number" };
const seconds = (help: string, ms: number) =>
  numberFlag("S", help, { above: 0, must: "a positive number of seconds" }, {
    default: String(ms / 1000),
  });

/** The flags of `serve`. */
export const SERVE_FLAGS = {
  port: numberFlag("N", "Port to listen on (0: any free port).", {
    whole: true,
    max: 65535,
    must: "0-65535",
  }, { env: "PORT", default: "8000" }),
  host: textFlag("H", "Address to listen on.", { default: "0.0.0.0" }),
  db: DB_FLAG,
  maps: textFlag("DIR", "Folder of map documents (default: the built-in Recruitment service)."),
  "allow-map-paths-outside": switchFlag("Let map documents name data outside --maps."),
  "public-url": textFlag("URL", "The URL clients reach the server at (behind a proxy).", {
    must: [/^https?:\/\/[^/\s]+(\/[^\s]*)?$/, "an absolute http(s) URL"],
  }),
  "trust-proxy": switchFlag("Build links from X-Forwarded-Proto/-Host."),
  "access-log": switchFlag("Print one line per request on stdout."),
  "output-dir": textFlag("DIR", "Where exported images returned by URL go.", {
    default: "var/output",
  }),
  "output-max-age": numberFlag("MINUTES", "How long an exported image stays.", {
    above: 0,
    must: "a positive number of minutes",
  }, { default: "10" }),
  "tiles-dir": textFlag("DIR", "MBTiles folder (default: tiles/ beside the database)."),
  "render-workers": numberFlag(
    "N",
    "Render workers (default: one per core, at most 4; 0: render on the main thread).",
    { ...WHOLE, must: "a whole number (0 = render on the main thread)" },
  ),
  "render-start": choiceFlag(
    "WHEN",
    "When the render workers start: eager (with the server, which listens once they have " +
      "drawn their start-up views), lazy (with the first drawing request: a JSON-only server " +
      "never holds them), or auto: eager with --maps, else lazy.",
    ["auto", "eager", "lazy"],
    "auto",
  ),
  "render-heap-mb": numberFlag("N", "Wasm heap of a render worker before it is replaced.", {
    whole: true,
    min: 1,
    must: "a whole number of MiB, at least 1",
  }),
  "reader-workers": numberFlag("N", "Workers for slow list queries (default 1; 0: none).", {
    ...WHOLE,
    must: "a whole number (0 = slow list queries on the main thread)",
  }),
  // Resident in full once wrapped: 16 MiB leaves room under 300 MB at 256 connections.
  "response-cache-mb": numberFlag("N", "Rendered API bodies kept per data revision (0: off).", {
    ...WHOLE,
  }, { default: "16" }),
  "body-budget-mb": numberFlag("N", "SOAP and REST request bodies read at once.", {
    whole: true,
    min: 1,
    must: "a whole number of MiB (1 or more)",
  }, { default: "64" }),
  "header-timeout": seconds(
    "From accept to a complete request head.",
    SERVER_DEFAULTS.headerTimeoutMs,
  ),
  "body-timeout": seconds(
    "From a request head to the end of its body.",
    SERVER_DEFAULTS.bodyTimeoutMs,
  ),
  "idle-timeout": seconds("Keep-alive: between two requests.", SERVER_DEFAULTS.idleTimeoutMs),
  "shutdown-timeout": seconds(
    "How long a stop lets requests in flight finish.",
    SERVER_DEFAULTS.shutdownTimeoutMs,
  ),
  "http-engine": choiceFlag(
    "E",
    "hyper, or js behind a load balancer that retries (nginx): each answer leaves in one " +
      "write, so a killed replica never leaves half an answer; js serves cheap answers at " +
      "about half hyper's rate (docs/operations.md).",
    HTTP_ENGINES,
    "hyper",
  ),
  "max-connections": numberFlag(
    "N",
    "Open connections; more get a 503 (default: from ulimit -n).",
    {
      whole: true,
      min: 1,
      must: "a whole number of at least 1",
    },
  ),
};

/** `main.ts serve`. */
export const serveCommand = defineCommand({
  name: "serve",
  summary: "Serves the API, the map services and the web map (creates the demo database first).",
  flags: SERVE_FLAGS,
  docs: "docs/operations.md and docs/map-documents.md",
  async run(values) {
    const mb = (n: number) => n * 2 ** 20;
    const server = await startServer({
      dbPath: values.db,
      port: values.port,
      hostname: values.host,
      mapsDir: values.maps,
      allowMapPathsOutside: values["allow-map-paths-outside"],
      publicUrl: values["public-url"],
      trustProxy: values["trust-proxy"],
      accessLog: values["access-log"],
      outputDir: values["output-dir"],
      tilesDir: values["tiles-dir"],
      responseCacheBytes: mb(values["response-cache-mb"]),
      soapBodyBudgetBytes: mb(values["body-budget-mb"]),
      outputMaxAgeMinutes: values["output-max-age"],
      renderWorkers: values["render-workers"],
      renderHeapMb: values["render-heap-mb"],
      renderStart: values["render-start"] === "auto"
        ? (values.maps === undefined ? "lazy" : "eager")
        : values["render-start"],
      readerWorkers: values["reader-workers"],
      headerTimeoutMs: values["header-timeout"] * 1000,
      bodyTimeoutMs: values["body-timeout"] * 1000,
      idleTimeoutMs: values["idle-timeout"] * 1000,
      shutdownTimeoutMs: values["shutdown-timeout"] * 1000,
      maxConnections: values["max-connections"],
      httpEngine: values["http-engine"],
    });
    // Only once it serves: a failed start-up must still end the process with its error.
    _keepServingOnStrayErrors();
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
    // RENDER_TRACE=1 also times these collections: each stops the main thread, and with it every
    // request, for as long as it takes.
    const trace = Deno.env.get("RENDER_TRACE") ? (line: string) => console.error(line) : undefined;
    if (gcBudget.enabled) {
      // Start-up's garbage (documents parsed, sources opened) is collected now, before the URL is
      // announced. Left to the timer, the budget's first check counted the whole start-up heap
      // as growth and stopped the main thread for ~16 ms about a second after the start, in the
      // middle of a client's first views (docs/benchmarks.md).
      const started = performance.now();
      gcBudget.collect();
      trace?.(`main thread collected its start-up garbage in ${msSince(started)} ms`);
      server.mallocTrimmer?.check();
      // A collection freed the dead buffers it found: what malloc got back can go back to the system.
      Deno.unrefTimer(
        setInterval(
          guarded("Collecting garbage", () => {
            const start = performance.now();
            if (!collectUnlessBusy(gcBudget, () => server.renderJobs() > 0)) return;
            trace?.(`main thread collected garbage past its budget in ${msSince(start)} ms`);
            server.mallocTrimmer?.check();
          }),
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
    return 0;
  },
});

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
function _keepServingOnStrayErrors(): void {
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

/** Milliseconds since `start` (a `performance.now()`), for trace lines. */
function msSince(start: number): string {
  return (performance.now() - start).toFixed(1);
}
