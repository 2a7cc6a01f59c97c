/**
 * Polygons of one layer are filled and outlined feature by feature, as
 * ArcGIS and MapServer draw them: overlapping features never cancel each
 * other, a feature inside another is not a hole, a later feature covers the
 * earlier one's outline, and semi-transparent fills blend one over another.
 * Holes come only from a feature's own rings.
 */
import assert from "node:assert/strict";
import { loadKit } from "../map/render/_canvaskit.ts";
import { renderMap } from "../map/render/draw_map.ts";
import { RendererSpecSchema } from "../map/document/renderer.ts";
import type { RenderMap } from "../map/render/types.ts";
import type { Feature, Position } from "../map/types.ts";
import { decode, MemorySource, near, pixel, type Pixels } from "./render_helpers.ts";

const kit = await loadKit();
const WHITE: [number, number, number] = [255, 255, 255];
const RED: [number, number, number] = [200, 0, 0];

/** A closed square ring, clockwise as Esri stores exterior rings. */
function square(x0: number, y0: number, x1: number, y1: number): Position[] {
  return [[x0, y0], [x0, y1], [x1, y1], [x1, y0], [x0, y0]];
}

/** A counter-clockwise square ring (an Esri hole). */
function hole(x0: number, y0: number, x1: number, y1: number): Position[] {
  return square(x0, y0, x1, y1).reverse();
}

const features: Feature[] = [
  // Two overlapping squares: A first, B over it.
  { id: 1, attributes: {}, geometry: { type: "Polygon", rings: [square(10, 10, 40, 40)] } },
  { id: 2, attributes: {}, geometry: { type: "Polygon", rings: [square(25, 20, 55, 45)] } },
  // A square inside a square (the inner one drawn second).
  { id: 3, attributes: {}, geometry: { type: "Polygon", rings: [square(60, 5, 95, 45)] } },
  { id: 4, attributes: {}, geometry: { type: "Polygon", rings: [square(70, 15, 85, 35)] } },
  // A multipart feature (two squares) and a feature with a hole.
  {
    id: 5,
    attributes: {},
    geometry: { type: "Polygon", rings: [square(110, 10, 125, 25), square(130, 30, 145, 45)] },
  },
  {
    id: 6,
    attributes: {},
    geometry: { type: "Polygon", rings: [square(160, 5, 195, 45), hole(170, 15, 185, 35)] },
  },
];

function render(fill: [number, number, number, number]): Pixels {
  const map: RenderMap = {
    name: "Zones",
    wkid: 4326,
    backgroundColor: WHITE,
    layers: [{
      id: 0,
      name: "Zones",
      geometryType: "Polygon",
      source: new MemorySource(features, "Polygon"),
      visible: true,
      minScale: 0,
      maxScale: 0,
      renderer: RendererSpecSchema.parse({
        type: "simple",
        symbol: {
          type: "simple-fill",
          color: fill,
          outline: { type: "simple-line", color: RED, width: 1.5 },
        },
      }),
    }],
  };
  // 0..200 x 0..50 at 4 px per degree.
  const r = renderMap(kit, map, {
    extent: { xmin: 0, ymin: 0, xmax: 200, ymax: 50 },
    wkid: 4326,
    widthPx: 800,
    heightPx: 200,
    format: "png32",
  });
  return decode(r.bytes);
}

/** Pixel at a map position (4 px per degree, y down from 50). */
function at(img: Pixels, x: number, y: number): [number, number, number, number] {
  return pixel(img, x * 4, (50 - y) * 4);
}

Deno.test("opaque fills: overlaps stay filled, inner features are not holes, later fills cover outlines", () => {
  const BLUE: [number, number, number, number] = [30, 60, 200, 255];
  const img = render(BLUE);
  assert.ok(near(at(img, 15, 15), BLUE), "A alone is filled");
  assert.ok(near(at(img, 50, 42), BLUE), "B alone is filled");
  assert.ok(near(at(img, 32, 32), BLUE), "the overlap of A and B is filled");
  assert.ok(near(at(img, 65, 40), BLUE), "the outer square is filled");
  assert.ok(near(at(img, 77.5, 25), BLUE), "the inner square is filled, not a hole");
  assert.ok(near(at(img, 117.5, 17.5), BLUE), "first part of the multipart feature");
  assert.ok(near(at(img, 137.5, 37.5), BLUE), "second part of the multipart feature");
  assert.ok(near(at(img, 127.5, 27.5), [...WHITE, 255]), "between the parts is background");
  assert.ok(near(at(img, 177.5, 25), [...WHITE, 255]), "the feature's own hole stays open");
  assert.ok(near(at(img, 165, 25), BLUE), "around the hole is filled");
  // Outlines: each feature is outlined right after its fill.
  assert.ok(near(at(img, 25, 30), [...RED, 255], 40), "B's outline is drawn over A");
  assert.ok(near(at(img, 40, 30), BLUE), "B's fill covers A's outline inside B");
  assert.ok(near(at(img, 40, 15), [...RED, 255], 40), "A's outline outside B is drawn");
  assert.ok(near(at(img, 70, 25), [...RED, 255], 40), "the inner square's outline is drawn");
  assert.ok(near(at(img, 170, 25), [...RED, 255], 40), "the hole is outlined");
});

Deno.test("50% fills: each feature blends over the ones below it, so overlaps are darker", () => {
  const HALF: [number, number, number, number] = [0, 0, 255, 128];
  const img = render(HALF);
  const once = at(img, 15, 15);
  const twice = at(img, 32, 32);
  // One layer of 50% blue over white, then a second one over that.
  const a = 128 / 255;
  const one = WHITE.map((w, i) => w * (1 - a) + [0, 0, 255][i] * a);
  const two = one.map((w, i) => w * (1 - a) + [0, 0, 255][i] * a);
  assert.ok(near(once, [...one.map(Math.round), 255], 3), `one layer: ${once}`);
  assert.ok(near(twice, [...two.map(Math.round), 255], 3), `two layers: ${twice}`);
  assert.ok(twice[0] < once[0] - 40, "the overlap is darker than either square alone");
  assert.ok(near(at(img, 77.5, 25), twice, 3), "a square inside a square is two layers deep");
  assert.ok(near(at(img, 65, 40), once, 3), "the outer square alone is one layer");
  assert.ok(near(at(img, 137.5, 37.5), once, 3), "a part of a multipart feature is one layer");
  assert.ok(near(at(img, 177.5, 25), [...WHITE, 255]), "the hole stays open");
});
