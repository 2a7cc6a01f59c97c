/**
 * Geometry stores built by different render workers reach a thread in any
 * order (map/render/_store_age.ts): a store of older data arriving after a
 * newer one must not replace it, and a store another worker shares must not
 * push out one this thread draws with.
 */
import assert from "node:assert/strict";
import { adoptPolygonStore, heldPolygonStores } from "../map/render/_geomstore.ts";
import type { PolygonStoreData } from "../map/render/_geomstore.ts";
import { adoptPointStore, heldPointStores } from "../map/render/_pointstore.ts";
import type { PointStoreData } from "../map/render/_pointstore.ts";

function polygons(key: string, revision: string, startedAt: number): PolygonStoreData {
  return {
    kind: "polygons",
    key,
    revision,
    startedAt,
    ids: new Float64Array(0),
    featRing: new Uint32Array(1),
    ringStart: new Uint32Array(1),
    ringBox: new Float64Array(0),
    xy: new Float64Array(0),
  };
}

function points(
  source: string,
  filter: string,
  revision: string,
  startedAt: number,
): PointStoreData {
  return {
    kind: "points",
    key: `${source}|points|${filter}`,
    source,
    revision,
    startedAt,
    xs: new Float64Array(0),
    ys: new Float64Array(0),
    cls: new Uint32Array(0),
    labelStart: new Uint32Array(0),
    labelBytes: new Uint8Array(0),
  };
}

Deno.test("a polygon store of older data arriving late does not replace the newer one", () => {
  const key = "order-test.gpkg|countries";
  assert.equal(adoptPolygonStore(polygons(key, "rev-new", 2000)), true);
  assert.equal(adoptPolygonStore(polygons(key, "rev-old", 1000)), false);
  assert.equal(heldPolygonStores().find((d) => d.key === key)?.revision, "rev-new");
  // The same revision again (another worker's copy) and a later build are taken.
  assert.equal(adoptPolygonStore(polygons(key, "rev-new", 1500)), true);
  assert.equal(adoptPolygonStore(polygons(key, "rev-newer", 3000)), true);
  assert.equal(heldPolygonStores().find((d) => d.key === key)?.revision, "rev-newer");
});

Deno.test("a point store of older data arriving late does not replace the source's newer stores", () => {
  const src = "order-test.gpkg|cities";
  assert.equal(adoptPointStore(points(src, "", "rev-new", 2000), false), true);
  // An older build under another key of the same source (another filter) is dropped as well.
  assert.equal(adoptPointStore(points(src, "kind=1", "rev-old", 1000)), false);
  assert.equal(adoptPointStore(points(src, "", "rev-old", 1000)), false);
  const held = heldPointStores().filter((d) => d.source === src);
  assert.deepEqual(held.map((d) => d.revision), ["rev-new"]);
  // A newer build replaces every store of the source's older revision.
  assert.equal(adoptPointStore(points(src, "kind=2", "rev-newer", 3000)), true);
  assert.deepEqual(
    heldPointStores().filter((d) => d.source === src).map((d) => d.revision),
    ["rev-newer"],
  );
});

Deno.test("a point store shared by another worker takes a free place only", () => {
  // Sixteen stores this thread built and draws with fill its places.
  const own = Array.from({ length: 16 }, (_, i) => points(`order-own-${i}`, "", "r", 1));
  for (const d of own) adoptPointStore(d, false);
  const shared = points("order-shared", "kind=7", "r", 2);
  assert.equal(adoptPointStore(shared), false);
  const keys = new Set(heldPointStores().map((d) => d.key));
  assert.ok(own.every((d) => keys.has(d.key)), "no store this thread uses was pushed out");
  assert.ok(!keys.has(shared.key));
  // One this thread builds itself still takes the place of the least recently used.
  assert.equal(adoptPointStore(points("order-own-16", "", "r", 3), false), true);
  assert.ok(!new Set(heldPointStores().map((d) => d.key)).has(own[0].key));
});
