/**
 * Real WFS clients read the demo server's WFS and get what REST query
 * answers: OWSLib (1.1.0 and 2.0.0: contents, schemas, a BBOX GetFeature,
 * FES filters by GET and by POST, an exception) and GDAL's WFS driver
 * (`ogrinfo` of every layer; `ogr2ogr` with `-spat` and `-where` in 2.0.0
 * and 1.1.0, which GDAL turns into FES 2.0 / Filter Encoding 1.1 filters the
 * server evaluates) and QGIS's WFS
 * provider through PyQGIS (`tests/qgis/wfs_client.py`: both versions, a
 * rectangle and a subset string).
 */
import assert from "node:assert/strict";
import { DEBIAN_PYTHON, GDAL_BIN, optionalTest, owslibReference, QGIS } from "./_optional.ts";
import { startTestServer, type TestServer } from "./_api_helpers.ts";
import { rest } from "./_rest_helpers.ts";

const OWSLIB = owslibReference(["owslib.wfs", "owslib.fes2"]);

// deno-lint-ignore no-explicit-any
type Json = any;

function wfsUrl(base: string): string {
  return `${base}/arcgis/services/Recruitment/MapServer/WFSServer`;
}

async function restIds(
  s: TestServer,
  id: number,
  params: Record<string, string>,
): Promise<number[]> {
  const r = await rest(s.url, `/services/Recruitment/MapServer/${id}/query`, {
    returnIdsOnly: "true",
    f: "json",
    ...params,
  });
  assert.equal(r.status, 200);
  return [...r.body.objectIds].sort((a: number, b: number) => a - b);
}

async function run(cmd: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  const out = await new Deno.Command(cmd, { args, env, stdout: "piped", stderr: "piped" }).output();
  const text = new TextDecoder().decode(out.stdout);
  assert.ok(out.success, `${cmd} failed: ${new TextDecoder().decode(out.stderr)}\n${text}`);
  return text;
}

const BOX = { geometry: "30,50,40,60", geometryType: "esriGeometryEnvelope" };

optionalTest(OWSLIB, {
  name: "OWSLib reads the WFS in 1.1.0 and 2.0.0: contents, schema, BBOX, filters, exceptions",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const s = await startTestServer();
    try {
      const report = JSON.parse(
        await run(DEBIAN_PYTHON, [
          new URL("./ogc/owslib_wfs.py", import.meta.url).pathname,
          wfsUrl(s.url),
        ]),
      );
      const inBox = await restIds(s, 0, BOX);
      const ids = (fc: Json) =>
        fc.features.map((f: Json) => f.properties.id).sort((a: number, b: number) => a - b);
      for (const version of ["1.1.0", "2.0.0"]) {
        const r = report[version];
        assert.deepEqual(r.types, ["Recruitment:Конкурсы", "Recruitment:Страны"], version);
        assert.equal(r.title, "Конкурсы");
        assert.ok(r.crs.includes("EPSG:4326") && r.crs.includes("EPSG:3857"), r.crs);
        assert.ok(r.wgs84[0] > 19 && r.wgs84[2] < 180, String(r.wgs84));
        assert.ok(r.operations.includes("GetFeature"));
        assert.ok(r.schema.includes("agency_id") && r.schema.includes("published"), r.schema);
        assert.deepEqual(ids(r.bbox), inBox, `${version} bbox`);
        assert.match(r.error, /InvalidParameterValue.*Recruitment:nope/s);
      }
      assert.deepEqual(
        ids(report["1.1.0"].filter),
        await restIds(s, 0, { where: "agency_id > 20" }),
      );
      const both = await restIds(s, 0, { where: "agency_id > 20 AND agency LIKE '%служба%'" });
      assert.ok(both.length > 0);
      assert.deepEqual(ids(report["2.0.0"].filter), both);
    } finally {
      await s.close();
    }
  },
});

optionalTest(GDAL_BIN, {
  name: "GDAL's WFS driver lists the layers and reads features with -spat and -where",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const s = await startTestServer();
    try {
      const env = { GDAL_HTTP_TIMEOUT: "60", CPL_DEBUG: "ON" };
      const info = await run("ogrinfo", ["-ro", "-al", "-so", `WFS:${wfsUrl(s.url)}`], env);
      assert.match(
        info,
        /Layer name: Recruitment:Конкурсы\n[\s\S]*Geometry: Point\nFeature Count: 196/,
      );
      assert.match(
        info,
        /Layer name: Recruitment:Страны\n[\s\S]*Geometry: Multi Surface\nFeature Count: 241/,
      );
      assert.match(info, /agency_id: Integer/);
      assert.match(info, /published: DateTime/);
      const read = async (...args: string[]) => {
        const source = args[0].startsWith("?") ? args.shift() : "";
        const cmd = new Deno.Command("ogr2ogr", {
          args: ["-f", "GeoJSON", "/vsistdout/", `WFS:${wfsUrl(s.url)}${source}`, ...args],
          env,
          stdout: "piped",
          stderr: "piped",
        });
        const out = await cmd.output();
        const err = new TextDecoder().decode(out.stderr);
        assert.ok(out.success, err);
        return { fc: JSON.parse(new TextDecoder().decode(out.stdout)), log: err };
      };
      const ids = (fc: Json) =>
        fc.features.map((f: Json) => f.properties.id).sort((a: number, b: number) => a - b);
      const spat = await read("Recruitment:Конкурсы", "-spat", "30", "50", "40", "60");
      assert.deepEqual(ids(spat.fc), await restIds(s, 0, BOX));
      const where = await read(
        "Recruitment:Конкурсы",
        "-spat",
        "30",
        "50",
        "40",
        "60",
        "-where",
        "agency_id > 20 AND \"group\" <> 'ведущая'",
      );
      assert.deepEqual(
        ids(where.fc),
        await restIds(s, 0, { ...BOX, where: "agency_id > 20 AND \"group\" <> 'ведущая'" }),
      );
      // GDAL sent the condition to the server as an FES filter, not evaluated it itself.
      assert.match(where.log, /FILTER=[^ ]*PropertyIsGreaterThan/);
      // WFS 1.1.0: Filter Encoding 1.1, the box as a gml:Box with gml:coordinates.
      const where11 = await read(
        "?VERSION=1.1.0",
        "Recruitment:Конкурсы",
        "-spat",
        "30",
        "50",
        "40",
        "60",
        "-where",
        "agency_id > 20",
      );
      assert.match(where11.log, /VERSION=1\.1\.0[^ ]*FILTER=[^ ]*gml:Box/);
      assert.deepEqual(ids(where11.fc), await restIds(s, 0, { ...BOX, where: "agency_id > 20" }));
      const countries = await read("Recruitment:Страны", "-where", "name = 'Russia'");
      assert.equal(countries.fc.features.length, 1);
      assert.equal(countries.fc.features[0].geometry.type, "MultiPolygon");
    } finally {
      await s.close();
    }
  },
});

optionalTest(QGIS, {
  name: "QGIS's WFS provider reads both versions: fields, count, a rectangle and a subset",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const s = await startTestServer();
    const runtime = await Deno.makeTempDir({ prefix: "qgis-wfs-" });
    try {
      const report = JSON.parse(
        await run(
          DEBIAN_PYTHON,
          [new URL("./qgis/wfs_client.py", import.meta.url).pathname, wfsUrl(s.url)],
          { QT_QPA_PLATFORM: "offscreen", XDG_RUNTIME_DIR: runtime },
        ),
      );
      const all = await restIds(s, 0, {});
      const inBox = await restIds(s, 0, BOX);
      const subset = await restIds(s, 0, { where: "agency_id > 20" });
      for (const version of ["1.1.0", "2.0.0"]) {
        const r = report[version];
        assert.ok(r.valid, `${version}: ${r.error}`);
        assert.equal(r.crs, "EPSG:4326");
        assert.deepEqual(r.fields.slice(0, 3), ["id", "title", "agency_id"]);
        assert.equal(r.count, all.length, version);
        assert.deepEqual(r.inRect, inBox, version);
        assert.deepEqual(r.subset, subset, version);
        assert.equal(r.countries, (await restIds(s, 1, {})).length);
      }
    } finally {
      await s.close();
      await Deno.remove(runtime, { recursive: true }).catch(() => {});
    }
  },
});
