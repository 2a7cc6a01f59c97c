/**
 * esri-leaflet 3.1 (on Leaflet 1.9, both from npm, bundled with Deno's
 * bundler and served from loopback) in headless Chromium against a
 * MapServer: `dynamicMapLayer` draws the regions (it sends the box as
 * xmin,ymax,xmax,ymin), `featureLayer` draws every city, `query` counts and
 * bounds (returnExtentOnly), `identifyFeatures` finds Moscow. The pixels of
 * the drawn map are checked, and the page may log no error, fail no request
 * and ask nothing of any host but loopback.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { PNG } from "pngjs";
import { CHROMIUM, optionalTest } from "./_optional.ts";
import { Chromium } from "./_cdp.ts";
import { CITIES, createFixture, startQueryServer } from "./_soap_query_fixtures.ts";

const APP = new URL("./clients/esri_leaflet_app.js", import.meta.url).href;
const PAGE = new URL("./clients/esri_leaflet.html", import.meta.url);
const LEAFLET_CSS = new URL(
  "../node_modules/.deno/leaflet@1.9.4/node_modules/leaflet/dist/leaflet.css",
  import.meta.url,
);

async function bundle(): Promise<Uint8Array> {
  const r = await Deno.bundle({
    entrypoints: [APP],
    platform: "browser",
    format: "esm",
    minify: true,
    write: false,
    outputDir: "/esri-leaflet",
  });
  assert.ok(r.success, r.errors.map((e) => e.text).join("; "));
  return r.outputFiles![0].contents!;
}

/** Serves the page, its bundle and Leaflet's style sheet on a loopback port. */
function servePage(js: Uint8Array): { url: string; close(): Promise<void> } {
  const files: Record<string, [() => Uint8Array, string]> = {
    "/": [() => Deno.readFileSync(PAGE), "text/html; charset=utf-8"],
    "/app.js": [() => js, "text/javascript"],
    "/app.css": [() => Deno.readFileSync(LEAFLET_CSS), "text/css"],
  };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const file = files[new URL(req.url).pathname];
    if (!file) return new Response("not found", { status: 404 });
    return new Response(file[0]().slice(), { headers: { "content-type": file[1] } });
  });
  return {
    url: `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`,
    close: () => server.shutdown(),
  };
}

interface Results {
  errors: string[];
  features: Record<string, unknown>[];
  /** The map's box: west,south,east,north. */
  view: string;
  count: number;
  bounds: string;
  identify: Record<string, unknown>[];
}

optionalTest(CHROMIUM, {
  name: "esri-leaflet draws, queries and identifies on a MapServer in Chromium",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const fixture = await createFixture();
    const server = await startQueryServer(fixture.services);
    const page = servePage(await bundle());
    const profile = await Deno.makeTempDir({ prefix: "esri-leaflet-" });
    const browser = await Chromium.launch(profile);
    try {
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
      const service = `${server.baseUrl}/arcgis/rest/services/Fixture/MapServer`;
      await tab.goto(`${page.url}/?service=${encodeURIComponent(service)}`);
      await tab.waitFor(`document.body.dataset.ready`, "every esri-leaflet request");
      // Let Leaflet place the last image (it fades in on the next frame).
      await new Promise((r) => setTimeout(r, 300));
      const results = await tab.evaluate<Results>("globalThis.results");
      assert.deepEqual(results.errors, []);
      assert.deepEqual(tab.errors, [], "no console error, no failed request");
      const outside = requests.filter((u) => !/^(http:\/\/127\.0\.0\.1:\d+\/|data:|blob:)/.test(u));
      assert.deepEqual(outside, [], "nothing but loopback");
      assert.ok(requests.some((u) => u.includes("/MapServer/export?")), "dynamicMapLayer exported");

      // featureLayer asks for the cities of the view (Vladivostok is east of it).
      const [vw, vs, ve, vn] = results.view.split(",").map(Number);
      const inView = CITIES.filter(([, , x, y]) => x >= vw && x <= ve && y >= vs && y <= vn);
      assert.ok(inView.length >= 5 && inView.length < CITIES.length, results.view);
      const drawn = new Map(results.features.map((p) => [p.OBJECTID, p]));
      for (const [id, name, , , pop] of inView) {
        assert.equal(drawn.get(id)?.NAME, name);
        assert.equal(drawn.get(id)?.POP, pop);
      }
      assert.equal(results.count, CITIES.filter((c) => (c[4] ?? 0) > 1500000).length);
      const [w, s, e, n] = results.bounds.split(",").map(Number);
      const lons = CITIES.map((c) => c[2]), lats = CITIES.map((c) => c[3]);
      for (const [got, want] of [[w, Math.min(...lons)], [s, Math.min(...lats)]]) {
        assert.ok(Math.abs(got - want) < 1e-6, `${results.bounds}`);
      }
      for (const [got, want] of [[e, Math.max(...lons)], [n, Math.max(...lats)]]) {
        assert.ok(Math.abs(got - want) < 1e-6, `${results.bounds}`);
      }
      assert.deepEqual(results.identify.map((p) => p.Name ?? p.NAME), ["Moscow"]);

      // Pixels: the exported regions under the feature layer's red city markers.
      const png = PNG.sync.read(Buffer.from(await tab.screenshot()));
      const rgb = async (lat: number, lon: number) => {
        const p = await tab.evaluate<{ x: number; y: number }>(
          `globalThis.toPixel(${lat}, ${lon})`,
        );
        const i = (Math.round(p.y) * png.width + Math.round(p.x)) * 4;
        return [png.data[i], png.data[i + 1], png.data[i + 2]];
      };
      const [r, g, b] = await rgb(55.7558, 37.6173);
      assert.ok(r > 200 && g < 60 && b < 60, `Moscow's marker is red: ${[r, g, b]}`);
      const fill = await rgb(58, 38);
      assert.ok(fill.every((c) => c > 180) && fill[0] - fill[2] > 8, `West's fill: ${fill}`);
      const hole = await rgb(54.5, 35);
      assert.ok(hole.every((c) => c > 250), `the hole is empty: ${hole}`);
      const nothing = await rgb(47, 22);
      assert.ok(nothing.every((c) => c > 250), `nothing drawn at 22E 47N: ${nothing}`);
    } finally {
      await browser.close();
      await page.close();
      await server.close();
      await fixture.dispose();
      await Deno.remove(profile, { recursive: true });
    }
  },
});
