/**
 * The drawing and tile-cache operations end to end: a loopback server with
 * the ArcGIS routes and file routes, a node-soap client built from our
 * WSDL, every response validated against our WSDL's schema, every image
 * decoded and checked pixel by pixel.
 */
import assert from "node:assert/strict";
import { createMapServer } from "../map/mod.ts";
import type { MapService } from "../map/soap/operation.ts";
import { RendererSpecSchema } from "../map/document/renderer.ts";
import { TileCaches } from "../map/tiles/mod.ts";
import { InProcessRenderer } from "../map/render/mod.ts";
import { arcgisRoutes } from "../routes/arcgis.ts";
import { arcgisFileRoutes } from "../routes/arcgis_files.ts";
import { soapClient, startRoutesServer } from "./_soap_helpers.ts";
import {
  type Any,
  call,
  expectClientFault,
  imageDisplay,
  items,
  mapDescription,
  typed,
} from "./_soap_query_fixtures.ts";
import { countNot, countries, decode, MemorySource, near, pixel } from "./_render_helpers.ts";

const SEA = [200, 225, 255, 255];
const LAND = [240, 235, 210, 255];
const RED = [220, 30, 30, 255];

async function worldService(): Promise<MapService> {
  const fields = [
    { name: "OBJECTID", type: "OID", alias: "OBJECTID", length: 4, nullable: false },
    { name: "name", type: "String", alias: "Name", length: 80, nullable: true },
  ] as const;
  const cities = new MemorySource(
    [{ id: 1, attributes: { name: "Москва" }, geometry: { type: "Point", x: 37.62, y: 55.75 } }],
    "Point",
    4326,
    [fields[1]],
  );
  const land = new MemorySource(await countries("110m"), "Polygon", 4326, [fields[1]]);
  const layers = () => [
    {
      id: 0,
      name: "Cities",
      description: "",
      source: cities,
      geometryType: "Point",
      fields: cities.fields(),
      displayField: "name",
      visible: true,
      minScale: 0,
      maxScale: 0,
      definitionExpression: "",
      renderer: RendererSpecSchema.parse({
        type: "simple",
        symbol: { type: "simple-marker", color: RED, size: 9 },
      }),
    },
    {
      id: 1,
      name: "Countries",
      description: "",
      source: land,
      geometryType: "Polygon",
      fields: land.fields(),
      displayField: "name",
      visible: true,
      minScale: 0,
      maxScale: 0,
      definitionExpression: "",
      renderer: RendererSpecSchema.parse({
        type: "uniqueValue",
        field: "name",
        values: [{
          value: "Brazil",
          label: "Brazil",
          symbol: { type: "simple-fill", color: [0, 150, 0] },
        }],
        default: { label: "Other", symbol: { type: "simple-fill", color: LAND } },
      }),
    },
  ];
  const half = 20037508.342787;
  return {
    name: "World",
    description: "Test world",
    defaultMapName: "Layers",
    maps: [
      {
        name: "Layers",
        description: "",
        wkid: 4326,
        fullExtent: { xmin: -180, ymin: -90, xmax: 180, ymax: 90 },
        initialExtent: { xmin: -180, ymin: -90, xmax: 180, ymax: 90 },
        units: "esriDecimalDegrees",
        backgroundColor: SEA.slice(0, 3),
        layers: layers(),
      },
      {
        name: "Mercator",
        description: "",
        wkid: 3857,
        fullExtent: { xmin: -half, ymin: -half, xmax: half, ymax: half },
        initialExtent: { xmin: -half, ymin: -half, xmax: half, ymax: half },
        units: "esriMeters",
        backgroundColor: SEA.slice(0, 3),
        layers: layers(),
        tiling: { levels: [0, 6], format: "png32" },
      },
    ],
  } as unknown as MapService;
}

async function start() {
  const outputDir = await Deno.makeTempDir({ prefix: "render-out-" });
  const tilesDir = await Deno.makeTempDir({ prefix: "render-tiles-" });
  const renderer = new InProcessRenderer();
  const maps = createMapServer({
    services: [await worldService()],
    outputDir,
    renderer,
    tiles: new TileCaches({ dir: tilesDir, renderer }),
  });
  const routes = [
    ...arcgisRoutes({ maps, baseUrl: (req) => new URL(req.url).origin }),
    ...arcgisFileRoutes({ maps, outputDir }),
  ];
  const server = startRoutesServer(routes);
  const client = await soapClient(`${server.serviceUrl("World")}?wsdl`);
  return {
    ...server,
    client,
    url: server.serviceUrl("World"),
    async close() {
      await server.close();
      maps.close();
      await Deno.remove(outputDir, { recursive: true }).catch(() => {});
      await Deno.remove(tilesDir, { recursive: true }).catch(() => {});
    },
  };
}

function b64(s: string): Uint8Array {
  return Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
}

function imageDescription(format: string, ret: string, w: number, h: number, dpi = 96) {
  return {
    ImageType: { ImageFormat: format, ImageReturnType: ret },
    ImageDisplay: imageDisplay(w, h, dpi),
  };
}

const geoPx = (lon: number, lat: number, w: number): [number, number] => [
  (lon + 180) / (360 / w),
  (90 - lat) / (360 / w),
];

Deno.test("ExportMapImage as MIME data: MapImage facts and real pixels", async () => {
  const s = await start();
  try {
    const r = await call(s.client, "ExportMapImage", {
      MapDescription: mapDescription("Layers", [-180, -90, 180, 90]),
      ImageDescription: imageDescription("esriImagePNG32", "esriImageReturnMimeData", 1024, 512),
    });
    const mi = r.Result;
    assert.equal(Number(mi.ImageWidth), 1024);
    assert.equal(Number(mi.ImageHeight), 512);
    assert.equal(Number(mi.ImageDPI), 96);
    assert.equal(mi.ImageType, "image/png");
    assert.equal(mi.ImageURL ?? "", "");
    assert.deepEqual(items(mi.VisibleLayerIDs.Int).map(Number), [0, 1]);
    assert.equal(Number(mi.Extent.XMin), -180);
    assert.equal(Number(mi.Extent.YMax), 90);
    const expectedScale = (360 / 1024) * 111319.49079327358 * 96 * 39.37;
    assert.ok(Math.abs(Number(mi.MapScale) - expectedScale) < 1e-3);
    const img = decode(b64(mi.ImageData));
    assert.equal(img.width, 1024);
    assert.ok(near(pixel(img, ...geoPx(-30, -30, 1024)), SEA), "sea");
    assert.ok(
      near(pixel(img, ...geoPx(-50, -10, 1024)), [0, 150, 0, 255]),
      "Brazil by its unique value",
    );
    assert.ok(near(pixel(img, ...geoPx(100, 60, 1024)), LAND), "Russia by the default class");
    assert.ok(near(pixel(img, ...geoPx(37.62, 55.75, 1024)), RED), "Moscow marker");
  } finally {
    await s.close();
  }
});

Deno.test("ExportMapImage by URL (JPEG), layer descriptions, transparent PNG", async () => {
  const s = await start();
  try {
    const r = await call(s.client, "ExportMapImage", {
      MapDescription: mapDescription("Layers", [-180, -90, 180, 90], {
        LayerDescriptions: {
          LayerDescription: [
            {
              LayerID: 0,
              Visible: true,
              ShowLabels: false,
              ScaleSymbols: false,
              SetSelectionSymbol: false,
              SelectionBufferDistance: 0,
              ShowSelectionBuffer: false,
              DefinitionExpression: "",
            },
            {
              LayerID: 1,
              Visible: true,
              ShowLabels: false,
              ScaleSymbols: false,
              SetSelectionSymbol: false,
              SelectionBufferDistance: 0,
              ShowSelectionBuffer: false,
              DefinitionExpression: "name = 'Brazil'",
            },
          ],
        },
      }),
      ImageDescription: imageDescription("esriImageJPG", "esriImageReturnURL", 512, 256),
    });
    const url = r.Result.ImageURL as string;
    assert.match(
      url,
      /\/arcgis\/rest\/directories\/arcgisoutput\/World_MapServer\/_ags_map[0-9a-f]{32}\.jpg$/,
    );
    assert.equal(r.Result.ImageData, undefined);
    const res = await fetch(url);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "image/jpeg");
    for (const bad of ["..%2F..%2Fetc%2Fpasswd", "_ags_mapnothere.png", "other.png"]) {
      const r404 = await fetch(
        `${s.baseUrl}/arcgis/rest/directories/arcgisoutput/World_MapServer/${bad}`,
      );
      assert.equal(r404.status, 404, bad);
      await r404.body?.cancel();
    }
    const img = decode(new Uint8Array(await res.arrayBuffer()));
    assert.ok(
      near(pixel(img, ...geoPx(-50, -10, 512)), [0, 150, 0, 255], 12),
      "Brazil kept by the definition",
    );
    assert.ok(near(pixel(img, ...geoPx(100, 60, 512)), SEA, 12), "Russia filtered out");
    // Transparent: PNG32 with the background keyed out via TransparentColor.
    const t = await call(s.client, "ExportMapImage", {
      MapDescription: mapDescription("Layers", [-180, -90, 180, 90], {
        TransparentColor: typed("RgbColor", { Red: SEA[0], Green: SEA[1], Blue: SEA[2] }),
      }),
      ImageDescription: imageDescription("esriImagePNG32", "esriImageReturnMimeData", 512, 256),
    });
    const timg = decode(b64(t.Result.ImageData));
    assert.equal(pixel(timg, ...geoPx(-30, -30, 512))[3], 0);
    assert.equal(pixel(timg, ...geoPx(-50, -10, 512))[3], 255);
  } finally {
    await s.close();
  }
});

Deno.test("ExportMapImage by URL: every format gets its own extension, Content-Type and bytes", async () => {
  const s = await start();
  const ascii = (b: Uint8Array, n: number) => String.fromCharCode(...b.subarray(0, n));
  const cases: [string, string, string, (b: Uint8Array) => boolean][] = [
    ["esriImagePNG", "png", "image/png", (b) => ascii(b, 4) === "\x89PNG"],
    ["esriImagePNG24", "png", "image/png", (b) => ascii(b, 4) === "\x89PNG"],
    ["esriImagePNG32", "png", "image/png", (b) => ascii(b, 4) === "\x89PNG"],
    ["esriImageJPG", "jpg", "image/jpeg", (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff],
    ["esriImageGIF", "gif", "image/gif", (b) => ascii(b, 6) === "GIF89a"],
    ["esriImageBMP", "bmp", "image/bmp", (b) => ascii(b, 2) === "BM"],
    ["esriImageDIB", "bmp", "image/bmp", (b) => ascii(b, 2) === "BM"],
    // An opaque map: JPGPNG answers JPEG (PNG only when the image has transparency).
    ["esriImageJPGPNG", "jpg", "image/jpeg", (b) => b[0] === 0xff && b[1] === 0xd8],
    ["esriImageTIFF", "tif", "image/tiff", (b) => ascii(b, 4) === "II*\0"],
  ];
  try {
    for (const [format, ext, mime, magic] of cases) {
      const r = await call(s.client, "ExportMapImage", {
        MapDescription: mapDescription("Layers", [-180, -90, 180, 90]),
        ImageDescription: imageDescription(format, "esriImageReturnURL", 64, 32),
      });
      const url = r.Result.ImageURL as string;
      assert.ok(url.endsWith(`.${ext}`), `${format}: ${url} ends with .${ext}`);
      for (const method of ["GET", "HEAD"]) {
        const res = await fetch(url, { method });
        assert.equal(res.status, 200, `${format} ${method}`);
        assert.equal(res.headers.get("content-type"), mime, `${format} ${method}`);
        const bytes = new Uint8Array(await res.arrayBuffer());
        if (method === "GET") assert.ok(magic(bytes), `${format}: ${ascii(bytes, 6)}`);
      }
    }
    // Formats this server does not draw are refused, never written under another type.
    for (const format of ["esriImageSVG", "esriImagePDF", "esriImageEMF", "esriImagePS"]) {
      const message = await expectClientFault(
        s.url,
        "ExportMapImage",
        `<MapDescription><Name>Layers</Name><MapArea xsi:type="e:MapExtent"><Extent xsi:type="e:EnvelopeN">` +
          `<XMin>-10</XMin><YMin>-10</YMin><XMax>10</XMax><YMax>10</YMax></Extent></MapArea>` +
          `<Rotation>0</Rotation></MapDescription><ImageDescription><ImageType><ImageFormat>${format}` +
          `</ImageFormat><ImageReturnType>esriImageReturnURL</ImageReturnType></ImageType><ImageDisplay>` +
          `<ImageHeight>10</ImageHeight><ImageWidth>10</ImageWidth><ImageDPI>96</ImageDPI></ImageDisplay>` +
          `</ImageDescription>`,
      );
      assert.match(message, /not supported/, format);
    }
  } finally {
    await s.close();
  }
});

Deno.test("ExportMapImage faults: image too large, unsupported format, bad definition expression, unknown layer", async () => {
  const s = await start();
  try {
    const md =
      `<MapDescription><Name>Layers</Name><MapArea xsi:type="e:MapExtent"><Extent xsi:type="e:EnvelopeN">` +
      `<XMin>-10</XMin><YMin>-10</YMin><XMax>10</XMax><YMax>10</YMax></Extent></MapArea><Rotation>0</Rotation>`;
    const id = (fmt: string, w: number, h: number) =>
      `<ImageDescription><ImageType><ImageFormat>${fmt}</ImageFormat><ImageReturnType>esriImageReturnMimeData</ImageReturnType></ImageType>` +
      `<ImageDisplay><ImageHeight>${h}</ImageHeight><ImageWidth>${w}</ImageWidth><ImageDPI>96</ImageDPI></ImageDisplay></ImageDescription>`;
    assert.match(
      await expectClientFault(
        s.url,
        "ExportMapImage",
        md + "</MapDescription>" + id("esriImagePNG", 5000, 300),
      ),
      /MaximumImageWidth 4096/,
    );
    assert.match(
      await expectClientFault(
        s.url,
        "ExportMapImage",
        md + "</MapDescription>" + id("esriImagePDF", 100, 100),
      ),
      /not supported/,
    );
    const bad = md +
      `<LayerDescriptions><LayerDescription><LayerID>1</LayerID><Visible>true</Visible><ShowLabels>false</ShowLabels>` +
      `<ScaleSymbols>false</ScaleSymbols><SetSelectionSymbol>false</SetSelectionSymbol><SelectionBufferDistance>0</SelectionBufferDistance>` +
      `<ShowSelectionBuffer>false</ShowSelectionBuffer><DefinitionExpression>nosuchfield = 1</DefinitionExpression></LayerDescription></LayerDescriptions></MapDescription>`;
    assert.match(
      await expectClientFault(s.url, "ExportMapImage", bad + id("esriImagePNG", 100, 100)),
      // Worded as a query's bad definition expression (one parse for both).
      /^Invalid LayerDescription\/DefinitionExpression for layer 1 \(.*\): .*nosuchfield/,
    );
    // A description of a layer the map does not have faults like a bad LayerID elsewhere.
    const unknown = md +
      `<LayerDescriptions><LayerDescription><LayerID>99</LayerID><Visible>false</Visible>` +
      `</LayerDescription></LayerDescriptions></MapDescription>`;
    assert.match(
      await expectClientFault(s.url, "ExportMapImage", unknown + id("esriImagePNG", 100, 100)),
      /Layer 99 does not exist in map Layers/,
    );
  } finally {
    await s.close();
  }
});

Deno.test("ImageDPI: negative, NaN, infinite or too high is a client fault; 0 means 96", async () => {
  const s = await start();
  const md =
    `<MapDescription><Name>Layers</Name><MapArea xsi:type="e:MapExtent"><Extent xsi:type="e:EnvelopeN">` +
    `<XMin>-10</XMin><YMin>-10</YMin><XMax>10</XMax><YMax>10</YMax></Extent></MapArea><Rotation>0</Rotation></MapDescription>`;
  const display = (tag: string, dpi: string) =>
    `<${tag}><ImageHeight>50</ImageHeight><ImageWidth>50</ImageWidth><ImageDPI>${dpi}</ImageDPI></${tag}>`;
  const exportBody = (dpi: string) =>
    md + `<ImageDescription><ImageType><ImageFormat>esriImagePNG</ImageFormat>` +
    `<ImageReturnType>esriImageReturnMimeData</ImageReturnType></ImageType>${
      display("ImageDisplay", dpi)
    }</ImageDescription>`;
  const identifyBody = (dpi: string) =>
    md + display("MapImageDisplay", dpi) +
    `<SearchShape xsi:type="e:PointN"><X>0</X><Y>0</Y></SearchShape><Tolerance>2</Tolerance>` +
    `<IdentifyOption>esriIdentifyAllLayers</IdentifyOption>`;
  try {
    for (const dpi of ["-96", "NaN", "INF", "-INF", "3000"]) {
      assert.match(
        await expectClientFault(s.url, "ExportMapImage", exportBody(dpi)),
        /ImageDisplay\/ImageDPI/,
        `ExportMapImage at ${dpi} DPI`,
      );
      assert.match(
        await expectClientFault(s.url, "Identify", identifyBody(dpi)),
        /MapImageDisplay\/ImageDPI/,
        `Identify at ${dpi} DPI`,
      );
    }
    // A CenterAndScale MapArea's DPI follows the same rule (0 there means the image's DPI).
    const centered = (dpi: string) =>
      `<MapDescription><Name>Layers</Name><MapArea xsi:type="e:CenterAndScale"><Center xsi:type="e:PointN">` +
      `<X>0</X><Y>0</Y></Center><Scale>50000000</Scale><DPI>${dpi}</DPI></MapArea><Rotation>0</Rotation>` +
      `</MapDescription>` + display("MapImageDisplay", "96") +
      `<SearchShape xsi:type="e:PointN"><X>0</X><Y>0</Y></SearchShape><Tolerance>2</Tolerance>` +
      `<IdentifyOption>esriIdentifyAllLayers</IdentifyOption>`;
    assert.match(await expectClientFault(s.url, "Identify", centered("-96")), /MapArea\/DPI/);
    assert.match(await expectClientFault(s.url, "Identify", centered("NaN")), /MapArea\/DPI/);
    // 0 is "use the default", as .NET clients send an unset ImageDPI.
    const r = await call(s.client, "ExportMapImage", {
      MapDescription: mapDescription("Layers", [-10, -10, 10, 10]),
      ImageDescription: imageDescription("esriImagePNG", "esriImageReturnMimeData", 50, 50, 0),
    });
    assert.equal(Number(r.Result.ImageDPI), 96);
    const hit = await call(s.client, "Identify", {
      MapDescription: mapDescription("Layers", [-180, -90, 180, 90]),
      MapImageDisplay: imageDisplay(360, 180, 0),
      SearchShape: typed("PointN", { X: -50, Y: -10 }),
      Tolerance: 1,
      IdentifyOption: "esriIdentifyAllLayers",
      LayerIDs: { Int: [1] },
    });
    assert.deepEqual(
      items(hit.Result.MapServerIdentifyResult).map((r: Any) => r.Name),
      ["Brazil"],
      "Identify with DPI 0 works",
    );
  } finally {
    await s.close();
  }
});

Deno.test("ExportScaleBar draws a bar with labels on the requested background", async () => {
  const s = await start();
  try {
    const r = await call(s.client, "ExportScaleBar", {
      ScaleBar: typed("AlternatingScaleBar", { Units: "esriKilometers", Divisions: 4 }),
      MapDescription: mapDescription("Layers", [30, 50, 40, 60]),
      MapDisplay: imageDisplay(800, 800),
      BackGroundColor: typed("RgbColor", { Red: 255, Green: 255, Blue: 200 }),
      ImageDescription: imageDescription("esriImagePNG24", "esriImageReturnMimeData", 400, 60),
    });
    assert.equal(Number(r.Result.ImageWidth), 400);
    const img = decode(b64(r.Result.ImageData));
    assert.equal(img.height, 60);
    assert.ok(near(pixel(img, 1, 1), [255, 255, 200, 255]), "background colour");
    // Bar in the middle band (black and white cells), labels above it.
    const dark = countNot(img, [255, 255, 200, 255], 0, 0, 400, 60, 60);
    assert.ok(dark > 300, `bar and text pixels: ${dark}`);
    const labelBand = countNot(img, [255, 255, 200, 255], 0, 0, 400, 24, 60);
    assert.ok(labelBand > 40, `label pixels above the bar: ${labelBand}`);
  } finally {
    await s.close();
  }
});

Deno.test("GetLegendInfo: classes with swatches in the layer's colours", async () => {
  const s = await start();
  try {
    const r = await call(s.client, "GetLegendInfo", {
      MapName: "Layers",
      LayerIDs: { Int: [1, 0] },
      LegendPatch: { Width: 30, Height: 15, ImageDPI: 96 },
      ImageType: { ImageFormat: "esriImagePNG32", ImageReturnType: "esriImageReturnMimeData" },
    });
    const infos = items(r.Result.MapServerLegendInfo);
    assert.deepEqual(infos.map((i: Any) => Number(i.LayerID)), [1, 0]);
    const classes = items(
      items(infos[0].LegendGroups.MapServerLegendGroup)[0].LegendClasses.MapServerLegendClass,
    );
    assert.deepEqual(classes.map((c: Any) => c.Label), ["Brazil", "Other"]);
    const brazil = decode(b64(classes[0].SymbolImage.ImageData));
    assert.equal(brazil.width, 40); // 30 pt at 96 DPI
    assert.equal(brazil.height, 20);
    assert.ok(near(pixel(brazil, 20, 10), [0, 150, 0, 255]));
    const city = items(
      items(infos[1].LegendGroups.MapServerLegendGroup)[0].LegendClasses.MapServerLegendClass,
    )[0];
    const cimg = decode(b64(city.SymbolImage.ImageData));
    assert.ok(near(pixel(cimg, 20, 10), RED), "marker swatch centre");
    assert.equal(pixel(cimg, 1, 1)[3], 0, "transparent around the marker");
    // By URL, and GetLegendInfo2 leaves out layers the description hides.
    const r2 = await call(s.client, "GetLegendInfo2", {
      MapDescription: mapDescription("Layers", [-180, -90, 180, 90], {
        LayerDescriptions: {
          LayerDescription: [{
            LayerID: 1,
            Visible: false,
            ShowLabels: false,
            ScaleSymbols: false,
            SetSelectionSymbol: false,
            SelectionBufferDistance: 0,
            ShowSelectionBuffer: false,
            DefinitionExpression: "",
          }],
        },
      }),
      MapImageDisplay: imageDisplay(400, 200),
      ImageType: { ImageFormat: "esriImagePNG", ImageReturnType: "esriImageReturnURL" },
    });
    const infos2 = items(r2.Result.MapServerLegendInfo);
    assert.deepEqual(infos2.map((i: Any) => Number(i.LayerID)), [0]);
    const url = items(
      items(infos2[0].LegendGroups.MapServerLegendGroup)[0].LegendClasses.MapServerLegendClass,
    )[0].SymbolImage.ImageURL;
    const res = await fetch(url);
    assert.equal(res.status, 200);
    const u = decode(new Uint8Array(await res.arrayBuffer()));
    assert.ok(near(pixel(u, 10, 10), RED, 6));
  } finally {
    await s.close();
  }
});

Deno.test("tile cache operations and the HTTP tile routes", async () => {
  const s = await start();
  try {
    assert.equal(
      (await call(s.client, "HasSingleFusedMapCache", { MapName: "Mercator" })).Result,
      true,
    );
    assert.equal(
      (await call(s.client, "HasSingleFusedMapCache", { MapName: "Layers" })).Result,
      false,
    );
    const info = (await call(s.client, "GetTileCacheInfo", { MapName: "Mercator" })).Result;
    assert.equal(Number(info.TileCols), 256);
    assert.equal(Number(info.DPI), 96);
    assert.equal(Number(info.TileOrigin.X), -20037508.342787);
    const lods = items(info.LODInfos.LODInfo);
    assert.equal(lods.length, 7);
    assert.equal(Number(lods[0].Scale), 591657527.591555);
    assert.equal(Number(lods[3].Resolution), 19567.87924099992);
    const ti = (await call(s.client, "GetTileImageInfo", { MapName: "Mercator" })).Result;
    assert.equal(ti.CacheTileFormat, "PNG32");
    assert.equal(
      (await call(s.client, "GetCacheControlInfo", { MapName: "Mercator" })).Result
        .ClientCachingAllowed,
      true,
    );
    assert.equal(
      (await call(s.client, "GetCacheName", { MapName: "Mercator", LayerID: -1 })).Result,
      "_alllayers",
    );
    assert.equal(
      (await call(s.client, "HasLayerCache", { MapName: "Mercator", LayerID: 0 })).Result,
      false,
    );

    // Level 1, row 0, column 1: the north-east quarter of the world (Russia, not Brazil).
    const t = await call(s.client, "GetMapTile", {
      MapName: "Mercator",
      Level: 1,
      Row: 0,
      Column: 1,
      Format: "png",
    });
    const tile = decode(b64(t.Result));
    assert.equal(tile.width, 256);
    assert.equal(tile.height, 256);
    const R = 6378137, half = Math.PI * R, res = 78271.51696399994;
    const mx = (R * 100 * Math.PI) / 180,
      my = R * Math.log(Math.tan(Math.PI / 4 + (60 * Math.PI) / 360));
    assert.ok(near(pixel(tile, mx / res, (half - my) / res), LAND), "Siberia in tile 1/0/1");

    const vdir =
      (await call(s.client, "GetVirtualCacheDirectory", { MapName: "Mercator", LayerID: -1 }))
        .Result;
    assert.equal(
      vdir,
      `${s.baseUrl}/arcgis/rest/services/World/MapServer/tile/Mercator/_alllayers`,
    );
    const exploded = await fetch(`${vdir}/L01/R00000000/C00000001.png`);
    assert.equal(exploded.status, 200);
    const etag = exploded.headers.get("etag")!;
    assert.match(etag, /^"[0-9a-f]{16}"$/);
    assert.deepEqual(
      new Uint8Array(await exploded.arrayBuffer()),
      b64(t.Result),
      "same bytes over HTTP and SOAP",
    );
    const rest = await fetch(`${s.baseUrl}/arcgis/rest/services/World/MapServer/tile/1/0/1`, {
      headers: { "if-none-match": etag },
    });
    assert.equal(rest.status, 304);
    await rest.body?.cancel();
    const fresh = await fetch(`${s.baseUrl}/arcgis/rest/services/world/mapserver/tile/1/0/1`);
    assert.equal(fresh.status, 200);
    assert.match(fresh.headers.get("cache-control")!, /max-age=\d+/);
    await fresh.body?.cancel();
    const missing = await fetch(`${s.baseUrl}/arcgis/rest/services/World/MapServer/tile/1/5/0`);
    assert.equal(missing.status, 404);
    await missing.body?.cancel();

    assert.match(
      await expectClientFault(
        s.url,
        "GetMapTile",
        "<MapName>Mercator</MapName><Level>9</Level><Row>0</Row><Column>0</Column>",
      ),
      /Level 9/,
    );
    assert.match(
      await expectClientFault(
        s.url,
        "GetMapTile",
        "<MapName>Mercator</MapName><Level>1</Level><Row>2</Row><Column>0</Column>",
      ),
      /does not exist/,
    );
    assert.match(
      await expectClientFault(
        s.url,
        "GetMapTile",
        "<MapName>Layers</MapName><Level>0</Level><Row>0</Row><Column>0</Column>",
      ),
      /no tile cache/,
    );
    assert.match(
      await expectClientFault(
        s.url,
        "GetLayerTile",
        "<MapName>Mercator</MapName><LayerID>0</LayerID><Level>0</Level><Row>0</Row><Column>0</Column>",
      ),
      /GetMapTile/,
    );
  } finally {
    await s.close();
  }
});
