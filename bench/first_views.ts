/**
 * The first views after a start, as a client sees them (issue 22): a fresh
 * server per run, one warm-up request, then `--views` (30) random views at 5
 * zoom levels, 1024x768 PNG24, each drawn by our server and by MapServer's
 * mapscript on the same GeoPackage in turn, from the first request after the
 * server answers: no settling time, no pacing, so a request that waits
 * behind start-up work (warm-up draws, stores built on first use, a
 * collection, compilation) shows as a slow view.
 *
 * ```
 * deno run -A bench/first_views.ts [--data countries50,land,points] [--runs 3] [--views 30]
 *   [--workers 2] [--seed 22] [--api rest|soap] [--client deno|python] [--root DIR] [--commit LABEL]
 *   [--out var/bench/first_views.md]
 * ```
 *
 * Each run: mapscript (`bench/_mapscript_draw.py --serve` under Debian's
 * `/usr/bin/python3`, package python3-mapscript) loads the mapfile and our
 * server starts (`main.ts serve` with `deno task start`'s flags and
 * environment); each side draws the whole world once (the warm-up request,
 * reported apart); then the views, the sides taking turns view by view
 * (MapServer first on even views, ours first on odd ones), so load on the
 * machine hits both alike (our server is started with `--maps`, so its render workers warm up
 * before it listens: `--render-start auto`). Pass 1 is "cold" (each view's first request on
 * this server), pass 2 repeats the views ("warm"). The views differ per run
 * (seed + run). Ours is timed from the send of the request (REST
 * `export?f=image`, or SOAP `ExportMapImage` with `--api soap`) to its last
 * byte; MapServer's is `map.draw()` plus PNG encoding in its process. The
 * client is this script's `fetch`, or with `--client python` Python's
 * `http.client` in mapscript's own process, as a harness written around
 * mapscript fetches (on this VM an answer of 150-300 KB reached Deno's
 * `fetch` 0.8-1.8 ms later than Python's: docs/benchmarks.md).
 *
 * It prints each view's times on stderr and, at the end, the table for
 * bench/README.md history in git (one row per data set and run: total ours/MapServer and the
 * worst view's ratio, cold and warm, with the load average and commit: `--root`'s
 * HEAD, or `--commit` for a checkout without git, e.g. one written by `git archive`).
 * `RENDER_TRACE=1` in the environment makes the server trace each job
 * (map/render/pool.ts) and each collection of its main thread
 * (tools/cli/serve.ts). Data: see render_extents.ts (the land polygons are
 * prepared by hand once).
 *
 * @module
 */
import { parseArgs } from "node:util";
import {
  type Box,
  type DataSet,
  dataSets,
  exportBody,
  loadAverage,
  mapfileOf,
  prepareDataSet,
  randomViews,
  startExtentsServer,
  type View,
  VIEW_H,
  VIEW_W,
} from "./_extents.ts";

const { values: args } = parseArgs({
  args: Deno.args,
  options: {
    data: { type: "string", default: "countries50,land,points" },
    runs: { type: "string", default: "3" },
    views: { type: "string", default: "30" },
    workers: { type: "string", default: "2" },
    seed: { type: "string", default: "22" },
    api: { type: "string", default: "rest" },
    client: { type: "string", default: "deno" },
    root: { type: "string", default: new URL("..", import.meta.url).pathname },
    out: { type: "string", default: "var/bench/first_views.md" },
    commit: { type: "string", default: "" },
  },
});
if (args.api !== "rest" && args.api !== "soap") throw new Error("--api is rest or soap.");
if (args.client !== "deno" && args.client !== "python") {
  throw new Error("--client is deno or python.");
}
if (args.client === "python" && args.api !== "rest") {
  throw new Error("--client python fetches REST exports only (--api rest).");
}

/** A mapscript process drawing one view per request line. */
class MapScript {
  readonly #child: Deno.ChildProcess;
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  readonly #out: ReadableStreamDefaultReader<string>;
  #buffered = "";

  constructor(mapfile: string) {
    this.#child = new Deno.Command("/usr/bin/python3", {
      args: [new URL("./_mapscript_draw.py", import.meta.url).pathname, "--serve", mapfile],
      stdin: "piped",
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    this.#writer = this.#child.stdin.getWriter();
    this.#out = this.#child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  }

  async #line(): Promise<string> {
    while (!this.#buffered.includes("\n")) {
      const { value, done } = await this.#out.read();
      if (done) throw new Error("mapscript exited");
      this.#buffered += value;
    }
    const at = this.#buffered.indexOf("\n"), line = this.#buffered.slice(0, at);
    this.#buffered = this.#buffered.slice(at + 1);
    return line;
  }

  /** Draws `box`; its time in ms. */
  async draw(box: Box): Promise<number> {
    await this.#writer.write(new TextEncoder().encode(`${box.join(" ")}\n`));
    const line = await this.#line();
    const [ms, bytes] = line.split(" ").map(Number);
    if (!(bytes > 0)) throw new Error(`mapscript drew nothing: ${line}`);
    return ms;
  }

  /** Fetches `url` from this Python process (`--client python`): ms to the last byte. */
  async fetch(url: string): Promise<number> {
    await this.#writer.write(new TextEncoder().encode(`GET ${url}\n`));
    const line = await this.#line();
    const [ms, bytes, status] = line.split(" ").map(Number);
    if (status !== 200 || !(bytes > 0)) throw new Error(`export failed: ${line}`);
    return ms;
  }

  async close(): Promise<void> {
    await this.#writer.close();
    await this.#child.status;
  }
}

/**
 * Our server's drawing of `box`, timed from the send to the last byte; in ms. With
 * `--client python` the `mapscript` process fetches it (REST only).
 */
async function oursDraw(
  base: string,
  service: string,
  box: Box,
  mapscript: MapScript,
): Promise<number> {
  const q = new URLSearchParams({
    bbox: box.join(","),
    bboxSR: "4326",
    size: `${VIEW_W},${VIEW_H}`,
    format: "png24",
    f: "image",
  });
  const exportUrl = `${base}arcgis/rest/services/${service}/MapServer/export?${q}`;
  if (args.client === "python") return await mapscript.fetch(exportUrl);
  const t = performance.now();
  let res: Response;
  if (args.api === "rest") {
    res = await fetch(exportUrl);
  } else {
    res = await fetch(`${base}arcgis/services/${service}/MapServer`, {
      method: "POST",
      headers: { "content-type": "text/xml; charset=utf-8" },
      body: exportBody(box),
    });
  }
  const body = new Uint8Array(await res.arrayBuffer());
  const ms = performance.now() - t;
  const png = body[0] === 0x89 && body[1] === 0x50;
  const soap = new TextDecoder().decode(body.subarray(0, 2000)).includes("<ImageData>");
  if (res.status !== 200 || !(args.api === "rest" ? png : soap)) {
    throw new Error(
      `export failed (${res.status}): ${new TextDecoder().decode(body.slice(0, 300))}`,
    );
  }
  return ms;
}

/** One view's times. */
interface Pair {
  ours: number;
  mapserver: number;
}

/** One run: a fresh server and mapscript process. */
interface Run {
  data: string;
  run: number;
  load: number;
  views: View[];
  first: Pair;
  cold: Pair[];
  warm: Pair[];
}

async function oneRun(d: DataSet, run: number): Promise<Run> {
  const views = randomViews(Number(args.views), Number(args.seed) + run);
  const ms = new MapScript(mapfileOf(d));
  const server = await startExtentsServer(d, Number(args.workers), args.root);
  try {
    // Both sides in turn, MapServer first on even views (load and turn order hit both alike).
    const pair = async (box: Box, i: number): Promise<Pair> => {
      if (i % 2 === 0) {
        const mapserver = await ms.draw(box);
        return { mapserver, ours: await oursDraw(server.base, d.service, box, ms) };
      }
      const ours = await oursDraw(server.base, d.service, box, ms);
      return { ours, mapserver: await ms.draw(box) };
    };
    const first = await pair([-180, -90, 180, 90], 0);
    const passes: Pair[][] = [];
    for (const name of ["cold", "warm"]) {
      const times: Pair[] = [];
      for (const [i, v] of views.entries()) {
        const p = await pair(v.box, i);
        times.push(p);
        const width = v.box[2] - v.box[0];
        console.error(
          `${d.key} run ${run + 1} ${name} view ${i + 1} (${width.toFixed(0)}°): ours ${
            p.ours.toFixed(1)
          } ms, MapServer ${p.mapserver.toFixed(1)} ms, ${(p.ours / p.mapserver).toFixed(2)}x`,
        );
      }
      passes.push(times);
    }
    return {
      data: d.key,
      run,
      load: loadAverage(),
      views,
      first,
      cold: passes[0],
      warm: passes[1],
    };
  } finally {
    await server.stop();
    await ms.close();
  }
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Total ratio, median ratio and the worst view ("2.10x #7 (10°) 63/30 ms"). */
function summary(times: Pair[], views: View[]): [string, string, string] {
  const ratios = times.map((p) => p.ours / p.mapserver);
  const worst = ratios.indexOf(Math.max(...ratios));
  const w = times[worst], width = views[worst].box[2] - views[worst].box[0];
  return [
    (sum(times.map((p) => p.ours)) / sum(times.map((p) => p.mapserver))).toFixed(2),
    median(ratios).toFixed(2),
    `${ratios[worst].toFixed(2)}x #${worst + 1} (${width.toFixed(0)}°) ${w.ours.toFixed(0)}/${
      w.mapserver.toFixed(0)
    } ms`,
  ];
}

function commitOf(root: string): string {
  const git = (...a: string[]) =>
    new TextDecoder().decode(
      new Deno.Command("git", { args: ["-C", root, ...a] }).outputSync().stdout,
    )
      .trim();
  return git("rev-parse", "--short", "HEAD") +
    (git("status", "--porcelain", "--untracked-files=no") ? "+dirty" : "");
}

const commit = args.commit || commitOf(args.root);
const started = new Date().toISOString().slice(0, 16);
const runs: Run[] = [];
const rows: string[] = [];
for (const d of dataSets(args.data)) {
  await prepareDataSet(d);
  for (let run = 0; run < Number(args.runs); run++) {
    const r = await oneRun(d, run);
    runs.push(r);
    const [coldTotal, coldMedian, coldWorst] = summary(r.cold, r.views);
    const [warmTotal, , warmWorst] = summary(r.warm, r.views);
    const row = `| ${d.label} | ${run + 1} | ${commit} | ${r.load.toFixed(1)} | ${
      r.first.ours.toFixed(0)
    } / ${
      r.first.mapserver.toFixed(0)
    } | ${coldTotal} | ${coldMedian} | ${coldWorst} | ${warmTotal} | ${warmWorst} |`;
    console.error(row);
    rows.push(row);
  }
}

const report = `First views after a start, ${started}Z, ${args.workers} render workers, ${
  args.api === "rest" ? "REST export f=image" : "SOAP ExportMapImage"
}, fetched by ${
  args.client === "python" ? "Python's http.client" : "Deno's fetch"
}: ${args.views} random views at 5 zoom levels (360° to 3° wide), ${VIEW_W}x${VIEW_H} PNG24, each
drawn by ours and by mapscript in turn, from the first request after the server answers. "first" is
the warm-up request (the whole world, ms, ours / MapServer); ratios are ours / MapServer; "worst" is
the view with the highest ratio (its number, width, and times in ms); load is the 1-minute average
after the run.

| data | run | commit | load | first (ms) | cold total | cold median view | cold worst view | warm total | warm worst view |
| --- | ---: | --- | ---: | ---: | ---: | ---: | --- | ---: | --- |
${rows.join("\n")}
`;
console.log(report);
Deno.writeTextFileSync(args.out, report);
Deno.writeTextFileSync(args.out.replace(/(\.md)?$/, ".json"), JSON.stringify(runs));
