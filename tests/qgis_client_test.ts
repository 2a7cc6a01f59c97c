/**
 * QGIS (3.22, through PyQGIS offscreen) uses our ArcGIS REST MapServer as a
 * QGIS user does: each layer as a vector layer (the ArcGIS FeatureServer
 * provider: counts, attributes with Cyrillic text and NULLs, dates), the
 * service and a single layer as raster layers (the ArcGIS MapServer
 * provider, which sends `layers=show:` with an empty list for the whole
 * service), and identify on a point (which sends `geometry={x: .., y: ..}`
 * with unquoted keys). Everything QGIS reads is compared with what our REST
 * API answers to the same question.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { DEBIAN_PYTHON, optionalTest, pythonImports, reference } from "./_optional.ts";
import { startTestServer } from "./_api_helpers.ts";
import { createFixture, startQueryServer } from "./_soap_query_fixtures.ts";
import { decode, near, pixel, type Pixels } from "./_render_helpers.ts";

/** PyQGIS from Debian (qgis, python3-qgis). */
const QGIS = reference(
  "QGIS",
  "apt-get install qgis python3-qgis",
  () =>
    pythonImports(DEBIAN_PYTHON, ["qgis.core"])
      ? null
      : "python3-qgis is not installed (no qgis.core for /usr/bin/python3)",
);

const PROBE = fileURLToPath(new URL("./qgis/_probe.py", import.meta.url));

/** Europe and western Asia in Web Mercator, drawn 512 x 384 by the probe (and by us). */
const EXTENT = [2_000_000, 5_000_000, 10_000_000, 11_000_000] as const;
const WIDTH = 512, HEIGHT = 384;

interface ProbeVector {
  valid: boolean;
  error?: string;
  featureCount: number;
  fields: string[];
  features: { attributes: Record<string, unknown>; bbox: number[] | null }[];
}

interface ProbeResult {
  vector: ProbeVector[];
  raster: { valid: boolean; error?: string; png: string; errors: string[] }[];
  identify: { valid: boolean; error?: string; features?: Record<string, unknown>[] };
}

interface ProbeSpec {
  vectors: string[];
  rasters: { url: string; layer: string; png: string }[];
  extent: readonly number[];
  identify: { url: string; layer: string; x: number; y: number };
}

async function runProbe(spec: ProbeSpec, home: string): Promise<ProbeResult> {
  const out = await new Deno.Command(DEBIAN_PYTHON, {
    args: [PROBE, JSON.stringify(spec)],
    // A private profile, offscreen, UTC: QGIS reads esriFieldTypeDate into local time.
    env: { QT_QPA_PLATFORM: "offscreen", HOME: home, XDG_RUNTIME_DIR: home, TZ: "UTC" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stdout = new TextDecoder().decode(out.stdout);
  assert.ok(out.success, `PyQGIS failed:\n${new TextDecoder().decode(out.stderr)}\n${stdout}`);
  return JSON.parse(stdout.trim().split("\n").at(-1)!);
}

/** The attributes REST query answers for every feature of a layer, dates as QGIS writes them. */
async function restFeatures(layerUrl: string): Promise<Record<string, unknown>[]> {
  const url = `${layerUrl}/query?where=1%3D1&outFields=*&returnGeometry=false&f=json`;
  const body = await (await fetch(url)).json();
  assert.ok(!body.exceededTransferLimit, "the layer fits in one page");
  const dates = new Set(
    (body.fields as { name: string; type: string }[])
      .filter((f) => f.type === "esriFieldTypeDate").map((f) => f.name),
  );
  return (body.features as { attributes: Record<string, unknown> }[]).map(({ attributes }) =>
    Object.fromEntries(
      Object.entries(attributes).map(([k, v]) => [
        k,
        dates.has(k) && typeof v === "number" ? new Date(v).toISOString().slice(0, 19) : v,
      ]),
    )
  );
}

function byId(rows: Record<string, unknown>[], id: string): Record<string, unknown>[] {
  return [...rows].sort((a, b) => Number(a[id]) - Number(b[id]));
}

function assertSameFeatures(qgis: ProbeVector, rest: Record<string, unknown>[], id: string) {
  assert.ok(qgis.valid, `QGIS could not open the layer: ${qgis.error}`);
  assert.equal(qgis.featureCount, rest.length);
  assert.deepEqual(byId(qgis.features.map((f) => f.attributes), id), byId(rest, id));
}

/** Web Mercator x/y of a longitude/latitude. */
function mercator(lon: number, lat: number): [number, number] {
  const r = 6378137;
  return [r * lon * Math.PI / 180, r * Math.log(Math.tan(Math.PI / 4 + lat * Math.PI / 360))];
}

/** The pixel of the probe's image where lon/lat falls. */
function pixelAt(image: Pixels, lon: number, lat: number): [number, number, number, number] {
  const [x, y] = mercator(lon, lat);
  const px = (x - EXTENT[0]) / (EXTENT[2] - EXTENT[0]) * WIDTH;
  const py = (EXTENT[3] - y) / (EXTENT[3] - EXTENT[1]) * HEIGHT;
  return pixel(image, px, py);
}

/** Pixels of the competitions' orange markers (blended edges included). */
function orangePixels(image: Pixels): number {
  let n = 0;
  for (let i = 0; i < image.data.length; i += 4) {
    const [r, g, b, a] = image.data.subarray(i, i + 4);
    if (a > 200 && r > 200 && g > 60 && g < 170 && b < 90) n++;
  }
  return n;
}

/** Our own REST export of the probe's view, for the pixel comparison. */
async function restExport(service: string, layers: string): Promise<Pixels> {
  const q = new URLSearchParams({
    bbox: EXTENT.join(","),
    bboxSR: "3857",
    imageSR: "3857",
    size: `${WIDTH},${HEIGHT}`,
    dpi: "96",
    format: "png32",
    transparent: "true",
    f: "image",
  });
  if (layers) q.set("layers", layers);
  const res = await fetch(`${service}/export?${q}`);
  assert.equal(res.status, 200);
  return decode(new Uint8Array(await res.arrayBuffer()));
}

optionalTest(QGIS, {
  name: "QGIS reads the MapServer's layers as vector layers, draws it as raster layers, identifies",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const demo = await startTestServer();
    const fixture = await createFixture();
    const cities = await startQueryServer(fixture.services);
    const home = await Deno.makeTempDir({ prefix: "qgis-home-" });
    try {
      const service = `${demo.url}/arcgis/rest/services/Recruitment/MapServer`;
      const fixtureLayer = `${cities.baseUrl}/arcgis/rest/services/Fixture/MapServer/0`;
      const spec: ProbeSpec = {
        vectors: [`${service}/0`, `${service}/1`, fixtureLayer],
        rasters: [
          { url: service, layer: "", png: `${home}/service.png` },
          { url: service, layer: "1", png: `${home}/countries.png` },
        ],
        extent: EXTENT,
        // Moscow, in Russia.
        identify: { url: service, layer: "1", x: 37.6, y: 55.75 },
      };
      const got = await runProbe(spec, home);

      // Vector layers: every feature and value, Cyrillic text, dates and (in the fixture) NULLs.
      const competitions = await restFeatures(`${service}/0`);
      assertSameFeatures(got.vector[0], competitions, "id");
      assert.ok(
        competitions.some((r) => /[а-яё]/i.test(String(r.title))),
        "Cyrillic titles compared",
      );
      assertSameFeatures(got.vector[1], await restFeatures(`${service}/1`), "id");
      const fixtureRows = await restFeatures(fixtureLayer);
      assert.ok(fixtureRows.some((r) => Object.values(r).includes(null)), "NULLs compared");
      assertSameFeatures(got.vector[2], fixtureRows, "OBJECTID");

      // Raster layers: QGIS draws what our export draws for the same view.
      for (const r of got.raster) {
        assert.ok(r.valid, `QGIS could not open the raster layer: ${r.error}`);
        assert.deepEqual(r.errors, []);
      }
      const whole = decode(await Deno.readFile(spec.rasters[0].png));
      const countries = decode(await Deno.readFile(spec.rasters[1].png));
      // QGIS 3.22 asks for the map in the service's own SR (4326) and warps it into the
      // 3857 view, so its pixels are not ours one for one; places and colours are.
      const ours = await restExport(service, "");
      const steppe = [45, 52] as const, blackSea = [34, 43.2] as const;
      const landColour = pixelAt(ours, ...steppe);
      assert.equal(landColour[3], 255, "our export draws land there");
      assert.equal(pixelAt(ours, ...blackSea)[3], 0, "and no land in the Black Sea");
      for (const [what, image] of [["whole service", whole], ["countries", countries]] as const) {
        assert.ok(near(pixelAt(image, ...steppe), landColour, 6), `${what}: land where land is`);
        assert.equal(pixelAt(image, ...blackSea)[3], 0, `${what}: nothing in the Black Sea`);
      }
      // The whole service (`layers=show:` with no ids) draws the default layers, markers too.
      assert.ok(orangePixels(ours) > 50, "our export has competition markers");
      assert.ok(orangePixels(whole) > 10, "QGIS's whole-service layer has the markers");
      assert.equal(orangePixels(countries), 0, "the countries layer alone has none");

      // Identify on a point (QGIS writes the point with unquoted keys).
      assert.ok(got.identify.valid, got.identify.error);
      assert.equal(got.identify.error, undefined);
      const rest = await (await fetch(
        `${service}/identify?${new URLSearchParams({
          geometry: "37.6,55.75",
          geometryType: "esriGeometryPoint",
          sr: "4326",
          layers: "all:1",
          tolerance: "0",
          mapExtent: "32.6,50.75,42.6,60.75",
          imageDisplay: "400,400,96",
          returnGeometry: "false",
          f: "json",
        })}`,
      )).json();
      assert.equal(rest.results.length, 1);
      assert.deepEqual(got.identify.features, [rest.results[0].attributes]);
      assert.equal(rest.results[0].value, "Russia");
    } finally {
      await cities.close();
      await fixture.dispose();
      await demo.close();
      await Deno.remove(home, { recursive: true }).catch(() => {});
    }
  },
});
