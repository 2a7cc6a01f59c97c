import assert from "node:assert/strict";
import { loadKit } from "./_canvaskit.ts";
import { defaultScaleBar, groundScale, renderScaleBar, unitName } from "./scalebar.ts";
import { createDisplay } from "../geo/display.ts";
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

Deno.test("scale bars use the true scale at the map centre (geographic and Web Mercator)", () => {
  const geo = createDisplay({ xmin: 20, ymin: 55, xmax: 40, ymax: 65 }, {
    widthPx: 400,
    heightPx: 200,
    wkid: 4326,
  });
  assert.ok(Math.abs(groundScale(geo, 4326) / geo.scale - 0.5) < 1e-9, "cos 60° = 0.5");
  const R = 6378137, y60 = R * Math.log(Math.tan(Math.PI / 4 + Math.PI / 6));
  const merc = createDisplay({ xmin: 0, ymin: y60 - 1e5, xmax: 2e5, ymax: y60 + 1e5 }, {
    widthPx: 400,
    heightPx: 400,
    wkid: 102100,
  });
  assert.ok(Math.abs(groundScale(merc, 102100) / merc.scale - 0.5) < 1e-9);
  const utm = createDisplay({ xmin: 0, ymin: 0, xmax: 1000, ymax: 1000 }, {
    widthPx: 100,
    heightPx: 100,
    wkid: 32637,
  });
  assert.equal(groundScale(utm, 32637), utm.scale);
});
