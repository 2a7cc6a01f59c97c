/**
 * Render memory soak: starts the server (a child process on a loopback
 * port, demo catalogue in a temp dir), sends ExportMapImage requests
 * cycling 400x300, 1024x768, 2048x1536 and 4096x4096 with every fifth a
 * GetLegendInfo with large (768 pt) patches, several at a time, and prints
 * the server's resident size and the error count as it goes.
 *
 *   deno run -A bench/render_memory.ts [--calls 400] [--concurrency 4] [--workers 2]
 *     [--heap-mb N] [--sizes 400x300,1024x768,...] [--legend-every 5 (0: none)] [--root DIR]
 *
 * `--root` runs another checkout's main.ts (e.g. an export of an older
 * commit) for before/after figures. Bounded by `--calls`; loopback only.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { createDemoDatabase } from "../data/mod.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    calls: { type: "string", default: "400" },
    concurrency: { type: "string", default: "4" },
    workers: { type: "string", default: "2" },
    "heap-mb": { type: "string" },
    sizes: { type: "string", default: "400x300,1024x768,2048x1536,4096x4096" },
    "legend-every": { type: "string", default: "5" },
    root: { type: "string", default: new URL("..", import.meta.url).pathname },
  },
});
const calls = Number(values.calls);
const concurrency = Number(values.concurrency);

const dir = Deno.makeTempDirSync({ prefix: "render_memory_bench_" });
createDemoDatabase(`${dir}/catalog.db`);

const args = [
  "run",
  "-A",
  `${values.root}/main.ts`,
  "serve",
  "--host",
  "127.0.0.1",
  "--port",
  "0",
  "--db",
  `${dir}/catalog.db`,
  "--output-dir",
  `${dir}/output`,
  "--render-workers",
  values.workers,
];
if (values["heap-mb"]) args.push("--render-heap-mb", values["heap-mb"]);
const child = new Deno.Command(Deno.execPath(), {
  args,
  cwd: values.root,
  stdout: "piped",
  stderr: "null",
}).spawn();

/** The server's base URL, from its start-up line. */
async function serverUrl(): Promise<string> {
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`The server exited before listening:\n${text}`);
    text += value;
    const m = /at (http:\/\/[^ ]+\/) /.exec(text);
    if (m) {
      // Keep draining its output so it never blocks on a full pipe.
      (async () => {
        while (!(await reader.read()).done) { /* discard */ }
      })();
      return m[1];
    }
  }
}

function rssMiB(pid: number): number {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

const ENV_OPEN = `<?xml version="1.0" encoding="utf-8"?><soap:Envelope ` +
  `xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" ` +
  `xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ` +
  `xmlns:e="http://www.esri.com/schemas/ArcGIS/10.3"><soap:Body>`;
const ENV_CLOSE = `</soap:Body></soap:Envelope>`;

function exportMap(w: number, h: number): string {
  return ENV_OPEN + `<e:ExportMapImage><MapDescription><Name>Layers</Name>` +
    `<MapArea xsi:type="e:MapExtent"><Extent xsi:type="e:EnvelopeN"><XMin>-180</XMin>` +
    `<YMin>-90</YMin><XMax>180</XMax><YMax>90</YMax></Extent></MapArea><Rotation>0</Rotation>` +
    `</MapDescription><ImageDescription><ImageType><ImageFormat>esriImagePNG</ImageFormat>` +
    `<ImageReturnType>esriImageReturnMimeData</ImageReturnType></ImageType><ImageDisplay>` +
    `<ImageHeight>${h}</ImageHeight><ImageWidth>${w}</ImageWidth><ImageDPI>96</ImageDPI>` +
    `</ImageDisplay></ImageDescription></e:ExportMapImage>` + ENV_CLOSE;
}

const LEGEND = ENV_OPEN + `<e:GetLegendInfo><MapName>Layers</MapName><LegendPatch>` +
  `<Width>768</Width><Height>768</Height><ImageDPI>96</ImageDPI></LegendPatch>` +
  `</e:GetLegendInfo>` + ENV_CLOSE;

const SIZES = values.sizes.split(",").map((s) => s.split("x").map(Number) as [number, number]);
const legendEvery = Number(values["legend-every"]);

try {
  const base = await serverUrl();
  const url = `${base}arcgis/services/Recruitment/MapServer`;
  console.log(
    `root ${values.root}, ${values.workers} workers, ${concurrency} at a time, ` +
      `heap limit ${values["heap-mb"] ?? "default"}`,
  );
  console.log(`start: rss ${rssMiB(child.pid).toFixed(0)} MiB`);
  let next = 0, done = 0, errors = 0, peak = 0;
  let lastError = "";
  const t0 = performance.now();
  const every = Math.max(1, Math.floor(calls / 8));
  const one = async (i: number) => {
    const body = legendEvery > 0 && i % legendEvery === legendEvery - 1
      ? LEGEND
      : exportMap(...SIZES[i % SIZES.length]);
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "text/xml; charset=utf-8" },
      body,
    });
    const text = await res.text();
    if (res.status !== 200) {
      errors++;
      lastError = /<faultstring>([^<]*)/.exec(text)?.[1] ?? `HTTP ${res.status}`;
    }
    done++;
    const rss = rssMiB(child.pid);
    peak = Math.max(peak, rss);
    if (done % every === 0 || done === calls) {
      console.log(
        `${String(done).padStart(5)} calls  ${((performance.now() - t0) / 1000).toFixed(1)} s  ` +
          `rss ${rss.toFixed(0)} MiB  peak ${peak.toFixed(0)} MiB  errors ${errors}` +
          (lastError ? `  (last: ${lastError.slice(0, 90)})` : ""),
      );
    }
  };
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < calls) await one(next++);
    }),
  );
} finally {
  child.kill("SIGTERM");
  await child.status;
  Deno.removeSync(dir, { recursive: true });
}
