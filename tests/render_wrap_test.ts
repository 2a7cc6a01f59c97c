/**
 * One truth for a stored geometry: what ExportMapImage draws is what
 * Identify and QueryFeatureIDs find, on one server. Geometry is drawn as
 * stored (a ring whose edge jumps across the map is such an edge, a ring
 * is never closed through a pole on the fly), and a view past the
 * antimeridian draws the world again there and finds it there too.
 */
import assert from "node:assert/strict";
import { createMapServer } from "../map/mod.ts";
import type { MapService } from "../map/soap/operation.ts";
import { RendererSpecSchema } from "../map/document/renderer.ts";
import { openWorldAtlas } from "../map/sources/world_atlas.ts";
import type { FeatureSource } from "../map/sources/source.ts";
import { arcgisRoutes } from "../routes/arcgis.ts";
import { soapClient, startRoutesServer } from "./_soap_helpers.ts";
import {
  type Any,
  call,
  envelopeArg,
  imageDisplay,
  items,
  mapDescription,
  pointArg,
  typed,
} from "./_soap_query_fixtures.ts";
import { decode, MemorySource, near, pixel, type Pixels } from "./_render_helpers.ts";

const SEA = [255, 255, 255, 255];
const FILL = [30, 90, 200, 255];
const HALF = 20037508.342789244;
const merc = (lon: number) => (lon * HALF) / 180;

function service(world?: FeatureSource): MapService {
  const source = world ?? new MemorySource(
    [
      // Planar: a band from -179 to 178 (Fiji as some files store it). Not "unwrapped" into 178..181.
      {
        id: 1,
        attributes: {},
        geometry: {
          type: "Polygon",
          rings: [[[178, -16.3], [178, -16.6], [-179, -16.6], [-179, -16.3], [178, -16.3]]],
        },
      },
      // Planar: a triangle down to -80, not a cap closed through the South Pole.
      {
        id: 2,
        attributes: {},
        geometry: { type: "Polygon", rings: [[[-180, -80], [0, -70], [180, -80], [-180, -80]]] },
      },
      // Just east of the antimeridian: drawn again at 180..190 in a Pacific view.
      {
        id: 3,
        attributes: {},
        geometry: {
          type: "Polygon",
          rings: [[[-180, -20], [-180, -10], [-170, -10], [-170, -20], [-180, -20]]],
        },
      },
    ],
    "Polygon",
  );
  const layers = () => [{
    id: 0,
    name: "Stored",
    description: "",
    source,
    geometryType: "Polygon",
    fields: source.fields(),
    displayField: world ? "name" : "OBJECTID",
    visible: true,
    minScale: 0,
    maxScale: 0,
    definitionExpression: "",
    renderer: RendererSpecSchema.parse({
      type: "simple",
      symbol: { type: "simple-fill", color: FILL },
    }),
  }];
  const frame = (name: string, wkid: number, h: number) => ({
    name,
    description: "",
    wkid,
    fullExtent: { xmin: -h, ymin: -h / 2, xmax: h, ymax: h / 2 },
    initialExtent: { xmin: -h, ymin: -h / 2, xmax: h, ymax: h / 2 },
    units: wkid === 4326 ? "esriDecimalDegrees" : "esriMeters",
    backgroundColor: SEA.slice(0, 3),
    layers: layers(),
  });
  return {
    name: "Wrap",
    description: "",
    defaultMapName: "Layers",
    maps: [frame("Layers", 4326, 180), frame("Mercator", 3857, HALF)],
  } as unknown as MapService;
}

async function start(world?: FeatureSource) {
  const maps = createMapServer({
    services: [service(world)],
    outputDir: await Deno.makeTempDir({ prefix: "render-wrap-" }),
  });
  const routes = arcgisRoutes({ maps, baseUrl: (req) => new URL(req.url).origin });
  const server = startRoutesServer(routes);
  const client = await soapClient(`${server.serviceUrl("Wrap")}?wsdl`);
  return { client, close: () => server.close() };
}

type Extent4 = [number, number, number, number];

/** ExportMapImage as PNG32 pixels. */
async function draw(c: Any, map: string, extent: Extent4, w: number, h: number): Promise<Pixels> {
  const r = await call(c, "ExportMapImage", {
    MapDescription: mapDescription(map, extent),
    ImageDescription: {
      ImageType: { ImageFormat: "esriImagePNG32", ImageReturnType: "esriImageReturnMimeData" },
      ImageDisplay: imageDisplay(w, h),
    },
  });
  return decode(Uint8Array.from(atob(r.Result.ImageData), (ch) => ch.charCodeAt(0)));
}

/** Ids Identify finds at (x, y) in a view of `extent` drawn at w x h. */
async function identify(
  c: Any,
  map: string,
  extent: Extent4,
  w: number,
  h: number,
  x: number,
  y: number,
): Promise<number[]> {
  const r = await call(c, "Identify", {
    MapDescription: mapDescription(map, extent),
    MapImageDisplay: imageDisplay(w, h),
    SearchShape: pointArg(x, y),
    Tolerance: 0,
    IdentifyOption: "esriIdentifyAllLayers",
    LayerIDs: { Int: [0] },
  });
  return items(r.Result?.MapServerIdentifyResult).map((x: Any) => Number(x.FeatureID));
}

/** Ids QueryFeatureIDs finds intersecting an envelope. */
async function idsIn(c: Any, map: string, e: Extent4): Promise<number[]> {
  const r = await call(c, "QueryFeatureIDs", {
    MapName: map,
    LayerID: 0,
    QueryFilter: typed("SpatialFilter", {
      WhereClause: "",
      SearchOrder: "esriSearchOrderSpatial",
      SpatialRel: "esriSpatialRelIntersects",
      FilterGeometry: envelopeArg(...e),
    }),
  });
  return items(r.Result.FIDArray?.Int).map(Number);
}

/** Pixel of map position (x, y) in an image of `extent` at w x h (no widening: same aspect). */
function at(img: Pixels, extent: Extent4, x: number, y: number) {
  const [x0, y0, x1, y1] = extent;
  return pixel(img, ((x - x0) / (x1 - x0)) * img.width, ((y1 - y) / (y1 - y0)) * img.height);
}

Deno.test("drawing, Identify and QueryFeatureIDs see the geometry as stored", async () => {
  const s = await start();
  try {
    // The planar band covers 0°: drawn there, found there by an envelope and by Identify.
    const band: Extent4 = [-1, -17, 1, -16];
    const img = await draw(s.client, "Layers", band, 200, 100);
    assert.ok(near(at(img, band, 0, -16.45), FILL), "the stored band is drawn at 0°");
    assert.deepEqual(await idsIn(s.client, "Layers", [0, -16.6, 1, -16.3]), [1]);
    assert.deepEqual(await identify(s.client, "Layers", band, 200, 100, 0, -16.45), [1]);
    // The stored triangle ends at -80: nothing drawn or found at -88, both found at -72.
    const world: Extent4 = [-180, -90, 180, 90];
    const wimg = await draw(s.client, "Layers", world, 720, 360);
    assert.ok(near(at(wimg, world, 0, -88), SEA), "nothing is drawn at 0°, -88°");
    assert.deepEqual(await identify(s.client, "Layers", world, 720, 360, 0, -88), []);
    assert.ok(near(at(wimg, world, 0, -72), FILL), "the triangle is drawn at 0°, -72°");
    assert.deepEqual(await identify(s.client, "Layers", world, 720, 360, 0, -72), [2]);
  } finally {
    await s.close();
  }
});

Deno.test("past the antimeridian, what is drawn is found by Identify and by an envelope query", async () => {
  const s = await start();
  try {
    // WGS 84: the feature stored at -180..-170 is drawn at 180..190.
    const pacific: Extent4 = [160, -30, 200, 0];
    const img = await draw(s.client, "Layers", pacific, 400, 300);
    assert.ok(near(at(img, pacific, 185, -15), FILL), "drawn at 185°");
    assert.deepEqual(await identify(s.client, "Layers", pacific, 400, 300, 185, -15), [3]);
    assert.deepEqual(await identify(s.client, "Layers", pacific, 400, 300, 195, -15), []);
    assert.deepEqual(await idsIn(s.client, "Layers", [175, -16, 185, -14]), [3]);
    assert.deepEqual(await idsIn(s.client, "Layers", [191, -16, 199, -14]), []);
    // Web Mercator: the same in metres.
    const [mx0, my0, mx1, my1] = [merc(160), -3_500_000, merc(200), 0];
    const mext: Extent4 = [mx0, my0, mx1, my1];
    const h = Math.round(400 * (my1 - my0) / (mx1 - mx0));
    const mimg = await draw(s.client, "Mercator", mext, 400, h);
    const y = -1_700_000; // about -15.1°
    assert.ok(near(at(mimg, mext, merc(185), y), FILL), "drawn at 185° in Web Mercator");
    assert.deepEqual(await identify(s.client, "Mercator", mext, 400, h, merc(185), y), [3]);
    assert.deepEqual(
      await idsIn(s.client, "Mercator", [merc(175), y - 1e5, merc(185), y + 1e5]),
      [3],
    );
  } finally {
    await s.close();
  }
});

Deno.test("world-atlas repairs at load, and drawing and Identify see the repaired rings", async () => {
  // Its spherical rings are cut at the antimeridian and Antarctica is closed along the pole
  // when the source loads: that repaired geometry is what is drawn and what is found.
  const atlas = await openWorldAtlas({ scale: "110m" });
  const name = (id: number) => atlas.get(id)?.attributes.name;
  const s = await start(atlas);
  try {
    const world: Extent4 = [-180, -90, 180, 90];
    const img = await draw(s.client, "Layers", world, 720, 360);
    assert.ok(near(at(img, world, 0, -88), FILL), "Antarctica is drawn down to the pole");
    assert.deepEqual(
      (await identify(s.client, "Layers", world, 720, 360, 0, -88)).map(name),
      ["Antarctica"],
    );
    // Fiji is cut into pieces near ±180: no band across the map, drawn or found.
    assert.ok(near(at(img, world, 0, -16.45), SEA), "no band at 0°, -16.45°");
    assert.deepEqual(await idsIn(s.client, "Layers", [0, -16.6, 1, -16.3]), []);
    assert.deepEqual(
      (await identify(s.client, "Layers", world, 720, 360, 178.5, -17.9)).map(name),
      ["Fiji"],
    );
  } finally {
    await s.close();
  }
});
