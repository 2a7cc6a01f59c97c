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
import { CHROMIUM, optionalTest } from "./_optional.ts";
import { openClientPage } from "./_client_page.ts";
import { CITIES, createFixture, startQueryServer } from "./_soap_query_fixtures.ts";

const APP = new URL("./clients/esri_leaflet_app.js", import.meta.url).href;
const LEAFLET_CSS = new URL(
  "../node_modules/.deno/leaflet@1.9.4/node_modules/leaflet/dist/leaflet.css",
  import.meta.url,
);

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
    const page = await openClientPage({ entry: APP, css: LEAFLET_CSS });
    try {
      const { tab } = page;
      await page.open(`${server.baseUrl}/arcgis/rest/services/Fixture/MapServer`);
      // Let Leaflet place the last image (it fades in on the next frame).
      await new Promise((r) => setTimeout(r, 300));
      const results = await tab.evaluate<Results>("globalThis.results");
      assert.deepEqual(results.errors, []);
      page.assertClean();
      assert.ok(
        page.requests.some((u) => u.includes("/MapServer/export?")),
        "dynamicMapLayer exported",
      );

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
      const png = await page.screenshot();
      const rgb = async (lat: number, lon: number) => {
        const p = await tab.evaluate<{ x: number; y: number }>(
          `globalThis.toPixel(${lat}, ${lon})`,
        );
        return page.pixel(png, p.x, p.y);
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
      await page.close();
      await server.close();
      await fixture.dispose();
    }
  },
});
