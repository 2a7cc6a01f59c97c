/**
 * Tiling scheme numbers, the MBTiles store layout, and the tile cache:
 * render on demand, repeat = lookup, precise invalidation from the
 * recruitment database's change_log, full invalidation for other layers.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { InProcessRenderer, type Renderer } from "../map/render/pool.ts";
import type { JobResult, MapResolver, RenderJob } from "../map/render/jobs.ts";
import type { RenderMap } from "../map/render/types.ts";
import { RendererSpecSchema } from "../map/document/renderer.ts";
import { TileCache } from "../map/tiles/cache.ts";
import {
  lodOf,
  tileCounts,
  tileExtent,
  tileRange,
  WEB_MERCATOR_SCHEME,
  WGS84_SCHEME,
} from "../map/tiles/scheme.ts";
import { etagOf, TileStore, tmsRow } from "../map/tiles/store.ts";
import { parseLevels, progressPrinter } from "../map/tiles/mod.ts";
import { progressBar } from "../data/progress.ts";
import { countries, decode, MemorySource } from "./_render_helpers.ts";
import { openCatalog } from "../data/catalog.ts";
import type { Feature } from "../map/types.ts";

Deno.test("ArcGIS Online scheme: scale = resolution x 96 x 39.37, halving per level, square world", () => {
  const s = WEB_MERCATOR_SCHEME;
  assert.equal(s.lods.length, 20);
  for (const l of s.lods) {
    assert.ok(Math.abs(l.resolution * 96 * 39.37 / l.scale - 1) < 1e-9, `level ${l.level}`);
    if (l.level > 0) assert.ok(Math.abs(s.lods[l.level - 1].resolution / l.resolution - 2) < 1e-9);
    const { cols, rows } = tileCounts(s, l);
    assert.equal(cols, 2 ** l.level);
    assert.equal(rows, 2 ** l.level);
  }
  const e = tileExtent(s, s.lods[0], 0, 0);
  assert.ok(Math.abs(e.xmin + 20037508.342787) < 1e-6 && Math.abs(e.ymin + 20037508.342787) < 1e-3);
  // Moscow (4187591.9, 7509137.4) at level 10 is tile row 320, column 619.
  const r = tileRange(s, lodOf(s, 10)!, {
    xmin: 4187591.9,
    ymin: 7509137.4,
    xmax: 4187591.9,
    ymax: 7509137.4,
  })!;
  assert.deepEqual([r.row0, r.col0], [320, 619]);
  const g = WGS84_SCHEME;
  assert.deepEqual(tileCounts(g, g.lods[0]), { cols: 2, rows: 1 });
  assert.ok(Math.abs(g.lods[0].scale - 295828763.7958547) < 1e-6);
});

Deno.test("MBTiles store: TMS rows on disk, metadata, ETags, range deletes", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const store = new TileStore(join(dir, "t.mbtiles"));
    const tags = store.putMany([
      { z: 2, row: 0, col: 1, data: new Uint8Array([1, 2, 3]) },
      { z: 2, row: 3, col: 3, data: new Uint8Array([4]) },
    ]);
    assert.equal(tags[0], etagOf(new Uint8Array([1, 2, 3])));
    assert.deepEqual(store.get(2, 0, 1)?.data, new Uint8Array([1, 2, 3]));
    assert.equal(store.get(2, 1, 1), null);
    const raw = store.db.prepare(
      "SELECT tile_row FROM tiles WHERE zoom_level = 2 AND tile_column = 1",
    ).get() as {
      tile_row: number;
    };
    assert.equal(raw.tile_row, 3, "XYZ row 0 is TMS row 3 at zoom 2");
    assert.equal(tmsRow(2, 3), 0);
    store.setMeta({ name: "x", format: "png" });
    assert.equal(store.meta("format"), "png");
    assert.equal(store.deleteRange(2, 0, 1, 0, 2), 1);
    assert.equal(store.count(), 1);
    store.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** A renderer that counts the jobs it runs. */
class CountingRenderer implements Renderer {
  jobs = 0;
  #inner = new InProcessRenderer();
  run<J extends RenderJob>(job: J, resolve?: MapResolver): Promise<JobResult<J>> {
    this.jobs++;
    return this.#inner.run(job, resolve);
  }
  close() {}
}

/** A point source whose features and revision the test changes. */
class MutablePoints extends MemorySource {
  rev = 1;
  constructor(public points: Feature[]) {
    super(points, "Point");
  }
  override query() {
    return this.points;
  }
  override revision() {
    return String(this.rev);
  }
}

Deno.test("tile cache: renders on demand, repeats from the store, invalidates precisely from change_log", async () => {
  const dir = await Deno.makeTempDir();
  const points = new MutablePoints([{
    id: 1,
    attributes: {},
    geometry: { type: "Point", x: 37.62, y: 55.75 },
  }]);
  const land = new MemorySource(await countries("110m"), "Polygon");
  const map: RenderMap = {
    name: "WebMercator",
    wkid: 3857,
    backgroundColor: [200, 225, 255],
    layers: [
      {
        id: 0,
        name: "Competitions",
        geometryType: "Point",
        source: points,
        visible: true,
        minScale: 0,
        maxScale: 0,
        renderer: RendererSpecSchema.parse({
          type: "simple",
          symbol: { type: "simple-marker", color: [255, 0, 0], size: 10 },
        }),
      },
      {
        id: 1,
        name: "Countries",
        geometryType: "Polygon",
        source: land,
        visible: true,
        minScale: 0,
        maxScale: 0,
        renderer: RendererSpecSchema.parse({
          type: "simple",
          symbol: { type: "simple-fill", color: [240, 235, 210] },
        }),
      },
    ],
  };
  const renderer = new CountingRenderer();
  // A real catalogue: the cache asks it for the competitions that moved.
  const catalog = openCatalog(join(dir, "catalog.db"));
  const db = catalog.db;
  const cache = new TileCache({
    service: "S",
    map,
    scheme: WEB_MERCATOR_SCHEME,
    path: join(dir, "S", "WebMercator.mbtiles"),
    renderer: () => renderer,
    localResolve: () => map,
    changeLog: { feed: catalog, layerIds: [0] },
    checkIntervalMs: 0,
  });
  try {
    const lines: string[] = [];
    const sink = {
      writeSync: (b: Uint8Array) => (lines.push(new TextDecoder().decode(b)), b.length),
    };
    const done = await cache.seed(
      parseLevels("0-4"),
      progressPrinter(progressBar("tiles", { out: { ...sink, isTerminal: () => false } })),
    );
    assert.equal(done.total, 1 + 4 + 16 + 64 + 256);
    assert.equal(cache.store.count(), done.total);
    assert.match(
      lines.at(-1)!,
      /^tiles: 341\/341 \(100%\) {2}level 4 {2}rendered \d+, [\d.]+ s\n$/,
    );
    const jobsAfterSeed = renderer.jobs;
    assert.equal(jobsAfterSeed, 1 + 1 + 1 + 4 + 16, "one draw per metatile of up to 4x4 tiles");
    const t = await cache.tile(3, 2, 4);
    assert.equal(renderer.jobs, jobsAfterSeed, "a stored tile is a lookup");
    assert.equal(decode(t.data).width, 256);

    // Moscow's competition moves to Lima: tiles around both, at every level, go.
    const moscow4 = tileRange(WEB_MERCATOR_SCHEME, lodOf(WEB_MERCATOR_SCHEME, 4)!, {
      xmin: 4187591,
      ymin: 7509137,
      xmax: 4187591,
      ymax: 7509137,
    })!;
    const farTile = { z: 4, row: 12, col: 2 }; // South Pacific
    assert.ok(cache.store.has(4, moscow4.row0, moscow4.col0));
    db.prepare(
      "INSERT INTO change_log (collection, record_id, lat, lon, old_lat, old_lon, changed_at) VALUES ('competition', 1, -12.05, -77.03, 55.75, 37.62, 'now')",
    ).run();
    points.points = [{ id: 1, attributes: {}, geometry: { type: "Point", x: -77.03, y: -12.05 } }];
    points.rev = 2;
    const deleted = cache.sync(true);
    assert.ok(deleted >= 2 * 5 - 1 && deleted <= 2 * 5 * 4, `deleted ${deleted}`);
    assert.ok(!cache.store.has(4, moscow4.row0, moscow4.col0), "old position's tile invalidated");
    assert.ok(cache.store.has(farTile.z, farTile.row, farTile.col), "far tiles kept");
    assert.equal(cache.sync(true), 0, "nothing more to do");

    // A log pruned past what the store has seen cannot be trusted: everything goes.
    await cache.tile(4, 12, 2);
    db.exec("DELETE FROM change_log");
    db.prepare(
      "INSERT INTO change_log (seq, collection, record_id, lat, lon, changed_at) VALUES (100, 'competition', 1, 0, 0, 'now')",
    ).run();
    points.rev = 3;
    cache.sync(true);
    assert.equal(cache.store.count(), 0, "pruned change log: full refresh");
    await cache.tile(4, 12, 2);

    // A change in a layer without a change feed drops everything.
    (land as unknown as { revision: () => string }).revision = () => "2";
    cache.sync(true);
    assert.equal(cache.store.count(), 0);
  } finally {
    cache.close();
    catalog.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("parseLevels reads ranges and refuses nonsense", () => {
  assert.deepEqual(parseLevels("0-2,5"), [0, 1, 2, 5]);
  assert.deepEqual(parseLevels("3"), [3]);
  assert.throws(() => parseLevels("a-b"), /Cannot read level range/);
  assert.throws(() => parseLevels("5-2"), /empty/);
});
