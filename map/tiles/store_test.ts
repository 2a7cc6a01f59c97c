import assert from "node:assert/strict";
import { TileStore } from "./store.ts";

Deno.test("tile store: a folder that cannot be written falls back to a bounded store in memory", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tile_store_" });
  try {
    // A file where the folder should be: mkdir fails the way a read-only mount does.
    await Deno.writeTextFile(`${dir}/blocked`, "");
    const notices: string[] = [];
    const store = new TileStore(`${dir}/blocked/tiles.mbtiles`, {
      memoryTiles: 3,
      onNotice: (m) => notices.push(m),
    });
    assert.equal(store.memoryTiles, 3);
    assert.equal(notices.length, 1);
    assert.match(notices[0], /cannot be written .*kept in memory .*at most 3.*--tiles-dir/);
    for (let col = 0; col < 5; col++) {
      store.putMany([{ z: 3, row: 1, col, data: new Uint8Array([col, 1, 2]) }]);
    }
    assert.equal(store.count(), 3, "bounded");
    assert.equal(store.get(3, 1, 0), null, "the oldest went first");
    assert.deepEqual([...store.get(3, 1, 4)!.data], [4, 1, 2]);
    store.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("tile store: a writable folder keeps tiles in its MBTiles file, unbounded", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tile_store_" });
  try {
    const path = `${dir}/t/tiles.mbtiles`;
    const store = new TileStore(path, { memoryTiles: 1, onNotice: () => assert.fail("no notice") });
    assert.equal(store.memoryTiles, null);
    store.putMany([0, 1, 2].map((col) => ({ z: 2, row: 0, col, data: new Uint8Array([col]) })));
    store.close();
    const again = new TileStore(path);
    assert.equal(again.count(), 3);
    again.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
