/**
 * The render worker pool: workers open the services through a loader
 * module, draw the same pixels as the in-process renderer, run jobs in
 * parallel, and report errors as errors.
 */
import assert from "node:assert/strict";
import { InProcessRenderer, RenderPool } from "../map/render/pool.ts";
import { InvalidRequestError } from "../map/errors.ts";
import { findRenderMap, type LoadedService } from "../map/render/_loader.ts";
import { decode, loadTestServices, near, pixel } from "./_render_helpers.ts";
import type { MapJob } from "../map/render/jobs.ts";

const loader = {
  module: new URL("./_render_helpers.ts", import.meta.url).href,
  export: "loadTestServices",
};

function job(extra: Partial<MapJob["request"]> = {}): MapJob {
  return {
    kind: "map",
    service: "Pool",
    map: "Layers",
    request: {
      extent: { xmin: -180, ymin: -90, xmax: 180, ymax: 90 },
      wkid: 4326,
      widthPx: 512,
      heightPx: 256,
      format: "png32",
      ...extra,
    },
  };
}

Deno.test("pool workers render the same image as the in-process renderer", async () => {
  const pool = new RenderPool({ size: 2, loader });
  try {
    assert.equal(pool.size, 2);
    const services = (await loadTestServices()) as LoadedService[];
    const local = await new InProcessRenderer().run(
      job(),
      () => findRenderMap(services[0], "Layers"),
    );
    const running = [pool.run(job()), pool.run(job()), pool.run(job({ format: "jpg" }))];
    // Queued and running jobs count as pending (the main thread's collection waits for none).
    assert.equal(pool.pending, 3);
    const results = await Promise.all(running);
    assert.equal(pool.pending, 0);
    assert.deepEqual(results[0].bytes, local.bytes);
    assert.deepEqual(results[1].bytes, local.bytes);
    assert.equal(results[2].mime, "image/jpeg");
    assert.deepEqual(results[0].visibleLayerIds, [0, 1]);
    const img = decode(results[0].bytes);
    assert.ok(
      near(pixel(img, (37.62 + 180) / (360 / 512), (90 - 55.75) / (360 / 512)), [220, 30, 30, 255]),
    );
    // Other job kinds need no services.
    const sw = await pool.run({
      kind: "swatches",
      symbols: [{
        symbol: { type: "simple-line", style: "solid", color: [0, 0, 255, 255], width: 2 },
        transparency: 0,
      }],
      patch: { widthPt: 15, heightPt: 15, dpi: 96, format: "png32" },
    });
    assert.ok(near(pixel(decode(sw[0].bytes), 10, 10), [0, 0, 255, 255]));
  } finally {
    pool.close();
  }
});

Deno.test("pool reports unknown maps and bad extents as errors and keeps working", async () => {
  const pool = new RenderPool({ size: 1, loader });
  try {
    await assert.rejects(pool.run({ ...job(), map: "Nope" }), /Map "Nope" does not exist/);
    await assert.rejects(
      pool.run(job({ extent: { xmin: 10, ymin: 0, xmax: 0, ymax: 5 } })),
      (e: Error) => e instanceof InvalidRequestError && /inverted/.test(e.message),
    );
    const ok = await pool.run(job());
    assert.equal(ok.widthPx, 512);
  } finally {
    pool.close();
  }
  await assert.rejects(pool.run(job()), /closed/);
});

Deno.test("a lazy pool starts its workers with the first job and renders the same pixels", async () => {
  const lazy = new RenderPool({ size: 1, loader, lazy: true });
  const eager = new RenderPool({ size: 1, loader });
  try {
    const [a, b] = await Promise.all([lazy.run(job()), eager.run(job())]);
    assert.deepEqual(a.bytes, b.bytes);
    assert.deepEqual(a.visibleLayerIds, [0, 1]);
  } finally {
    lazy.close();
    eager.close();
  }
});

Deno.test("a lazy pool that never ran a job closes cleanly", () => {
  const lazy = new RenderPool({ size: 2, loader, lazy: true });
  lazy.close();
});
