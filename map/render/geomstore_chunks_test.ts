/**
 * Chunk boxes of large rings in the polygon store (_geomstore.ts): a view
 * that meets a small part of a large ring draws only the points near it,
 * and fills and outlines exactly the pixels the whole ring gives.
 */
import assert from "node:assert/strict";
import type { Feature, Position } from "../types.ts";
import type { FeatureSource } from "../sources/source.ts";
import { createDisplay } from "../geo/display.ts";
import {
  addRing,
  chunksBeyond,
  type RingChunks,
  type ScreenView,
  screenView,
} from "./_geometry.ts";
import {
  addStoredRings,
  buildPolygonStore,
  type PolygonStoreData,
  RING_CHUNK,
  ringWindow,
  storeBytes,
} from "./_geomstore.ts";
import { freeSurface, type Kit, loadKit, makeRasterSurface } from "./_canvaskit.ts";
import { PathCmds } from "./_path_cmds.ts";
import { seededRandom } from "../../tests/_random.ts";

/** A closed star-shaped ring of n vertices around (cx, cy) with a ragged radius up to r. */
function star(cx: number, cy: number, r: number, n: number, rnd: () => number): Position[] {
  const ring: Position[] = [];
  const phase = rnd() * 6;
  for (let i = 0; i < n; i++) {
    const a = (2 * Math.PI * i) / n;
    const k = r * (0.65 + 0.2 * Math.sin(7 * a + phase) + 0.15 * rnd());
    ring.push([cx + k * Math.cos(a), cy + k * Math.sin(a)]);
  }
  ring.push(ring[0]);
  return ring;
}

/** A closed spiral band (turns around (cx, cy), out to radius r) of about n vertices. */
function spiral(cx: number, cy: number, r: number, turns: number, n: number): Position[] {
  const half = Math.floor(n / 2), gap = r / (turns + 1);
  const at = (t: number, off: number): Position => {
    const a = 2 * Math.PI * turns * t, k = gap + (r - gap) * t - off;
    return [cx + k * Math.cos(a), cy + k * Math.sin(a)];
  };
  const ring: Position[] = [];
  for (let i = 0; i <= half; i++) ring.push(at(i / half, 0));
  for (let i = half; i >= 0; i--) ring.push(at(i / half, gap / 2));
  ring.push(ring[0]);
  return ring;
}

/**
 * An Antarctica-like ring: the bottom of the world up to a wiggly coast at
 * about y0, cut at the antimeridian (edges along x = -180 and x = 180).
 */
function capRing(y0: number, n: number, rnd: () => number): Position[] {
  const ring: Position[] = [[-180, -90], [180, -90]];
  for (let i = 0; i <= n; i++) {
    const x = 180 - (360 * i) / n;
    ring.push([x, y0 + 3 * Math.sin(x / 7) + rnd()]);
  }
  ring.push([-180, -90]);
  return ring;
}

/** An in-memory polygon source of these features (what buildPolygonStore reads). */
function source(rings: Position[][][]): FeatureSource {
  const feats: Feature[] = rings.map((r, i) => ({
    id: i + 1,
    attributes: {},
    geometry: { type: "Polygon", rings: r },
  }));
  return {
    wkid: 4326,
    geometryType: "Polygon",
    idField: "OBJECTID",
    fields: () => [],
    extent: () => null,
    query: (q) => q.objectIds ? feats.filter((f) => q.objectIds!.includes(f.id)) : feats,
    count: () => feats.length,
    get: (id) => feats.find((f) => f.id === id) ?? null,
    revision: () => "1",
  };
}

function features(): Position[][][] {
  const rnd = seededRandom(9);
  return [
    [star(10, 20, 30, 5000, rnd), star(12, 18, 8, 1500, rnd).reverse()],
    [spiral(-60, -10, 40, 5, 6000)],
    [star(180, 40, 15, 3000, rnd)], // stored past the antimeridian: drawn in its copies
    [capRing(-70, 4000, rnd)],
    [star(-100, 50, 0.5, 800, rnd)],
  ];
}

/** The same store without chunk boxes: every ring is clipped whole. */
function unchunked(d: PolygonStoreData): PolygonStoreData {
  return { ...d, ringChunk: undefined, chunkBox: undefined };
}

interface Drawn {
  cmds: number[];
  outline: number[];
}

interface View {
  extent: { xmin: number; ymin: number; xmax: number; ymax: number };
  rotation: number;
}

const W = 160, H = 120, PAD = 4;

function viewOf(v: View): ScreenView {
  const display = createDisplay(v.extent, {
    widthPx: W,
    heightPx: H,
    wkid: 4326,
    rotation: v.rotation,
  });
  return screenView(display, 4326, PAD);
}

function draw(d: PolygonStoreData, id: number, v: View): Drawn {
  const view = viewOf(v);
  const res = (v.extent.xmax - v.extent.xmin) / W;
  const win = ringWindow(view, PAD * res);
  const cmds = new PathCmds(), outline = new PathCmds();
  const store = { data: d, index: new Map([...d.ids].map((x, i) => [x, i])) };
  const tol = 2 ** Math.floor(Math.log2(res)) / 2;
  addStoredRings(store, id, win, tol, res / 2, view, cmds, outline);
  return { cmds: cmds.toCmds(), outline: outline.toCmds() };
}

/** Chunks of feature `id`'s rings that lie beyond view `v` at shift 0. */
function beyond(d: PolygonStoreData, id: number, v: View): number {
  const i = [...d.ids].indexOf(id);
  let n = 0;
  for (let r = d.featRing[i]; r < d.featRing[i + 1]; r++) {
    const first = d.ringChunk![r], count = d.ringChunk![r + 1] - first;
    const ch = { of: new Int32Array(0), box: d.chunkBox!, first, count };
    n += chunksBeyond(ch, 0, viewOf(v));
  }
  return n;
}

/** The pixels of an even-odd, antialiased half-transparent fill and its 2 px outline. */
function pixels(kit: Kit, d: Drawn): Uint8Array {
  const { ck } = kit;
  const s = makeRasterSurface(kit, W, H, "test");
  try {
    const c = s.getCanvas();
    c.clear(ck.WHITE);
    const paint = new ck.Paint();
    paint.setAntiAlias(true);
    for (const [cmds, stroke] of [[d.cmds, false], [d.outline, true]] as const) {
      if (!cmds.length) continue;
      const path = ck.Path.MakeFromCmds(cmds)!;
      path.setFillType(ck.FillType.EvenOdd);
      paint.setStyle(stroke ? ck.PaintStyle.Stroke : ck.PaintStyle.Fill);
      paint.setStrokeWidth(2);
      paint.setColor(stroke ? ck.Color(20, 40, 160, 1) : ck.Color(200, 60, 30, 0.5));
      c.drawPath(path, paint);
      path.delete();
    }
    paint.delete();
    const img = s.makeImageSnapshot();
    const px = img.readPixels(0, 0, {
      width: W,
      height: H,
      colorType: ck.ColorType.RGBA_8888,
      alphaType: ck.AlphaType.Unpremul,
      colorSpace: ck.ColorSpace.SRGB,
    }) as Uint8Array;
    img.delete();
    return px.slice();
  } finally {
    freeSurface(s);
  }
}

/** Random views near feature `id`'s vertices: small to wide, some rotated, some past 180. */
function views(rings: Position[][], n: number, rnd: () => number): View[] {
  const out: View[] = [];
  const ring = rings[0];
  for (let i = 0; i < n; i++) {
    const p = ring[Math.floor(rnd() * ring.length)];
    const w = 10 ** (rnd() * 2.3 - 1); // 0.1 .. 20 degrees
    const cx = p[0] + (rnd() - 0.5) * w, cy = p[1] + (rnd() - 0.5) * w;
    const rotation = [0, 0, 0, 25, 90, 200][Math.floor(rnd() * 6)];
    out.push({
      extent: { xmin: cx - w / 2, ymin: cy - w * 0.375, xmax: cx + w / 2, ymax: cy + w * 0.375 },
      rotation,
    });
  }
  return out;
}

Deno.test("a large ring's chunks beyond the view give the same path and pixels as the whole ring", async () => {
  const kit = await loadKit();
  const all = features();
  const data = buildPolygonStore(source(all), "chunks-test");
  const plain = unchunked(data);
  assert.ok(data.ringChunk![data.ringChunk!.length - 1] > 0, "the large rings have chunks");
  assert.equal(
    storeBytes(data),
    storeBytes(plain) + data.ringChunk!.byteLength + data.chunkBox!.byteLength,
  );
  const rnd = seededRandom(17);
  let collapsed = 0, drawn = 0;
  for (let f = 0; f < all.length; f++) {
    const list = views(all[f], 40, rnd);
    // Across the antimeridian (the world copies of feature 3 and the cut cap).
    list.push({ extent: { xmin: 170, ymin: 30, xmax: 190, ymax: 45 }, rotation: 0 });
    list.push({ extent: { xmin: 178, ymin: -72, xmax: 182, ymax: -69 }, rotation: 30 });
    list.push({ extent: { xmin: -190, ymin: -80, xmax: -170, ymax: -65 }, rotation: 0 });
    for (const v of list) {
      const a = draw(data, f + 1, v), b = draw(plain, f + 1, v);
      if (b.cmds.length === 0) continue;
      drawn++;
      if (beyond(data, f + 1, v) > 0) collapsed++;
      const where = `feature ${f + 1}, view ${JSON.stringify(v)}`;
      assert.deepEqual(a, b, `${where}: chunked and whole rings give different paths`);
      assert.deepEqual(pixels(kit, a), pixels(kit, b), `${where}: different pixels`);
    }
  }
  // Most views meet a small part of a large ring: the chunks do take effect.
  assert.ok(drawn > 100, `${drawn} views drew something`);
  assert.ok(collapsed > drawn / 2, `${collapsed} of ${drawn} views had chunks beyond them`);
});

Deno.test("a small view inside a large ring has nearly every chunk of its coast beyond it", () => {
  const all = features();
  const data = buildPolygonStore(source(all), "chunks-test-small");
  // Inside the cap, below its coast, as land's view 2 inside Antarctica.
  const v = { extent: { xmin: -110, ymin: -78, xmax: -107, ymax: -75.75 }, rotation: 0 };
  const r = data.featRing[3];
  // All but the chunk straight above the view (11 degrees wide: beyond the top but not between
  // the sides, which the left and right clip passes would cut) and the two with the bottom edge.
  assert.equal(beyond(data, 4, v), data.ringChunk![r + 1] - data.ringChunk![r] - 3);
  const a = draw(data, 4, v);
  assert.deepEqual(a, draw(unchunked(data), 4, v));
  // The whole image is inside: one rectangle.
  assert.equal(a.cmds.length, 3 + 3 * 3 + 1);
});

Deno.test("the comparison sees a wrong collapse: a chunk that enters the view drawn as one segment", async () => {
  const kit = await loadKit();
  const ring = star(0, 0, 10, 2000, seededRandom(3));
  const n = ring.length;
  const xy = new Float64Array(ring.flat());
  const count = Math.ceil((n - 1) / RING_CHUNK);
  const of = new Int32Array(n).map((_, i) => i === 0 ? 0 : Math.ceil(i / RING_CHUNK) - 1);
  // True boxes, except that chunk k claims to lie far left of every view.
  const boxes = (lie: number) => {
    const box = new Float64Array(4 * count);
    for (let k = 0; k < count; k++) {
      const a = k * RING_CHUNK, b = Math.min(a + RING_CHUNK, n - 1);
      const xs = ring.slice(a, b + 1).map((p) => p[0]), ys = ring.slice(a, b + 1).map((p) => p[1]);
      box.set(
        k === lie
          ? [-99, -1, -98, 1]
          : [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)],
        4 * k,
      );
    }
    return box;
  };
  // A view of the coast at the first chunk's second half.
  const p = ring[RING_CHUNK * 0.75];
  const v: View = {
    extent: { xmin: p[0] - 0.8, ymin: p[1] - 0.6, xmax: p[0] + 0.8, ymax: p[1] + 0.6 },
    rotation: 0,
  };
  const path = (ch: RingChunks | null) => {
    const cmds = new PathCmds(), outline = new PathCmds();
    addRing(xy, n, viewOf(v), cmds, outline, ch);
    return { cmds: cmds.toCmds(), outline: outline.toCmds() };
  };
  const whole = path(null);
  const right = path({ of, box: boxes(-1), first: 0, count });
  const wrong = path({ of, box: boxes(0), first: 0, count });
  assert.ok(whole.cmds.length > 30);
  assert.deepEqual(right, whole);
  assert.notDeepEqual(pixels(kit, wrong), pixels(kit, whole));
});
