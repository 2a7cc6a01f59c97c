/**
 * Golden images: small renders compared with committed PNGs under
 * tests/golden/ (a few percent of pixels may differ by a few levels, so
 * antialiasing noise passes but a moved border, lost label or changed
 * colour fails). Regenerate deliberately with
 * `UPDATE_GOLDEN=1 deno test --allow-all tests/render_golden_test.ts`
 * and look at the new files before committing them.
 */
import assert from "node:assert/strict";
import { loadKit } from "../map/render/_canvaskit.ts";
import { renderMap } from "../map/render/draw_map.ts";
import { defaultScaleBar, renderScaleBar } from "../map/render/scalebar.ts";
import { renderSwatch } from "../map/render/legend.ts";
import { LabelSpecSchema, RendererSpecSchema } from "../map/document/renderer.ts";
import { countries, decode, MemorySource } from "./_render_helpers.ts";

const kit = await loadKit();
const UPDATE = Deno.env.get("UPDATE_GOLDEN") === "1";

async function compare(name: string, bytes: Uint8Array): Promise<void> {
  const path = new URL(`./golden/${name}.png`, import.meta.url);
  if (UPDATE) {
    await Deno.writeFile(path, bytes);
    return;
  }
  const want = decode(await Deno.readFile(path));
  const got = decode(bytes);
  assert.equal(got.width, want.width, `${name}: width`);
  assert.equal(got.height, want.height, `${name}: height`);
  let off = 0;
  for (let i = 0; i < got.data.length; i += 4) {
    let d = 0;
    for (let c = 0; c < 4; c++) d = Math.max(d, Math.abs(got.data[i + c] - want.data[i + c]));
    if (d > 24) off++;
  }
  const share = off / (got.width * got.height);
  assert.ok(
    share < 0.01,
    `${name}: ${(share * 100).toFixed(2)}% of pixels differ from the golden image`,
  );
}

Deno.test("golden: small world map with markers, labels and an antimeridian polygon", async () => {
  const world = await countries("110m");
  const cities = new MemorySource(
    [
      { id: 1, attributes: { name: "Москва" }, geometry: { type: "Point", x: 37.62, y: 55.75 } },
      { id: 2, attributes: { name: "Suva" }, geometry: { type: "Point", x: 178.44, y: -18.14 } },
    ],
    "Point",
  );
  const r = renderMap(kit, {
    name: "g",
    wkid: 4326,
    backgroundColor: [200, 225, 255],
    layers: [
      {
        id: 0,
        name: "c",
        geometryType: "Point",
        source: cities,
        visible: true,
        minScale: 0,
        maxScale: 0,
        renderer: RendererSpecSchema.parse({
          type: "simple",
          symbol: {
            type: "simple-marker",
            color: [220, 30, 30],
            size: 6,
            outline: { color: [255, 255, 255], width: 1 },
          },
        }),
        labels: LabelSpecSchema.parse({ field: "name", sizePt: 7, halo: { sizePt: 1 } }),
      },
      {
        id: 1,
        name: "w",
        geometryType: "Polygon",
        source: new MemorySource(world, "Polygon"),
        visible: true,
        minScale: 0,
        maxScale: 0,
        renderer: RendererSpecSchema.parse({
          type: "simple",
          symbol: {
            type: "simple-fill",
            color: [240, 235, 210],
            outline: { type: "simple-line", color: [110, 110, 110], width: 0.5 },
          },
        }),
      },
    ],
  }, {
    extent: { xmin: -180, ymin: -90, xmax: 180, ymax: 90 },
    wkid: 4326,
    widthPx: 320,
    heightPx: 160,
    format: "png32",
  });
  await compare("world_320x160", r.bytes);
});

Deno.test("golden: alternating scale bar", async () => {
  const img = renderScaleBar(kit, defaultScaleBar(), {
    mapScale: 10_000_000,
    widthPx: 240,
    heightPx: 40,
    dpi: 96,
    background: [255, 255, 255, 255],
    format: "png32",
  });
  await compare("scalebar_240x40", img.bytes);
});

Deno.test("golden: hatched fill legend swatch", async () => {
  const s = renderSwatch(kit, {
    type: "simple-fill",
    style: "diagonal-cross",
    color: [0, 90, 200, 255],
    outline: { type: "simple-line", style: "dash", color: [0, 0, 0, 255], width: 1 },
  }, { widthPt: 24, heightPt: 18, dpi: 96, format: "png32" });
  await compare("swatch_hatch", s.bytes);
});
