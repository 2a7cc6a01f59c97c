/**
 * The ArcGIS Maps SDK for JavaScript (`@arcgis/core` 5.1 from npm, bundled
 * with Deno's bundler, its assets served from loopback, no basemap or
 * portal) in headless Chromium against a MapServer: `MapImageLayer` draws
 * the service, a `FeatureLayer` on its Cities layer draws every city,
 * `queryFeatureCount` and `identify` answer, and a view across 180° still
 * draws the service (the SDK then sends its Web Mercator as WKT with a moved
 * central meridian). A `TileLayer` on a cached map (the World example
 * document) draws from `/tile/{level}/{row}/{col}` on the map server's origin,
 * which is not the page's: every tile needs CORS. Pixels checked; no console
 * error, no failed request, no host but loopback.
 */
import assert from "node:assert/strict";
import { CHROMIUM, optionalTest } from "./_optional.ts";
import { openClientPage } from "./_client_page.ts";
import { CITIES, createFixture, startQueryServer } from "./_soap_query_fixtures.ts";
import { startTestServer } from "./_api_helpers.ts";

const APP = new URL("./clients/arcgis_sdk_app.js", import.meta.url).href;
const ASSETS = new URL(
  "../node_modules/.deno/@arcgis+core@5.1.25/node_modules/@arcgis/core/assets",
  import.meta.url,
).pathname;

interface Results {
  errors: string[];
  count: number;
  identify: Record<string, unknown>[];
}

const isRed = ([r, g, b]: number[]) => r > 200 && g < 60 && b < 60;
const isBlue = ([r, g, b]: number[]) => b > 150 && r < 120 && b - g > 40;
const isFill = (c: number[]) => c.every((v) => v > 180) && c[0] - c[2] > 8;
const isWhite = (c: number[]) => c.every((v) => v > 250);
/** The World document's country fill (250, 247, 235) and background (190, 215, 235). */
const isLand = ([r, g, b]: number[]) => r > 240 && g > 235 && b > 220 && b < 245;
const isSea = ([r, g, b]: number[]) => Math.abs(r - 190) < 12 && Math.abs(g - 215) < 12 && b > 225;
const WORLD = new URL("../map/document/examples/world.json", import.meta.url).pathname;

optionalTest(CHROMIUM, {
  name:
    "the ArcGIS Maps SDK draws, counts and identifies on a MapServer, across 180° too, and tiles",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const fixture = await createFixture();
    const server = await startQueryServer(fixture.services);
    const page = await openClientPage({ entry: APP, assets: ASSETS });
    try {
      const { tab } = page;
      await page.open(`${server.baseUrl}/arcgis/rest/services/Fixture/MapServer`);
      const results = await tab.evaluate<Results>("globalThis.results");
      assert.deepEqual(results.errors, []);
      assert.equal(results.count, CITIES.filter((c) => (c[4] ?? 0) > 1500000).length);
      assert.deepEqual(
        results.identify.map((a) => a.Name ?? a.NAME),
        ["Moscow"],
        page.requests.filter((u) => u.includes("/identify")).join("\n"),
      );
      assert.ok(page.requests.some((u) => u.includes("/MapServer/export?")), "MapImageLayer");
      assert.ok(page.requests.some((u) => u.includes("/MapServer/0/query?")), "FeatureLayer");

      const at = async (lon: number, lat: number) => {
        const p = await tab.evaluate<{ x: number; y: number }>(
          `globalThis.toScreen(${lon}, ${lat})`,
        );
        return page.pixel(await page.screenshot(), p.x, p.y);
      };
      assert.ok(isRed(await at(37.6173, 55.7558)), "Moscow's marker");
      assert.ok(isFill(await at(38, 58)), "the West region");
      assert.ok(isWhite(await at(35, 54.5)), "the West region's hole");
      assert.ok(isWhite(await at(25, 45)), "nothing at 25E 45N");

      // Across 180°: 120E .. 140W. Vladivostok's point comes from both layers.
      const exports = page.requests.length;
      await tab.evaluate(
        `globalThis.goTo({ xmin: 13358338.9, ymin: 3000000, xmax: 24490287.9, ymax: 10000000 })`,
      );
      const across = page.requests.slice(exports).filter((u) => u.includes("/export?"));
      assert.ok(across.some((u) => u.includes("wkt")), "the SDK's moved-meridian WKT");
      assert.ok(isRed(await at(131.8869, 43.1155)), "Vladivostok's marker");
      await tab.evaluate(`globalThis.hideCities()`);
      // The layer fades out over a few frames: look again until it has.
      let vl = await at(131.8869, 43.1155);
      for (let i = 0; i < 50 && !isBlue(vl); i++) {
        await new Promise((r) => setTimeout(r, 100));
        vl = await at(131.8869, 43.1155);
      }
      assert.ok(isBlue(vl), `Vladivostok in the exported image: ${vl}`);
      page.assertClean();

      // A cached map as a TileLayer, from another origin than the page's.
      const maps = await Deno.makeTempDir({ prefix: "sdk-tiles-maps-" });
      await Deno.copyFile(WORLD, `${maps}/World.json`);
      const world = await startTestServer({ mapsDir: maps });
      try {
        const before = page.requests.length;
        await page.open(`${world.url}/arcgis/rest/services/World/MapServer`, { tiled: "true" });
        const tiles = page.requests.slice(before).filter((u) => /\/MapServer\/tile\/\d+\//.test(u));
        assert.ok(tiles.length > 0, "the TileLayer asked for tiles");
        const info = await tab.evaluate<{ lods: number; wkid: number }>(
          "globalThis.results.tileInfo",
        );
        assert.ok(info.lods > 0, "the SDK read the tiling scheme");
        assert.ok(isLand(await at(38, 58)), `land in the tiles: ${await at(38, 58)}`);
        assert.ok(isSea(await at(34, 43.2)), `the Black Sea in the tiles: ${await at(34, 43.2)}`);
        page.assertClean();
      } finally {
        await world.close();
        await Deno.remove(maps, { recursive: true });
      }
    } finally {
      await page.close();
      await server.close();
      await fixture.dispose();
    }
  },
});
