/**
 * A browser client of our map services, as its users run it: a page and
 * its bundle (built with Deno's bundler from `entry`) served from a loopback
 * port of its own, opened in headless Chromium with every request watched.
 *
 * @module
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { PNG } from "pngjs";
import { type CdpPage, Chromium, removeProfile } from "./_cdp.ts";

/** The page: `entry` bundled as app.js (and its CSS as app.css), `files` served beside it. */
export interface ClientPageOptions {
  entry: string;
  /** Extra style sheet (a file URL) served as /app.css when the bundle has none. */
  css?: URL;
  /** A folder served under /assets/ (the SDK's workers, fonts and translations). */
  assets?: string;
}

/** A running client page in Chromium. */
export interface ClientPage {
  tab: CdpPage;
  /** Every URL the page asked for. */
  requests: string[];
  /**
   * Opens the page with `service` as its `?service=` (and `extra` as further query
   * parameters), waits for `body[data-ready]`.
   */
  open(service: string, extra?: Record<string, string>): Promise<void>;
  /** RGB of the last screenshot at CSS pixel (x, y). */
  pixel(png: PNG, x: number, y: number): [number, number, number];
  screenshot(): Promise<PNG>;
  /** Fails on console errors, failed or refused requests, and any host but loopback. */
  assertClean(): void;
  close(): Promise<void>;
}

const HTML = `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
<link rel="stylesheet" href="app.css">
<style>html, body { margin: 0; } #map { width: 600px; height: 400px; background: #fff; }</style>
</head><body><div id="map"></div><script type="module" src="app.js"></script></body></html>`;

const TYPES: Record<string, string> = {
  js: "text/javascript",
  css: "text/css",
  json: "application/json",
  wasm: "application/wasm",
  html: "text/html; charset=utf-8",
};

/**
 * Bundles `opts.entry`, serves it and opens Chromium (600 x 400) on it.
 *
 * @example
 * ```ts ignore
 * const page = await openClientPage({ entry: new URL("./clients/app.js", import.meta.url).href });
 * ```
 */
export async function openClientPage(opts: ClientPageOptions): Promise<ClientPage> {
  const built = await Deno.bundle({
    entrypoints: [opts.entry],
    platform: "browser",
    format: "esm",
    minify: true,
    write: false,
    outputDir: "/client",
  });
  assert.ok(built.success, built.errors.map((e) => e.text).join("; "));
  const files = new Map<string, Uint8Array>(
    (built.outputFiles ?? []).map((f) => [
      f.path.endsWith(".css") ? "/app.css" : "/app.js",
      f.contents!,
    ]),
  );
  files.set("/", new TextEncoder().encode(HTML));
  if (opts.css && !files.has("/app.css")) files.set("/app.css", Deno.readFileSync(opts.css));
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    const type = TYPES[path === "/" ? "html" : path.split(".").pop()!] ??
      "application/octet-stream";
    let body = files.get(path);
    if (!body && opts.assets && path.startsWith("/assets/") && !path.includes("..")) {
      body = await Deno.readFile(opts.assets + path.slice("/assets".length)).catch(() => undefined);
    }
    if (!body) return new Response("not found", { status: 404 });
    return new Response(body.slice(), { headers: { "content-type": type } });
  });
  const origin = `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`;
  const profile = await Deno.makeTempDir({ prefix: "client-page-" });
  const browser = await Chromium.launch(profile);
  const tab = await browser.page();
  const requests: string[] = [];
  tab.on("Network.requestWillBeSent", (p) => {
    requests.push((p.request as { url: string }).url);
  });
  tab.on("Network.responseReceived", (p) => {
    const r = p.response as { url: string; status: number };
    if (r.status >= 400) tab.errors.push(`HTTP ${r.status} ${r.url}`);
  });
  tab.on("Network.loadingFailed", (p) => {
    tab.errors.push(`request failed: ${p.errorText} ${p.blockedReason ?? ""}`);
  });
  await tab.send("Network.enable");
  await tab.viewport(600, 400);
  return {
    tab,
    requests,
    async open(service, extra = {}) {
      const query = new URLSearchParams({ ...extra, service });
      await tab.goto(`${origin}/?${query}`);
      await tab.waitFor(`document.body.dataset.ready`, "every request of the client");
    },
    async screenshot() {
      return PNG.sync.read(Buffer.from(await tab.screenshot()));
    },
    pixel(png, x, y) {
      const i = (Math.round(y) * png.width + Math.round(x)) * 4;
      return [png.data[i], png.data[i + 1], png.data[i + 2]];
    },
    assertClean() {
      assert.deepEqual(tab.errors, [], "no console error, no failed request");
      const outside = requests.filter((u) => !/^(http:\/\/127\.0\.0\.1:\d+\/|data:|blob:)/.test(u));
      assert.deepEqual(outside, [], "nothing but loopback");
    },
    async close() {
      await browser.close();
      await server.shutdown();
      await removeProfile(profile);
    },
  };
}
