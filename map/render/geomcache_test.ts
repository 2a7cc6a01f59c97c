/**
 * The generalised-geometry cache stays within its byte budget in real V8
 * heap, not just in its own count (issue 20: each render worker's cache
 * grew towards ~440 MiB over a long soak), and trimming drops the least
 * recently used levels first.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { FeatureSource } from "../sources/source.ts";
import type { Geometry, Position } from "../types.ts";
import {
  cachedGeometry,
  GEOMETRY_CACHE_BYTES,
  geometryCacheBytes,
  preparedGeometry,
  trimGeometryCache,
} from "./_geomcache.ts";

/** A source in WGS 84 that never changes (the cache reads only these two). */
function fakeSource(): FeatureSource {
  return { wkid: 4326, revision: () => "r1" } as unknown as FeatureSource;
}

/** A closed ring of `n` distinct vertices around (x, y), a few hundred metres across. */
function ring(x: number, y: number, n: number): Position[] {
  const out: Position[] = [];
  for (let i = 0; i < n; i++) {
    const a = (2 * Math.PI * i) / n;
    out.push([x + 0.003 * Math.cos(a), y + 0.003 * Math.sin(a)]);
  }
  out.push([out[0][0], out[0][1]]);
  return out;
}

/**
 * Fills the cache with `levels` resolution levels of `features` polygons of
 * `vertices` vertices each, drawn to Web Mercator at 1, 2, 4... m a pixel
 * (fine enough that every vertex is kept), the first level used first.
 */
function fill(src: FeatureSource, levels: number, features: number, vertices: number): void {
  for (let level = 0; level < levels; level++) {
    for (let id = 1; id <= features; id++) {
      const g: Geometry = { type: "Polygon", rings: [ring((id % 300) / 10, id / 1000, vertices)] };
      assert.ok(preparedGeometry(src, id, g, 3857, 2 ** level / 4));
    }
  }
}

Deno.test("trimming keeps the most recently used levels within the byte budget", () => {
  const src = fakeSource();
  trimGeometryCache(0);
  fill(src, 3, 100, 200);
  const full = geometryCacheBytes();
  assert.ok(full > 3 * 100 * 200 * 16, `${full} bytes for 60,000 vertices`);
  // Level 0 used again, so level 1 is now the least recently used.
  assert.notEqual(cachedGeometry(src, 1, 3857, 1 / 4), undefined);
  trimGeometryCache(Math.ceil(full * 0.7));
  assert.ok(geometryCacheBytes() <= full * 0.7);
  assert.equal(cachedGeometry(src, 1, 3857, 2 / 4), undefined, "level 1 was dropped");
  assert.notEqual(cachedGeometry(src, 1, 3857, 1 / 4), undefined, "level 0 was kept");
  assert.notEqual(cachedGeometry(src, 1, 3857, 4 / 4), undefined, "level 2 was kept");
  trimGeometryCache(0);
  assert.equal(geometryCacheBytes(), 0);
});

Deno.test("after a trim the cache holds no more V8 heap than its budget", async () => {
  // 1,500,000 vertices over three levels: ~110 MiB of [x, y] arrays, under the
  // old 6,000,000-vertex budget and over the 64 MiB one. Measured in a fresh
  // isolate with V8's collector exposed, so the heap figure is the live data.
  const script = `
    import { preparedGeometry, trimGeometryCache } from ${
    JSON.stringify(new URL("./_geomcache.ts", import.meta.url).href)
  };
    const src = { wkid: 4326, revision: () => "r1" };
    function ring(x, y, n) {
      const out = [];
      for (let i = 0; i < n; i++) {
        const a = (2 * Math.PI * i) / n;
        out.push([x + 0.003 * Math.cos(a), y + 0.003 * Math.sin(a)]);
      }
      out.push([out[0][0], out[0][1]]);
      return out;
    }
    gc();
    const before = Deno.memoryUsage().heapUsed;
    for (let level = 0; level < 3; level++) {
      for (let id = 1; id <= 500; id++) {
        const g = { type: "Polygon", rings: [ring((id % 300) / 10, id / 1000, 1000)] };
        if (!preparedGeometry(src, id, g, 3857, 2 ** level / 4)) throw new Error("not cached");
      }
    }
    trimGeometryCache();
    gc();
    console.log(Deno.memoryUsage().heapUsed - before);
  `;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--v8-flags=--expose-gc", "--ext=js", script],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const held = Number(new TextDecoder().decode(out.stdout).trim());
  assert.ok(
    held <= GEOMETRY_CACHE_BYTES,
    `${(held / 2 ** 20).toFixed(0)} MiB held after the trim, budget ` +
      `${(GEOMETRY_CACHE_BYTES / 2 ** 20).toFixed(0)} MiB`,
  );
});
