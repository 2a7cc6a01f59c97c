/**
 * Real OGC API – Features clients read the OGCFeatureServer: OWSLib
 * (`owslib.ogcapi.features`), GDAL's OAPIF driver (ogrinfo, and ogr2ogr
 * with `-spat` and `-where`, which GDAL 3.6 sends as `bbox` and as
 * `{field}=value` property filters read from our OpenAPI definition) and
 * QGIS's OAPIF provider through PyQGIS (`tests/qgis/oapif_client.py`).
 * Each skips with a reason where the client is missing.
 */
import assert from "node:assert/strict";
import {
  DEBIAN_PYTHON,
  GDAL_BIN,
  optionalTest,
  owslibReference,
  QGIS,
  type Reference,
} from "./_optional.ts";
import { CITIES, REGIONS } from "./_soap_query_fixtures.ts";
import { ogcGet, type OgcServer, withOgcServer } from "./_ogc_features_helpers.ts";
import { startTestServer } from "./_api_helpers.ts";

/** OWSLib's OGC API – Features client. */
const OWSLIB_FEATURES = owslibReference(["owslib.ogcapi.features"]);

const QGIS_SCRIPT = new URL("./qgis/oapif_client.py", import.meta.url).pathname;

/** Cities inside lon 30..60, lat 50..60 (the box the clients ask for). */
const IN_BOX = CITIES.filter(([, , x, y]) => x >= 30 && x <= 60 && y >= 50 && y <= 60)
  .map((c) => c[0]);

async function run(
  cmd: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ stdout: string; stderr: string }> {
  const out = await new Deno.Command(cmd, { args, env, stdout: "piped", stderr: "piped" })
    .output();
  const stdout = new TextDecoder().decode(out.stdout);
  const stderr = new TextDecoder().decode(out.stderr);
  assert.ok(out.success, `${cmd} ${args.join(" ")} failed:\n${stderr}\n${stdout}`);
  return { stdout, stderr };
}

/** `-spat` of the box the clients ask for. */
const BOX = ["-spat", "30", "50", "60", "60"];

/** ogr2ogr from an OGCFeatureServer layer to GeoJSON on stdout, with GDAL's debug log on stderr. */
function ogr2ogr(landing: string, layer: string, ...args: string[]) {
  return run("ogr2ogr", ["-f", "GeoJSON", "/vsistdout/", `OAPIF:${landing}`, layer, ...args], {
    CPL_DEBUG: "ON",
  });
}

function clientTest(needs: Reference, name: string, fn: (s: OgcServer) => Promise<void>): void {
  optionalTest(needs, {
    name,
    sanitizeResources: false,
    sanitizeOps: false,
    fn: () => withOgcServer(fn),
  });
}

const OWSLIB_SCRIPT = `
import json, sys
from owslib.ogcapi.features import Features
w = Features(sys.argv[1])
out = {
  "conformance": w.conformance()["conformsTo"],
  "collections": [[c["id"], c["title"]] for c in w.collections()["collections"]],
  "cities": w.collection("0"),
  "box": w.collection_items("0", bbox=[30, 50, 60, 60], limit=3),
  "all": w.collection_items("0", limit=100),
  "queryables": w.collection_queryables("0"),
  "one": w.collection_item("1", "1"),
}
print(json.dumps(out))
`;

clientTest(
  OWSLIB_FEATURES,
  "OWSLib reads the collections and their items (bbox, limit)",
  async (s) => {
    const { stdout } = await run(DEBIAN_PYTHON, ["-c", OWSLIB_SCRIPT, s.landing]);
    const r = JSON.parse(stdout);
    assert.ok(
      r.conformance.includes("http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core"),
    );
    assert.deepEqual(r.collections, [
      ["0", "Cities"],
      ["1", "Regions"],
      ["2", "Roads"],
      ["3", "BigCities"],
      ["4", "HiddenCities"],
    ]);
    assert.equal(r.cities.itemType, "feature");
    assert.equal(r.box.numberMatched, IN_BOX.length);
    assert.deepEqual(r.box.features.map((f: { id: number }) => f.id), IN_BOX.slice(0, 3));
    assert.equal(r.all.features.length, CITIES.length);
    assert.deepEqual(
      r.all.features.map((f: { properties: { NAME: string } }) => f.properties.NAME),
      CITIES.map((c) => c[1]),
    );
    assert.equal(r.queryables.properties.POP.type, "integer");
    assert.deepEqual(r.one.geometry.coordinates.length, REGIONS[0][3].length);
  },
);

clientTest(
  GDAL_BIN,
  "GDAL's OAPIF driver lists the collections and copies them with -spat and -where",
  async (s) => {
    const info = await run("ogrinfo", ["-ro", "-al", "-so", `OAPIF:${s.landing}`]);
    const layers = [...info.stdout.matchAll(/^Layer name: (.+)$/gm)].map((m) => m[1]);
    assert.deepEqual(layers, ["0", "1", "2", "3", "4"]);
    const cities = info.stdout.slice(
      info.stdout.indexOf("Layer name: 0"),
      info.stdout.indexOf("Layer name: 1"),
    );
    assert.match(cities, /Geometry: Point/);
    assert.match(cities, /Feature Count: 11/);
    assert.match(cities, /TITLE=Cities/);
    assert.match(cities, /FOUNDED: DateTime/);
    assert.match(cities, /POP: Integer/);
    assert.match(info.stdout, /Geometry: Polygon/);

    // -spat becomes bbox and a simple -where a property filter, both answered by the server.
    const copy = await ogr2ogr(s.landing, "0", ...BOX, "-where", "NAME = 'Kazan'");
    assert.match(copy.stderr, /items\?[^)]*bbox=30(\.0+)?,50(\.0+)?,60(\.0+)?,60/);
    assert.match(copy.stderr, /items\?[^)]*NAME=Kazan/);
    const kazan = JSON.parse(copy.stdout);
    assert.deepEqual(
      kazan.features.map((f: { properties: { NAME: string } }) => f.properties.NAME),
      ["Kazan"],
    );
    assert.deepEqual(kazan.features[0].geometry.coordinates, [49.1221, 55.7887]);

    // A where GDAL cannot send is evaluated on what the box returns: the same cities.
    const big = await ogr2ogr(
      s.landing,
      "0",
      ...BOX,
      "-where",
      "POP > 1500000 AND NAME LIKE '%o%'",
    );
    assert.deepEqual(
      JSON.parse(big.stdout).features.map((f: { properties: { OBJECTID: number } }) =>
        f.properties.OBJECTID
      ),
      CITIES.filter((c) => IN_BOX.includes(c[0]) && (c[4] ?? 0) > 1500000 && c[1].includes("o"))
        .map((c) => c[0]),
    );

    // Capped (maxRecordCount 3): GDAL reads the limit from /api and follows the next links.
    const capped = await ogr2ogr(s.landing.replace("/Fixture/", "/Capped/"), "0");
    assert.deepEqual(
      JSON.parse(capped.stdout).features.map((f: { properties: { OBJECTID: number } }) =>
        f.properties.OBJECTID
      ),
      CITIES.map((c) => c[0]),
    );
    assert.match(capped.stderr, /offset=9/);
  },
);

interface QgisLayer {
  valid: boolean;
  count: number;
  fields: string[];
  crs: string;
  features: Record<string, unknown>[];
  inRect: number[];
}

clientTest(
  QGIS,
  "QGIS's OAPIF provider reads the collections, a rectangle and a subset",
  async (s) => {
    const dir = await Deno.makeTempDir({ prefix: "qgis-oapif-" });
    try {
      const { stdout } = await run(DEBIAN_PYTHON, [QGIS_SCRIPT, s.landing], {
        QT_QPA_PLATFORM: "offscreen",
        XDG_RUNTIME_DIR: dir,
      });
      const r: { cities: QgisLayer; regions: QgisLayer; filtered: number[] } = JSON.parse(stdout);
      assert.ok(r.cities.valid && r.regions.valid);
      assert.equal(r.cities.count, CITIES.length);
      assert.equal(r.cities.crs, "EPSG:4326");
      assert.deepEqual(r.cities.fields, ["OBJECTID", "NAME", "POP", "AREA", "FOUNDED", "URL"]);
      const byId = new Map(r.cities.features.map((f) => [f.OBJECTID, f]));
      for (const [id, name, x, y, pop, area, founded, url] of CITIES) {
        const f = byId.get(id)!;
        assert.ok(f, `city ${id}`);
        assert.equal(f.NAME, name);
        assert.equal(f.POP, pop);
        assert.equal(f.AREA, area);
        assert.equal(f.URL, url);
        assert.equal(String(f.FOUNDED).slice(0, 10), founded);
        assert.equal(f._wkt, `Point (${x} ${y})`);
      }
      assert.deepEqual(r.cities.inRect, IN_BOX);
      assert.equal(r.regions.count, REGIONS.length);
      assert.deepEqual(r.regions.features.map((f) => f.NAME), REGIONS.map((g) => g[1]));
      assert.match(String(r.regions.features[0]._wkt), /^Polygon \(\(30 50, .*\),\(34 54, /);
      assert.deepEqual(r.filtered, CITIES.filter((c) => (c[4] ?? 0) > 1500000).map((c) => c[0]));
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);

optionalTest([GDAL_BIN, OWSLIB_FEATURES], {
  name: "GDAL and OWSLib read the default service (Recruitment) as REST counts it",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const s = await startTestServer();
    try {
      const landing = `${s.url}/arcgis/rest/services/Recruitment/OGCFeatureServer`;
      const rest = await ogcGet(`${s.url}/arcgis/rest/services/Recruitment/MapServer/0/query`, {
        where: "1=1",
        returnCountOnly: "true",
        f: "json",
      });
      assert.ok(rest.body.count > 0);
      const info = await run("ogrinfo", ["-ro", "-so", `OAPIF:${landing}`, "0"]);
      assert.match(info.stdout, new RegExp(`Feature Count: ${rest.body.count}\\b`));
      assert.match(info.stdout, /published: DateTime/);
      const { stdout } = await run(DEBIAN_PYTHON, [
        "-c",
        "import json, sys\nfrom owslib.ogcapi.features import Features\n" +
        "w = Features(sys.argv[1])\nprint(json.dumps(w.collection_items('0', limit=5)))",
        landing,
      ]);
      const page = JSON.parse(stdout);
      assert.equal(page.numberMatched, rest.body.count);
      assert.equal(page.features.length, 5);
    } finally {
      await s.close();
    }
  },
});
