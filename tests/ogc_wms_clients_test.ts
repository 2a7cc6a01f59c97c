/**
 * Real WMS clients read and draw the demo server's WMS: OWSLib (1.1.1 and
 * 1.3.0: contents, GetMap, GetFeatureInfo, exceptions), GDAL's WMS driver
 * (capabilities as subdatasets, a GetMap read as a raster), QGIS's WMS
 * provider through PyQGIS (capabilities, a render, identify) and OpenLayers'
 * ImageWMS in Chromium (the drawn image, GetFeatureInfo and legend URLs).
 * Each image is compared with the server's own GetMap of the same view.
 */
import assert from "node:assert/strict";
import {
  CHROMIUM,
  DEBIAN_PYTHON,
  GDAL_BIN,
  optionalTest,
  owslibReference,
  QGIS,
} from "./_optional.ts";
import { startTestServer, type TestServer } from "./_api_helpers.ts";
import { assertSamePixels, decode, type Pixels } from "./_render_helpers.ts";
import { MAP13, wms, wmsUrl } from "./_wms_helpers.ts";
import { openClientPage } from "./_client_page.ts";

const OL_CSS = new URL("../node_modules/.deno/ol@10.10.0/node_modules/ol/ol.css", import.meta.url);

const OWSLIB = owslibReference(["owslib.wms"]);

/** Our own GetMap 1.3.0 of a WGS 84 box (west, south, east, north). */
async function ownMap(
  s: TestServer,
  box: number[],
  w: number,
  h: number,
  extra: Record<string, string> = {},
): Promise<Pixels> {
  const [west, south, east, north] = box;
  const a = await wms(s.url, {
    ...MAP13,
    BBOX: [south, west, north, east].join(","),
    WIDTH: String(w),
    HEIGHT: String(h),
    ...extra,
  });
  return decode(a.bytes);
}

/**
 * Share of pixels that differ by more than `tol` on a channel (RGB, or RGBA when both images
 * have alpha; two transparent pixels are alike whatever their colour).
 */
function differingShare(a: Pixels, b: Pixels, tol = 40): number {
  assert.deepEqual([a.width, a.height], [b.width, b.height]);
  const ca = a.data.length / (a.width * a.height), cb = b.data.length / (b.width * b.height);
  const alpha = (d: Uint8Array, k: number, p: number) => k === 4 ? d[p * 4 + 3] : 255;
  let n = 0;
  for (let p = 0; p < a.width * a.height; p++) {
    const aa = alpha(a.data, ca, p), ab = alpha(b.data, cb, p);
    if (aa === 0 && ab === 0) continue;
    let differ = Math.abs(aa - ab) > tol;
    for (let c = 0; c < 3 && !differ; c++) {
      differ = Math.abs(a.data[p * ca + c] - b.data[p * cb + c]) > tol;
    }
    if (differ) n++;
  }
  return n / (a.width * a.height);
}

/** The image composited over white (what a page shows of a transparent image). */
function overWhite(p: Pixels): Pixels {
  const data = new Uint8Array(p.width * p.height * 3);
  for (let i = 0; i < p.width * p.height; i++) {
    const a = p.data[i * 4 + 3] / 255;
    for (let c = 0; c < 3; c++) data[i * 3 + c] = Math.round(p.data[i * 4 + c] * a + 255 * (1 - a));
  }
  return { width: p.width, height: p.height, data };
}

async function python(script: string, args: string[], env: Record<string, string> = {}) {
  const out = await new Deno.Command(DEBIAN_PYTHON, {
    args: [new URL(script, import.meta.url).pathname, ...args],
    env,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(out.success, `${script} failed:\n${new TextDecoder().decode(out.stderr)}`);
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

optionalTest(OWSLIB, {
  name: "OWSLib reads the WMS in 1.1.1 and 1.3.0: layers, GetMap, GetFeatureInfo, exceptions",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const s = await startTestServer();
    try {
      const report = await python("./ogc/owslib_wms.py", [wmsUrl(s.url), s.dir]);
      // OWSLib asks for a white background unless told otherwise.
      const own = await ownMap(s, [20, 40, 60, 70], 400, 300, { BGCOLOR: "0xFFFFFF" });
      for (const version of ["1.1.1", "1.3.0"]) {
        const r = report[version];
        assert.equal(r.version, version);
        assert.equal(r.title, "Recruitment");
        assert.deepEqual(Object.keys(r.layers).sort(), ["0", "1"]);
        assert.equal(r.layers["1"].title, "Страны");
        assert.equal(r.layers["1"].queryable, 1);
        assert.ok(r.layers["1"].crs.includes("EPSG:3857"), r.layers["1"].crs);
        assert.deepEqual(r.layers["1"].wgs84.slice(0, 3), [-180, -90, 180]);
        assert.match(r.layers["0"].styles.default, /request=GetLegendGraphic/);
        assert.ok(r.operations.includes("GetFeatureInfo"));
        assert.ok(r.formats.includes("image/png8"));
        // OWSLib gives the box as x,y and swaps it for 1.3.0's EPSG:4326: the same map.
        assert.match(r.getMapUrl, /BGCOLOR=0xFFFFFF/i);
        const image = decode(Deno.readFileSync(r.image));
        assertSamePixels(image, own, `OWSLib ${version} GetMap is our GetMap`);
        assert.equal(r.info.features.length, 1);
        assert.equal(r.info.features[0].properties.name, "Russia");
        assert.match(r.error, /ServiceException.*Layer "7" is not defined/s);
      }
    } finally {
      await s.close();
    }
  },
});

optionalTest(GDAL_BIN, {
  name: "GDAL's WMS driver lists the layers and reads a GetMap as a raster",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const s = await startTestServer();
    try {
      const gdal = async (cmd: string, ...args: string[]) => {
        const out = await new Deno.Command(cmd, {
          args,
          // GDAL would otherwise keep the tiles it fetched in ./gdalwmscache.
          env: { GDAL_HTTP_TIMEOUT: "60", GDAL_ENABLE_WMS_CACHE: "NO" },
          stdout: "piped",
          stderr: "piped",
        }).output();
        const text = new TextDecoder().decode(out.stdout);
        assert.ok(out.success, `${cmd}: ${new TextDecoder().decode(out.stderr)}\n${text}`);
        return text;
      };
      const url = wmsUrl(s.url);
      const info = await gdal(
        "gdalinfo",
        `WMS:${url}?SERVICE=WMS&VERSION=1.3.0&REQUEST=GetCapabilities`,
      );
      assert.match(info, /SUBDATASET_1_NAME=WMS:.*LAYERS=0&CRS=CRS:84/);
      assert.match(info, /SUBDATASET_2_DESC=Страны/);
      for (const version of ["1.3.0", "1.1.1"]) {
        const [crs, box] = version === "1.3.0"
          ? ["CRS=EPSG:4326", "40,20,70,60"]
          : ["SRS=EPSG:4326", "20,40,60,70"];
        const out = `${s.dir}/gdal_${version}.png`;
        await gdal(
          "gdal_translate",
          "-of",
          "PNG",
          "-outsize",
          "400",
          "300",
          `WMS:${url}?SERVICE=WMS&VERSION=${version}&REQUEST=GetMap&LAYERS=1,0&${crs}&BBOX=${box}&FORMAT=image/png`,
          out,
        );
        const read = await gdal("gdalinfo", out);
        assert.match(read, /Origin = \(20\.0+,70\.0+\)/, read);
        assert.match(read, /Pixel Size = \(0\.10+,-0\.10+\)/, read);
        // GDAL asks for its own blocks and resamples them: near, not equal, to our GetMap.
        const share = differingShare(
          decode(Deno.readFileSync(out)),
          await ownMap(s, [20, 40, 60, 70], 400, 300),
        );
        assert.ok(share < 0.05, `GDAL ${version}: ${(share * 100).toFixed(1)}% of pixels differ`);
      }
    } finally {
      await s.close();
    }
  },
});

optionalTest(QGIS, {
  name: "QGIS's WMS provider reads the capabilities, draws the layers and identifies",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const s = await startTestServer();
    const runtime = await Deno.makeTempDir({ prefix: "qgis-wms-" });
    try {
      const report = await python("./qgis/wms_client.py", [wmsUrl(s.url), s.dir], {
        QT_QPA_PLATFORM: "offscreen",
        XDG_RUNTIME_DIR: runtime,
      });
      assert.ok(report.valid, report.error);
      assert.deepEqual([...report.subLayers].sort(), ["0", "1"]);
      assert.deepEqual(report.renderErrors, []);
      // QGIS asks for a transparent PNG and draws it over its own (transparent) background.
      const share = differingShare(
        decode(Deno.readFileSync(report.image)),
        await ownMap(s, [20, 40, 60, 70], 400, 300, { TRANSPARENT: "TRUE" }),
      );
      assert.ok(share < 0.01, `QGIS's render: ${(share * 100).toFixed(1)}% of pixels differ`);
      assert.ok(report.identifyValid);
      assert.match(Object.values(report.identify).join("\n"), /name = Russia/);
    } finally {
      await s.close();
      await Deno.remove(runtime, { recursive: true }).catch(() => {});
    }
  },
});

optionalTest(CHROMIUM, {
  name: "OpenLayers' ImageWMS draws the WMS in Chromium and gets feature info and legends",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const s = await startTestServer();
    const page = await openClientPage({
      entry: new URL("./clients/ol_wms_app.js", import.meta.url).href,
      css: OL_CSS,
    });
    try {
      await page.open(wmsUrl(s.url));
      const results = await page.tab.evaluate<{
        errors: string[];
        loaded: number;
        extent: number[];
        info: { features: { properties: Record<string, string> }[] };
        legendType: string;
      }>("globalThis.results");
      assert.deepEqual(results.errors, []);
      page.assertClean();
      assert.equal(results.loaded, 1);
      const getMap = page.requests.find((u) => /REQUEST=GetMap/i.test(u));
      assert.ok(getMap, page.requests.join("\n"));
      // OpenLayers sends 1.3.0's EPSG:4326 box latitude first.
      const bbox = new URL(getMap).searchParams.get("BBOX")!.split(",").map(Number);
      assert.deepEqual(bbox.map((v) => Math.round(v)), [35, 10, 75, 70]);
      assert.deepEqual(results.info.features.map((f) => f.properties.name), ["Russia"]);
      assert.equal(results.legendType, "image/png");
      // The drawn map is our GetMap of the view.
      const shot = await page.screenshot();
      // ImageWMS asks for a transparent PNG (TRANSPARENT=true) over the page's white map.
      const getMapParams = new URL(getMap).searchParams;
      assert.equal(getMapParams.get("TRANSPARENT")?.toLowerCase(), "true");
      const own = overWhite(
        await ownMap(s, results.extent, 600, 400, { TRANSPARENT: "TRUE" }),
      );
      const drawn: Pixels = {
        width: shot.width,
        height: shot.height,
        data: new Uint8Array(shot.data),
      };
      const share = differingShare(drawn, own);
      assert.ok(share < 0.01, `OpenLayers' page: ${(share * 100).toFixed(1)}% of pixels differ`);
    } finally {
      await page.close();
      await s.close();
    }
  },
});
