/**
 * A real browser (headless Chromium from Debian, driven over the DevTools
 * protocol by `_cdp.ts`) opens the web map at `/` on a real server: the
 * screenshots' pixels must show sea, land and competition markers; a click
 * on a marker must open the Identify popup of that competition (checked
 * against the JSON API); the search box must zoom to what the JSON API
 * finds; layer checkboxes must switch to `export`; a phone-sized viewport
 * must stay usable; and the page must log no console error.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { PNG } from "pngjs";
import { fetchJson, startTestServer, type TestServer } from "./_api_helpers.ts";
import { CHROMIUM, optionalTest } from "./_optional.ts";
import { type CdpPage, Chromium } from "./_cdp.ts";

interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

interface PixelCounts {
  sea: number;
  land: number;
  marker: number;
  highlight: number;
  total: number;
  /** Marker pixel with the most marker pixels around it (a marker's middle). */
  bestMarker: { x: number; y: number; around: number } | null;
}

const isMarker = (r: number, g: number, b: number) => r > 180 && g < 160 && b < 90 && r - g > 60;

/** Classifies the pixels of `rect` in a screenshot (sea, land, markers, search highlights). */
function countPixels(pngBytes: Uint8Array, rect: Rect): PixelCounts {
  const png = PNG.sync.read(Buffer.from(pngBytes));
  const at = (x: number, y: number) => {
    const i = (y * png.width + x) * 4;
    return [png.data[i], png.data[i + 1], png.data[i + 2]];
  };
  const c: PixelCounts = { sea: 0, land: 0, marker: 0, highlight: 0, total: 0, bestMarker: null };
  const x0 = Math.round(rect.x), y0 = Math.round(rect.y);
  const x1 = Math.min(png.width, Math.round(rect.x + rect.width));
  const y1 = Math.min(png.height, Math.round(rect.y + rect.height));
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const [r, g, b] = at(x, y);
      c.total++;
      if (isMarker(r, g, b)) {
        c.marker++;
        // Keep clear of the zoom buttons (top left) and the scale bar (bottom left).
        if (x - x0 < 70 || y1 - y < 50 || x1 - x < 10 || y - y0 < 10) continue;
        let around = 0;
        for (let dy = -3; dy <= 3; dy++) {
          for (let dx = -3; dx <= 3; dx++) {
            if (isMarker(...(at(x + dx, y + dy) as [number, number, number]))) around++;
          }
        }
        if (!c.bestMarker || around > c.bestMarker.around) c.bestMarker = { x, y, around };
      } else if (b > r + 20 && b > 200 && g > 180) c.sea++;
      else if (r > 220 && g > 220 && b > 200 && r >= b) c.land++;
      else if (b > 200 && r < 90 && g < 150) c.highlight++;
    }
  }
  return c;
}

async function elementRect(page: CdpPage, selector: string): Promise<Rect> {
  return await page.evaluate<Rect>(
    `(() => { const r = document.querySelector(${JSON.stringify(selector)}).getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height }; })()`,
  );
}

/** Waits until the map has drawn and the layer list and legend have loaded. */
async function waitForMap(page: CdpPage): Promise<void> {
  await page.waitFor(`document.body.dataset.ready === "true"`, "the map's first complete render");
  // A part that failed says so on the page ("... unavailable: why"): fail with that at once.
  const failed = `document.querySelector("#panel .unavailable")`;
  await page.waitFor(
    `document.getElementById("map").dataset.layers || ${failed}`,
    "the layer list",
  );
  await page.waitFor(`document.getElementById("legend").dataset.loaded || ${failed}`, "the legend");
  const unavailable = await page.evaluate<string[]>(
    `[...document.querySelectorAll("#panel .unavailable")].map((e) => e.textContent)`,
  );
  assert.deepEqual(unavailable, [], "every part of the page loaded");
  await page.waitFor(`document.body.dataset.mapSource`, "the map source choice");
}

/** Waits for the next complete render after `action` (tiles or export images loaded). */
async function renderAfter(page: CdpPage, action: () => Promise<unknown>): Promise<void> {
  const before = await page.evaluate<string>(`document.body.dataset.renders ?? "0"`);
  await action();
  await page.waitFor(
    `(document.body.dataset.renders ?? "0") !== ${JSON.stringify(before)}`,
    "a new complete render",
  );
}

const DESKTOP = { width: 1100, height: 800, mobile: false };
const PHONE = { width: 390, height: 844, mobile: true };

/** Opens `/` of a fresh server in a fresh browser at `viewport`, waits for the map, runs `fn`. */
async function withMapPage(
  viewport: typeof DESKTOP,
  fn: (page: CdpPage, server: TestServer) => Promise<void>,
): Promise<void> {
  // One render worker: the production path (tiles drawn off the main thread).
  const server = await startTestServer({ renderWorkers: 1 });
  const browser = await Chromium.launch(`${server.dir}/profile`);
  try {
    const page = await browser.page();
    await page.viewport(viewport.width, viewport.height, viewport.mobile);
    await page.goto(`${server.url}/`);
    await waitForMap(page);
    await fn(page, server);
    assert.deepEqual(page.errors, [], "no console errors");
  } finally {
    await browser.close();
    await server.close();
  }
}

const ready = { sanitizeResources: false, sanitizeOps: false };

optionalTest(CHROMIUM, {
  name:
    "browser: the web map draws land, sea and competitions with a layer list, legend and scale bar",
  ...ready,
  async fn() {
    await withMapPage(DESKTOP, async (page) => {
      assert.equal(await page.evaluate(`document.body.dataset.mapSource`), "tiles");

      const rect = await elementRect(page, "#map");
      const px = countPixels(await page.screenshot(), rect);
      assert.ok(px.sea / px.total > 0.1, `sea share ${px.sea / px.total}`);
      assert.ok(px.land / px.total > 0.3, `land share ${px.land / px.total}`);
      assert.ok(px.marker > 40, `marker pixels ${px.marker}`);

      const layers = await page.evaluate<string[]>(
        `[...document.querySelectorAll("#layers label")].map((l) => l.textContent.trim())`,
      );
      assert.deepEqual(layers, ["Конкурсы", "Страны"]);
      const legend = await page.evaluate<{ label: string; w: number }[]>(
        `[...document.querySelectorAll("#legend li")].map((li) =>
          ({ label: li.textContent.trim(), w: li.querySelector("img").naturalWidth }))`,
      );
      assert.ok(legend.length >= 3, `legend entries ${JSON.stringify(legend)}`);
      assert.ok(legend.some((e) => e.label === "Конкурс в кадровый резерв"));
      assert.ok(legend.every((e) => e.w > 0), `every swatch decodes: ${JSON.stringify(legend)}`);
      const scale = await page.evaluate<string>(
        `document.querySelector(".ol-scale-line-inner")?.textContent ?? ""`,
      );
      assert.match(scale, /^\d+ (km|m)$/);
    });
  },
});

optionalTest(CHROMIUM, {
  name: "browser: a click on a competition opens its Identify popup linking to the JSON API",
  ...ready,
  async fn() {
    await withMapPage(DESKTOP, async (page, s) => {
      const px = countPixels(await page.screenshot(), await elementRect(page, "#map"));
      assert.ok(px.bestMarker && px.bestMarker.around >= 12, `a marker: ${px.bestMarker}`);
      await page.click(px.bestMarker.x, px.bestMarker.y);
      await page.waitFor(`document.querySelector("#popup:not([hidden]) .competition")`, "popup");

      const shown = await page.evaluate<
        { title: string; href: string; agency: string; deadline: string }
      >(
        `(() => { const a = document.querySelector("#popup .competition");
          return { title: a.querySelector(".title").textContent,
            href: a.querySelector(".title").getAttribute("href"),
            agency: a.querySelector(".agency").textContent,
            deadline: a.querySelector(".deadline").textContent }; })()`,
      );
      assert.match(shown.href, /^\/api\/v1\/competitions\/\d+\/$/);
      const record = await fetchJson(`${s.url}${shown.href}`);
      assert.equal(record.status, 200);
      assert.equal(shown.title, record.body.title);
      assert.equal(shown.agency, record.body.agency.title);
      assert.equal(
        shown.deadline,
        `Приём документов до ${record.body.document_reception_finished}`,
      );
    });
  },
});

optionalTest(CHROMIUM, {
  name: "browser: the search box zooms to the competitions the JSON API finds",
  ...ready,
  async fn() {
    await withMapPage(DESKTOP, async (page, s) => {
      const term = "Новосибирск";
      const api = await fetchJson(
        `${s.url}/api/v1/competitions/?page_size=100&search=${encodeURIComponent(term)}`,
      );
      const points = (api.body.results as Record<string, string>[])
        .filter((r) => r.document_reception_map_latitude !== "")
        .map((
          r,
        ) => [
          Number(r.document_reception_map_longitude),
          Number(r.document_reception_map_latitude),
        ]);
      assert.ok(points.length > 0, "the demo data has competitions in Novosibirsk");

      const before = (await page.evaluate<string>(`document.getElementById("map").dataset.extent`))
        .split(",").map(Number);
      await page.evaluate(`(() => {
        document.getElementById("search-text").value = ${JSON.stringify(term)};
        document.getElementById("search").requestSubmit(); })()`);
      // data-found appears once the view has arrived at the matches and is drawn.
      await page.waitFor(`document.getElementById("search-result").dataset.found`, "the zoom");
      assert.equal(
        await page.evaluate(`document.getElementById("search-result").dataset.found`),
        String(points.length),
      );
      const [xmin, ymin, xmax, ymax] = (await page.evaluate<string>(
        `document.getElementById("map").dataset.extent`,
      )).split(",").map(Number);
      for (const [lon, lat] of points) {
        assert.ok(
          lon >= xmin && lon <= xmax && lat >= ymin && lat <= ymax,
          `${lon},${lat} in view`,
        );
      }
      assert.ok(xmax - xmin < (before[2] - before[0]) / 50, `zoomed in: ${xmin}..${xmax}`);
      const px = countPixels(await page.screenshot(), await elementRect(page, "#map"));
      assert.ok(px.highlight > 30, `highlighted matches: ${px.highlight} pixels`);
      assert.ok(px.marker > 30, `competition markers under them: ${px.marker} pixels`);
    });
  },
});

optionalTest(CHROMIUM, {
  name: "browser: turning a layer off draws the map through export without it",
  ...ready,
  async fn() {
    await withMapPage(DESKTOP, async (page) => {
      await renderAfter(
        page,
        () => page.evaluate(`document.querySelector('#layers input[data-layer-id="1"]').click()`),
      );
      assert.equal(await page.evaluate(`document.body.dataset.mapSource`), "export");
      const px = countPixels(await page.screenshot(), await elementRect(page, "#map"));
      assert.ok(px.land / px.total < 0.01, `no countries drawn: land share ${px.land / px.total}`);
      assert.ok(px.marker > 40, `competitions still drawn: ${px.marker} pixels`);

      await renderAfter(
        page,
        () => page.evaluate(`document.querySelector('#layers input[data-layer-id="1"]').click()`),
      );
      assert.equal(await page.evaluate(`document.body.dataset.mapSource`), "tiles");
    });
  },
});

optionalTest(CHROMIUM, {
  name: "browser: on a phone-sized viewport the map fills the screen and the panel opens on a tap",
  ...ready,
  async fn() {
    await withMapPage(PHONE, async (page) => {
      const rect = await elementRect(page, "#map");
      assert.equal(rect.width, 390);
      assert.ok(rect.height > 600, `map height ${rect.height}`);
      assert.ok(
        await page.evaluate<number>(`document.documentElement.scrollWidth`) <= 390,
        "no sideways scrolling",
      );
      const px = countPixels(await page.screenshot(), rect);
      assert.ok(px.sea / px.total > 0.05, `sea share ${px.sea / px.total}`);
      assert.ok(px.land / px.total > 0.3, `land share ${px.land / px.total}`);
      assert.ok(px.marker > 20, `marker pixels ${px.marker}`);

      // Controls are big enough for a finger (44 px buttons on a coarse pointer).
      const sizes = await page.evaluate<number[]>(
        `["#panel-toggle", "#search button", "#search-text", ".ol-zoom-in"].map((q) =>
          document.querySelector(q).getBoundingClientRect().height)`,
      );
      assert.ok(sizes.every((h) => h >= 40), `control heights ${sizes}`);
      assert.equal(
        await page.evaluate(`getComputedStyle(document.getElementById("panel")).display`),
        "none",
      );
      const toggle = await elementRect(page, "#panel-toggle");
      await page.click(toggle.x + toggle.width / 2, toggle.y + toggle.height / 2);
      await page.waitFor(
        `getComputedStyle(document.getElementById("panel")).display !== "none"`,
        "panel",
      );
      const panel = await elementRect(page, "#panel");
      assert.ok(panel.width === 390 && panel.y > 844 / 3, `bottom sheet ${JSON.stringify(panel)}`);
      assert.ok(
        await page.evaluate<number>(`document.querySelectorAll("#layers input").length`) === 2,
      );
    });
  },
});
