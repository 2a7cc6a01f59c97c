/**
 * The shared point store (map/render/_pointstore.ts): a point layer is kept
 * once per source revision as coordinates, class indexes and label text in
 * `SharedArrayBuffer`s; the render workers of a pool build it once and draw
 * from the same store, and a data change gives a new one.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import {
  countNot,
  decode,
  loadGeoPackagePointService,
  near,
  pixel,
  pointStoreTestLayer,
} from "./_render_helpers.ts";
import { type GpkgFeatureInput, writeGeoPackageLayer } from "../map/sources/geopackage_writer.ts";
import { openGeoPackage } from "../map/sources/geopackage.ts";
import { loadKit, renderMap } from "../map/render/mod.ts";
import { InProcessRenderer, RenderPool } from "../map/render/pool.ts";
import { heldPointStores } from "../map/render/_pointstore.ts";
import { prepareStores } from "../map/render/_warmup.ts";
import { findRenderMap, type LoadedService } from "../map/render/_loader.ts";
import type { MapJob } from "../map/render/jobs.ts";
import type { MapRenderRequest, RenderMap } from "../map/render/types.ts";

const RED = [200, 30, 30, 255], BLUE = [30, 30, 200, 255], SEA = [205, 225, 240, 255];

/** 2,000 points on a grid (kinds 1, 2, 3; kind 3 has no class) and three named ones. */
async function pointsGpkg(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "render_point_store_" });
  const path = join(dir, "points.gpkg");
  const features: GpkgFeatureInput[] = [];
  for (let i = 0; i < 2000; i++) {
    features.push({
      attributes: { kind: 1 + (i % 3), name: "" },
      geometry: {
        type: "Point" as const,
        x: -170 + (i % 50) * 6.8,
        y: -60 + Math.floor(i / 50) * 3,
      },
    });
  }
  // Alone in the empty band south of the grid, each with a name to label.
  features.push({
    attributes: { kind: 1, name: "Alpha" },
    geometry: { type: "Point", x: -100, y: -80 },
  });
  features.push({
    attributes: { kind: 2, name: "Beta" },
    geometry: { type: "Point", x: 0, y: -80 },
  });
  features.push({
    attributes: { kind: 3, name: "Gamma" },
    geometry: { type: "Point", x: 100, y: -80 },
  });
  writeGeoPackageLayer(
    path,
    {
      table: "pts",
      geometryType: "Point",
      fields: [{ name: "kind", type: "Integer" }, { name: "name", type: "String" }],
    },
    features,
  );
  return path;
}

const REQUEST: MapRenderRequest = {
  extent: { xmin: -180, ymin: -90, xmax: 180, ymax: 90 },
  wkid: 4326,
  widthPx: 720,
  heightPx: 360,
  format: "png32",
};

/** Pixel of a map coordinate in REQUEST's 2 px per degree image. */
const at = (x: number, y: number): [number, number] => [(x + 180) * 2, (90 - y) * 2];

Deno.test("a point layer is stored once in shared memory with classes and labels, not attributes", async () => {
  const path = await pointsGpkg();
  const kit = await loadKit();
  const src = openGeoPackage(path);
  try {
    const map: RenderMap = {
      name: "m",
      wkid: 4326,
      backgroundColor: [205, 225, 240],
      layers: [pointStoreTestLayer(src)],
    };
    const img = decode(renderMap(kit, map, REQUEST).bytes);
    assert.ok(near(pixel(img, ...at(-100, -80)), RED), "kind 1 is red");
    assert.ok(near(pixel(img, ...at(0, -80)), BLUE), "kind 2 is blue");
    assert.ok(near(pixel(img, ...at(100, -80)), SEA), "kind 3 has no class: not drawn");
    // Alpha's label is drawn to the right of its marker (dark text on the sea).
    const [lx, ly] = at(-100, -80);
    assert.ok(
      countNot(img, SEA, lx + 6, ly - 14, lx + 50, ly + 14) > 20,
      "Alpha is labelled",
    );
    const held = heldPointStores().filter((d) => d.source === src.storeKey);
    assert.equal(held.length, 1);
    const d = held[0];
    // Only drawable points: kind 3 (667 of the grid and Gamma) is left out.
    assert.equal(d.xs.length, 2000 - 666 + 2);
    for (const a of [d.xs, d.ys, d.cls, d.labelStart, d.labelBytes]) {
      assert.ok(a.buffer instanceof SharedArrayBuffer);
    }
    assert.deepEqual(new Set(d.cls), new Set([0, 1]));
    const text = new TextDecoder().decode(d.labelBytes.slice());
    assert.equal(text, "AlphaBeta");
    assert.deepEqual(Object.keys(d).sort(), [
      "cls",
      "key",
      "kind",
      "labelBytes",
      "labelStart",
      "revision",
      "source",
      "startedAt",
      "xs",
      "ys",
    ]);
  } finally {
    src.close?.();
    await Deno.remove(join(path, ".."), { recursive: true });
  }
});

Deno.test("two render workers draw the same points image from one shared store; a data change gives a new one", async () => {
  const path = await pointsGpkg();
  const loader = {
    module: new URL("./_render_helpers.ts", import.meta.url).href,
    export: "loadGeoPackagePointService",
    args: [path, "pts"],
  };
  const job: MapJob = { kind: "map", service: "Points", map: "Layers", request: REQUEST };
  const local = async () => {
    const services = (await loadGeoPackagePointService(path, "pts")) as LoadedService[];
    return (await new InProcessRenderer().run(job, () => findRenderMap(services[0], "Layers")))
      .bytes;
  };
  const pool = new RenderPool({ size: 2, loader });
  try {
    // Waiting is bounded; no speed is asserted.
    for (let i = 0; i < 600 && pool.stats().warmedWorkers < 2; i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(pool.stats().warmedWorkers, 2, "both workers drew the map once at start");
    assert.equal(pool.stats().storeBuilds, 1, "one worker built the store, the other received it");
    // Two jobs at once: one on each worker.
    const [a, b] = await Promise.all([pool.run(job), pool.run(job)]);
    assert.deepEqual(a.bytes, b.bytes);
    assert.deepEqual(a.bytes, await local());
    const stats = pool.stats();
    assert.equal(stats.storeBuilds, 1, "neither worker built a store of its own");
    assert.ok(stats.sharedStoreBytes >= 20 * 1336, `${stats.sharedStoreBytes} bytes`);

    // Gamma (kind 3, not drawn) becomes kind 2; the file's revision changes with it.
    const db = new DatabaseSync(path);
    db.exec("UPDATE pts SET kind = 2 WHERE name = 'Gamma'");
    db.close();
    const later = new Date(Date.now() + 5000);
    Deno.utimeSync(path, later, later);
    const c = await pool.run(job);
    assert.equal(pool.stats().storeBuilds, 2, "one new store for the new revision");
    assert.notDeepEqual(c.bytes, a.bytes);
    assert.ok(near(pixel(decode(c.bytes), ...at(100, -80)), BLUE), "Gamma is drawn now");
    assert.deepEqual(c.bytes, await local());
    const [e, f] = await Promise.all([pool.run(job), pool.run(job)]);
    assert.deepEqual(e.bytes, c.bytes);
    assert.deepEqual(f.bytes, c.bytes);
    assert.equal(pool.stats().storeBuilds, 2, "the other worker drew from the new shared store");
  } finally {
    await pool.close();
    await Deno.remove(join(path, ".."), { recursive: true });
  }
});

Deno.test("a worker's start-up work builds a point layer's store, so no draw builds it and no other worker builds its own", async () => {
  const path = await pointsGpkg();
  try {
    const services = (await loadGeoPackagePointService(path, "pts")) as LoadedService[];
    const map = findRenderMap(services[0], "Layers");
    const storeKey = map.layers[0].source.storeKey!;
    const mine = () => heldPointStores().filter((d) => d.source === storeKey);
    assert.equal(mine().length, 0);
    // What the first worker of a pool runs before it says "prepared" (map/render/_worker.ts).
    prepareStores([map]);
    assert.equal(mine().length, 1, "the point layer's store is built before any draw");
    const built = mine()[0];
    const image = renderMap(await loadKit(), map, REQUEST);
    assert.ok(image.bytes.length > 0);
    assert.deepEqual(mine(), [built], "the draw used the prepared store");
  } finally {
    await Deno.remove(join(path, ".."), { recursive: true });
  }
});
