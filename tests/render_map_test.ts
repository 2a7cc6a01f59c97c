/**
 * Map drawing end to end below SOAP: real CanvasKit, real encoders, every
 * image decoded and checked pixel by pixel against positions computed
 * here independently of the display code.
 */
import assert from "node:assert/strict";
import { loadKit } from "../map/render/_canvaskit.ts";
import { renderMap } from "../map/render/draw_map.ts";
import { LabelSpecSchema, RendererSpecSchema } from "../map/document/renderer.ts";
import type { RenderLayer, RenderMap } from "../map/render/types.ts";
import { parseWhere } from "../map/query/mod.ts";
import { openWorldAtlas } from "../map/sources/world_atlas.ts";
import { countNot, countries, decode, MemorySource, near, pixel } from "./_render_helpers.ts";

const kit = await loadKit();
const world = await countries("110m");
const SEA: [number, number, number] = [200, 225, 255];
const LAND: [number, number, number, number] = [240, 235, 210, 255];
const RED: [number, number, number, number] = [220, 30, 30, 255];
const R = 6378137;

const cities = new MemorySource(
  [
    {
      id: 1,
      attributes: { name: "Москва", kind: "a" },
      geometry: { type: "Point", x: 37.62, y: 55.75 },
    },
    {
      id: 2,
      attributes: { name: "Lima", kind: "b" },
      geometry: { type: "Point", x: -77.03, y: -12.05 },
    },
  ],
  "Point",
  4326,
  [
    { name: "name", type: "String", alias: "Name", length: 50, nullable: true },
    { name: "kind", type: "String", alias: "Kind", length: 5, nullable: true },
  ],
);

function layers(): RenderLayer[] {
  return [
    {
      id: 0,
      name: "Cities",
      geometryType: "Point",
      source: cities,
      visible: true,
      minScale: 0,
      maxScale: 0,
      renderer: RendererSpecSchema.parse({
        type: "simple",
        symbol: { type: "simple-marker", style: "circle", color: RED, size: 9 },
      }),
    },
    {
      id: 1,
      name: "Countries",
      geometryType: "Polygon",
      source: new MemorySource(world, "Polygon", 4326, [
        { name: "name", type: "String", alias: "Name", length: 80, nullable: true },
      ]),
      visible: true,
      minScale: 0,
      maxScale: 0,
      renderer: RendererSpecSchema.parse({
        type: "simple",
        symbol: {
          type: "simple-fill",
          color: LAND,
          outline: { type: "simple-line", color: [90, 90, 90], width: 0.4 },
        },
      }),
    },
  ];
}

function map(ls = layers()): RenderMap {
  return { name: "Layers", wkid: 4326, backgroundColor: SEA, layers: ls };
}

const WORLD = { xmin: -180, ymin: -90, xmax: 180, ymax: 90 };

/** Pixel of a lon/lat on a 1024x512 whole-world 4326 image (0.3515625 deg/px). */
function geoPx(lon: number, lat: number): [number, number] {
  return [(lon + 180) / (360 / 1024), (90 - lat) / (360 / 1024)];
}

Deno.test("world map in 4326: size, sea background, land colour, marker where its coordinates say", () => {
  const r = renderMap(kit, map(), {
    extent: WORLD,
    wkid: 4326,
    widthPx: 1024,
    heightPx: 512,
    format: "png32",
  });
  assert.equal(r.mime, "image/png");
  const img = decode(r.bytes);
  assert.equal(img.width, 1024);
  assert.equal(img.height, 512);
  assert.ok(near(pixel(img, ...geoPx(-30, -30)), [...SEA, 255]), "South Atlantic is sea");
  assert.ok(near(pixel(img, ...geoPx(-50, -10)), LAND), "inside Brazil is land");
  assert.ok(near(pixel(img, ...geoPx(100, 60)), LAND), "inside Siberia is land");
  assert.ok(near(pixel(img, ...geoPx(37.62, 55.75)), RED), "Moscow marker centre");
  assert.ok(near(pixel(img, ...geoPx(-77.03, -12.05)), RED), "Lima marker centre");
  // 9 pt at 96 DPI = 12 px diameter: 8 px from the centre is off the marker.
  const [mx, my] = geoPx(37.62, 55.75);
  assert.ok(!near(pixel(img, mx + 8, my), RED));
  assert.deepEqual(r.visibleLayerIds, [0, 1]);
  assert.ok(Math.abs(r.scale - (360 / 1024) * 111319.49079327358 * 96 * 39.37) < 1e-3);
});

Deno.test("extent is widened to the image aspect and reported", () => {
  const r = renderMap(kit, map(), {
    extent: WORLD,
    wkid: 4326,
    widthPx: 800,
    heightPx: 800,
    format: "png32",
  });
  assert.deepEqual(r.extent, { xmin: -180, xmax: 180, ymin: -180, ymax: 180 });
  const img = decode(r.bytes);
  // Rows beyond the poles are background; the equator is at the middle row.
  assert.ok(near(pixel(img, 400, 10), [...SEA, 255]));
  assert.ok(near(pixel(img, ((-50 + 180) / 360) * 800, 400 + 10 * (800 / 360)), LAND), "Brazil");
});

Deno.test("Web Mercator output projects on the fly", () => {
  const half = Math.PI * R;
  const r = renderMap(kit, map(), {
    extent: { xmin: -half, ymin: -half, xmax: half, ymax: half },
    wkid: 3857,
    widthPx: 512,
    heightPx: 512,
    format: "png32",
  });
  const img = decode(r.bytes);
  const res = (2 * half) / 512;
  const x = (R * (37.62 * Math.PI) / 180 + half) / res;
  const y = (half - R * Math.log(Math.tan(Math.PI / 4 + (55.75 * Math.PI) / 360))) / res;
  assert.ok(near(pixel(img, x, y), RED), `Moscow at ${x},${y}`);
});

Deno.test("antimeridian: Chukotka and Fiji draw without streaks in 4326 and 3857", () => {
  for (const wkid of [4326, 3857]) {
    const half = Math.PI * R;
    const extent = wkid === 4326 ? WORLD : { xmin: -half, ymin: -half, xmax: half, ymax: half };
    const w = 1024, h = wkid === 4326 ? 512 : 1024;
    const img = decode(
      renderMap(kit, map(), { extent, wkid, widthPx: w, heightPx: h, format: "png32" }).bytes,
    );
    const rowOf = (lat: number) =>
      wkid === 4326
        ? (90 - lat) / (360 / w)
        : (half - R * Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360))) / ((2 * half) / h);
    // A streak would paint land across the whole Pacific on these rows; the middle of the
    // North Atlantic and mid Pacific must stay sea.
    const seaAt: [number, number][] = [[0, 66], [-30, 65], [-130, -17], [-120, -18], [-30, -17]];
    for (const [lon, lat] of seaAt) {
      const y = rowOf(lat);
      {
        const x = (lon + 180) / 360 * w;
        assert.ok(near(pixel(img, x, y), [...SEA, 255], 6), `${wkid}: sea at ${lon},${lat}`);
      }
    }
    // Chukotka's eastern tip (west of 180) and its part east of 180 are land.
    assert.ok(
      near(pixel(img, (175 + 180) / 360 * w, rowOf(67)), LAND),
      `${wkid}: Chukotka west of 180`,
    );
    assert.ok(
      near(pixel(img, (-176 + 180) / 360 * w, rowOf(66.8)), LAND),
      `${wkid}: Chukotka east of 180`,
    );
  }
});

Deno.test("a Pacific view across the antimeridian shows both halves of Chukotka joined", () => {
  const r = renderMap(kit, map(), {
    extent: { xmin: 160, ymin: 55, xmax: 200, ymax: 75 },
    wkid: 4326,
    widthPx: 800,
    heightPx: 400,
    format: "png32",
  });
  const img = decode(r.bytes);
  const px = (lon: number, lat: number): [number, number] => [(lon - 160) * 20, (75 - lat) * 20];
  assert.ok(near(pixel(img, ...px(175, 67)), LAND), "west of 180");
  assert.ok(near(pixel(img, ...px(181, 67.5)), LAND), "east of 180 (drawn from the -179 copy)");
});

Deno.test("transparent background for PNG32 and TransparentColor", () => {
  const transparent = decode(
    renderMap(kit, map(), {
      extent: WORLD,
      wkid: 4326,
      widthPx: 512,
      heightPx: 256,
      background: null,
      format: "png32",
    })
      .bytes,
  );
  assert.equal(pixel(transparent, 10, 10)[3], 0, "sea pixel is transparent");
  assert.equal(
    pixel(transparent, ((-50 + 180) / 360) * 512, ((90 + 10) / 360) * 512)[3],
    255,
    "land is opaque",
  );
  const keyed = decode(
    renderMap(kit, map(), {
      extent: WORLD,
      wkid: 4326,
      widthPx: 512,
      heightPx: 256,
      transparentColor: [...SEA, 255],
      format: "png24",
    }).bytes,
  );
  assert.equal(pixel(keyed, 10, 10)[3], 0, "the transparent colour is keyed out");
  assert.equal(pixel(keyed, ((-50 + 180) / 360) * 512, ((90 + 10) / 360) * 512)[3], 255);
});

Deno.test("JPEG with quality, PNG8, GIF, BMP and TIFF are produced", () => {
  const base = { extent: WORLD, wkid: 4326, widthPx: 400, heightPx: 200 } as const;
  const hi = renderMap(kit, map(), { ...base, format: "jpg", quality: 95 });
  const lo = renderMap(kit, map(), { ...base, format: "jpg", quality: 20 });
  assert.equal(hi.mime, "image/jpeg");
  assert.ok(lo.bytes.length < hi.bytes.length, "lower quality is smaller");
  const img = decode(hi.bytes);
  assert.equal(img.width, 400);
  assert.ok(near(pixel(img, 20, 100), [...SEA, 255], 10), "JPEG sea colour");
  const p8 = decode(renderMap(kit, map(), { ...base, format: "png8" }).bytes);
  assert.ok(near(pixel(p8, ((-50 + 180) / 360) * 400, ((90 + 10) / 360) * 400), LAND, 6));
  const bmp = renderMap(kit, map(), { ...base, format: "bmp" });
  assert.equal(String.fromCharCode(bmp.bytes[0], bmp.bytes[1]), "BM");
  assert.equal(new DataView(bmp.bytes.buffer).getInt32(18, true), 400);
  const gif = renderMap(kit, map(), { ...base, format: "gif" });
  assert.equal(gif.mime, "image/gif");
  assert.equal(new TextDecoder().decode(gif.bytes.subarray(0, 6)), "GIF89a");
  const tif = renderMap(kit, map(), { ...base, format: "tiff" });
  assert.equal(tif.mime, "image/tiff");
  assert.equal(String.fromCharCode(tif.bytes[0], tif.bytes[1]), "II");
});

Deno.test("DPI scales symbol sizes; rotation turns the map counter-clockwise", () => {
  const extent = { xmin: 27.62, ymin: 45.75, xmax: 47.62, ymax: 65.75 }; // Moscow at the centre
  const at = (dpi: number) =>
    decode(
      renderMap(kit, map(), {
        extent,
        wkid: 4326,
        widthPx: 200,
        heightPx: 200,
        dpi,
        format: "png32",
      }).bytes,
    );
  const wide = (img: ReturnType<typeof decode>) => {
    let n = 0;
    for (let x = 0; x < 200; x++) if (near(pixel(img, x, 100), RED, 30)) n++;
    return n;
  };
  const w96 = wide(at(96)), w192 = wide(at(192));
  assert.ok(w96 >= 10 && w96 <= 14, `12 px at 96 DPI, got ${w96}`);
  assert.ok(w192 >= 22 && w192 <= 26, `24 px at 192 DPI, got ${w192}`);
  // Lima-free view with a marker east of the centre; rotated 90 deg CCW it moves up.
  const e2 = { xmin: 17.62, ymin: 45.75, xmax: 37.62 + 20, ymax: 65.75 };
  const rot = decode(
    renderMap(kit, map(), {
      extent: { ...e2, xmin: 37.62 - 30, xmax: 37.62 + 10 },
      wkid: 4326,
      widthPx: 200,
      heightPx: 200,
      rotation: 90,
      format: "png32",
    })
      .bytes,
  );
  // Centre is (27.62, 55.75); Moscow is 10 deg east = 50 px right unrotated -> 50 px up rotated.
  assert.ok(near(pixel(rot, 100, 50), RED, 30), "rotated marker above the centre");
  assert.ok(!near(pixel(rot, 150, 100), RED, 30), "not where it was unrotated");
});

Deno.test("layer visibility, definition expressions and scale ranges decide what is drawn", () => {
  const base = {
    extent: WORLD,
    wkid: 4326,
    widthPx: 1024,
    heightPx: 512,
    format: "png32",
  } as const;
  const hidden = renderMap(kit, map(), { ...base, layers: [{ id: 1, visible: false }] });
  const img = decode(hidden.bytes);
  assert.ok(near(pixel(img, ...geoPx(-50, -10)), [...SEA, 255]), "countries off");
  assert.deepEqual(hidden.visibleLayerIds, [0]);
  const filtered = decode(
    renderMap(kit, map(), {
      ...base,
      layers: [{ id: 0, where: parseWhere("kind = 'b'", cities.fields()) }],
    }).bytes,
  );
  assert.ok(!near(pixel(filtered, ...geoPx(37.62, 55.75)), RED), "Moscow filtered out");
  assert.ok(near(pixel(filtered, ...geoPx(-77.03, -12.05)), RED), "Lima kept");
  const ls = layers();
  ls[0] = { ...ls[0], definitionExpression: "name = 'Lima'" };
  const own = decode(renderMap(kit, map(ls), base).bytes);
  assert.ok(!near(pixel(own, ...geoPx(37.62, 55.75)), RED), "the layer's own definition applies");
  const ranged = layers();
  ranged[0] = { ...ranged[0], minScale: 1_000_000 }; // only when zoomed in past 1:1M
  const r = renderMap(kit, map(ranged), base);
  assert.deepEqual(r.visibleLayerIds, [1]);
  assert.ok(!near(pixel(decode(r.bytes), ...geoPx(37.62, 55.75)), RED));
});

Deno.test("unique-value and class-breaks renderers pick symbols per feature", () => {
  const ls = layers();
  ls[0] = {
    ...ls[0],
    renderer: RendererSpecSchema.parse({
      type: "uniqueValue",
      field: "kind",
      values: [{
        value: "a",
        symbol: { type: "simple-marker", style: "square", color: [0, 0, 255], size: 10 },
      }],
      default: {
        symbol: { type: "simple-marker", style: "diamond", color: [0, 160, 0], size: 10 },
      },
    }),
  };
  const img = decode(
    renderMap(kit, map(ls), {
      extent: WORLD,
      wkid: 4326,
      widthPx: 1024,
      heightPx: 512,
      format: "png32",
    }).bytes,
  );
  assert.ok(near(pixel(img, ...geoPx(37.62, 55.75)), [0, 0, 255, 255]));
  assert.ok(near(pixel(img, ...geoPx(-77.03, -12.05)), [0, 160, 0, 255]));
  // A square reaches its corners, a diamond does not.
  const [mx, my] = geoPx(37.62, 55.75);
  assert.ok(near(pixel(img, mx + 5, my + 5), [0, 0, 255, 255], 40));
  const [lx, ly] = geoPx(-77.03, -12.05);
  assert.ok(!near(pixel(img, lx + 5, ly + 5), [0, 160, 0, 255], 40));
});

Deno.test("hatched and hollow fills, dashed outlines", () => {
  const ls = layers();
  ls[1] = {
    ...ls[1],
    renderer: RendererSpecSchema.parse({
      type: "simple",
      symbol: {
        type: "simple-fill",
        style: "horizontal",
        color: [0, 0, 0],
        outline: { type: "simple-line", style: "dash", color: [0, 0, 0], width: 1 },
      },
    }),
  };
  const img = decode(
    renderMap(kit, map(ls), {
      extent: { xmin: -60, ymin: -20, xmax: -40, ymax: 0 },
      wkid: 4326,
      widthPx: 200,
      heightPx: 200,
      format: "png32",
    }).bytes,
  );
  // Inside Brazil a vertical run crosses dark hatch lines and sea-coloured gaps.
  let dark = 0, light = 0;
  for (let y = 50; y < 150; y++) {
    const p = pixel(img, 100, y);
    if (p[0] < 100) dark++;
    else if (near(p, [...SEA, 255], 10)) light++;
  }
  assert.ok(dark > 5 && light > 30, `hatch lines ${dark}, gaps ${light}`);
});

Deno.test("labels are drawn with Cyrillic glyphs and do not pile up", () => {
  const ls = layers();
  ls[0] = {
    ...ls[0],
    labels: LabelSpecSchema.parse({ field: "name", sizePt: 10, color: [0, 0, 0] }),
  };
  const extent = { xmin: 27.62, ymin: 45.75, xmax: 47.62, ymax: 65.75 };
  const withLabel = decode(
    renderMap(kit, map(ls), { extent, wkid: 4326, widthPx: 200, heightPx: 200, format: "png32" })
      .bytes,
  );
  const without = decode(
    renderMap(kit, map(), { extent, wkid: 4326, widthPx: 200, heightPx: 200, format: "png32" })
      .bytes,
  );
  // Above-right of the marker (centre 100,100; radius 6 px) there is dark text only when labelled.
  const box = [106, 80, 190, 95] as const;
  const dark = (img: ReturnType<typeof decode>) => {
    let n = 0;
    for (let y = box[1]; y < box[3]; y++) {
      for (let x = box[0]; x < box[2]; x++) if (pixel(img, x, y)[0] < 90) n++;
    }
    return n;
  };
  assert.ok(dark(withLabel) > 40, `label pixels ${dark(withLabel)}`);
  assert.ok(dark(without) < 5);
  const off = decode(
    renderMap(kit, map(ls), {
      extent,
      wkid: 4326,
      widthPx: 200,
      heightPx: 200,
      format: "png32",
      layers: [{ id: 0, showLabels: false }],
    })
      .bytes,
  );
  assert.ok(dark(off) < 5, "ShowLabels=false hides them");
});

Deno.test("custom graphics draw on top", () => {
  const r = renderMap(kit, map(), {
    extent: WORLD,
    wkid: 4326,
    widthPx: 1024,
    heightPx: 512,
    format: "png32",
    graphics: [
      {
        kind: "shape",
        geometry: {
          type: "Polygon",
          rings: [[[-60, -20], [-60, 0], [-40, 0], [-40, -20], [-60, -20]]],
        },
        symbol: { type: "simple-fill", style: "solid", color: [255, 0, 255, 255] },
      },
    ],
  });
  const img = decode(r.bytes);
  assert.ok(near(pixel(img, ...geoPx(-50, -10)), [255, 0, 255, 255]));
  assert.ok(countNot(img, [255, 0, 255, 255], ...geoPx(-59, -1), ...geoPx(-41, -19)) < 10);
});

Deno.test("overlapping markers: each later marker covers the earlier one's outline (paths and stamps)", () => {
  const marker = RendererSpecSchema.parse({
    type: "simple",
    symbol: {
      type: "simple-marker",
      color: [0, 0, 255],
      size: 12,
      outline: { color: [0, 0, 0], width: 2 },
    },
  });
  for (const pairs of [1, 1500]) {
    // Pairs of markers 0.12 deg apart on a 0.01 deg/px map: 12 px apart, radius 8 px.
    const feats = [];
    for (let i = 0; i < pairs; i++) {
      const x = -170 + (i % 50) * 0.5, y = 60 - Math.floor(i / 50) * 0.5;
      feats.push({ id: i * 2 + 1, attributes: {}, geometry: { type: "Point" as const, x, y } });
      feats.push({
        id: i * 2 + 2,
        attributes: {},
        geometry: { type: "Point" as const, x: x + 0.12, y },
      });
    }
    const m: RenderMap = {
      name: "m",
      wkid: 4326,
      backgroundColor: [255, 255, 255],
      layers: [{
        id: 0,
        name: "p",
        geometryType: "Point",
        source: new MemorySource(feats, "Point"),
        visible: true,
        minScale: 0,
        maxScale: 0,
        renderer: marker,
      }],
    };
    const img = decode(
      renderMap(kit, m, {
        extent: { xmin: -171, ymin: 44, xmax: -145, ymax: 61 },
        wkid: 4326,
        widthPx: 2600,
        heightPx: 1700,
        format: "png32",
      })
        .bytes,
    );
    // First pair: A at (-170, 60) = pixel (100, 100); its right outline at x = 108 lies in B's fill.
    assert.ok(near(pixel(img, 100, 100), [0, 0, 255, 255]), `${pairs}: A's centre`);
    assert.ok(near(pixel(img, 107, 100), [0, 0, 255, 255], 10), `${pairs}: B covers A's outline`);
    assert.ok(pixel(img, 120, 100)[2] < 80, `${pairs}: B's own outline stays`);
  }
});

Deno.test("selected features are drawn over their layer in the selection colour", () => {
  const base = {
    extent: WORLD,
    wkid: 4326,
    widthPx: 1024,
    heightPx: 512,
    format: "png32",
  } as const;
  const brazil = world.find((f) => f.attributes.name === "Brazil")!;
  const img = decode(
    renderMap(kit, map(), {
      ...base,
      layers: [{ id: 1, selection: { ids: [brazil.id], color: [0, 255, 255, 255] } }],
    }).bytes,
  );
  // Brazil's outline turns cyan: some pixels on its border are cyan, its inside is still land.
  let cyan = 0;
  const [x0, y0] = geoPx(-75, 6), [x1, y1] = geoPx(-33, -34);
  for (let y = Math.floor(y0); y < y1; y++) {
    for (let x = Math.floor(x0); x < x1; x++) {
      if (near(pixel(img, x, y), [0, 255, 255, 255], 40)) cyan++;
    }
  }
  assert.ok(cyan > 100, `cyan outline pixels ${cyan}`);
  assert.ok(near(pixel(img, ...geoPx(-50, -10)), LAND));
  const plain = decode(renderMap(kit, map(), base).bytes);
  assert.ok(
    countNot(plain, [0, 255, 255, 255], 0, 0, 1024, 512, 40) === 1024 * 512,
    "no cyan without a selection",
  );
});

Deno.test("no outline seam where the data is cut at the antimeridian (Chukotka, 4326 and 3857)", async () => {
  // The world-atlas source cuts polygons at 180° (ArcGIS rings), so Chukotka has an edge there.
  const ls = layers();
  ls[1] = {
    ...ls[1],
    source: await openWorldAtlas({ scale: "50m" }),
    renderer: RendererSpecSchema.parse({
      type: "simple",
      symbol: {
        type: "simple-fill",
        color: LAND,
        outline: { type: "simple-line", color: [255, 0, 255], width: 1.5 },
      },
    }),
  };
  for (const wkid of [4326, 3857]) {
    const toX = (lon: number) => wkid === 4326 ? lon : (R * lon * Math.PI) / 180;
    const toY = (lat: number) =>
      wkid === 4326 ? lat : R * Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360));
    const extent = { xmin: toX(170), ymin: toY(64), xmax: toX(190), ymax: toY(70) };
    const img = decode(
      renderMap(kit, map(ls), { extent, wkid, widthPx: 400, heightPx: 300, format: "png32" }).bytes,
    );
    const res = (extent.xmax - extent.xmin) / 400;
    const x180 = (toX(180) - extent.xmin) / res;
    const cy = 150, yTop = cy - (((extent.ymax - extent.ymin) / res) / 2);
    let seam = 0, land = 0;
    for (const lat of [66.5, 67, 67.5]) {
      const y = yTop + (extent.ymax - toY(lat)) / res;
      for (let dx = -2; dx <= 2; dx++) {
        const p = pixel(img, x180 + dx, y);
        if (near(p, [255, 0, 255, 255], 90)) seam++;
        if (near(p, LAND, 6)) land++;
      }
    }
    assert.equal(seam, 0, `${wkid}: outline along 180°`);
    assert.ok(land >= 12, `${wkid}: land across 180° (${land})`);
  }
});
