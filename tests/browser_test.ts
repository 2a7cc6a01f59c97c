/**
 * A real browser (headless Chromium from Debian) opens the home page of a
 * real server: the tile viewer must load the map's tiles and show land, sea
 * and competition markers on screen.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { PNG } from "pngjs";
import { startTestServer } from "./_api_helpers.ts";
import {
  CHROMIUM as CHROMIUM_REFERENCE,
  CHROMIUM_PATH as CHROMIUM,
  optionalTest,
} from "./_optional.ts";

async function chromium(args: string[], profile: string): Promise<string> {
  const out = await new Deno.Command(CHROMIUM, {
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      `--user-data-dir=${profile}`,
      "--window-size=1100,900",
      "--virtual-time-budget=20000",
      ...args,
    ],
    stdout: "piped",
    stderr: "null",
  }).output();
  assert.ok(out.success, "chromium ran");
  return new TextDecoder().decode(out.stdout);
}

optionalTest(CHROMIUM_REFERENCE, {
  name: "browser: the home page's tile viewer shows the competitions map",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    // One render worker: the production path (tiles drawn off the main thread).
    const s = await startTestServer({ renderWorkers: 1 });
    try {
      const dom = await chromium(["--dump-dom", `${s.url}/`], `${s.dir}/profile-dom`);
      assert.match(dom, /Recruitment catalogue and map server/);
      const loaded = Number(dom.match(/data-tiles-loaded="(\d+)"/)?.[1] ?? 0);
      assert.ok(loaded >= 8, `tiles loaded in the browser: ${loaded}`);

      const shot = `${s.dir}/home.png`;
      await chromium([`--screenshot=${shot}`, `${s.url}/`], `${s.dir}/profile-shot`);
      const png = PNG.sync.read(Buffer.from(await Deno.readFile(shot)));
      // Classify the pixels of the map area (below the lists, inside the frame).
      let sea = 0, land = 0, marker = 0, total = 0;
      for (let y = 400; y < Math.min(png.height, 850); y += 2) {
        for (let x = 40; x < Math.min(png.width, 1040); x += 2) {
          const i = (y * png.width + x) * 4;
          const [r, g, b] = [png.data[i], png.data[i + 1], png.data[i + 2]];
          total++;
          if (b > r + 20 && b > 200) sea++;
          else if (r > 220 && g > 220 && b > 200 && r >= b) land++;
          else if (r > 200 && g > 60 && g < 160 && b < 80) marker++;
        }
      }
      assert.ok(sea / total > 0.1, `sea share ${sea / total}`);
      assert.ok(land / total > 0.3, `land share ${land / total}`);
      assert.ok(marker > 10, `marker pixels ${marker}`);
    } finally {
      await s.close();
    }
  },
});
