import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { PNG } from "pngjs";
import {
  borrowSurface,
  clearSpareSurfaces,
  loadKit,
  releaseSurface,
  scratchOf,
  surfacePixels,
} from "./_canvaskit.ts";
import { Scratch } from "./_scratch.ts";
import { collectUnlessBusy, GcBudget } from "./collect.ts";
import { WorkerCollector } from "./_worker_gc.ts";
import { encodeImage } from "./encode.ts";
import { encodePng } from "./png.ts";

/** A w x h image of `colours` distinct opaque colours in vertical bands, plus a transparent row. */
function bands(w: number, h: number, colours: number, seed: number): Uint8Array {
  const px = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const c = Math.floor((x * colours) / w);
      const i = (y * w + x) * 4;
      px.set(y === 0 ? [0, 0, 0, 0] : [(c * 37 + seed) & 255, (c * 91) & 255, seed, 255], i);
    }
  }
  return px;
}

function decode(bytes: Uint8Array): Uint8Array {
  return new Uint8Array(PNG.sync.read(Buffer.from(bytes)).data);
}

Deno.test("Scratch: a role's buffer is reused while it fits and the total is within the limit", () => {
  const s = new Scratch(1000);
  const a = s.bytes("rows", 600);
  assert.equal(s.bytes("rows", 400).buffer, a.buffer, "a smaller request reuses the buffer");
  assert.equal(s.bytes("rows", 400).length, 400);
  assert.equal(s.heldBytes, 600);
  const b = s.bytes("indices", 600);
  assert.notEqual(b.buffer, s.bytes("indices", 600).buffer, "over the limit: never kept");
  assert.equal(s.heldBytes, 600);
  const c = s.bytes("rows", 900);
  assert.equal(s.bytes("rows", 900).buffer, c.buffer, "grown in place of the old one");
  assert.equal(s.heldBytes, 900);
});

Deno.test("PNG encoders write every byte of reused work buffers: stale data never leaks", () => {
  const scratch = new Scratch();
  // Fill the buffers with a bigger image first, then encode smaller ones of each kind.
  for (const kind of ["rgba", "rgb", "palette"] as const) {
    encodePng(bands(64, 48, 200, 9), 64, 48, { kind, scratch });
    const small = bands(40, 30, kind === "palette" ? 12 : 200, 77);
    const got = decode(encodePng(small, 40, 30, { kind, scratch }));
    const fresh = decode(encodePng(small, 40, 30, { kind }));
    assert.deepEqual(got, fresh, `${kind}: same pixels as with new buffers`);
    if (kind !== "rgb") assert.deepEqual(got, small, `${kind}: exact`);
  }
});

Deno.test("encodeImage through the kit's buffers: consecutive images of different sizes decode exactly", async () => {
  const kit = await loadKit();
  const a = bands(300, 200, 50, 1), b = bands(120, 90, 30, 200);
  for (const format of ["png8", "png24", "png32"] as const) {
    encodeImage(kit, a, 300, 200, format);
    const out = decode(encodeImage(kit, b, 120, 90, format).bytes);
    const again = decode(encodeImage(kit, b, 120, 90, format).bytes);
    assert.deepEqual(out, again, `${format}: the same image encodes the same`);
    if (format !== "png24") assert.deepEqual(out, b, `${format}: exact`);
  }
});

Deno.test("borrowed surfaces store premultiplied pixels (Skia's 8-bit pipeline), read in place", async () => {
  const kit = await loadKit();
  const s = borrowSurface(kit, 4, 3, kit.ck.TRANSPARENT);
  try {
    s.getCanvas().clear(kit.ck.Color(200, 100, 50, 0.5));
    const px = surfacePixels(s);
    assert.ok(px, "a borrowed surface is read in place");
    assert.equal(px.length, 4 * 3 * 4);
    const [r, g, b, a] = px.subarray(0, 4);
    assert.ok(Math.abs(a - 128) <= 1, `alpha ${a}`);
    // Premultiplied: each channel scaled by alpha (unpremultiplied would read 200, 100, 50).
    for (const [got, want] of [[r, 100], [g, 50], [b, 25]]) {
      assert.ok(Math.abs(got - want) <= 1, `pixel ${[r, g, b, a]}`);
    }
    s.getCanvas().clear(kit.ck.Color(200, 100, 50, 1));
    assert.deepEqual([...surfacePixels(s)!.subarray(0, 4)], [200, 100, 50, 255]);
  } finally {
    releaseSurface(kit, s);
  }
});

Deno.test("a drawn image's PNG24 scanlines are packed where CanvasKit drew it", async () => {
  const kit = await loadKit();
  const heap = (kit.ck as unknown as { HEAPU8: Uint8Array }).HEAPU8;
  assert.ok(kit.memory, "CanvasKit's wasm memory was found when it started");
  assert.equal(kit.memory.buffer, heap.buffer);
  const w = 203, h = 97, s = borrowSurface(kit, w, h, kit.ck.TRANSPARENT);
  try {
    const c = s.getCanvas();
    c.clear(kit.ck.Color(20, 120, 220, 1));
    const p = new kit.ck.Paint();
    p.setColor(kit.ck.Color(250, 200, 10, 1));
    c.drawCircle(90, 40, 33, p);
    p.delete();
    const px = surfacePixels(s)!;
    const before = px.slice();
    const want = encodePng(before, w, h, { kind: "rgb" });
    const buffers = new Set<ArrayBufferLike>();
    scratchOf(kit).rgbRows().bands(px, w, h, 16, (rows) => buffers.add(rows.buffer));
    assert.deepEqual([...buffers], [kit.memory.buffer], "scanlines in CanvasKit's heap");
    assert.deepEqual(encodeImage(kit, surfacePixels(s)!, w, h, "png24", 75, true).bytes, want);
    // The pixels are read, never written over: the surface still holds the drawn map.
    assert.deepEqual(surfacePixels(s)!.slice(), before);
  } finally {
    releaseSurface(kit, s);
  }
});

Deno.test("GcBudget collects only once memory grew by more than its budget", () => {
  let runs = 0;
  const budget = new GcBudget(8 * 2 ** 20, () => runs++);
  assert.equal(budget.enabled, true);
  budget.check(); // from a baseline of 0: collects when the isolate already holds more than 8 MiB
  const first = runs;
  budget.check();
  assert.equal(runs, first, "no growth: no collection");
  const held = new Uint8Array(32 * 2 ** 20).fill(1); // external memory grows by 32 MiB
  budget.check();
  assert.equal(runs, first + 1, "grew past the budget: one collection");
  budget.check();
  assert.equal(runs, first + 1, "the baseline moved up with it");
  assert.equal(held[0], 1);
  assert.equal(budget.collections, runs);
});

Deno.test("GcBudget: external memory freed since the last collection does not hide the heap's growth", () => {
  let runs = 0;
  const MiB = 2 ** 20;
  const use = { heapUsed: 30 * MiB, external: 100 * MiB };
  const budget = new GcBudget(32 * MiB, () => runs++, () => ({ ...use }));
  budget.collect(); // buffers in flight at this collection: 100 MiB external
  use.external = 40 * MiB; // they were sent and freed
  use.heapUsed = 60 * MiB;
  assert.equal(budget.check(), false, "30 MiB of heap growth: under the budget");
  use.heapUsed = 63 * MiB;
  assert.equal(budget.check(), true, "33 MiB of heap growth, though the sum fell by 27");
  use.external = 60 * MiB;
  use.heapUsed = 80 * MiB;
  assert.equal(budget.check(), true, "17 MiB of heap and 20 of external, over the new base");
  assert.equal(runs, 3);
});

Deno.test("GcBudget without V8's collector never collects", () => {
  const budget = new GcBudget(1, null);
  assert.equal(budget.enabled, false);
  const held = new Uint8Array(4 * 2 ** 20);
  budget.check();
  assert.equal(budget.collections, 0);
  assert.equal(held.length, 4 * 2 ** 20);
});

Deno.test("collectUnlessBusy collects a due budget only when nothing is busy", () => {
  let runs = 0;
  const budget = new GcBudget(8 * 2 ** 20, () => runs++);
  budget.check(); // baseline
  const first = runs;
  const held = new Uint8Array(32 * 2 ** 20).fill(1);
  assert.equal(collectUnlessBusy(budget, () => true), false, "busy: not now");
  assert.equal(runs, first);
  assert.equal(collectUnlessBusy(budget, () => false), true, "quiet: collects");
  assert.equal(runs, first + 1);
  assert.equal(held[0], 1);
});

Deno.test("WorkerCollector: past its limit at once, past its budget only once idle", async () => {
  let runs = 0;
  const gc = () => runs++;
  const phases: string[] = [];
  const c = new WorkerCollector({
    budgetBytes: 8 * 2 ** 20,
    limitBytes: 64 * 2 ** 20,
    idleMs: 1,
    gc,
  });
  c.collectNow(); // baseline
  const base = runs;
  const held = [new Uint8Array(32 * 2 ** 20).fill(1)];
  assert.equal(c.dueNow(), false, "past the budget, under the limit: not between jobs");
  const ask = () => phases.push("ask");
  // Work arriving cancels a pending idle collection.
  c.whenIdle(() => false, ask);
  c.cancel();
  await new Promise((r) => setTimeout(r, 20));
  assert.deepEqual(phases, [], "cancelled");
  // Still busy when the timer fires: not now.
  c.whenIdle(() => true, ask);
  await new Promise((r) => setTimeout(r, 20));
  assert.deepEqual(phases, [], "busy");
  // Idle: it asks for leave and collects nothing until granted.
  c.whenIdle(() => false, ask);
  await new Promise((r) => setTimeout(r, 20));
  assert.deepEqual(phases, ["ask"]);
  assert.equal(runs, base, "asked, not collected");
  assert.equal(c.collectGranted(), true, "granted: collected");
  assert.equal(runs, base + 1);
  assert.equal(c.collections, 2);
  assert.equal(c.collectGranted(), false, "no longer due");
  assert.equal(runs, base + 1);
  held.push(new Uint8Array(80 * 2 ** 20).fill(1));
  assert.equal(c.dueNow(), true, "past the limit: at once");
  assert.equal(held.length, 2);
});

Deno.test("a spare surface cleared ahead is not cleared again for the same background", async () => {
  const kit = await loadKit();
  const { ck } = kit;
  const sea = ck.Color(205, 225, 240, 1), sand = ck.Color(240, 230, 200, 1);
  const paint = new ck.Paint();
  paint.setColor(ck.Color(200, 0, 0, 1));
  const drawOn = (bg: Float32Array) => {
    const s = borrowSurface(kit, 64, 48, bg);
    const first = [...surfacePixels(s)!.subarray(0, 4)];
    s.getCanvas().drawRect(ck.LTRBRect(0, 0, 10, 10), paint);
    releaseSurface(kit, s);
    return first;
  };
  try {
    assert.deepEqual(drawOn(sea), [205, 225, 240, 255]);
    // Drawn on and given back: cleared ahead to the same sea, it starts as sea again.
    clearSpareSurfaces(kit);
    assert.deepEqual(drawOn(sea), [205, 225, 240, 255]);
    // Cleared ahead to the sea, asked for sand: cleared again, to sand.
    clearSpareSurfaces(kit);
    assert.deepEqual(drawOn(sand), [240, 230, 200, 255]);
    // Not cleared ahead (no clearSpareSurfaces): cleared when borrowed, not left red.
    assert.deepEqual(drawOn(sand), [240, 230, 200, 255]);
  } finally {
    paint.delete();
  }
});
