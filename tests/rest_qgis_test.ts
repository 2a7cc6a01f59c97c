/**
 * QGIS 3.22 (PyQGIS, Debian's qgis and python3-qgis) reads a MapServer as
 * its users add one: each layer through the `arcgisfeatureserver` provider
 * (counts, attributes, NULLs, Cyrillic), the whole service and single layers
 * through the `arcgismapserver` provider (rendered, pixels checked: QGIS
 * sends `layers=show:` with an empty list for the whole service), and an
 * identify on Moscow (QGIS writes the point as `{x: 37.6, y: 55.7}`, keys
 * unquoted). The script is `tests/qgis/arcgis_client.py`.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { PNG } from "pngjs";
import { DEBIAN_PYTHON, optionalTest, QGIS } from "./_optional.ts";
import { CITIES, createFixture, REGIONS, startQueryServer } from "./_soap_query_fixtures.ts";

const SCRIPT = new URL("./qgis/arcgis_client.py", import.meta.url).pathname;

interface QgisVector {
  valid: boolean;
  count: number;
  fields: string[];
  features: Record<string, unknown>[];
}

interface QgisReport {
  cities: QgisVector;
  regions: QgisVector;
  images: Record<string, { valid: boolean; path: string; errors: string[] }>;
  identifyValid: boolean;
  identify: { layer: string; attributes: Record<string, string> }[];
}

/** RGBA at lon/lat of a QGIS render of 20..60 E x 40..70 N on 400 x 300 pixels. */
function pixelAt(path: string, lon: number, lat: number): [number, number, number, number] {
  const png = PNG.sync.read(Buffer.from(Deno.readFileSync(path)));
  assert.equal(png.width, 400);
  const x = Math.round((lon - 20) * 10), y = Math.round((70 - lat) * 10);
  const i = (y * png.width + x) * 4;
  return [png.data[i], png.data[i + 1], png.data[i + 2], png.data[i + 3]];
}

const isEmpty = (p: number[]) => p[3] === 0;
const isPoint = (p: number[]) => p[3] === 255 && p[2] > 150 && p[0] < 120;
const isFill = (p: number[]) => p[3] === 255 && p[0] > 200 && p[1] > 200 && p[2] > 180;

optionalTest(QGIS, {
  name: "QGIS reads the MapServer's layers, draws the service and its layers, and identifies",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const fixture = await createFixture();
    const server = await startQueryServer(fixture.services);
    const out = await Deno.makeTempDir({ prefix: "qgis-" });
    try {
      const run = await new Deno.Command(DEBIAN_PYTHON, {
        args: [SCRIPT, `${server.baseUrl}/arcgis/rest/services/Fixture/MapServer`, out],
        env: { QT_QPA_PLATFORM: "offscreen", XDG_RUNTIME_DIR: out },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const stderr = new TextDecoder().decode(run.stderr);
      assert.ok(run.success, `PyQGIS failed:\n${stderr}`);
      const report: QgisReport = JSON.parse(new TextDecoder().decode(run.stdout));

      // Vector layers: every feature, its values, NULLs and Cyrillic as stored.
      assert.ok(report.cities.valid && report.regions.valid);
      assert.equal(report.cities.count, CITIES.length);
      assert.equal(report.regions.count, REGIONS.length);
      const byId = new Map(report.cities.features.map((f) => [f.OBJECTID, f]));
      for (const [id, name, , , pop, area, founded, url] of CITIES) {
        const f = byId.get(id);
        assert.ok(f, `city ${id}`);
        assert.equal(f.NAME, name);
        assert.equal(f.POP, pop);
        assert.equal(f.AREA, area);
        assert.equal(f.URL, url);
        assert.equal(String(f.FOUNDED).slice(0, 10), founded);
      }
      assert.deepEqual(
        report.regions.features.map((f) => f.NAME).sort(),
        REGIONS.map((r) => r[1]).sort(),
      );

      // Raster layers: the whole service (layers=show:), then Cities alone, Regions alone.
      const { service, cities, regions } = report.images;
      for (const image of [service, cities, regions]) {
        assert.ok(image.valid, JSON.stringify(report.images));
        assert.deepEqual(image.errors, []);
      }
      const MOSCOW = [37.6173, 55.7558] as const, WEST = [38, 58] as const;
      const HOLE = [35, 54.6] as const, NOTHING = [25, 65] as const;
      assert.ok(isPoint(pixelAt(service.path, ...MOSCOW)), "Moscow's point in the service");
      assert.ok(isFill(pixelAt(service.path, ...WEST)), "the West region in the service");
      assert.ok(isEmpty(pixelAt(service.path, ...HOLE)), "the West region's hole");
      assert.ok(isEmpty(pixelAt(service.path, ...NOTHING)));
      assert.ok(isPoint(pixelAt(cities.path, ...MOSCOW)));
      assert.ok(isEmpty(pixelAt(cities.path, ...WEST)), "no region on the Cities layer");
      assert.ok(isFill(pixelAt(regions.path, ...WEST)));
      assert.ok(isFill(pixelAt(regions.path, ...MOSCOW)), "no point on the Regions layer");

      // Identify on Moscow: the city and the region and road under it.
      assert.ok(report.identifyValid);
      const found = report.identify.map((r) => `${r.layer}:${r.attributes.Name}`);
      for (const hit of ["Cities:Moscow", "Regions:West", "Roads:Parallel 55"]) {
        assert.ok(found.includes(hit), `${hit} in ${found.join(", ")}`);
      }
      const moscow = report.identify.find((r) => r.layer === "Cities")!;
      assert.equal(moscow.attributes.Population, "13010112");
    } finally {
      await server.close();
      await fixture.dispose();
      await Deno.remove(out, { recursive: true });
    }
  },
});
