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
import { decode, MemorySource, near, pixel, type Pixels } from "./_render_helpers.ts";

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

function render(
  fill: [number, number, number, number],
  background?: null,
): Pixels {
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
    background,
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

Deno.test("50% fills over a transparent background keep their colour; overlaps are more opaque", () => {
  // The surface stores premultiplied pixels; the image must come out unpremultiplied.
  const img = render([0, 0, 255, 128], null);
  const a = 128 / 255;
  assert.ok(near(at(img, 15, 15), [0, 0, 255, 128], 2), `one layer: ${at(img, 15, 15)}`);
  const two = Math.round(255 * (1 - (1 - a) * (1 - a)));
  assert.ok(near(at(img, 32, 32), [0, 0, 255, two], 2), `two layers: ${at(img, 32, 32)}`);
  assert.equal(at(img, 127.5, 27.5)[3], 0, "between the parts stays transparent");
  assert.equal(at(img, 177.5, 25)[3], 0, "the hole stays transparent");
});

Deno.test("batched drawing gives exactly the pixels of drawing each feature on its own", () => {
  // 300 random squares, many overlapping, semi-transparent with outlines.
  let seed = 42;
  const rand = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const many: Feature[] = [];
  for (let id = 1; id <= 300; id++) {
    const x = rand() * 190, y = rand() * 45, s = 0.5 + rand() * 12;
    many.push({
      id,
      attributes: {},
      geometry: { type: "Polygon", rings: [square(x, y, x + s, y + s)] },
    });
  }
  const renderer = RendererSpecSchema.parse({
    type: "simple",
    symbol: {
      type: "simple-fill",
      color: [0, 120, 200, 100],
      outline: { type: "simple-line", color: [120, 0, 0, 160], width: 1 },
    },
  });
  const layer = (id: number, fs: Feature[]) => ({
    id,
    name: `L${id}`,
    geometryType: "Polygon" as const,
    source: new MemorySource(fs, "Polygon"),
    visible: true,
    minScale: 0,
    maxScale: 0,
    renderer,
  });
  const draw = (layers: RenderMap["layers"]) =>
    decode(
      renderMap(kit, { name: "m", wkid: 4326, backgroundColor: WHITE, layers }, {
        extent: { xmin: 0, ymin: 0, xmax: 200, ymax: 50 },
        wkid: 4326,
        widthPx: 800,
        heightPx: 200,
        format: "png32",
      }).bytes,
    );
  const batched = draw([layer(0, many)]);
  // One layer per feature: the first feature is the bottom layer, drawn first.
  const oneByOne = draw(many.map((f, i) => layer(many.length - 1 - i, [f])).reverse());
  // Skia may pick another anti-aliasing rasteriser for a path of many contours: edge coverage
  // can round a few levels apart (4 at most, measured). Anything more is a different drawing
  // (one even-odd path per layer differed by up to 242 on 200,000 values).
  let differ = 0, worst = 0;
  for (let i = 0; i < batched.data.length; i++) {
    const d = Math.abs(batched.data[i] - oneByOne.data[i]);
    worst = Math.max(worst, d);
    if (d > 8) differ++;
  }
  assert.equal(differ, 0, `${differ} channel values differ by more than 8 (worst ${worst})`);
});
