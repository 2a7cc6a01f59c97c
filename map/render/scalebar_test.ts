import assert from "node:assert/strict";
import { loadKit } from "./_canvaskit.ts";
import { defaultScaleBar, renderScaleBar, unitName } from "./scalebar.ts";
import { Buffer } from "node:buffer";
import { PNG } from "pngjs";

const kit = await loadKit();

function draw(spec = defaultScaleBar(), mapScale = 5_000_000, w = 400, h = 60) {
  const img = renderScaleBar(kit, spec, {
    mapScale,
    widthPx: w,
    heightPx: h,
    dpi: 96,
    background: null,
    format: "png32",
  });
  return { ...img, png: PNG.sync.read(Buffer.from(img.bytes)) };
}

Deno.test("division is a round ground length and the bar length matches the map scale", () => {
  const { layout } = draw();
  // At 1:5,000,000 and 96 DPI one pixel is 5e6 / (96 * 39.37) m = 1.3229 km.
  const kmPerPx = 5_000_000 / (96 * 39.37) / 1000;
  assert.ok([1, 2, 2.5, 5].some((m) => [1, 10, 100, 1000].some((k) => layout.division === m * k)));
  assert.ok(Math.abs(layout.divisionPx * kmPerPx - layout.division) < 1e-9);
  assert.ok(layout.bar.x1 <= 400 && layout.bar.x0 >= 0);
  assert.deepEqual(layout.labels.map((l) => l.text), [
    "0",
    "50",
    "100",
    "150",
    "200",
    "Kilometers",
  ]);
});

Deno.test("fixed division and units honoured; labels and bar are drawn pixels", () => {
  const spec = {
    ...defaultScaleBar(),
    units: "esriMiles" as const,
    division: 20,
    fixed: true,
    divisions: 3,
  };
  const { layout, png } = draw(spec, 2_000_000);
  assert.equal(layout.division, 20);
  assert.equal(layout.labels.at(-1)!.text, unitName("esriMiles"));
  // The first bar cell is black (fill1), the bar's outside is transparent.
  const { x0, y0, y1 } = layout.bar;
  const i = (Math.round((y0 + y1) / 2) * png.width + Math.round(x0 + 2)) * 4;
  assert.deepEqual([...png.data.subarray(i, i + 4)], [0, 0, 0, 255]);
  assert.equal(png.data[3], 0, "transparent corner");
  // Label text leaves opaque pixels above the bar.
  let ink = 0;
  for (let y = 0; y < Math.floor(y0) - 1; y++) {
    for (let x = 0; x < png.width; x++) if (png.data[(y * png.width + x) * 4 + 3] > 128) ink++;
  }
  assert.ok(ink > 30, `label ink ${ink}`);
});

Deno.test("every style draws", () => {
  for (const style of ["alternating", "single", "stepped", "line", "hollow"] as const) {
    const { png } = draw({ ...defaultScaleBar(), style, divisionsBeforeZero: 1 });
    let ink = 0;
    for (let i = 3; i < png.data.length; i += 4) if (png.data[i] > 0) ink++;
    assert.ok(ink > 100, `${style}: ${ink}`);
  }
});
