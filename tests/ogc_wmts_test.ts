/**
 * WMTS 1.0.0 at `/arcgis/rest/services/{Service}/MapServer/WMTS` on the
 * real server: the capabilities in both encodings, GetTile in KVP and
 * RESTful form answering the very tiles the REST `/tile` URLs serve (both
 * tile matrix sets), the OWS exceptions, and two real clients: OWSLib and
 * GDAL's WMTS driver.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { join } from "node:path";
import { PNG } from "pngjs";
import { startTestServer, type TestServer } from "./_api_helpers.ts";
import { openClientPage } from "./_client_page.ts";
import {
  CHROMIUM,
  DEBIAN_PYTHON,
  GDAL_BIN,
  optionalTest,
  owslibReference,
  QGIS,
  type Reference,
} from "./_optional.ts";

const OWSLIB_WMTS = owslibReference(["owslib.wmts"]);

const WORLD = new URL("../map/document/examples/world.json", import.meta.url).pathname;
const WMTS = "/arcgis/rest/services/Recruitment/MapServer/WMTS";
const TILE = "/arcgis/rest/services/Recruitment/MapServer/tile";

function serverTest(name: string, fn: (s: TestServer) => Promise<void>, needs?: Reference): void {
  const def = {
    name,
    sanitizeResources: false,
    sanitizeOps: false,
    async fn() {
      const s = await startTestServer();
      try {
        await fn(s);
      } finally {
        await s.close();
      }
    },
  };
  if (needs) optionalTest(needs, def);
  else Deno.test(def);
}

async function bytes(url: string, init?: RequestInit): Promise<[Response, Uint8Array]> {
  const res = await fetch(url, init);
  return [res, new Uint8Array(await res.arrayBuffer())];
}

/** Asserts an OWS exception report with `code` (and `locator`) and the HTTP status. */
async function assertException(
  url: string,
  status: number,
  code: string,
  locator?: string,
): Promise<string> {
  const res = await fetch(url);
  const text = await res.text();
  assert.equal(res.status, status, `${url}: ${text}`);
  assert.match(res.headers.get("content-type") ?? "", /xml/);
  assert.match(text, /<ows:ExceptionReport xmlns:ows="http:\/\/www\.opengis\.net\/ows\/1\.1"/);
  assert.match(text, new RegExp(`exceptionCode="${code}"`), text);
  if (locator) assert.match(text, new RegExp(`locator="${locator}"`), text);
  return text;
}

serverTest(
  "WMTS capabilities: RESTful and KVP, layer, style, format, both tile matrix sets",
  async (s) => {
    const [rest, restBody] = await bytes(`${s.url}${WMTS}/1.0.0/WMTSCapabilities.xml`);
    assert.equal(rest.status, 200);
    assert.match(rest.headers.get("content-type") ?? "", /^text\/xml/);
    const xml = new TextDecoder().decode(restBody);
    const kvp = await (await fetch(`${s.url}${WMTS}?SERVICE=WMTS&REQUEST=GetCapabilities`)).text();
    assert.equal(kvp, xml, "both encodings give one document");
    assert.match(
      xml,
      /<Capabilities xmlns="http:\/\/www\.opengis\.net\/wmts\/1\.0"[^>]*version="1\.0\.0"/,
    );
    assert.match(xml, /<ows:Identifier>Recruitment<\/ows:Identifier>/);
    assert.match(
      xml,
      /<Style isDefault="true"><ows:Title>Default Style<\/ows:Title><ows:Identifier>default</,
    );
    assert.match(xml, /<Format>image\/png<\/Format>/);
    assert.match(
      xml,
      new RegExp(
        `template="${
          s.url.replace(/[.]/g, "\\.")
        }${WMTS}/tile/1\\.0\\.0/Recruitment/\\{Style\\}/\\{TileMatrixSet\\}/\\{TileMatrix\\}/\\{TileRow\\}/\\{TileCol\\}\\.png"`,
      ),
    );
    for (const set of ["default028mm", "GoogleMapsCompatible"]) {
      assert.match(xml, new RegExp(`<TileMatrixSet>${set}</TileMatrixSet>`));
      assert.match(xml, new RegExp(`<ows:Identifier>${set}</ows:Identifier>`));
    }
    assert.match(
      xml,
      /<WellKnownScaleSet>urn:ogc:def:wkss:OGC:1\.0:GoogleMapsCompatible<\/WellKnownScaleSet>/,
    );
    // Level 0 of the ArcGIS Online scheme: one tile, 156543.03 m/px = 559082264 at 0.28 mm.
    const level0 =
      /<TileMatrix><ows:Identifier>0<\/ows:Identifier><ScaleDenominator>([\d.]+)<\/ScaleDenominator><TopLeftCorner>(-?[\d.]+) (-?[\d.]+)<\/TopLeftCorner><TileWidth>256<\/TileWidth><TileHeight>256<\/TileHeight><MatrixWidth>1<\/MatrixWidth><MatrixHeight>1<\/MatrixHeight>/
        .exec(xml);
    assert.ok(level0, "level 0 of default028mm");
    assert.ok(Math.abs(Number(level0[1]) - 559082264.03) < 1, level0[1]);
    assert.ok(Math.abs(Number(level0[2]) + 20037508.34) < 0.01);
    assert.match(xml, /<ows:SupportedCRS>urn:ogc:def:crs:EPSG::3857<\/ows:SupportedCRS>/);
    assert.match(xml, /<ows:WGS84BoundingBox crs="urn:ogc:def:crs:OGC:2:84">/);
  },
);

serverTest(
  "WMTS GetTile: KVP and RESTful, both sets, are the REST /tile bytes; ETag and 304",
  async (s) => {
    for (const [z, y, x] of [[0, 0, 0], [3, 2, 4], [5, 10, 19]]) {
      const [, expected] = await bytes(`${s.url}${TILE}/${z}/${y}/${x}`);
      assert.ok(PNG.sync.read(Buffer.from(expected)).width === 256);
      for (const set of ["default028mm", "GoogleMapsCompatible"]) {
        const kvp = `${s.url}${WMTS}?SERVICE=WMTS&REQUEST=GetTile&VERSION=1.0.0&LAYER=Recruitment` +
          `&STYLE=default&TILEMATRIXSET=${set}&TILEMATRIX=${z}&TILEROW=${y}&TILECOL=${x}&FORMAT=image/png`;
        const restful = `${s.url}${WMTS}/tile/1.0.0/Recruitment/default/${set}/${z}/${y}/${x}.png`;
        for (const url of [kvp, restful]) {
          const [res, body] = await bytes(url);
          assert.equal(res.status, 200, url);
          assert.equal(res.headers.get("content-type"), "image/png");
          assert.ok(Buffer.compare(body, expected) === 0, `${url}: the REST tile's bytes`);
          const etag = res.headers.get("etag")!;
          assert.ok(etag);
          const again = await fetch(url, { headers: { "if-none-match": etag } });
          assert.equal(again.status, 304);
          await again.body?.cancel();
        }
      }
    }
    // Parameter names are case-insensitive; HEAD has no body.
    const lower = await fetch(
      `${s.url}${WMTS}?service=WMTS&request=GetTile&layer=Recruitment&tilematrixset=GoogleMapsCompatible&tilematrix=1&tilerow=0&tilecol=1&format=image/png`,
      { method: "HEAD" },
    );
    assert.equal(lower.status, 200);
    assert.equal((await lower.arrayBuffer()).byteLength, 0);
  },
);

serverTest("WMTS exceptions: OWS reports with the standard codes, never a 500", async (s) => {
  const kvp = (extra: string) =>
    `${s.url}${WMTS}?SERVICE=WMTS&REQUEST=GetTile&LAYER=Recruitment&STYLE=default` +
    `&TILEMATRIXSET=GoogleMapsCompatible&FORMAT=image/png${extra}`;
  await assertException(kvp("&TILEROW=0&TILECOL=0"), 400, "MissingParameterValue", "TILEMATRIX");
  await assertException(
    kvp("&TILEMATRIX=2&TILEROW=4&TILECOL=0"),
    400,
    "TileOutOfRange",
    "TILEROW",
  );
  await assertException(
    kvp("&TILEMATRIX=2&TILEROW=0&TILECOL=9"),
    400,
    "TileOutOfRange",
    "TILECOL",
  );
  await assertException(
    kvp("&TILEMATRIX=25&TILEROW=0&TILECOL=0"),
    400,
    "InvalidParameterValue",
    "TILEMATRIX",
  );
  await assertException(
    kvp("&TILEMATRIX=2&TILEROW=x&TILECOL=0"),
    400,
    "InvalidParameterValue",
    "TILEROW",
  );
  await assertException(
    `${s.url}${WMTS}/tile/1.0.0/Nope/default/GoogleMapsCompatible/0/0/0.png`,
    400,
    "InvalidParameterValue",
    "LAYER",
  );
  await assertException(
    `${s.url}${WMTS}/tile/1.0.0/Recruitment/fancy/GoogleMapsCompatible/0/0/0.png`,
    400,
    "InvalidParameterValue",
    "STYLE",
  );
  await assertException(
    `${s.url}${WMTS}/tile/1.0.0/Recruitment/default/EPSG:4326/0/0/0.png`,
    400,
    "InvalidParameterValue",
    "TILEMATRIXSET",
  );
  await assertException(
    kvp("&TILEMATRIX=0&TILEROW=0&TILECOL=0").replace("image/png", "image/gif"),
    400,
    "InvalidParameterValue",
    "FORMAT",
  );
  await assertException(
    `${s.url}${WMTS}?SERVICE=WMTS&REQUEST=GetFeatureInfo`,
    501,
    "OperationNotSupported",
    "REQUEST",
  );
  await assertException(
    `${s.url}${WMTS}?SERVICE=WMS&REQUEST=GetCapabilities`,
    400,
    "InvalidParameterValue",
    "SERVICE",
  );
  await assertException(
    `${s.url}${WMTS}?SERVICE=WMTS&REQUEST=GetCapabilities&ACCEPTVERSIONS=2.0.0`,
    400,
    "VersionNegotiationFailed",
  );
  await assertException(
    `${s.url}${WMTS}?SERVICE=WMTS&VERSION=1.0.0`,
    400,
    "MissingParameterValue",
    "REQUEST",
  );
  await assertException(
    `${s.url}/arcgis/rest/services/Nope/MapServer/WMTS/1.0.0/WMTSCapabilities.xml`,
    404,
    "InvalidParameterValue",
  );
  await assertException(`${s.url}${WMTS}/2.0.0/Capabilities.xml`, 404, "InvalidParameterValue");
  // Every reflected value is escaped.
  const text = await assertException(
    `${s.url}${WMTS}?SERVICE=WMTS&REQUEST=${encodeURIComponent('<x a="1">')}`,
    501,
    "OperationNotSupported",
  );
  assert.ok(!text.includes('<x a="1">'));
  const post = await fetch(`${s.url}${WMTS}`, { method: "POST", body: "x" });
  assert.equal(post.status, 405);
  await post.body?.cancel();
});

Deno.test({
  name: "WMTS: a service without a tile cache says so; another service's cache is its own layer",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const maps = await Deno.makeTempDir({ prefix: "wmts-maps-" });
    const doc = JSON.parse(await Deno.readTextFile(WORLD));
    await Deno.writeTextFile(join(maps, "world.json"), JSON.stringify(doc));
    const flat = structuredClone(doc);
    flat.name = "Flat";
    for (const m of flat.maps) delete m.tiling;
    await Deno.writeTextFile(join(maps, "flat.json"), JSON.stringify(flat));
    const s = await startTestServer({ mapsDir: maps });
    try {
      await assertException(
        `${s.url}/arcgis/rest/services/Flat/MapServer/WMTS/1.0.0/WMTSCapabilities.xml`,
        404,
        "OperationNotSupported",
      );
      const xml = await (await fetch(
        `${s.url}/arcgis/rest/services/World/MapServer/WMTS/1.0.0/WMTSCapabilities.xml`,
      )).text();
      assert.match(xml, /<ows:Identifier>World<\/ows:Identifier>/);
    } finally {
      await s.close();
      await Deno.remove(maps, { recursive: true });
    }
  },
});

const OWSLIB_SCRIPT = `
import json, sys
from owslib.wmts import WebMapTileService
w = WebMapTileService(sys.argv[1])
layer = w.contents["Recruitment"]
tile = w.gettile(layer="Recruitment", tilematrixset="GoogleMapsCompatible", tilematrix="3",
                 row=2, column=4, format="image/png")
sys.stdout.buffer.write(json.dumps({
  "layers": list(w.contents),
  "sets": sorted(w.tilematrixsets),
  "formats": layer.formats,
  "matrices": len(w.tilematrixsets["default028mm"].tilematrix),
  "width2": w.tilematrixsets["GoogleMapsCompatible"].tilematrix["2"].matrixwidth,
  "tile": tile.read().hex(),
}).encode())
`;

serverTest("OWSLib reads the WMTS capabilities and gets a tile", async (s) => {
  const out = await new Deno.Command(DEBIAN_PYTHON, {
    args: ["-c", OWSLIB_SCRIPT, `${s.url}${WMTS}/1.0.0/WMTSCapabilities.xml`],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
  const r = JSON.parse(new TextDecoder().decode(out.stdout));
  assert.deepEqual(r.layers, ["Recruitment"]);
  assert.deepEqual(r.sets, ["GoogleMapsCompatible", "default028mm"]);
  assert.deepEqual(r.formats, ["image/png"]);
  assert.equal(r.matrices, 20);
  assert.equal(r.width2, 4);
  const [, expected] = await bytes(`${s.url}${TILE}/3/2/4`);
  assert.equal(r.tile, Buffer.from(expected).toString("hex"));
}, OWSLIB_WMTS);

serverTest("GDAL's WMTS driver reads the layer; its pixels are the tiles'", async (s) => {
  const dir = await Deno.makeTempDir({ prefix: "wmts-gdal-" });
  try {
    const source =
      `WMTS:${s.url}${WMTS}/1.0.0/WMTSCapabilities.xml,layer=Recruitment,tilematrixset=GoogleMapsCompatible,tilematrix=2`;
    // GDAL would otherwise keep the tiles it fetched in ./gdalwmscache.
    const env = { GDAL_ENABLE_WMS_CACHE: "NO" };
    const info = await new Deno.Command("gdalinfo", {
      args: [source],
      env,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(info.stdout);
    assert.ok(info.success, new TextDecoder().decode(info.stderr));
    assert.match(text, /Size is 1024, 1024/);
    const out = join(dir, "window.png");
    const tr = await new Deno.Command("gdal_translate", {
      args: ["-of", "PNG", "-srcwin", "256", "512", "256", "256", source, out],
      env,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.ok(tr.success, new TextDecoder().decode(tr.stderr));
    const got = PNG.sync.read(Buffer.from(await Deno.readFile(out)));
    const [, tileBytes] = await bytes(`${s.url}${TILE}/2/2/1`);
    const want = PNG.sync.read(Buffer.from(tileBytes));
    assert.deepEqual([got.width, got.height], [256, 256]);
    let differing = 0;
    for (let i = 0; i < want.data.length; i++) if (got.data[i] !== want.data[i]) differing++;
    assert.equal(differing, 0, "GDAL's window is tile 2/2/1");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}, GDAL_BIN);

const OL_CSS = new URL("../node_modules/.deno/ol@10.10.0/node_modules/ol/ol.css", import.meta.url);

serverTest(
  "OpenLayers' WMTS source, built from our capabilities, draws the tiles in Chromium",
  async (s) => {
    const page = await openClientPage({
      entry: new URL("./clients/ol_wmts_app.js", import.meta.url).href,
      css: OL_CSS,
    });
    try {
      await page.open(`${s.url}${WMTS}`);
      const results = await page.tab.evaluate<{
        errors: string[];
        loaded: number;
        layers: string[];
        requestEncoding: string;
      }>("globalThis.results");
      assert.deepEqual(results.errors, []);
      page.assertClean();
      assert.deepEqual(results.layers, ["Recruitment"]);
      assert.equal(results.requestEncoding, "REST");
      assert.ok(results.loaded >= 4, `tiles loaded: ${results.loaded}`);
      const tiles = page.requests.filter((u) => u.includes("/WMTS/tile/1.0.0/"));
      assert.ok(
        tiles.every((u) =>
          /\/Recruitment\/default\/GoogleMapsCompatible\/2\/\d+\/\d+\.png$/.test(u)
        ),
        tiles.join("\n"),
      );
      // The view's centre (0, 0) is the top left corner of tile 2/2/2: the page shows its pixels.
      const shot = await page.screenshot();
      const [, tileBytes] = await bytes(`${s.url}${TILE}/2/2/2`);
      const tile = PNG.sync.read(Buffer.from(tileBytes));
      let far = 0, checked = 0;
      for (let dy = 5; dy < 195; dy += 23) {
        for (let dx = 5; dx < 250; dx += 31) {
          const a = page.pixel(shot, 300 + dx, 200 + dy);
          const i = (dy * tile.width + dx) * 4;
          const alpha = tile.data[i + 3] / 255;
          // Over the page's white, as the browser composes a transparent pixel.
          const b = [0, 1, 2].map((c) => Math.round(tile.data[i + c] * alpha + 255 * (1 - alpha)));
          checked++;
          if (a.some((v, c) => Math.abs(v - b[c]) > 3)) far++;
        }
      }
      assert.equal(far, 0, `${far} of ${checked} sampled pixels differ from tile 2/2/2`);
    } finally {
      await page.close();
    }
  },
  CHROMIUM,
);

serverTest("QGIS's WMS provider reads the WMTS and draws tile 2/2/2 as it is", async (s) => {
  const runtime = await Deno.makeTempDir({ prefix: "qgis-wmts-" });
  try {
    const out = await new Deno.Command(DEBIAN_PYTHON, {
      args: [
        new URL("./qgis/wmts_client.py", import.meta.url).pathname,
        `${s.url}${WMTS}/1.0.0/WMTSCapabilities.xml`,
        runtime,
      ],
      env: { QT_QPA_PLATFORM: "offscreen", XDG_RUNTIME_DIR: runtime },
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.ok(out.success, new TextDecoder().decode(out.stderr));
    const report = JSON.parse(new TextDecoder().decode(out.stdout));
    assert.ok(report.valid, report.error);
    assert.deepEqual(report.renderErrors, []);
    const drawn = PNG.sync.read(Buffer.from(await Deno.readFile(report.image)));
    const [, tileBytes] = await bytes(`${s.url}${TILE}/2/2/2`);
    const tile = PNG.sync.read(Buffer.from(tileBytes));
    assert.deepEqual([drawn.width, drawn.height], [256, 256]);
    let far = 0;
    for (let i = 0; i < tile.data.length; i += 4) {
      const alpha = tile.data[i + 3] / 255;
      for (let c = 0; c < 3; c++) {
        const want = tile.data[i + c] * alpha + 255 * (1 - alpha);
        if (Math.abs(drawn.data[i + c] - want) > 3) {
          far++;
          break;
        }
      }
    }
    assert.ok(far / (256 * 256) < 0.01, `${far} of 65,536 pixels differ from tile 2/2/2`);
  } finally {
    await Deno.remove(runtime, { recursive: true });
  }
}, QGIS);
