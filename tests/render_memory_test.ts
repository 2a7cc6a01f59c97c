/**
 * Render memory: CanvasKit's wasm heap only grows, so everything a render
 * allocates must be freed (surfaces' pixels included) and a worker whose
 * heap got too big, or whose allocation failed, must be replaced before
 * the next job. Renders use the embedded Recruitment service over a real
 * demo catalogue; results are decoded PNG/JPEG images.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { PNG } from "pngjs";
import jpeg from "jpeg-js";
import { COMPETITION_CATALOG_MODULE, createDemoDatabase } from "../data/mod.ts";
import { startServer } from "../main.ts";
import { faultOf, operationEnvelope, postSoap } from "./_soap_helpers.ts";
import { loadServices } from "../map/document/mod.ts";
import { type Kit, loadKit } from "../map/render/_canvaskit.ts";
import { findRenderMap, type LoadedService } from "../map/render/_loader.ts";
import { type MapJob, runJob, type ScaleBarJob, type SwatchJob } from "../map/render/jobs.ts";
import { defaultScaleBar } from "../map/render/scalebar.ts";
import { InProcessRenderer, RenderPool } from "../map/render/pool.ts";
import type { OutputFormat } from "../map/render/encode.ts";
import type { SymbolSpec } from "../map/document/renderer.ts";

const MiB = 2 ** 20;
const OCEAN = [205, 225, 240];

const dir = Deno.makeTempDirSync({ prefix: "render_memory_" });
const catalogPath = `${dir}/catalog.db`;
await createDemoDatabase(catalogPath);
const services = (await loadServices({
  catalogPath,
  catalogModule: COMPETITION_CATALOG_MODULE,
})) as unknown as LoadedService[];
const resolve = (_service: string, map: string) => findRenderMap(services[0], map);
const loader = {
  module: new URL("../map/document/mod.ts", import.meta.url).href,
  export: "loadServices",
  args: [{ catalogPath, catalogModule: COMPETITION_CATALOG_MODULE }],
};

/** The wasm heap's size (read directly, as CanvasKit's typings leave it out). */
function heapOf(kit: Kit): number {
  return (kit.ck as unknown as { HEAPU8: Uint8Array }).HEAPU8.buffer.byteLength;
}

interface Pixels {
  width: number;
  height: number;
  data: Uint8Array;
}

function decode(bytes: Uint8Array): Pixels {
  if (bytes[0] === 0x89 && bytes[1] === 0x50) {
    const png = PNG.sync.read(Buffer.from(bytes));
    return { width: png.width, height: png.height, data: new Uint8Array(png.data) };
  }
  const j = jpeg.decode(bytes, { useTArray: true, formatAsRGBA: true });
  return { width: j.width, height: j.height, data: j.data };
}

function pixel(p: Pixels, x: number, y: number): number[] {
  const i = (Math.round(y) * p.width + Math.round(x)) * 4;
  return [...p.data.subarray(i, i + 4)];
}

function near(a: number[], b: number[], tol = 4): boolean {
  return b.every((v, i) => Math.abs(a[i] - v) <= tol);
}

/** A whole-world map job of the default service. */
function worldJob(w: number, h: number, format: OutputFormat = "png8"): MapJob {
  return {
    kind: "map",
    service: "Recruitment",
    map: "Layers",
    request: {
      extent: { xmin: -180, ymin: -90, xmax: 180, ymax: 90 },
      wkid: 4326,
      widthPx: w,
      heightPx: h,
      format,
    },
  };
}

/**
 * A huge job with every layer hidden: only the background is drawn before the readback. The
 * background is transparent, so the pixels are read back through a copy (an opaque image is
 * read in place).
 */
function hugeJob(side: number): MapJob {
  const job = worldJob(side, side);
  job.request.layers = [{ id: 0, visible: false }, { id: 1, visible: false }];
  job.request.background = null;
  return job;
}

/** Checks a whole-world image: its size, the ocean in the South Atlantic, and land drawn. */
function assertWorld(bytes: Uint8Array, w: number, h: number): void {
  const img = decode(bytes);
  assert.equal(img.width, w);
  assert.equal(img.height, h);
  const res = Math.max(360 / w, 180 / h);
  const at = (lon: number, lat: number) => pixel(img, w / 2 + lon / res, h / 2 - lat / res);
  assert.ok(near(at(-30, -30), OCEAN), `ocean at 30°S 30°W in ${w}x${h}: ${at(-30, -30)}`);
  assert.ok(!near(at(20, 0), OCEAN), `land at 0° 20°E in ${w}x${h}: ${at(20, 0)}`);
}

const SIZES: [number, number][] = [[400, 300], [1024, 768], [2048, 1536], [4096, 4096]];

// First in the file, on the isolate's fresh kit: leaked blocks fill free heap space before
// the heap grows, and the map test below leaves plenty of free space behind.
Deno.test("legend swatches with large patches keep the wasm heap bounded", async () => {
  const kit = await loadKit();
  const symbols: { symbol: SymbolSpec; transparency: number }[] = [
    {
      symbol: {
        type: "simple-fill",
        style: "diagonal-cross",
        color: [0, 90, 200, 255],
        outline: { type: "simple-line", style: "dash", color: [0, 0, 0, 255], width: 2 },
      },
      transparency: 30,
    },
    {
      symbol: {
        type: "simple-marker",
        style: "circle",
        color: [220, 20, 20, 255],
        size: 120,
        angle: 0,
        xoffset: 0,
        yoffset: 0,
        outline: { color: [0, 0, 0, 255], width: 3 },
      },
      transparency: 0,
    },
    {
      symbol: { type: "simple-line", style: "dash-dot", color: [0, 120, 0, 255], width: 6 },
      transparency: 0,
    },
  ];
  // 400, 667 and 1024 pixels square at 96 DPI.
  const patches = [300, 500, 768].map((pt): SwatchJob => ({
    kind: "swatches",
    symbols,
    patch: { widthPt: pt, heightPt: pt, dpi: 96, format: "png32" },
  }));
  const noMaps = () => {
    throw new Error("Swatches need no map.");
  };
  for (const job of patches) await runJob(kit, job, noMaps);
  const afterFirst = heapOf(kit);
  let last: Awaited<ReturnType<typeof runJob<SwatchJob>>> = [];
  for (let i = 0; i < 8; i++) {
    for (const job of patches) last = await runJob(kit, job, noMaps);
  }
  const afterAll = heapOf(kit);
  assert.ok(
    afterAll <= afterFirst + 16 * MiB,
    `heap grew from ${afterFirst / MiB} MiB to ${afterAll / MiB} MiB over 72 more swatches`,
  );
  const marker = decode(last[1].bytes);
  assert.equal(marker.width, 1024);
  assert.ok(near(pixel(marker, 512, 512), [220, 20, 20, 255]), `${pixel(marker, 512, 512)}`);
  assert.equal(pixel(marker, 2, 2)[3], 0, "transparent corner");
});

Deno.test("large scale bars keep the wasm heap bounded", async () => {
  const kit = await loadKit();
  const job = (w: number, h: number): ScaleBarJob => ({
    kind: "scalebar",
    spec: defaultScaleBar(),
    opts: {
      mapScale: 10_000_000,
      widthPx: w,
      heightPx: h,
      dpi: 96,
      background: [255, 255, 255, 255],
      format: "png24",
    },
  });
  const sizes: [number, number][] = [[2000, 400], [1600, 300]];
  const noMaps = () => {
    throw new Error("Scale bars need no map.");
  };
  for (const [w, h] of sizes) await runJob(kit, job(w, h), noMaps);
  const afterFirst = heapOf(kit);
  let last: Uint8Array | null = null;
  for (let i = 0; i < 15; i++) {
    for (const [w, h] of sizes) last = (await runJob(kit, job(w, h), noMaps)).bytes;
  }
  const afterAll = heapOf(kit);
  assert.ok(
    afterAll <= afterFirst + 16 * MiB,
    `heap grew from ${afterFirst / MiB} MiB to ${afterAll / MiB} MiB over 30 more scale bars`,
  );
  const img = decode(last!);
  assert.equal(img.width, 1600);
  assert.equal(img.height, 300);
  let dark = 0;
  for (let i = 0; i < img.data.length; i += 4) if (img.data[i] < 64) dark++;
  assert.ok(dark > 1000, `${dark} dark pixels of bar and labels`);
});

Deno.test("map renders cycling image sizes keep the wasm heap bounded", async () => {
  const kit = await loadKit();
  const formats: OutputFormat[] = ["png8", "png32", "png8", "jpg"];
  const cycle = async () => {
    const out: Uint8Array[] = [];
    for (const [i, [w, h]] of SIZES.entries()) {
      out.push((await runJob(kit, worldJob(w, h, formats[i]), resolve)).bytes);
    }
    return out;
  };
  await cycle();
  const afterFirst = heapOf(kit);
  let last: Uint8Array[] = [];
  for (let i = 0; i < 8; i++) last = await cycle();
  const afterAll = heapOf(kit);
  assert.ok(
    afterAll <= afterFirst + 32 * MiB,
    `heap grew from ${afterFirst / MiB} MiB to ${afterAll / MiB} MiB over 32 more renders`,
  );
  SIZES.forEach(([w, h], i) => assertWorld(last[i], w, h));
});

Deno.test("an image the worker cannot hold fails alone: the worker is replaced and later renders succeed", async () => {
  // 22000 x 22000 is 1.8 GiB of pixels: the surface may fit in the wasm heap, a copy to read
  // it back cannot.
  const pool = new RenderPool({ size: 1, loader, heapLimitMb: 2048 });
  try {
    await assert.rejects(
      pool.run(hugeJob(22000)),
      (e: Error) =>
        e.name === "RenderMemoryError" && /out of memory.*smaller image/.test(e.message),
    );
    assert.equal(pool.stats().recycled, 1);
    for (
      const [w, h, format] of [[4096, 4096, "jpg"], [2048, 1536, "png32"], [
        400,
        300,
        "png8",
      ]] as const
    ) {
      const r = await pool.run(worldJob(w, h, format));
      assertWorld(r.bytes, w, h);
    }
    assert.ok(pool.stats().heapBytes[0] < 512 * MiB, `${pool.stats().heapBytes[0] / MiB} MiB`);
  } finally {
    pool.close();
  }
});

Deno.test("a worker whose heap passes the limit is replaced and queued jobs all finish", async () => {
  const pool = new RenderPool({ size: 1, loader, heapLimitMb: 1 });
  try {
    // Queued together: each job leaves the worker over 1 MiB, so every one runs on a fresh worker.
    const results = await Promise.all([0, 1, 2, 3].map(() => pool.run(worldJob(400, 300))));
    for (const r of results) assertWorld(r.bytes, 400, 300);
    assert.equal(pool.stats().recycled, 4);
    // An image whose pixels alone pass the limit is refused before drawing; the worker stays.
    await assert.rejects(
      pool.run(worldJob(1024, 768)),
      (e: Error) => e.name === "RenderMemoryError" && /1024x768/.test(e.message),
    );
    assert.equal(pool.stats().recycled, 4);
    assertWorld((await pool.run(worldJob(400, 300))).bytes, 400, 300);
  } finally {
    pool.close();
  }
});

Deno.test("the in-process renderer starts a fresh CanvasKit after an allocation failure", async () => {
  const renderer = new InProcessRenderer({ heapLimitMb: 2048 });
  const before = await loadKit();
  await assert.rejects(
    renderer.run(hugeJob(22000), resolve),
    (e: Error) => e.name === "RenderMemoryError",
  );
  const after = await loadKit();
  assert.notEqual(after, before);
  assert.ok(heapOf(after) < 512 * MiB, `${heapOf(after) / MiB} MiB`);
  const r = await renderer.run(worldJob(4096, 4096), resolve);
  assertWorld(r.bytes, 4096, 4096);
});

Deno.test("ExportMapImage over the heap limit answers a Fault and the next request draws", async () => {
  const server = await startServer({
    dbPath: catalogPath,
    port: 0,
    hostname: "127.0.0.1",
    outputDir: `${dir}/output`,
    tilesDir: `${dir}/tiles`,
    renderWorkers: 1,
    renderHeapMb: 2,
    quiet: true,
  });
  try {
    const url = `${server.url}arcgis/services/Recruitment/MapServer`;
    const exportMap = (w: number, h: number) =>
      postSoap(
        url,
        operationEnvelope(
          "ExportMapImage",
          `<MapDescription><Name>Layers</Name><MapArea xsi:type="e:MapExtent"><Extent xsi:type="e:EnvelopeN">` +
            `<XMin>-180</XMin><YMin>-90</YMin><XMax>180</XMax><YMax>90</YMax></Extent></MapArea>` +
            `<Rotation>0</Rotation></MapDescription><ImageDescription><ImageType>` +
            `<ImageFormat>esriImagePNG</ImageFormat><ImageReturnType>esriImageReturnMimeData</ImageReturnType>` +
            `</ImageType><ImageDisplay><ImageHeight>${h}</ImageHeight><ImageWidth>${w}</ImageWidth>` +
            `<ImageDPI>96</ImageDPI></ImageDisplay></ImageDescription>`,
        ),
      );
    // 1024 x 768 x 4 bytes is 3 MiB: more than the 2 MiB the workers may hold.
    const refused = await exportMap(1024, 768);
    assert.equal(refused.status, 500);
    const fault = faultOf(refused.text);
    assert.ok(fault, refused.text.slice(0, 500));
    assert.match(fault.code, /Server$/);
    assert.match(fault.message, /out of memory for a 1024x768 image; ask for a smaller image/);
    const ok = await exportMap(400, 300);
    assert.equal(ok.status, 200, ok.text.slice(0, 500));
    const data = /<ImageData>([^<]+)<\/ImageData>/.exec(ok.text);
    assert.ok(data, "ImageData in the response");
    assertWorld(Uint8Array.from(atob(data[1]), (c) => c.charCodeAt(0)), 400, 300);
  } finally {
    await server.shutdown();
  }
});

Deno.test("serve refuses a --render-heap-mb that is not a positive whole number", async () => {
  for (const bad of ["0", "lots", "1.5"]) {
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        new URL("../main.ts", import.meta.url).pathname,
        "serve",
        "--port",
        "0",
        "--render-heap-mb",
        bad,
      ],
      stdout: "null",
      stderr: "piped",
    }).output();
    assert.equal(out.code, 2);
    assert.match(
      new TextDecoder().decode(out.stderr),
      /--render-heap-mb must be a whole number of MiB/,
    );
  }
});
