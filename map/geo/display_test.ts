import { assertAlmostEquals } from "../../tests/_geo_asserts.ts";
import assert from "node:assert/strict";
import {
  adjustExtentToAspect,
  createDisplay,
  extentFromCenterAndScale,
  isVisibleAtScale,
  metersPerUnitOfWkid,
  resolutionFromScale,
  scaleFromResolution,
  toleranceToMapUnits,
  toMap,
  toScreen,
} from "./display.ts";

Deno.test("scale matches Esri's Web Mercator and WGS 84 level-0 tables", () => {
  assertAlmostEquals(scaleFromResolution(156543.033928, 1, 96), 591657527.591555, 1e-3);
  assertAlmostEquals(
    scaleFromResolution(0.703125, metersPerUnitOfWkid(4326), 96),
    295828763.7958547,
    1e-6,
  );
  assertAlmostEquals(resolutionFromScale(591657527.591555, 1, 96), 156543.033928, 1e-6);
});

Deno.test("the extent grows on its short side and keeps its centre", () => {
  assert.deepEqual(adjustExtentToAspect({ xmin: 0, ymin: 0, xmax: 10, ymax: 10 }, 200, 100), {
    xmin: -5,
    ymin: 0,
    xmax: 15,
    ymax: 10,
  });
  assert.deepEqual(adjustExtentToAspect({ xmin: 0, ymin: 0, xmax: 10, ymax: 10 }, 100, 200), {
    xmin: 0,
    ymin: -5,
    xmax: 10,
    ymax: 15,
  });
  // A zero-height extent (a horizontal line) still gets a size from the width.
  const line = adjustExtentToAspect({ xmin: 0, ymin: 5, xmax: 10, ymax: 5 }, 100, 50);
  assert.deepEqual(line, { xmin: 0, ymin: 2.5, xmax: 10, ymax: 7.5 });
});

Deno.test("bad extents and image sizes are refused with a clear message", () => {
  assert.throws(
    () => adjustExtentToAspect({ xmin: 1, ymin: 1, xmax: 1, ymax: 1 }, 10, 10),
    /zero width and zero height/,
  );
  assert.throws(
    () => adjustExtentToAspect({ xmin: 2, ymin: 0, xmax: 1, ymax: 1 }, 10, 10),
    /inverted/,
  );
  assert.throws(
    () =>
      createDisplay({ xmin: 0, ymin: 0, xmax: 1, ymax: 1 }, {
        widthPx: 0,
        heightPx: 10,
        wkid: 4326,
      }),
    /image width must be a positive number/,
  );
  assert.throws(
    () => adjustExtentToAspect({ xmin: NaN, ymin: 0, xmax: 1, ymax: 1 }, 10, 10),
    /not a finite number/,
  );
});

Deno.test("a world map at 800x400 has resolution 0.45 and a known scale", () => {
  const d = createDisplay({ xmin: -180, ymin: -90, xmax: 180, ymax: 90 }, {
    widthPx: 800,
    heightPx: 400,
    dpi: 96,
    wkid: 4326,
  });
  assert.equal(d.resolution, 0.45);
  assertAlmostEquals(d.scale, 0.45 * 111319.49079327358 * 96 * 39.37, 1e-6);
  assert.deepEqual(d.visibleExtent, d.extent);
  // Missing or zero DPI falls back to 96.
  const d0 = createDisplay(d.extent, { widthPx: 800, heightPx: 400, dpi: 0, wkid: 4326 });
  assert.equal(d0.dpi, 96);
  // The Web Mercator aliases use metres.
  const m = createDisplay({ xmin: 0, ymin: 0, xmax: 1000, ymax: 1000 }, {
    widthPx: 100,
    heightPx: 100,
    dpi: 96,
    wkid: 102100,
  });
  assertAlmostEquals(m.scale, 10 * 96 * 39.37, 1e-9);
});

Deno.test("pixel origin is upper-left and map origin lower-left", () => {
  const d = createDisplay({ xmin: 100, ymin: 200, xmax: 300, ymax: 300 }, {
    widthPx: 200,
    heightPx: 100,
    wkid: 3857,
  });
  assert.deepEqual(toScreen(d, [100, 300]), [0, 0]);
  assert.deepEqual(toScreen(d, [300, 200]), [200, 100]);
  assert.deepEqual(toMap(d, [0, 100]), [100, 200]);
  assert.deepEqual(toMap(d, [50, 25]), [150, 275]);
  assert.equal(toleranceToMapUnits(d, 3), 3);
  assert.equal(toleranceToMapUnits(d, -1), 0);
});

Deno.test("rotation turns the map counter-clockwise about the centre", () => {
  const d = createDisplay({ xmin: -50, ymin: -50, xmax: 50, ymax: 50 }, {
    widthPx: 100,
    heightPx: 100,
    rotation: 90,
    wkid: 3857,
  });
  // A point east of the centre shows above it after a quarter turn.
  const [px, py] = toScreen(d, [20, 0]);
  assertAlmostEquals(px, 50, 1e-9);
  assertAlmostEquals(py, 30, 1e-9);
  for (const p of [[3, 7], [-40, 12], [0, 0]] as [number, number][]) {
    const back = toMap(d, toScreen(d, p));
    assertAlmostEquals(back[0], p[0], 1e-9);
    assertAlmostEquals(back[1], p[1], 1e-9);
  }
  const d45 = createDisplay({ xmin: -50, ymin: -50, xmax: 50, ymax: 50 }, {
    widthPx: 100,
    heightPx: 100,
    rotation: 45,
    wkid: 3857,
  });
  // The rotated square frame covers a box √2 times larger.
  assertAlmostEquals(d45.visibleExtent.xmax, 50 * Math.SQRT2, 1e-9);
  assertAlmostEquals(d45.visibleExtent.ymin, -50 * Math.SQRT2, 1e-9);
  assert.deepEqual(d45.extent, { xmin: -50, ymin: -50, xmax: 50, ymax: 50 });
});

Deno.test("CenterAndScale gives back the scale it was asked for", () => {
  const opts = { widthPx: 400, heightPx: 300, dpi: 96, wkid: 4326 };
  const e = extentFromCenterAndScale([37.6, 55.75], 250_000, opts);
  const d = createDisplay(e, opts);
  assertAlmostEquals(d.scale, 250_000, 1e-6);
  assertAlmostEquals((e.xmin + e.xmax) / 2, 37.6, 1e-12);
  assert.throws(() => extentFromCenterAndScale([0, 0], 0, opts), /map scale must be a positive/);
});

Deno.test("scale ranges follow ArcGIS: 0 means no limit", () => {
  assert.equal(isVisibleAtScale(1e9, 0, 0), true);
  assert.equal(isVisibleAtScale(50_000, 100_000, 0), true);
  assert.equal(isVisibleAtScale(100_000, 100_000, 0), true);
  assert.equal(isVisibleAtScale(100_001, 100_000, 0), false);
  assert.equal(isVisibleAtScale(999, 0, 1000), false);
  assert.equal(isVisibleAtScale(5000, 10_000, 1000), true);
});

Deno.test("a stretched display draws the box exactly, its pixels not square (WMS)", () => {
  const box = { xmin: 0, ymin: 0, xmax: 10, ymax: 10 };
  const d = createDisplay(box, { widthPx: 200, heightPx: 100, wkid: 3857, stretch: true });
  assert.deepEqual(d.extent, box);
  assert.equal(d.resolution, 0.05);
  assert.equal(d.yResolution, 0.1);
  assert.deepEqual(toScreen(d, [10, 0]), [200, 100]);
  assert.deepEqual(toMap(d, [100, 50]), [5, 5]);
  // The widened display of the same request keeps square pixels and grows the box.
  const w = createDisplay(box, { widthPx: 200, heightPx: 100, wkid: 3857 });
  assert.equal(w.yResolution, w.resolution);
  assert.deepEqual(w.extent, { xmin: -5, ymin: 0, xmax: 15, ymax: 10 });
  // A box of the image's own aspect draws as an unstretched one does.
  const same = createDisplay(box, { widthPx: 100, heightPx: 100, wkid: 3857, stretch: true });
  assert.deepEqual(same, createDisplay(box, { widthPx: 100, heightPx: 100, wkid: 3857 }));
  assert.throws(() =>
    createDisplay({ xmin: 0, ymin: 5, xmax: 10, ymax: 5 }, {
      widthPx: 10,
      heightPx: 10,
      wkid: 3857,
      stretch: true,
    })
  );
});
