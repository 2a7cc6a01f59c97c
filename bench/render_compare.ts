/**
 * Rendering benchmark: our CanvasKit renderer against UMN MapServer's
 * `map2img` on the same data (GeoPackage files both read), same image
 * sizes and symbology, in the same run; plus tile throughput cold
 * (rendering) and warm (MBTiles lookups, in process and over HTTP with wrk).
 *
 * ```
 * deno run --allow-all bench/render_compare.ts [--quick] [--out var/bench/render_results.md]
 * ```
 *
 * Our time is the median of warm in-process ExportMapImage-equivalent
 * renders (draw + PNG24 encode). MapServer's is the marginal cost of one
 * more draw inside one process (`map2img -c N` minus `-c 1`, divided by
 * N - 1), which leaves out its process start-up: a conservative ratio.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { dirname, join } from "node:path";
import { openWorldAtlas } from "../map/sources/world_atlas.ts";
import { openGeoPackage } from "../map/sources/geopackage.ts";
import { writeGeoPackageLayer } from "../map/sources/geopackage_writer.ts";
import type { FeatureSource } from "../map/sources/source.ts";
import { loadKit, renderMap } from "../map/render/mod.ts";
import type { RenderLayer, RenderMap } from "../map/render/types.ts";
import { RendererSpecSchema } from "../map/document/renderer.ts";
import { TileCache } from "../map/tiles/cache.ts";
import { WEB_MERCATOR_SCHEME } from "../map/tiles/scheme.ts";
import { InProcessRenderer } from "../map/render/pool.ts";
import type { Geometry } from "../map/types.ts";
import { COLOURS, mapfile } from "./_mapfile.ts";

const { values: args } = parseArgs({
  args: Deno.args,
  options: {
    quick: { type: "boolean", default: false },
    out: { type: "string", default: "var/bench/render_results.md" },
  },
});
const RUNS = args.quick ? 3 : 7;
const dir = await Deno.makeTempDir({ prefix: "render-bench-" });
const kit = await loadKit();

const { land: LAND, edge: EDGE, sea: SEA, dot: DOT } = COLOURS;

/** Writes a source's features into a GeoPackage table and reopens it with our GeoPackage source. */
function toGpkg(name: string, src: FeatureSource): { path: string; source: FeatureSource } {
  const path = join(dir, `${name}.gpkg`);
  writeGeoPackageLayer(
    path,
    { table: name, geometryType: src.geometryType, fields: [] },
    src.query({}).map((f) => ({
      attributes: {},
      geometry: f.geometry,
    })),
  );
  return { path, source: openGeoPackage(path) };
}

function randomPoints(
  n: number,
  seed = 7,
): { attributes: Record<string, never>; geometry: Geometry }[] {
  let s = seed;
  const rnd = () => ((s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  return Array.from({ length: n }, () => ({
    attributes: {},
    geometry: { type: "Point" as const, x: -180 + 360 * rnd(), y: -60 + 140 * rnd() },
  }));
}

const fill = RendererSpecSchema.parse({
  type: "simple",
  symbol: {
    type: "simple-fill",
    color: [...LAND],
    outline: { type: "simple-line", color: [...EDGE], width: 0.5 },
  },
});
const marker = RendererSpecSchema.parse({
  type: "simple",
  symbol: { type: "simple-marker", style: "circle", color: [...DOT], size: 5 },
});

function layer(id: number, source: FeatureSource, polygon: boolean): RenderLayer {
  return {
    id,
    name: `l${id}`,
    geometryType: polygon ? "Polygon" : "Point",
    source,
    visible: true,
    minScale: 0,
    maxScale: 0,
    renderer: polygon ? fill : marker,
  };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function map2img(mapPath: string, w: number, h: number, count: number): Promise<number> {
  const t = performance.now();
  const out = await new Deno.Command("map2img", {
    args: [
      "-m",
      mapPath,
      "-o",
      join(dir, "ms.png"),
      "-s",
      String(w),
      String(h),
      "-e",
      "-180",
      "-90",
      "180",
      "90",
      "-c",
      String(count),
    ],
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(`map2img failed: ${new TextDecoder().decode(out.stderr)}`);
  return performance.now() - t;
}

async function mapserverMs(mapPath: string, w: number, h: number): Promise<number> {
  const n = RUNS + 1;
  const one = median([
    await map2img(mapPath, w, h, 1),
    await map2img(mapPath, w, h, 1),
    await map2img(mapPath, w, h, 1),
  ]);
  const many = await map2img(mapPath, w, h, n);
  return Math.max(0.01, (many - one) / (n - 1));
}

function oursMs(map: RenderMap, w: number, h: number): number {
  const req = {
    extent: { xmin: -180, ymin: -90, xmax: 180, ymax: 90 },
    wkid: 4326,
    widthPx: w,
    heightPx: h,
    format: "png24" as const,
  };
  renderMap(kit, map, req); // warm caches and JIT
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    renderMap(kit, map, req);
    times.push(performance.now() - t);
  }
  return median(times);
}

console.error("Preparing data in", dir);
const countries50 = toGpkg(
  "countries50",
  await openWorldAtlas({ scale: "50m", object: "countries" }),
);
const land10 = toGpkg("land10", await openWorldAtlas({ scale: "10m", object: "land" }));
const pointsPath = join(dir, "points.gpkg");
writeGeoPackageLayer(
  pointsPath,
  { table: "points", geometryType: "Point", fields: [] },
  randomPoints(100_000),
);
const points = { path: pointsPath, source: openGeoPackage(pointsPath) };
const sparsePath = join(dir, "sparse.gpkg");
writeGeoPackageLayer(
  sparsePath,
  { table: "sparse", geometryType: "Point", fields: [] },
  randomPoints(2_000, 3),
);
const sparse = { path: sparsePath, source: openGeoPackage(sparsePath) };

const cases = [
  {
    name: "default map (50m countries + 2,000 points)",
    layers: [{ ...sparse, table: "sparse", polygon: false }, {
      ...countries50,
      table: "countries50",
      polygon: true,
    }],
  },
  {
    name: "heavy polygons (Natural Earth 10m land)",
    layers: [{ ...land10, table: "land10", polygon: true }],
  },
  { name: "100,000 points", layers: [{ ...points, table: "points", polygon: false }] },
];
const sizes: [number, number][] = [[1024, 768], [4096, 3072]];
const rows: string[] = [];
for (const c of cases) {
  const mapPath = join(dir, `${c.layers.map((l) => l.table).join("_")}.map`);
  await Deno.writeTextFile(mapPath, mapfile(1024, 768, [...c.layers].reverse()));
  const map: RenderMap = {
    name: "bench",
    wkid: 4326,
    backgroundColor: [...SEA],
    layers: c.layers.map((l, i) => layer(i, l.source, l.polygon)),
  };
  for (const [w, h] of sizes) {
    const ours = oursMs(map, w, h);
    const theirs = await mapserverMs(mapPath, w, h);
    const line = `| ${c.name} | ${w}x${h} | ${ours.toFixed(1)} | ${theirs.toFixed(1)} | ${
      (ours / theirs).toFixed(2)
    } |`;
    console.error(line);
    rows.push(line);
  }
}

// Tiles: cold = render metatiles of levels 0-4 (341 tiles); warm = lookups of the stored tiles.
const tileMap: RenderMap = {
  name: "tiles",
  wkid: 3857,
  backgroundColor: [...SEA],
  layers: [layer(0, sparse.source, false), layer(1, countries50.source, true)],
};
const cache = new TileCache({
  service: "bench",
  map: tileMap,
  scheme: WEB_MERCATOR_SCHEME,
  format: "png32",
  path: join(dir, "tiles.mbtiles"),
  renderer: () => new InProcessRenderer(),
  localResolve: () => tileMap,
});
let t = performance.now();
const seeded = await cache.seed([0, 1, 2, 3, 4]);
const coldPerSec = seeded.total / ((performance.now() - t) / 1000);
const addrs: [number, number, number][] = [];
for (let z = 0; z <= 4; z++) {
  for (let r = 0; r < 2 ** z; r++) for (let c = 0; c < 2 ** z; c++) addrs.push([z, r, c]);
}
t = performance.now();
let n = 0;
while (performance.now() - t < 2000) {
  const [z, r, c] = addrs[n++ % addrs.length];
  if (!cache.lookup(z, r, c)) throw new Error("missing tile");
}
const warmPerSec = n / ((performance.now() - t) / 1000);

// Warm over HTTP: a minimal server answering the tile path from the cache, loaded with wrk.
let httpPerSec = NaN;
const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
  const m = /\/tile\/(\d+)\/(\d+)\/(\d+)$/.exec(new URL(req.url).pathname);
  const tile = m ? cache.lookup(Number(m[1]), Number(m[2]), Number(m[3])) : null;
  return tile
    ? new Response(tile.data as Uint8Array<ArrayBuffer>, {
      headers: { "content-type": tile.mime, etag: tile.etag },
    })
    : new Response("no", { status: 404 });
});
try {
  const port = (server.addr as Deno.NetAddr).port;
  const out = await new Deno.Command("wrk", {
    args: ["-t2", "-c32", "-d5s", `http://127.0.0.1:${port}/tile/4/5/9`],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  const m = /Requests\/sec:\s+([\d.]+)/.exec(text);
  if (m) httpPerSec = Number(m[1]);
} catch (e) {
  console.error("wrk not available:", (e as Error).message);
} finally {
  await server.shutdown();
  cache.close();
}

const report = `# Rendering benchmark

Generated by \`deno run --allow-all bench/render_compare.ts\` on ${
  new Date().toISOString().slice(0, 10)
}
(${navigator.hardwareConcurrency} cores, ${Deno.build.os}). Both renderers read the same GeoPackage
files and write 24-bit PNG in WGS 84 at the whole-world extent. Ours: median of ${RUNS} warm
in-process renders (draw + encode). MapServer ${"8"} \`map2img\`: marginal cost of one more draw in
one process (\`-c N\` minus \`-c 1\`), so its process start-up is not counted.

| case | size | ours ms | map2img ms | ours / theirs |
|---|---|---:|---:|---:|
${rows.join("\n")}

Tiles (Web Mercator, 256 px PNG32, 4x4 metatiles, levels 0-4 = ${seeded.total} tiles, 50m countries + 2,000 points):

| measure | tiles / s |
|---|---:|
| cold (render + store), in process, one thread | ${coldPerSec.toFixed(0)} |
| warm, MBTiles lookup in process | ${warmPerSec.toFixed(0)} |
| warm, over HTTP (wrk -t2 -c32, one tile URL) | ${
  Number.isNaN(httpPerSec) ? "n/a" : httpPerSec.toFixed(0)
} |
`;
console.log(report);
await Deno.mkdir(dirname(args.out), { recursive: true });
await Deno.writeTextFile(args.out, report);
await Deno.remove(dir, { recursive: true });
