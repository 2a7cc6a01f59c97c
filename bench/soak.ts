/**
 * Soak benchmark: the server on the demo data under a mixed load of API
 * pages, SOAP queries, exports, legends, REST exports (image and JSON),
 * queries, identifies and legends, and tiles for a configurable time,
 * reporting requests, errors and resident memory every `--sample` seconds,
 * then the figures at 2, 10, 20 and 30 minutes and `--after` seconds after
 * the traffic stopped. The goal (issues 7 and 20): zero errors, and memory
 * flat after warm-up (the last sample within 10% of the 2-minute sample).
 *
 * The server runs as `deno task start` runs it (its environment, e.g.
 * `MALLOC_ARENA_MAX=2`, and its `--v8-flags`). `--vacancies N` serves a demo
 * catalogue of N vacancies (`main.ts demo --scale N`, made once under
 * `var/bench/soak/`).
 *
 * Traffic goes to 127.0.0.1 only, from a fixed number of concurrent clients,
 * and stops by itself after `--minutes`. The request mix is drawn from a
 * seeded generator, so two runs send the same sequence per client.
 *
 * ```
 * deno run -A bench/soak.ts [--minutes 10] [--clients 8] [--sample 10] [--seed 1]
 *                           [--vacancies N | --db PATH] [--after 20] [-- SERVER FLAGS]
 * ```
 *
 * @module
 */
import { parseArgs } from "node:util";
import { mkdirSync } from "node:fs";
import { rssMiB, startEnv, startProcess, startV8Flags } from "./_load.ts";
import { prng } from "./_random.ts";

const NS = "http://www.esri.com/schemas/ArcGIS/10.3";
const SERVICE = "Recruitment";

/** One kind of request in the mix, with its share and a response check. */
interface Kind {
  name: string;
  weight: number;
  /** Builds the request from the client's random source. */
  make(random: () => number, base: string): Request;
  /** Says what is wrong with a response, or null when it is as expected. */
  check(res: Response, body: Uint8Array): string | null;
}

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)];
}

function int(random: () => number, lo: number, hi: number): number {
  return lo + Math.floor(random() * (hi - lo + 1));
}

function soapRequest(base: string, operation: string, inner: string): Request {
  const xml = `<?xml version="1.0" encoding="utf-8"?>` +
    `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" ` +
    `xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:q="${NS}">` +
    `<soap:Body><q:${operation}>${inner}</q:${operation}></soap:Body></soap:Envelope>`;
  return new Request(`${base}arcgis/services/${SERVICE}/MapServer`, {
    method: "POST",
    headers: { "content-type": "text/xml; charset=utf-8", soapaction: '""' },
    body: xml,
  });
}

/** A random geographic extent from the whole world down to about 3 degrees wide. */
function extent(random: () => number): [number, number, number, number] {
  const width = pick(random, [360, 120, 40, 12, 3]);
  const height = width / 2;
  const x = -180 + random() * (360 - Math.min(width, 360));
  const y = -90 + random() * (180 - Math.min(height, 180));
  return [x, y, x + width, y + height];
}

function envelopeXml(e: readonly number[]): string {
  return `<XMin>${e[0]}</XMin><YMin>${e[1]}</YMin><XMax>${e[2]}</XMax><YMax>${e[3]}</YMax>`;
}

function mapDescription(e: readonly number[]): string {
  return `<MapDescription><Name>Layers</Name>` +
    `<MapArea xsi:type="q:MapExtent"><Extent xsi:type="q:EnvelopeN">${envelopeXml(e)}</Extent>` +
    `</MapArea></MapDescription>`;
}

function isPng(body: Uint8Array): boolean {
  return body.length > 8 && body[0] === 0x89 && body[1] === 0x50 && body[2] === 0x4e;
}

function expectStatus(res: Response, status: number): string | null {
  return res.status === status ? null : `HTTP ${res.status}`;
}

function soapOk(pattern: RegExp): (res: Response, body: Uint8Array) => string | null {
  return (res, body) => {
    const text = new TextDecoder().decode(body);
    if (res.status !== 200) {
      const fault = text.match(/<faultstring>([^<]*)<\/faultstring>/)?.[1];
      return `HTTP ${res.status}${fault ? `: ${fault.slice(0, 160)}` : ""}`;
    }
    return pattern.test(text) ? null : "unexpected SOAP response";
  };
}

function jsonOk(res: Response, body: Uint8Array): string | null {
  if (res.status !== 200) return `HTTP ${res.status}`;
  try {
    JSON.parse(new TextDecoder().decode(body));
    return null;
  } catch {
    return "body is not JSON";
  }
}

function restMap(base: string, op: string, params: Record<string, string>): Request {
  const q = new URLSearchParams(params);
  return new Request(`${base}arcgis/rest/services/${SERVICE}/MapServer/${op}?${q}`);
}

function imageOk(res: Response, body: Uint8Array): string | null {
  if (res.status !== 200) {
    return `HTTP ${res.status}: ${new TextDecoder().decode(body.slice(0, 160))}`;
  }
  const png = isPng(body);
  const jpeg = body.length > 3 && body[0] === 0xff && body[1] === 0xd8;
  return png || jpeg ? null : "export is not an image";
}

/** A REST JSON answer that is not an ArcGIS `{"error": ...}`. */
function restJsonOk(res: Response, body: Uint8Array): string | null {
  const problem = jsonOk(res, body);
  if (problem) return `${problem}: ${new TextDecoder().decode(body.slice(0, 160))}`;
  const text = new TextDecoder().decode(body.slice(0, 64));
  return text.startsWith(`{"error"`) ? `REST error: ${text}` : null;
}

const SIZES = [[400, 300], [800, 600], [1024, 768], [1600, 1200], [2048, 1536]] as const;

/**
 * The mix: about 40% API reads, 20% SOAP, 30% REST (exports, queries,
 * identifies, legends), 10% tiles. `vacancies` bounds the detail ids.
 */
function kinds(vacancies: number): readonly Kind[] {
  return [
    {
      name: "api list",
      weight: 25,
      make: (r, base) => {
        const collection = pick(r, ["vacancies", "competitions"]);
        const extra = pick(r, ["", "&ordering=-publish_date", "&search=специалист", "&agency=3"]);
        return new Request(`${base}api/v1/${collection}/?page=${int(r, 1, 4)}${extra}`);
      },
      check: (res, body) => res.status === 404 ? null : jsonOk(res, body),
    },
    {
      name: "api detail",
      weight: 12,
      make: (r, base) => new Request(`${base}api/v1/vacancies/${int(r, 1, vacancies)}/`),
      check: (res, body) => res.status === 404 ? null : jsonOk(res, body),
    },
    {
      name: "soap query",
      weight: 10,
      make: (r, base) => {
        const e = extent(r);
        const layer = int(r, 0, 1);
        const op = pick(r, ["QueryFeatureCount", "QueryFeatureIDs"]);
        return soapRequest(
          base,
          op,
          `<MapName>Layers</MapName><LayerID>${layer}</LayerID>` +
            `<QueryFilter xsi:type="q:SpatialFilter"><SpatialRel>esriSpatialRelIntersects</SpatialRel>` +
            `<FilterGeometry xsi:type="q:EnvelopeN">${
              envelopeXml(e)
            }</FilterGeometry></QueryFilter>`,
        );
      },
      check: soapOk(/Response>/),
    },
    {
      name: "soap info",
      weight: 2,
      make: (_r, base) => soapRequest(base, "GetServerInfo", `<MapName>Layers</MapName>`),
      check: soapOk(/GetServerInfoResponse/),
    },
    {
      name: "soap export",
      weight: 6,
      make: (r, base) => {
        const [w, h] = pick(r, SIZES);
        return soapRequest(
          base,
          "ExportMapImage",
          mapDescription(extent(r)) +
            `<ImageDescription><ImageType><ImageFormat>${
              pick(r, ["esriImagePNG", "esriImagePNG32", "esriImageJPG"])
            }</ImageFormat><ImageReturnType>esriImageReturnMimeData</ImageReturnType></ImageType>` +
            `<ImageDisplay><ImageHeight>${h}</ImageHeight><ImageWidth>${w}</ImageWidth>` +
            `<ImageDPI>96</ImageDPI></ImageDisplay></ImageDescription>`,
        );
      },
      check: soapOk(/<ImageData>/),
    },
    {
      name: "soap legend",
      weight: 3,
      make: (r, base) => {
        const size = pick(r, [16, 64, 256, 512]);
        return soapRequest(
          base,
          "GetLegendInfo",
          `<MapName>Layers</MapName><LegendPatch><ImageDPI>96</ImageDPI>` +
            `<Height>${size}</Height><Width>${size}</Width></LegendPatch>`,
        );
      },
      check: soapOk(/GetLegendInfoResponse/),
    },
    {
      name: "rest export",
      weight: 8,
      make: (r, base) => {
        const [w, h] = pick(r, SIZES);
        const f = pick(r, ["image", "image", "image", "json"]);
        return restMap(base, "export", {
          bbox: extent(r).join(","),
          bboxSR: "4326",
          size: `${w},${h}`,
          format: pick(r, ["png", "png32", "png8", "jpg"]),
          transparent: pick(r, ["true", "false"]),
          f,
        });
      },
      check: (res, body) =>
        res.headers.get("content-type")?.includes("json")
          ? restJsonOk(res, body)
          : imageOk(res, body),
    },
    {
      name: "rest query",
      weight: 10,
      make: (r, base) => {
        const e = extent(r);
        const shape: Record<string, string> = pick<Record<string, string>>(r, [
          { returnCountOnly: "true" },
          { returnIdsOnly: "true" },
          { outFields: "*", resultRecordCount: "50", returnGeometry: "true" },
        ]);
        // Layer 0 (competitions) has an `id` field; layer 1 (countries) is queried whole.
        const layer = int(r, 0, 1);
        return restMap(base, `${layer}/query`, {
          where: layer === 0 ? pick(r, ["1=1", "id > 100"]) : "1=1",
          geometry: e.join(","),
          geometryType: "esriGeometryEnvelope",
          spatialRel: "esriSpatialRelIntersects",
          inSR: "4326",
          ...shape,
          f: "json",
        });
      },
      check: restJsonOk,
    },
    {
      name: "rest identify",
      weight: 8,
      make: (r, base) => {
        const e = extent(r);
        const [w, h] = pick(r, SIZES);
        const x = e[0] + r() * (e[2] - e[0]);
        const y = e[1] + r() * (e[3] - e[1]);
        return restMap(base, "identify", {
          geometry: `${x},${y}`,
          geometryType: "esriGeometryPoint",
          sr: "4326",
          mapExtent: e.join(","),
          imageDisplay: `${w},${h},96`,
          tolerance: String(int(r, 1, 10)),
          layers: pick(r, ["all", "top", "visible"]),
          returnGeometry: pick(r, ["true", "false"]),
          f: "json",
        });
      },
      check: restJsonOk,
    },
    {
      name: "rest legend",
      weight: 3,
      make: (r, base) =>
        restMap(base, "legend", { size: pick(r, ["16,16", "64,64", "200,100"]), f: "json" }),
      check: restJsonOk,
    },
    {
      name: "tile",
      weight: 13,
      make: (r, base) => {
        const level = int(r, 0, 7);
        const n = 2 ** level;
        return new Request(
          `${base}arcgis/rest/services/${SERVICE}/MapServer/tile/${level}/${int(r, 0, n - 1)}/${
            int(r, 0, n - 1)
          }`,
        );
      },
      check: (res, body) => expectStatus(res, 200) ?? (isPng(body) ? null : "tile is not a PNG"),
    },
  ];
}

/** Counters shared by the clients. */
interface Tally {
  requests: number;
  errors: number;
  byKind: Map<string, { requests: number; errors: number }>;
  firstErrors: string[];
}

async function client(
  KINDS: readonly Kind[],
  base: string,
  seed: number,
  until: number,
  tally: Tally,
): Promise<void> {
  const random = prng(seed);
  const total = KINDS.reduce((s, k) => s + k.weight, 0);
  while (performance.now() < until) {
    let x = random() * total;
    const kind = KINDS.find((k) => (x -= k.weight) < 0) ?? KINDS[0];
    const stat = tally.byKind.get(kind.name) ?? { requests: 0, errors: 0 };
    tally.byKind.set(kind.name, stat);
    let problem: string | null;
    try {
      const res = await fetch(kind.make(random, base), { signal: AbortSignal.timeout(60_000) });
      problem = kind.check(res, new Uint8Array(await res.arrayBuffer()));
    } catch (err) {
      problem = `request failed: ${(err as Error).message}`;
    }
    tally.requests++;
    stat.requests++;
    if (problem) {
      tally.errors++;
      stat.errors++;
      if (tally.firstErrors.length < 10) tally.firstErrors.push(`${kind.name}: ${problem}`);
    }
  }
}

/** One line of the report. */
interface Sample {
  seconds: number;
  requests: number;
  errors: number;
  rssMiB: number;
  /** Anonymous resident memory (heaps, arenas, wasm memories), from smaps_rollup. */
  anonMiB: number;
}

/** The process's resident and anonymous resident memory, in MiB; NaN when it is gone. */
function memory(pid: number): { rss: number; anon: number } {
  try {
    const rollup = Deno.readTextFileSync(`/proc/${pid}/smaps_rollup`);
    const kb = (key: string) => Number(rollup.match(new RegExp(`^${key}:\\s+(\\d+)`, "m"))?.[1]);
    return { rss: rssMiB(pid).rss, anon: kb("Anonymous") / 1024 };
  } catch {
    return { rss: NaN, anon: NaN };
  }
}

/** Makes the demo catalogue of `vacancies` vacancies at `db` unless it is there. */
async function ensureCatalogue(db: string, vacancies: number): Promise<void> {
  try {
    Deno.statSync(db);
    return;
  } catch { /* make it */ }
  console.log(`Creating ${db} with ${vacancies} vacancies...`);
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", "main.ts", "demo", "--db", db, "--scale", String(vacancies)],
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (!out.success) throw new Error(`main.ts demo failed for ${db}`);
}

async function main(): Promise<number> {
  // Flags after `--` go to the server (e.g. `-- --render-heap-mb 256`).
  const split = Deno.args.indexOf("--");
  const serverFlags = split < 0 ? [] : Deno.args.slice(split + 1);
  const { values } = parseArgs({
    args: split < 0 ? Deno.args : Deno.args.slice(0, split),
    options: {
      minutes: { type: "string", default: "10" },
      clients: { type: "string", default: "8" },
      sample: { type: "string", default: "10" },
      after: { type: "string", default: "20" },
      seed: { type: "string", default: "1" },
      vacancies: { type: "string" },
      db: { type: "string" },
      port: { type: "string", default: "8765" },
    },
  });
  const minutes = Number(values.minutes);
  const clients = Number(values.clients);
  const sampleSeconds = Number(values.sample);
  const afterSeconds = Number(values.after);
  const vacancies = values.vacancies === undefined ? undefined : Number(values.vacancies);
  if (
    !(minutes > 0) || !(clients >= 1) || !(sampleSeconds > 0) || !(afterSeconds >= 0) ||
    (vacancies !== undefined && !(Number.isInteger(vacancies) && vacancies > 0))
  ) {
    console.error(
      "--minutes, --clients, --sample, --after and --vacancies must be positive numbers.",
    );
    return 2;
  }
  const db = values.db ??
    (vacancies ? `var/bench/soak/catalog-${vacancies}.db` : "var/bench/soak/catalog.db");
  const dir = db.replace(/\/[^/]*$/, "");
  mkdirSync(dir, { recursive: true });
  if (vacancies) await ensureCatalogue(db, vacancies);
  const base = `http://127.0.0.1:${values.port}/`;
  const server = await startProcess(
    [
      // As `deno task start` runs it (deno.json): V8's collector exposed for map/render/collect.ts.
      startV8Flags(),
      "main.ts",
      "serve",
      "--host",
      "127.0.0.1",
      "--port",
      values.port,
      "--db",
      db,
      "--output-dir",
      `${dir}/output`,
      "--tiles-dir",
      `${dir}/tiles`,
      ...serverFlags,
    ],
    /Serving /,
    base,
    `${dir}/server.log`,
    startEnv(),
  );
  const KINDS = kinds(vacancies ?? 400);
  const tally: Tally = { requests: 0, errors: 0, byKind: new Map(), firstErrors: [] };
  const samples: Sample[] = [];
  const t0 = performance.now();
  const until = t0 + minutes * 60_000;
  console.log(
    `Soak: ${minutes} min, ${clients} clients against ${base} (server pid ${server.child.pid}, ` +
      `${db}), a sample every ${sampleSeconds} s; server log in ${dir}/server.log.`,
  );
  console.log("| time s | requests | errors | req/s | RSS MiB | anon MiB |");
  console.log("| -----: | -------: | -----: | ----: | ------: | -------: |");
  let last = { requests: 0, at: t0 };
  const sample = () => {
    const now = performance.now();
    const m = memory(server.child.pid);
    const s: Sample = {
      seconds: Math.round((now - t0) / 1000),
      requests: tally.requests,
      errors: tally.errors,
      rssMiB: m.rss,
      anonMiB: m.anon,
    };
    samples.push(s);
    const rate = (tally.requests - last.requests) / ((now - last.at) / 1000);
    last = { requests: tally.requests, at: now };
    console.log(
      `| ${s.seconds} | ${s.requests} | ${s.errors} | ${rate.toFixed(0)} | ${m.rss.toFixed(0)} | ` +
        `${m.anon.toFixed(0)} |`,
    );
  };
  const sampler = setInterval(sample, sampleSeconds * 1000);
  let trafficSeconds = minutes * 60;
  let afterSample: Sample | undefined;
  try {
    await Promise.all(
      Array.from(
        { length: clients },
        (_, i) => client(KINDS, base, Number(values.seed) + i, until, tally),
      ),
    );
    clearInterval(sampler);
    trafficSeconds = (performance.now() - t0) / 1000;
    sample();
    if (afterSeconds > 0) {
      await new Promise((resolve) => setTimeout(resolve, afterSeconds * 1000));
      sample();
      afterSample = samples.at(-1);
    }
  } finally {
    clearInterval(sampler);
    await server.stop();
  }
  console.log("\n| kind | requests | req/s | errors |\n| ---- | -------: | ----: | -----: |");
  for (const k of KINDS) {
    const s = tally.byKind.get(k.name) ?? { requests: 0, errors: 0 };
    console.log(
      `| ${k.name} | ${s.requests} | ${(s.requests / trafficSeconds).toFixed(1)} | ${s.errors} |`,
    );
  }
  for (const e of tally.firstErrors) console.log(`error: ${e}`);
  const during = samples.filter((s) => s !== afterSample);
  console.log("\n| at | time s | RSS MiB | anon MiB |\n| -- | -----: | ------: | -------: |");
  for (const minute of [2, 10, 20, 30].filter((m) => m <= minutes)) {
    const s = during.find((x) => x.seconds >= minute * 60 - sampleSeconds / 2) ?? during.at(-1);
    if (s) {
      console.log(
        `| ${minute} min | ${s.seconds} | ${s.rssMiB.toFixed(0)} | ${s.anonMiB.toFixed(0)} |`,
      );
    }
  }
  if (afterSample) {
    console.log(
      `| ${afterSeconds} s after | ${afterSample.seconds} | ${afterSample.rssMiB.toFixed(0)} | ` +
        `${afterSample.anonMiB.toFixed(0)} |`,
    );
  }
  const warm = during.find((s) => s.seconds >= 120) ?? during[0];
  const end = during.at(-1);
  const flat = warm && end ? end.rssMiB <= warm.rssMiB * 1.1 : false;
  console.log(
    `\n${tally.requests} requests, ${tally.errors} errors; RSS ${warm?.rssMiB.toFixed(0)} MiB at ` +
      `${warm?.seconds} s, ${end?.rssMiB.toFixed(0)} MiB at the end ` +
      `(${flat ? "flat: within 10%" : "NOT flat: grew more than 10%"}).`,
  );
  // One sample can sit high or low in the workers' allocation cycle: the
  // trend is the mean of the first and the last third after warm-up.
  const after = during.filter((s) => s.seconds >= 120).map((s) => s.rssMiB);
  if (after.length >= 3) {
    const third = Math.max(1, Math.floor(after.length / 3));
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    console.log(
      `RSS after warm-up: ${Math.min(...after).toFixed(0)}-${Math.max(...after).toFixed(0)} MiB; ` +
        `mean of the first third ${mean(after.slice(0, third)).toFixed(0)} MiB, of the last ` +
        `third ${mean(after.slice(-third)).toFixed(0)} MiB.`,
    );
  }
  return tally.errors === 0 && flat ? 0 : 1;
}

if (import.meta.main) Deno.exit(await main());
