/**
 * The shared geometry store (map/render/_geomstore.ts): GeoPackage polygons
 * drawn from it give the same pixels as the per-level cache path, and the
 * render workers of a pool build it once and share it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { countries, loadGeoPackageService, storeTestLayer } from "./_render_helpers.ts";
import { writeGeoPackageLayer } from "../map/sources/geopackage_writer.ts";
import { openGeoPackage } from "../map/sources/geopackage.ts";
import type { FeatureSource } from "../map/sources/source.ts";
import { loadKit, renderMap } from "../map/render/mod.ts";
import { InProcessRenderer, RenderPool } from "../map/render/pool.ts";
import { heldPolygonStores } from "../map/render/_geomstore.ts";
import { ROUNDS_BEFORE_REQUESTS } from "../map/render/_warmup.ts";
import { findRenderMap, type LoadedService } from "../map/render/_loader.ts";
import type { MapJob } from "../map/render/jobs.ts";
import type { RenderMap } from "../map/render/types.ts";
import type { Extent } from "../map/types.ts";

async function countriesGpkg(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "render_store_" });
  const path = join(dir, "countries.gpkg");
  writeGeoPackageLayer(
    path,
    { table: "countries", geometryType: "Polygon", fields: [] },
    (await countries("50m")).map((f) => ({ attributes: {}, geometry: f.geometry })),
  );
  return path;
}

/** The loader of a pool whose workers open the countries GeoPackage at `path`. */
function countriesLoader(path: string) {
  return {
    module: new URL("./_render_helpers.ts", import.meta.url).href,
    export: "loadGeoPackageService",
    args: [path, "countries"],
  };
}

/** A lazy pool of two workers on the countries at `path`, tracing into `trace`. */
function lazyTracedPool(path: string, trace: string[]): RenderPool {
  return new RenderPool({
    size: 2,
    lazy: true,
    loader: countriesLoader(path),
    trace: (line) => trace.push(line),
  });
}

/** The same source without a storeKey: it is drawn through the per-level cache. */
function unstored(src: FeatureSource): FeatureSource {
  return {
    wkid: src.wkid,
    geometryType: src.geometryType,
    idField: src.idField,
    fields: () => src.fields(),
    extent: () => src.extent(),
    query: (q) => src.query(q),
    count: (q) => src.count(q),
    get: (id) => src.get(id),
    revision: () => src.revision(),
  };
}

const VIEWS: Extent[] = [
  { xmin: -180, ymin: -90, xmax: 180, ymax: 90 },
  { xmin: -20, ymin: 30, xmax: 40, ymax: 75 },
  { xmin: 10, ymin: 40, xmax: 13, ymax: 42.25 },
  // Past the antimeridian: Pacific islands and Chukotka drawn as their copies.
  { xmin: 150, ymin: -50, xmax: 210, ymax: 70 },
];

/** A job drawing the test service's map over `extent` (WGS 84). */
function storeJob(
  extent: Extent,
  widthPx: number,
  heightPx: number,
  format: "png24" | "png32" = "png32",
): MapJob {
  return {
    kind: "map",
    service: "Store",
    map: "Layers",
    request: { extent, wkid: 4326, widthPx, heightPx, format },
  };
}

Deno.test("stored polygons draw the same pixels as the per-level cache", async () => {
  const path = await countriesGpkg();
  const kit = await loadKit();
  const src = openGeoPackage(path);
  try {
    const map = (s: FeatureSource): RenderMap => ({
      name: "m",
      wkid: 4326,
      backgroundColor: [205, 225, 240],
      layers: [storeTestLayer(s)],
    });
    for (const extent of VIEWS) {
      const req = { extent, wkid: 4326, widthPx: 640, heightPx: 480, format: "png32" as const };
      const stored = renderMap(kit, map(src), req).bytes;
      const cached = renderMap(kit, map(unstored(src)), req).bytes;
      assert.ok(stored.length > 1000);
      assert.deepEqual(stored, cached, `pixels differ at ${JSON.stringify(extent)}`);
    }
    // The stored path was the one taken, and the store holds every feature.
    const held = heldPolygonStores().filter((d) => d.key === src.storeKey);
    assert.equal(held.length, 1);
    assert.equal(held[0].ids.length, src.count({}));
    assert.ok(held[0].xy.buffer instanceof SharedArrayBuffer);
  } finally {
    src.close?.();
    await Deno.remove(join(path, ".."), { recursive: true });
  }
});

Deno.test("render workers build the geometry store once and share it", async () => {
  const path = await countriesGpkg();
  const loader = countriesLoader(path);
  const job = (extent: Extent) => storeJob(extent, 512, 384);
  const pool = new RenderPool({ size: 2, loader });
  try {
    const first = await pool.run(job(VIEWS[0]));
    assert.equal(pool.stats().storeBuilds, 1);
    // Two jobs at once: the second goes to the other worker, which already holds the store.
    const [a, b] = await Promise.all([pool.run(job(VIEWS[2])), pool.run(job(VIEWS[2]))]);
    const again = await Promise.all([pool.run(job(VIEWS[0])), pool.run(job(VIEWS[0]))]);
    const stats = pool.stats();
    assert.equal(stats.storeBuilds, 1, "every worker after the first drew from the shared store");
    assert.ok(stats.sharedStoreBytes > 16 * 50_000, `${stats.sharedStoreBytes} bytes`);
    assert.deepEqual(a.bytes, b.bytes);
    assert.deepEqual(again[0].bytes, first.bytes);
    assert.deepEqual(again[1].bytes, first.bytes);
    const services = (await loadGeoPackageService(path, "countries")) as LoadedService[];
    const local = await new InProcessRenderer().run(
      job(VIEWS[2]),
      () => findRenderMap(services[0], "Layers"),
    );
    assert.deepEqual(a.bytes, local.bytes);
  } finally {
    await pool.close();
    await Deno.remove(join(path, ".."), { recursive: true });
  }
});

Deno.test("a pool builds the geometry stores and warms every worker at start, before any request", async () => {
  const path = await countriesGpkg();
  const pool = new RenderPool({
    size: 2,
    loader: countriesLoader(path),
  });
  try {
    // Waiting is bounded; no speed is asserted.
    for (let i = 0; i < 600 && pool.stats().storeBuilds === 0; i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(pool.stats().storeBuilds, 1, "one worker built the store without a request");
    for (let i = 0; i < 600 && pool.stats().warmedWorkers < 2; i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(pool.stats().warmedWorkers, 2, "both workers drew the map once at start");
    assert.equal(pool.stats().storeBuilds, 1, "the second worker warmed up from the shared store");
    await Promise.all([VIEWS[1], VIEWS[3]].map((extent) => pool.run(storeJob(extent, 256, 256))));
    assert.equal(pool.stats().storeBuilds, 1);
  } finally {
    await pool.close();
    await Deno.remove(join(path, ".."), { recursive: true });
  }
});

Deno.test("a request that reaches a worker warming up waits for one start-up draw, not all", async () => {
  const path = await countriesGpkg();
  const pool = new RenderPool({
    size: 1,
    loader: countriesLoader(path),
  });
  try {
    // The worker announces its store just before its start-up draws (eight per map, seven of them
    // 1024x768): the request goes out as soon as the pool has it, while the worker draws. Before,
    // the draws ran in one go and the request was answered only after all of them.
    const giveUp = Date.now() + 60_000;
    while (pool.stats().storeBuilds === 0 && Date.now() < giveUp) {
      await new Promise((r) => setTimeout(r, 0));
    }
    assert.equal(pool.stats().storeBuilds, 1);
    const image = await pool.run(storeJob(VIEWS[1], 256, 256));
    assert.ok(image.bytes.length > 0);
    assert.equal(pool.stats().warmedWorkers, 0, "answered before the warm-up finished");
    // Bounded wait; no speed is asserted.
    for (let i = 0; i < 600 && pool.stats().warmedWorkers < 1; i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(pool.stats().warmedWorkers, 1, "the warm-up went on after the request");
  } finally {
    await pool.close();
    await Deno.remove(join(path, ".."), { recursive: true });
  }
});

Deno.test("a worker replaced before it finished preparing is replaced by one that prepares", async () => {
  const path = await countriesGpkg();
  // Under CanvasKit's starting heap: every job's worker is replaced after its job.
  const pool = new RenderPool({
    size: 2,
    heapLimitMb: 64,
    loader: countriesLoader(path),
  });
  try {
    // Queued before the first worker's warm-up draws, so it is replaced before "prepared".
    await pool.run(storeJob(VIEWS[1], 64, 64));
    assert.ok(pool.stats().recycled >= 1);
    // Bounded wait; no speed is asserted. Before, no worker was ever told to warm up.
    for (let i = 0; i < 600 && pool.stats().warmedWorkers < 2; i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(pool.stats().warmedWorkers >= 2, `warmed: ${pool.stats().warmedWorkers}`);
  } finally {
    await pool.close();
    await Deno.remove(join(path, ".."), { recursive: true });
  }
});

Deno.test("a client's views, one after another from the first, never wait for a warm-up draw, and every worker warms up meanwhile", async () => {
  const path = await countriesGpkg();
  const trace: string[] = [];
  // Started by the first job, as the server's pool is.
  const pool = lazyTracedPool(path, trace);
  try {
    // A client that never pauses: each view as soon as the last is answered. Before, the first
    // worker drew its start-up views only after a quiet moment, which never came, and told the
    // other to warm up only after those: no worker ever warmed up. Bounded; no speed is asserted.
    const giveUp = Date.now() + 120_000;
    const sentWarm: number[] = [];
    for (let i = 0; pool.stats().warmedWorkers < 2 && Date.now() < giveUp; i++) {
      // Job ids count from 1 in the order jobs are run.
      if (pool.stats().warmedWorkers > 0) sentWarm.push(i + 1);
      const image = await pool.run(storeJob(VIEWS[i % VIEWS.length], 64, 48));
      assert.ok(image.bytes.length > 0);
    }
    const stats = pool.stats();
    assert.equal(stats.warmedWorkers, 2, "both workers finished their start-up draws");
    assert.ok(stats.warmUpSteps >= 2 * 8, `${stats.warmUpSteps} warm-up draws granted`);
    assert.equal(stats.jobsBehindWarmUp, 0, "no job waited for a warm-up draw");
    // Once a worker had warmed up, every job went to a warmed-up worker.
    for (const id of sentWarm) {
      const line = trace.find((l) => l.startsWith(`render job ${id} `));
      assert.match(line ?? "", / on worker \d warm /, `job ${id}: ${line}`);
    }
    assert.ok(trace.some((l) => /behind warm-up false/.test(l)));
  } finally {
    pool.close();
    await Deno.remove(join(path, ".."), { recursive: true });
  }
});

Deno.test("warmUp() starts a lazy pool, warms its workers side by side, and no view after it meets warm-up work", async () => {
  const path = await countriesGpkg();
  const trace: string[] = [];
  const pool = lazyTracedPool(path, trace);
  try {
    // Bounded; no speed is asserted.
    assert.equal(await pool.warmUp(120_000), true);
    const stats = pool.stats();
    assert.equal(stats.warmedWorkers, 2, "both workers drew their start-up views");
    assert.equal(stats.storeBuilds, 1, "one worker built the store, the other received it");
    // Each worker: one small draw and the seven full-size ones ROUNDS_BEFORE_REQUESTS times.
    const perWorker = 1 + ROUNDS_BEFORE_REQUESTS * 7;
    assert.ok(stats.warmUpSteps >= 2 * perWorker, `${stats.warmUpSteps} warm-up draws`);
    // With no request to keep a worker free for, every draw a worker asks for is granted at
    // once, in the same turn, also while the other worker draws (before, such a worker waited
    // for the other's draw to end). Whether the two draws overlap at all depends on when each
    // worker is ready; whether an ask waited does not, so that is what is asserted.
    const asks = trace.flatMap((line, i) => {
      const asked = /^render warm-up draw asked by worker (\d)$/.exec(line);
      return asked ? [{ worker: asked[1], at: i }] : [];
    });
    assert.ok(asks.length >= 2 * perWorker, `${asks.length} warm-up draws asked for`);
    for (const { worker, at } of asks) {
      // The same #pump may first grant the other worker a collection.
      const next = trace.slice(at + 1).find((l) => !l.startsWith("render collection granted"));
      assert.match(
        next ?? "",
        new RegExp(`^render warm-up draw \\d+ granted to worker ${worker}$`),
        `worker ${worker}'s ask (trace line ${at}) was granted at once`,
      );
    }
    for (const extent of VIEWS) {
      const image = await pool.run(storeJob(extent, 256, 192));
      assert.ok(image.bytes.length > 0);
    }
    const after = pool.stats();
    assert.equal(after.warmUpSteps, stats.warmUpSteps, "no warm-up draw once warmUp() resolved");
    assert.equal(after.jobsBehindWarmUp, 0);
    const jobs = trace.filter((l) => l.startsWith("render job "));
    assert.equal(jobs.length, VIEWS.length);
    for (const line of jobs) assert.match(line, / on worker \d warm /);
    assert.equal(await pool.warmUp(1), true, "a warm pool says so at once");
  } finally {
    pool.close();
    await Deno.remove(join(path, ".."), { recursive: true });
  }
});

Deno.test("warmUp() gives up after its timeout, the pool serves all the same, and closing settles it", async () => {
  const path = await countriesGpkg();
  const pool = new RenderPool({ size: 1, lazy: true, loader: countriesLoader(path) });
  try {
    // Loading CanvasKit alone takes longer than a millisecond.
    assert.equal(await pool.warmUp(1), false);
    const image = await pool.run(storeJob(VIEWS[1], 64, 48));
    assert.ok(image.bytes.length > 0);
    const waiting = pool.warmUp(120_000);
    pool.close();
    assert.equal(await waiting, false, "a closed pool is not warm");
    assert.equal(await pool.warmUp(), false);
  } finally {
    pool.close();
    await Deno.remove(join(path, ".."), { recursive: true });
  }
});

Deno.test("warmUp() of a pool without map services resolves once its workers started", async () => {
  const pool = new RenderPool({ size: 2, lazy: true, loader: null });
  try {
    // Bounded; no speed is asserted. Before, the first worker never said it was warm.
    assert.equal(await pool.warmUp(60_000), true);
    assert.equal(pool.stats().warmedWorkers, 2);
  } finally {
    pool.close();
  }
});

Deno.test("a traced pool tells where each map job's time went in its worker", async () => {
  const path = await countriesGpkg();
  const trace: string[] = [];
  const pool = new RenderPool({
    size: 1,
    loader: countriesLoader(path),
    trace: (line) => trace.push(line),
  });
  try {
    await pool.run(storeJob(VIEWS[0], 256, 192, "png24"));
    const line = trace.find((l) => l.startsWith("render job 1 ")) ?? "";
    const m = line.match(
      /; hop (-?[\d.]+) ms, turn ([\d.]+), draw ([\d.]+), encode ([\d.]+), rest (-?[\d.]+), reply hop (-?[\d.]+)$/,
    );
    assert.ok(m, line);
    const [hop, turn, draw, encode, , replyHop] = m.slice(1).map(Number);
    assert.ok(draw > 0 && encode > 0, line);
    // Each phase lies within the job's time on the worker, as the pool saw it.
    const onWorker = Number(line.match(/ on worker 0 \w+ ([\d.]+) ms/)?.[1]);
    assert.ok(turn + draw + encode <= onWorker + 0.1, line);
    assert.ok(Math.abs(hop) < onWorker + 1 && Math.abs(replyHop) < onWorker + 1, line);
  } finally {
    pool.close();
    await Deno.remove(join(path, ".."), { recursive: true });
  }
});
