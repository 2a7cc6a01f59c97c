/**
 * The drawing endpoints of the ArcGIS REST face on the real server:
 * `/export` (f=image and f=json, formats, layers, layerDefs, transparency,
 * bad input as ArcGIS JSON errors) and `/legend` (swatches and their image
 * URLs), each checked against the SOAP operation they share (the same
 * pixels as ExportMapImage, the same swatches as GetLegendInfo), and GDAL's
 * WMS driver (AGS mini-driver) drawing from `/export`.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { startTestServer, type TestServer } from "./_api_helpers.ts";
import { assertRestError, rest } from "./_rest_helpers.ts";
import { memoryService, operationEnvelope, postSoap, startRoutesServer } from "./_soap_helpers.ts";
import { createMapServer } from "../map/mod.ts";
import { InProcessRenderer, type Renderer } from "../map/render/pool.ts";
import { createRestApi, RestParams } from "../map/rest/mod.ts";
import { arcgisRestRoutes } from "../routes/arcgis_rest.ts";
import { assertSamePixels, decode, near, pixel, type Pixels } from "./_render_helpers.ts";
import { GDAL_BIN, optionalTest } from "./_optional.ts";

const SERVICE = "/arcgis/rest/services/Recruitment/MapServer";
const SEA = [205, 225, 240, 255];
const LAND = [244, 241, 230, 255];
/** Any competition marker (reserve orange or vacancy red) over the sea or land. */
const MARKERS = [[230, 120, 20], [215, 25, 28]];

function isMarker(rgba: readonly number[]): boolean {
  return MARKERS.some((c) => c.every((v, i) => Math.abs(v - rgba[i]) <= 40));
}

async function restImage(s: TestServer, query: string): Promise<Response> {
  return await fetch(`${s.url}${SERVICE}/export?${query}`);
}

async function restPixels(s: TestServer, query: string): Promise<Pixels> {
  const res = await restImage(s, query);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("content-type"), "image/png", query);
  return decode(new Uint8Array(await res.arrayBuffer()));
}

async function restJson(s: TestServer, path: string, query: string) {
  const res = await fetch(`${s.url}${SERVICE}${path}?${query}`);
  assert.equal(res.status, 200, `${path}?${query}`);
  return await res.json();
}

/** Asserts that `path?query` answers an ArcGIS JSON error with code 400 whose message matches. */
async function expectError(s: TestServer, path: string, query: string, message: RegExp) {
  const params = Object.fromEntries(new URLSearchParams(query));
  assertRestError(
    await rest(s.url, `${SERVICE.slice("/arcgis/rest".length)}${path}`, params),
    400,
    message,
  );
}

/** ExportMapImage through SOAP: the decoded image of a MapExtent view. */
async function soapExport(
  s: TestServer,
  extent: [number, number, number, number],
  width: number,
  height: number,
  layerDescriptions = "",
): Promise<Pixels> {
  const [xmin, ymin, xmax, ymax] = extent;
  const reply = await postSoap(
    `${s.url}/arcgis/services/Recruitment/MapServer`,
    operationEnvelope(
      "ExportMapImage",
      `<MapDescription><Name>Layers</Name><MapArea xsi:type="e:MapExtent"><Extent xsi:type="e:EnvelopeN">` +
        `<XMin>${xmin}</XMin><YMin>${ymin}</YMin><XMax>${xmax}</XMax><YMax>${ymax}</YMax></Extent></MapArea>` +
        `<Rotation>0</Rotation>${layerDescriptions}</MapDescription>` +
        `<ImageDescription><ImageType><ImageFormat>esriImagePNG</ImageFormat>` +
        `<ImageReturnType>esriImageReturnMimeData</ImageReturnType></ImageType>` +
        `<ImageDisplay><ImageHeight>${height}</ImageHeight><ImageWidth>${width}</ImageWidth>` +
        `<ImageDPI>96</ImageDPI></ImageDisplay></ImageDescription>`,
    ),
  );
  assert.equal(reply.status, 200, reply.text.slice(0, 500));
  const data = /<ImageData>([^<]*)<\/ImageData>/.exec(reply.text);
  assert.ok(data, "ImageData in the SOAP answer");
  return decode(new Uint8Array(Buffer.from(data[1], "base64")));
}

/** Pixel of a lon/lat in a whole-world 2:1 image. */
function at(p: Pixels, lon: number, lat: number): [number, number, number, number] {
  return pixel(p, (lon + 180) / 360 * (p.width - 1), (90 - lat) / 180 * (p.height - 1));
}

function countMarkers(p: Pixels): number {
  let n = 0;
  for (let y = 0; y < p.height; y++) {
    for (let x = 0; x < p.width; x++) if (isMarker(pixel(p, x, y))) n++;
  }
  return n;
}

Deno.test({
  name: "REST export: f=image and f=json draw the same map as SOAP ExportMapImage",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const s = await startTestServer();
    try {
      const rest = await restPixels(s, "bbox=-180,-90,180,90&size=720,360&format=png&f=image");
      const soap = await soapExport(s, [-180, -90, 180, 90], 720, 360);
      assertSamePixels(rest, soap, "whole world");
      assert.ok(near(at(rest, -30, -30), SEA, 4), "sea");
      assert.ok(near(at(rest, 100, 62), LAND, 4), "Siberia");
      assert.ok(countMarkers(rest) > 50, "competition markers");

      // layers=show:1 hides the competitions, as a LayerDescription with Visible false does.
      const countries = await restPixels(
        s,
        "bbox=20,40,60,60&size=400,200&layers=show:1&f=image",
      );
      const hidden = await soapExport(
        s,
        [20, 40, 60, 60],
        400,
        200,
        `<LayerDescriptions><LayerDescription><LayerID>0</LayerID><Visible>false</Visible>` +
          `</LayerDescription></LayerDescriptions>`,
      );
      assertSamePixels(countries, hidden, "show:1");
      assert.equal(countMarkers(countries), 0, "no markers with show:1");
      const hide = await restPixels(s, "bbox=20,40,60,60&size=400,200&layers=hide:0&f=image");
      assertSamePixels(hide, hidden, "hide:0");
      const exclude = await restPixels(
        s,
        "bbox=20,40,60,60&size=400,200&layers=exclude:0&f=image",
      );
      assertSamePixels(exclude, hidden, "exclude:0");
      const all = await restPixels(s, "bbox=20,40,60,60&size=400,200&f=image");
      assert.ok(countMarkers(all) > 0, "markers by default");
      // layerDefs in both forms: no competition matches id < 0.
      for (const defs of ['{"0":"id < 0"}', "0:id < 0", '[{"layerId":0,"where":"id < 0"}]']) {
        const filtered = await restPixels(
          s,
          `bbox=20,40,60,60&size=400,200&layerDefs=${encodeURIComponent(defs)}&f=image`,
        );
        assertSamePixels(filtered, hidden, `layerDefs ${defs}`);
      }

      // f=json: href in the output folder, the image there is the one f=image draws.
      const j = await restJson(s, "/export", "bbox=-180,-90,180,90&size=720,360&f=json");
      assert.match(
        j.href,
        /\/arcgis\/rest\/directories\/arcgisoutput\/Recruitment_MapServer\/_ags_map[0-9a-f]{32}\.png$/,
      );
      assert.equal(j.width, 720);
      assert.equal(j.height, 360);
      assert.deepEqual(j.extent, {
        xmin: -180,
        ymin: -90,
        xmax: 180,
        ymax: 90,
        spatialReference: { wkid: 4326, latestWkid: 4326 },
      });
      assert.ok(Math.abs(j.scale - 0.5 * 111319.49079327358 * 96 * 39.37) < 1e-3, `${j.scale}`);
      const file = await fetch(j.href);
      assert.equal(file.headers.get("content-type"), "image/png");
      assertSamePixels(decode(new Uint8Array(await file.arrayBuffer())), rest, "href");
      // pjson and POST form bodies answer the same.
      const posted = await fetch(`${s.url}${SERVICE}/export`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "bbox=-180,-90,180,90&size=720,360&f=pjson",
      });
      const pj = await posted.json();
      assert.deepEqual({ ...pj, href: "" }, { ...j, href: "" });
    } finally {
      await s.close();
    }
  },
});

Deno.test({
  name: "REST export: spatial references, formats, transparency and rotation",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const s = await startTestServer();
    try {
      // A Web Mercator bbox drawn in Web Mercator (imageSR follows bboxSR).
      const merc = await restJson(
        s,
        "/export",
        "bbox=-20037508,-10000000,20037508,10000000&bboxSR=102100&size=400,200&f=json",
      );
      assert.deepEqual(merc.extent.spatialReference, { wkid: 102100, latestWkid: 3857 });
      assert.equal(merc.extent.xmin, -20037508);
      // bboxSR as JSON, imageSR 4326: the extent comes back in degrees.
      const geo = await restJson(
        s,
        "/export",
        `bbox=0,0,1113194.9,1118890&bboxSR=${
          encodeURIComponent('{"wkid":3857}')
        }&imageSR=4326&size=200,200&f=json`,
      );
      assert.deepEqual(geo.extent.spatialReference, { wkid: 4326, latestWkid: 4326 });
      assert.ok(Math.abs(geo.extent.xmax - 10) < 1e-3, JSON.stringify(geo.extent));
      // Every format answers its own Content-Type and bytes.
      const magic: [string, string, (b: Uint8Array) => boolean][] = [
        ["png8", "image/png", (b) => b[0] === 0x89 && b[1] === 0x50],
        ["png24", "image/png", (b) => b[0] === 0x89 && b[1] === 0x50],
        ["png32", "image/png", (b) => b[0] === 0x89 && b[1] === 0x50],
        ["jpg", "image/jpeg", (b) => b[0] === 0xff && b[1] === 0xd8],
        ["gif", "image/gif", (b) => b[0] === 0x47 && b[1] === 0x49],
        ["bmp", "image/bmp", (b) => b[0] === 0x42 && b[1] === 0x4d],
        ["tiff", "image/tiff", (b) => b[0] === 0x49 && b[1] === 0x49],
      ];
      for (const [format, type, check] of magic) {
        const res = await restImage(s, `bbox=-180,-90,180,90&size=64,32&format=${format}&f=image`);
        assert.equal(res.headers.get("content-type"), type, format);
        assert.ok(check(new Uint8Array(await res.arrayBuffer())), format);
      }
      // transparent=true keys out the map's background, land stays opaque.
      const t = await restPixels(
        s,
        "bbox=-180,-90,180,90&size=720,360&format=png32&transparent=true&f=image",
      );
      assert.equal(at(t, -30, -30)[3], 0, "sea is transparent");
      assert.equal(at(t, 100, 62)[3], 255, "land is opaque");
      const opaque = await restPixels(s, "bbox=-180,-90,180,90&size=720,360&format=png32&f=image");
      assert.equal(at(opaque, -30, -30)[3], 255);
      // rotation turns the map: the same image is no longer drawn.
      const turned = await restPixels(
        s,
        "bbox=-180,-90,180,90&size=720,360&format=png32&rotation=90&f=image",
      );
      assert.notDeepEqual(turned.data, opaque.data);
      // time is accepted and ignored (no layer is time-aware).
      const timed = await restPixels(
        s,
        "bbox=-180,-90,180,90&size=720,360&format=png32&time=1199145600000,1230768000000&f=image",
      );
      assertSamePixels(timed, opaque, "time ignored");
    } finally {
      await s.close();
    }
  },
});

Deno.test({
  name:
    "REST export: bad bbox, size, format, layers and layerDefs are ArcGIS JSON errors, also for f=image",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const s = await startTestServer();
    try {
      const cases: [string, RegExp][] = [
        ["size=400,400", /'bbox' is required/],
        ["bbox=1,2,3", /'bbox'.*four numbers/],
        ["bbox=a,b,c,d", /'bbox'/],
        ["bbox=10,0,10,10", /with a width and a height/],
        ["bbox=1e308,1e308,1.7e308,1.7e308", /within ±1000000000000000/],
        ["bbox=0,0,10,10&size=400", /'size'/],
        ["bbox=0,0,10,10&size=0,400", /'size'/],
        ["bbox=0,0,10,10&size=4097,400", /larger than this service allows.*4096/],
        ["bbox=0,0,10,10&format=svg", /'format'.*png32/],
        ["bbox=0,0,10,10&dpi=0", /'dpi'/],
        ["bbox=0,0,10,10&bboxSR=abc", /'bboxSR'/],
        ["bbox=0,0,10,10&imageSR=999999", /^imageSR 999999 is not supported/],
        // Without imageSR the image is drawn in bboxSR: the error names the parameter sent.
        ["bbox=0,0,10,10&bboxSR=999999", /'bboxSR'/],
        ["bbox=0,0,10,10&layers=show:9", /layer 9 does not exist/],
        ["bbox=0,0,10,10&layers=only:0", /'layers'/],
        ["bbox=0,0,10,10&layerDefs=%7B%220%22:", /'layerDefs'/],
        ["bbox=0,0,10,10&layerDefs=5:id>1", /layer 5 does not exist/],
        [
          "bbox=0,0,10,10&layerDefs=0:nope%20%3D%201",
          /^Invalid layerDefs for layer 0 .*nope/,
        ],
        ["bbox=0,0,10,10&transparent=maybe", /'transparent'/],
      ];
      for (const [query, message] of cases) {
        for (const f of ["image", "json"]) {
          await expectError(s, "/export", `${query}&f=${f}`, message);
        }
      }
      // An unknown service is ArcGIS's 404 error.
      const res = await fetch(
        `${s.url}/arcgis/rest/services/Nope/MapServer/export?bbox=0,0,1,1&f=json`,
      );
      assert.equal((await res.json()).error.code, 404);
    } finally {
      await s.close();
    }
  },
});

/** The swatches of SOAP GetLegendInfo by layer: base64 PNGs and labels. */
async function soapLegend(s: TestServer, width: number, height: number, dpi: number) {
  const reply = await postSoap(
    `${s.url}/arcgis/services/Recruitment/MapServer`,
    operationEnvelope(
      "GetLegendInfo",
      `<MapName>Layers</MapName><LegendPatch><Width>${width}</Width><Height>${height}</Height>` +
        `<ImageDPI>${dpi}</ImageDPI></LegendPatch><ImageType><ImageFormat>esriImagePNG32</ImageFormat>` +
        `<ImageReturnType>esriImageReturnMimeData</ImageReturnType></ImageType>`,
    ),
  );
  assert.equal(reply.status, 200, reply.text.slice(0, 500));
  return [...reply.text.matchAll(/<MapServerLegendInfo[^>]*>.*?<\/MapServerLegendInfo>/gs)].map(
    (m) => ({
      layerId: Number(/<LayerID>(\d+)<\/LayerID>/.exec(m[0])![1]),
      labels: [...m[0].matchAll(/<Label>([^<]*)<\/Label>/g)].map((l) => l[1]),
      images: [...m[0].matchAll(/<ImageData>([^<]*)<\/ImageData>/g)].map((l) => l[1]),
    }),
  );
}

Deno.test({
  name: "REST legend: the swatches of SOAP GetLegendInfo, image URLs, size and dpi",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const s = await startTestServer();
    try {
      const legend = await restJson(s, "/legend", "f=json");
      const soap = await soapLegend(s, 15, 15, 96);
      assert.deepEqual(legend.layers.map((l: { layerId: number }) => l.layerId), [0, 1]);
      assert.deepEqual(
        legend.layers.map((l: { layerId: number }) => l.layerId),
        soap.map((l) => l.layerId),
      );
      for (const [i, layer] of legend.layers.entries()) {
        assert.equal(layer.layerType, "Feature Layer");
        assert.equal(typeof layer.layerName, "string");
        assert.equal(layer.minScale, 0);
        assert.equal(layer.maxScale, 0);
        assert.deepEqual(layer.legend.map((e: { label: string }) => e.label), soap[i].labels);
        assert.deepEqual(
          layer.legend.map((e: { imageData: string }) => e.imageData),
          soap[i].images,
        );
        for (const e of layer.legend) {
          assert.equal(e.contentType, "image/png");
          assert.equal(e.width, 20);
          assert.equal(e.height, 20);
          const img = decode(new Uint8Array(Buffer.from(e.imageData, "base64")));
          assert.equal(img.width, 20);
          // The legend's image URL serves the same bytes.
          assert.match(e.url, /^[0-9a-f]{32}$/);
          const res = await fetch(`${s.url}${SERVICE}/${layer.layerId}/images/${e.url}`);
          assert.equal(res.headers.get("content-type"), "image/png");
          assert.equal(
            Buffer.from(new Uint8Array(await res.arrayBuffer())).toString("base64"),
            e.imageData,
          );
        }
      }
      // Unique-value classes name their values; the default class has none.
      const competitions = legend.layers[0].legend;
      assert.deepEqual(competitions.map((e: { values?: string[] }) => e.values), [
        ["Резерв"],
        undefined,
      ]);
      const swatch = decode(new Uint8Array(Buffer.from(competitions[0].imageData, "base64")));
      assert.ok(isMarker(pixel(swatch, 10, 10)), `${pixel(swatch, 10, 10)}`);
      const country = decode(
        new Uint8Array(Buffer.from(legend.layers[1].legend[0].imageData, "base64")),
      );
      assert.ok(near(pixel(country, 10, 10), LAND, 4));

      // size (points) and dpi: 30 x 15 pt at 192 dpi is 80 x 40 pixels, as in GetLegendInfo.
      const big = await restJson(s, "/legend", "size=30,15&dpi=192&f=json");
      const soapBig = await soapLegend(s, 30, 15, 192);
      assert.equal(big.layers[1].legend[0].width, 80);
      assert.equal(big.layers[1].legend[0].height, 40);
      assert.equal(big.layers[1].legend[0].imageData, soapBig[1].images[0]);
      // Its image URL, as clients build it (no query string), serves that 80 x 40 swatch.
      const bigUrl = big.layers[1].legend[0].url;
      assert.match(bigUrl, /^[0-9a-f]{32}-30x15-192$/);
      const bigImage = await fetch(`${s.url}${SERVICE}/1/images/${bigUrl}`);
      assert.equal(bigImage.status, 200);
      assert.equal(
        Buffer.from(new Uint8Array(await bigImage.arrayBuffer())).toString("base64"),
        soapBig[1].images[0],
      );

      const bad: [string, RegExp][] = [["size=0,10", /'size'/], ["size=a", /'size'/], [
        "dpi=-1",
        /'dpi'/,
      ]];
      for (const [query, message] of bad) {
        await expectError(s, "/legend", `${query}&f=json`, message);
      }
      const missing = await fetch(
        `${s.url}${SERVICE}/0/images/00000000000000000000000000000000?f=json`,
      );
      assert.equal((await missing.json()).error.code, 404);
    } finally {
      await s.close();
    }
  },
});

optionalTest(GDAL_BIN, {
  name:
    "GDAL's WMS driver (AGS mini-driver) draws the map from REST /export, ImageFormat image/png too",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const s = await startTestServer();
    try {
      // GDAL's default format, and its ImageFormat as a MIME type (sent as written).
      for (const [i, format] of ["", "<ImageFormat>image/png</ImageFormat>"].entries()) {
        const xml = `${s.dir}/ags${i}.xml`;
        const out = `${s.dir}/ags${i}.png`;
        await Deno.writeTextFile(
          xml,
          `<GDAL_WMS><Service name="AGS">` +
            `<ServerUrl>${s.url}${SERVICE}</ServerUrl><BBoxOrder>xyXY</BBoxOrder><SRS>4326</SRS>` +
            `${format}</Service><DataWindow><UpperLeftX>-180</UpperLeftX><UpperLeftY>90</UpperLeftY>` +
            `<LowerRightX>180</LowerRightX><LowerRightY>-90</LowerRightY>` +
            `<SizeX>720</SizeX><SizeY>360</SizeY></DataWindow><BandsCount>4</BandsCount>` +
            `<BlockSizeX>256</BlockSizeX><BlockSizeY>256</BlockSizeY></GDAL_WMS>`,
        );
        const run = await new Deno.Command("gdal_translate", {
          args: ["-q", "-of", "PNG", xml, out],
          env: {
            GDAL_HTTP_TIMEOUT: "60",
            GDAL_DEFAULT_WMS_CACHE_PATH: `${s.dir}/gdalwmscache${i}`,
          },
          stdout: "piped",
          stderr: "piped",
        }).output();
        assert.equal(run.code, 0, `${format}: ${new TextDecoder().decode(run.stderr)}`);
        const img = decode(await Deno.readFile(out));
        assert.equal(img.width, 720);
        assert.equal(img.height, 360);
        assert.ok(near(at(img, -30, -30), SEA, 4), `${format} sea ${at(img, -30, -30)}`);
        assert.ok(near(at(img, 100, 62), LAND, 4), `${format} land ${at(img, 100, 62)}`);
        assert.ok(countMarkers(img) > 50, `${format}: competition markers`);
      }
    } finally {
      await s.close();
    }
  },
});

Deno.test({
  name: "REST legend images answer from the swatches already drawn, not by drawing the layer again",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    // Counts the swatches the renderer draws, around the real in-process renderer.
    const inner = new InProcessRenderer();
    let drawn = 0;
    const renderer: Renderer = {
      run(job, resolve) {
        if (job.kind === "swatches") drawn += job.symbols.length;
        return inner.run(job, resolve);
      },
      close: () => inner.close(),
    };
    const maps = createMapServer({
      services: [memoryService("Test")],
      outputDir: await Deno.makeTempDir(),
      renderer,
    });
    const routes = arcgisRestRoutes({ maps, baseUrl: (req) => new URL(req.url).origin });
    const server = startRoutesServer(routes);
    const base = `${server.baseUrl}/arcgis/rest/services/Test/MapServer`;
    try {
      const legend = await (await fetch(`${base}/legend?f=json&size=30,20&dpi=192`)).json();
      const entry = legend.layers[0].legend[0];
      assert.match(entry.url, /^[0-9a-f]{32}-30x20-192$/);
      const afterLegend = drawn;
      assert.ok(afterLegend > 0);
      for (let i = 0; i < 3; i++) {
        const res = await fetch(`${base}/0/images/${entry.url}`);
        assert.equal(res.headers.get("content-type"), "image/png");
        assert.deepEqual(
          new Uint8Array(await res.arrayBuffer()),
          new Uint8Array(Buffer.from(entry.imageData, "base64")),
        );
      }
      assert.equal(drawn, afterLegend, "images after the legend draw nothing");
      // An image not drawn yet (another size): its layer is drawn once, then kept.
      const other = await (await fetch(`${base}/legend?f=json`)).json();
      const url = other.layers[0].legend[0].url;
      const before = drawn;
      const fresh = createMapServer({
        services: [memoryService("Test")],
        outputDir: await Deno.makeTempDir(),
        renderer,
      });
      const api = createRestApi(fresh);
      const urls = { baseUrl: server.baseUrl };
      for (let i = 0; i < 3; i++) {
        const r = await api.handle(
          `/services/Test/MapServer/0/images/${url}`,
          new RestParams(new URLSearchParams()),
          urls,
        );
        assert.equal(r.contentType, "image/png");
      }
      assert.equal(drawn - before, 1, "one swatch drawn for three requests of it");
      // Three at once on another fresh face (a legend panel after a restart): still one draw.
      const together = createRestApi(createMapServer({
        services: [memoryService("Test")],
        outputDir: await Deno.makeTempDir(),
        renderer,
      }));
      const beforeTogether = drawn;
      const answers = await Promise.all([0, 1, 2].map(() =>
        together.handle(
          `/services/Test/MapServer/0/images/${url}`,
          new RestParams(new URLSearchParams()),
          urls,
        )
      ));
      assert.ok(answers.every((r) => r.contentType === "image/png"));
      assert.equal(drawn - beforeTogether, 1, "one draw for three simultaneous misses");
      // An unknown name is a 404 error without drawing.
      const missing = await (await fetch(`${base}/0/images/zz?f=json`)).json();
      assert.equal(missing.error.code, 404);
      assert.equal(drawn - beforeTogether, 1);
    } finally {
      await server.close();
      maps.close();
    }
  },
});
