/**
 * What the random-extent rendering benchmarks share (`render_extents.ts`,
 * `first_views.ts`): the data sets, each written once to its own maps
 * directory under `var/bench/extents/` (GeoPackage, service document and
 * MapServer mapfile in the same symbology), the seeded random views, the
 * requests that draw one, and a server started as `deno task start` does.
 *
 * @module
 */
import { existsSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { openWorldAtlas } from "../map/sources/world_atlas.ts";
import { writeGeoPackageLayer } from "../map/sources/geopackage_writer.ts";
import { COLOURS, mapfile } from "./_mapfile.ts";
import { prng } from "./_random.ts";
import { startEnv, startV8Flags } from "./_load.ts";

/** Where the data sets live (git-ignored). */
export const EXTENTS_DIR = resolve("var/bench/extents");
/** The image size of every view. */
export const VIEW_W = 1024, VIEW_H = 768;

/** A view's corners in degrees: xmin, ymin, xmax, ymax. */
export type Box = [number, number, number, number];

/** One view and its zoom level (0: the whole world .. 4: 3° wide). */
export interface View {
  level: number;
  box: Box;
}

/**
 * `n` views in 4:3, an equal share per level (360° .. 3° wide), shuffled,
 * so levels alternate as a panning and zooming client's would.
 *
 * @example
 * ```ts
 * import { randomViews } from "./_extents.ts";
 * randomViews(30, 9).length; // 30
 * ```
 */
export function randomViews(n: number, seed: number): View[] {
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

/** A benchmark data set: one layer of one service. */
export interface DataSet {
  key: string;
  service: string;
  table: string;
  polygon: boolean;
  label: string;
}

/** The data sets: 50m countries, the heavy land polygons, 100,000 points. */
export const DATA_SETS: readonly DataSet[] = [
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

/**
 * The data sets named in a comma-separated list (an unknown name throws).
 *
 * @example
 * ```ts
 * import { dataSets } from "./_extents.ts";
 * dataSets("countries50,points").length; // 2
 * ```
 */
export function dataSets(list: string): DataSet[] {
  return list.split(",").map((k) => {
    const d = DATA_SETS.find((x) => x.key === k);
    if (!d) {
      throw new Error(`Unknown data set ${k}: use ${DATA_SETS.map((x) => x.key).join(", ")}.`);
    }
    return d;
  });
}

/**
 * A data set's maps directory: each its own, so a server loads (and
 * prepares) only that one.
 *
 * @example
 * ```ts
 * import { DATA_SETS, dirOf } from "./_extents.ts";
 * dirOf(DATA_SETS[0]); // ".../var/bench/extents/countries50"
 * ```
 */
export function dirOf(d: DataSet): string {
  return join(EXTENTS_DIR, d.key);
}

/**
 * The mapfile of a data set (written by {@link prepareDataSet}).
 *
 * @example
 * ```ts
 * import { DATA_SETS, mapfileOf } from "./_extents.ts";
 * mapfileOf(DATA_SETS[0]); // ".../countries50/countries50.map"
 * ```
 */
export function mapfileOf(d: DataSet): string {
  return join(dirOf(d), `${d.key}.map`);
}

/**
 * Writes a data set's GeoPackage (once; the land polygons must be prepared
 * by hand, see render_extents.ts), service document and mapfile.
 *
 * @example
 * ```ts
 * import { DATA_SETS, prepareDataSet } from "./_extents.ts";
 * await prepareDataSet(DATA_SETS[2]);
 * ```
 */
export async function prepareDataSet(d: DataSet): Promise<void> {
  mkdirSync(dirOf(d), { recursive: true });
  const gpkg = join(dirOf(d), `${d.key}.gpkg`);
  if (!existsSync(gpkg)) {
    if (d.key === "land") {
      throw new Error(
        `${gpkg} is missing: prepare it with ogr2ogr as render_extents.ts's header says.`,
      );
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
  const { land, edge, sea, dot } = COLOURS;
  const symbol = d.polygon
    ? {
      type: "simple-fill",
      color: land,
      outline: { type: "simple-line", color: edge, width: 0.5 },
    }
    : { type: "simple-marker", style: "circle", color: dot, size: 5 };
  Deno.writeTextFileSync(
    join(dirOf(d), `${d.service}.json`),
    JSON.stringify({
      name: d.service,
      maps: [{
        name: "Layers",
        wkid: 4326,
        backgroundColor: sea,
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
    mapfileOf(d),
    mapfile(VIEW_W, VIEW_H, [{ path: gpkg, table: d.table, polygon: d.polygon }]),
  );
}

/**
 * The SOAP ExportMapImage envelope drawing `box` at `w` x `h` as PNG24.
 *
 * @example
 * ```ts
 * import { exportBody } from "./_extents.ts";
 * exportBody([-180, -90, 180, 90]).includes("<XMin>-180</XMin>"); // true
 * ```
 */
export function exportBody(box: Box, w = VIEW_W, h = VIEW_H): string {
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
    `<ImageHeight>${h}</ImageHeight><ImageWidth>${w}</ImageWidth><ImageDPI>96</ImageDPI>` +
    `</ImageDisplay></ImageDescription></e:ExportMapImage></soap:Body></soap:Envelope>`;
}

/** A server of one data set, started afresh. */
export interface ExtentsServer {
  child: Deno.ChildProcess;
  /** `http://127.0.0.1:PORT/`. */
  base: string;
  /** Stops it and removes its temporary directory. */
  stop(): Promise<void>;
}

/**
 * Starts `main.ts serve` of checkout `root` on a data set's maps directory
 * with `deno task start`'s V8 flags and environment (plus `env`), and
 * resolves once it prints the address it listens at.
 *
 * @example
 * ```ts
 * import { DATA_SETS, startExtentsServer } from "./_extents.ts";
 * const server = await startExtentsServer(DATA_SETS[0], 2, ".");
 * await server.stop();
 * ```
 */
export async function startExtentsServer(
  d: DataSet,
  workers: number,
  root: string,
  env: Record<string, string> = {},
): Promise<ExtentsServer> {
  const tmp = Deno.makeTempDirSync({ prefix: "render_extents_" });
  const child = new Deno.Command(Deno.execPath(), {
    // Without --expose-gc the render workers cannot collect between jobs (map/render/collect.ts).
    args: [
      "run",
      startV8Flags(),
      "-A",
      `${root}/main.ts`,
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
    cwd: root,
    env: { ...startEnv(), ...env },
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const stop = async () => {
    try {
      child.kill("SIGTERM");
    } catch { /* already gone */ }
    await child.status;
    Deno.removeSync(tmp, { recursive: true });
  };
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
    })().catch(() => {});
    return { child, base, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/**
 * The 1-minute load average (`/proc/loadavg`).
 *
 * @example
 * ```ts
 * import { loadAverage } from "./_extents.ts";
 * loadAverage() >= 0; // true
 * ```
 */
export function loadAverage(): number {
  return Number(Deno.readTextFileSync("/proc/loadavg").split(" ")[0]);
}
