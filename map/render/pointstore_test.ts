import assert from "node:assert/strict";
import { RendererSpecSchema } from "../document/renderer.ts";
import type { FeatureSource } from "../sources/source.ts";
import type { Feature } from "../types.ts";
import { heldPointStores, POINT_STORES_MAX, pointStore } from "./_pointstore.ts";

const renderer = RendererSpecSchema.parse({
  type: "simple",
  symbol: { type: "simple-marker", color: [0, 0, 0], size: 4 },
});

/** A point source of `points` features that counts how often it is counted. */
function pointsSource(storeKey: string, points: number, counted = { n: 0 }): FeatureSource {
  return {
    wkid: 4326,
    geometryType: "Point",
    idField: "id",
    storeKey,
    fields: () => [{ name: "id", type: "OID", alias: "id", length: 0, nullable: false }],
    extent: () => null,
    count: () => (counted.n++, points),
    query: () =>
      Array.from({ length: points }, (_, i): Feature => ({
        id: i + 1,
        geometry: { type: "Point", x: i, y: 0 },
        attributes: {},
      })),
    get: () => null,
    revision: () => "1",
  };
}

Deno.test("a thread keeps the most recently used point stores, within the bound", () => {
  const used = pointsSource("used", 3);
  const kept = pointStore(used, undefined, renderer, undefined, 4326)!.data;
  for (let i = 0; i < 3 * POINT_STORES_MAX; i++) {
    assert.ok(pointStore(pointsSource(`s${i}`, 2), undefined, renderer, undefined, 4326));
    assert.equal(pointStore(used, undefined, renderer, undefined, 4326)!.data, kept, `after ${i}`);
    assert.ok(heldPointStores().length <= POINT_STORES_MAX);
  }
  assert.equal(heldPointStores().length, POINT_STORES_MAX);
  assert.equal(heldPointStores().at(-1), kept, "most recently used last");
});

Deno.test("layers found too large to store are remembered, the most recently asked for", () => {
  const counted = { n: 0 };
  const big = pointsSource("big", 600_000, counted);
  const ask = (label: string) => pointStore(big, undefined, renderer, label, 4326);
  assert.equal(ask("asked all along"), null);
  for (let i = 0; i < 200; i++) {
    assert.equal(ask(`label ${i}`), null);
    assert.equal(ask("asked all along"), null);
  }
  assert.equal(counted.n, 201, "each layer counted once, none read");
  ask("label 199");
  assert.equal(counted.n, 201, "a recent one is still known");
  ask("label 0");
  assert.equal(counted.n, 202, "the oldest was forgotten: the memory is bounded");
});
