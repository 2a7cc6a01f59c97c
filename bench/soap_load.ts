/**
 * SOAP load benchmark: requests per second and latency percentiles of the
 * MapServer endpoint for GetServerInfo, an attribute query and a spatial
 * query on a 100,000-feature GeoPackage point layer.
 *
 * The layer (seeded, reproducible) and a map document pointing at it are
 * generated into `var/bench/soap/` on first use; the server runs as a
 * separate process (`main.ts serve --maps ...`) on 127.0.0.1 and is driven
 * by autocannon from this process for a bounded time per scenario.
 *
 * ```
 * deno run --allow-all bench/soap_load.ts [--duration 10] [--connections 8] [--features 100000]
 * ```
 *
 * @module
 */
import { parseArgs } from "node:util";
import { dirname } from "node:path";
import { existsSync, mkdirSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import autocannon from "autocannon";
import { writeGeoPackageLayer } from "../map/sources/geopackage_writer.ts";
import { openGeoPackage } from "../map/sources/geopackage.ts";
import { prng } from "./_random.ts";

const NS = "http://www.esri.com/schemas/ArcGIS/10.3";
/** Where the generated data and documents live. */
export const DIR = "var/bench/soap";

/** One measured scenario. */
export interface Scenario {
  name: string;
  /** Operation element with its children. */
  body: string;
  /** Sanity check of one response before measuring. */
  expect: RegExp;
}

/** Writes the benchmark GeoPackage (points over 20..180°E, 40..75°N) unless it is already there. */
export function ensureGeoPackage(path: string, features: number): void {
  if (existsSync(path)) {
    const source = openGeoPackage(path);
    const n = source.count({});
    source.close?.();
    if (n === features) return;
    Deno.removeSync(path);
  }
  mkdirSync(dirname(path), { recursive: true }); // a fresh clone has no var/bench/
  const random = prng(42);
  const t0 = performance.now();
  function* rows() {
    for (let i = 1; i <= features; i++) {
      yield {
        id: i,
        attributes: {
          NAME: `Point ${i}`,
          CATEGORY: Math.floor(random() * 10),
          VALUE: Math.round(random() * 100000) / 100,
          CREATED: Date.UTC(2020, 0, 1) + Math.floor(random() * 1500) * 86400000,
        },
        geometry: { type: "Point" as const, x: 20 + random() * 160, y: 40 + random() * 35 },
      };
    }
  }
  writeGeoPackageLayer(path, {
    table: "points",
    geometryType: "Point",
    wkid: 4326,
    fields: [
      { name: "NAME", type: "String" },
      { name: "CATEGORY", type: "Integer" },
      { name: "VALUE", type: "Double" },
      { name: "CREATED", type: "Date" },
    ],
  }, rows());
  // Attribute filters of real layers are indexed; the query plan then uses the index, not a scan.
  const db = new DatabaseSync(path);
  db.exec("CREATE INDEX points_category_value ON points (CATEGORY, VALUE)");
  db.close();
  console.log(
    `Wrote ${features} features to ${path} in ${((performance.now() - t0) / 1000).toFixed(1)} s.`,
  );
}

/** Writes the `Bench` map document (one layer over `../bench.gpkg`) into `mapsDir`. */
export function writeDocument(mapsDir: string): void {
  mkdirSync(mapsDir, { recursive: true });
  Deno.writeTextFileSync(
    `${mapsDir}/Bench.json`,
    JSON.stringify({
      name: "Bench",
      description: "100,000 points for the SOAP load benchmark",
      maps: [{
        name: "Layers",
        wkid: 4326,
        fullExtent: { xmin: 20, ymin: 40, xmax: 180, ymax: 75 },
        layers: [{
          name: "Points",
          source: { type: "geopackage", path: "../bench.gpkg", table: "points" },
          displayField: "NAME",
        }],
      }],
    }),
  );
}

/** A SOAP 1.1 envelope around an operation element. */
export function envelope(inner: string): string {
  return `<?xml version="1.0" encoding="utf-8"?><soap:Envelope ` +
    `xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" ` +
    `xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><soap:Body>${inner}</soap:Body></soap:Envelope>`;
}

/** The measured requests, each with a check of its answer. */
export const SCENARIOS: Scenario[] = [
  {
    name: "GetServerInfo",
    body: `<e:GetServerInfo xmlns:e="${NS}"><MapName>Layers</MapName></e:GetServerInfo>`,
    expect: /<Result xsi:type="tns:MapServerInfo">/,
  },
  {
    name: "attribute query (QueryFeatureData, CATEGORY = 7 AND VALUE < 25, ~250 rows)",
    body: `<e:QueryFeatureData xmlns:e="${NS}"><MapName>Layers</MapName><LayerID>0</LayerID>` +
      `<QueryFilter><WhereClause>CATEGORY = 7 AND VALUE &lt; 25</WhereClause>` +
      `<SubFields>NAME,CATEGORY,VALUE</SubFields></QueryFilter></e:QueryFeatureData>`,
    expect: /<Record xsi:type="tns:Record">/,
  },
  {
    name: "spatial query (QueryFeatureData, 3°x2° envelope, ~110 rows with geometry)",
    body: `<e:QueryFeatureData xmlns:e="${NS}"><MapName>Layers</MapName><LayerID>0</LayerID>` +
      `<QueryFilter xsi:type="e:SpatialFilter"><WhereClause/><SubFields>*</SubFields>` +
      `<SpatialRel>esriSpatialRelIntersects</SpatialRel><FilterGeometry xsi:type="e:EnvelopeN">` +
      `<XMin>60</XMin><YMin>55</YMin><XMax>63</XMax><YMax>57</YMax></FilterGeometry>` +
      `</QueryFilter></e:QueryFeatureData>`,
    expect: /<Value xsi:type="tns:PointN">/,
  },
  {
    name: "spatial count (QueryFeatureCount, 20°x10° envelope, ~3,600 features)",
    body: `<e:QueryFeatureCount xmlns:e="${NS}"><MapName>Layers</MapName><LayerID>0</LayerID>` +
      `<QueryFilter xsi:type="e:SpatialFilter"><WhereClause/>` +
      `<SpatialRel>esriSpatialRelIntersects</SpatialRel><FilterGeometry xsi:type="e:EnvelopeN">` +
      `<XMin>60</XMin><YMin>50</YMin><XMax>80</XMax><YMax>60</YMax></FilterGeometry>` +
      `</QueryFilter></e:QueryFeatureCount>`,
    expect: /<Result>\d+<\/Result>/,
  },
];

/** Starts `main.ts serve` on 127.0.0.1 (free port); resolves with its base URL. */
async function startServer(): Promise<{ url: string; child: Deno.ChildProcess }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-all",
      "main.ts",
      "serve",
      "--host",
      "127.0.0.1",
      "--port",
      "0",
      "--db",
      `${DIR}/catalog.db`,
      "--maps",
      `${DIR}/maps`,
      "--allow-map-paths-outside", // the document names ../bench.gpkg

      "--output-dir",
      `${DIR}/output`,
    ],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buf = "";
  let m: RegExpMatchArray | null = null;
  while (!(m = buf.match(/ at (http:\/\/[^/\s]+)\//))) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the server exited before it was ready:\n${buf}`);
    buf += value;
  }
  (async () => {
    while (!(await reader.read()).done) { /* keep the pipe drained */ }
  })().catch(() => {});
  return { url: m[1], child };
}

/** Measured figures of one scenario. */
interface Figures {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  bytes: number;
}

async function measure(
  url: string,
  body: string,
  seconds: number,
  connections: number,
): Promise<Figures> {
  // deno-lint-ignore no-explicit-any
  const r: any = await autocannon({
    url,
    method: "POST",
    headers: { "content-type": "text/xml; charset=utf-8", soapaction: '""' },
    body,
    connections,
    duration: seconds,
  });
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.non2xx + r.timeouts,
    bytes: r.throughput.average,
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      duration: { type: "string", default: "10" },
      connections: { type: "string", default: "8" },
      features: { type: "string", default: "100000" },
    },
  });
  const seconds = Number(values.duration);
  const connections = Number(values.connections);
  const features = Number(values.features);
  mkdirSync(DIR, { recursive: true });
  ensureGeoPackage(`${DIR}/bench.gpkg`, features);
  writeDocument(`${DIR}/maps`);
  const server = await startServer();
  const endpoint = `${server.url}/arcgis/services/Bench/MapServer`;
  try {
    const rows: string[] = [];
    for (const s of SCENARIOS) {
      const body = envelope(s.body);
      const check = await fetch(endpoint, {
        method: "POST",
        headers: { "content-type": "text/xml" },
        body,
      });
      const text = await check.text();
      if (check.status !== 200 || !s.expect.test(text)) {
        throw new Error(`${s.name}: unexpected answer ${check.status}:\n${text.slice(0, 800)}`);
      }
      const f = await measure(endpoint, body, seconds, connections);
      const line = `| ${s.name} | ${f.rps.toFixed(0)} | ${f.p50} | ${f.p99} | ${
        (text.length / 1024).toFixed(1)
      } | ${f.errors} |`;
      console.log(line);
      rows.push(line);
    }
    console.log(
      `\n${features} features, ${connections} connections, ${seconds} s per scenario, ` +
        `server and load generator on one ${navigator.hardwareConcurrency}-core machine.\n`,
    );
    console.log("| Scenario | req/s | p50 ms | p99 ms | response KiB | errors |");
    console.log("|---|---|---|---|---|---|");
    for (const r of rows) console.log(r);
  } finally {
    server.child.kill("SIGTERM");
    await server.child.status;
  }
}

if (import.meta.main) await main();
