/**
 * Requests real ArcGIS clients send, as they send them (issue 21): GDAL's
 * AGS mini-driver's MIME `format`, esri-leaflet's y-down bbox and
 * `returnExtentOnly`, QGIS's unquoted-key geometry JSON and empty
 * `layers=show:`, the ArcGIS Maps SDK's WKT spatial references across
 * 180°. Each is answered on a real server as ArcGIS Server answers it.
 */
import assert from "node:assert/strict";
import { startTestServer, type TestServer } from "./_api_helpers.ts";
import { assertRestError, rest } from "./_rest_helpers.ts";
import { assertSamePixels, decode, type Pixels } from "./_render_helpers.ts";
import { operationEnvelope, postSoap } from "./_soap_helpers.ts";
import { spatialReferenceWkt } from "../map/geo/projection.ts";
import geographiclib from "geographiclib-geodesic";

const SERVICE = "/services/Recruitment/MapServer";

/** GETs an export image; asserts a 200 of `type`. */
async function exportImage(s: TestServer, query: string, type = "image/png"): Promise<Uint8Array> {
  const res = await fetch(`${s.url}/arcgis/rest${SERVICE}/export?${query}`);
  const bytes = new Uint8Array(await res.arrayBuffer());
  assert.equal(res.status, 200, query);
  assert.equal(
    res.headers.get("content-type"),
    type,
    `${query}: ${new TextDecoder().decode(bytes.slice(0, 200))}`,
  );
  return bytes;
}

async function exportPixels(s: TestServer, query: string): Promise<Pixels> {
  return decode(await exportImage(s, query));
}

async function withServer(fn: (s: TestServer) => Promise<void>): Promise<void> {
  const s = await startTestServer();
  try {
    await fn(s);
  } finally {
    await s.close();
  }
}

const test = (name: string, fn: (s: TestServer) => Promise<void>) =>
  Deno.test({ name, sanitizeResources: false, sanitizeOps: false, fn: () => withServer(fn) });

test("REST export: format given as a MIME type (GDAL's AGS driver) draws that format", async (s) => {
  const view = "bbox=-180,-90,180,90&size=200,100&f=image";
  const png = await exportPixels(s, `${view}&format=png`);
  assertSamePixels(await exportPixels(s, `${view}&format=image/png`), png, "image/png");
  assertSamePixels(await exportPixels(s, `${view}&format=IMAGE/PNG`), png, "IMAGE/PNG");
  const png32 = await exportPixels(s, `${view}&format=png32`);
  assertSamePixels(await exportPixels(s, `${view}&format=image/png32`), png32, "image/png32");
  for (const mime of ["image/jpeg", "image/jpg"]) {
    const jpg = await exportImage(s, `${view}&format=${mime}`, "image/jpeg");
    assert.deepEqual([...jpg.slice(0, 2)], [0xff, 0xd8], mime);
  }
  const gif = await exportImage(s, `${view}&format=image/gif`, "image/gif");
  assert.equal(new TextDecoder().decode(gif.slice(0, 3)), "GIF");
  assertRestError(
    await rest(s.url, `${SERVICE}/export`, {
      bbox: "0,0,10,10",
      format: "image/svg+xml",
      f: "json",
    }),
    400,
    /'format'.*image\/png/,
  );
});

test("REST export and identify: an empty layer list (QGIS's layers=show:) keeps the default layers", async (s) => {
  const view = "bbox=20,40,60,60&size=400,200&format=png32&f=image";
  const defaults = await exportPixels(s, view);
  const hidden = await exportPixels(s, `${view}&layers=hide:0,1`);
  for (const op of ["show", "hide", "include", "exclude", "SHOW"]) {
    assertSamePixels(await exportPixels(s, `${view}&layers=${op}:`), defaults, `${op}:`);
  }
  assert.notDeepEqual(hidden.data, defaults.data, "hiding every layer draws another map");
  // identify: top:, visible: and all: with no ids search what top, visible and all search.
  const identify = async (layers: string) =>
    (await rest(s.url, `${SERVICE}/identify`, {
      geometry: "100,62",
      tolerance: "2",
      mapExtent: "20,40,180,78",
      imageDisplay: "800,400,96",
      layers,
      f: "json",
    })).body;
  for (const op of ["top", "visible", "all"]) {
    const plain = await identify(op);
    assert.ok(plain.results.length > 0, op);
    assert.deepEqual(await identify(`${op}:`), plain, `${op}:`);
  }
});

test("Envelopes with their corners in any order (esri-leaflet's y-down bbox) read as ArcGIS reads them", async (s) => {
  // esri-leaflet's dynamicMapLayer request, as captured: bbox=xmin,ymax,xmax,ymin.
  const rest21 = "size=800,500&dpi=96&format=png32&transparent=true&bboxSR=3857&imageSR=3857";
  const leaflet = await exportPixels(
    s,
    `bbox=2739503.09,12856096.66,18393806.49,3072157.04&${rest21}&f=image`,
  );
  const ordered = await exportPixels(
    s,
    `bbox=2739503.09,3072157.04,18393806.49,12856096.66&${rest21}&f=image`,
  );
  assertSamePixels(leaflet, ordered, "y-down bbox");
  // f=json reports the normalised extent.
  const json = (await rest(s.url, `${SERVICE}/export`, {
    bbox: "60,70,20,40",
    size: "400,300",
    f: "json",
  })).body;
  assert.deepEqual(json.extent, {
    xmin: 20,
    ymin: 40,
    xmax: 60,
    ymax: 70,
    spatialReference: { wkid: 4326, latestWkid: 4326 },
  });
  // bbox as an Esri JSON envelope, corners swapped, its spatialReference standing for bboxSR.
  const jsonBox = await exportPixels(
    s,
    `bbox=${
      encodeURIComponent(
        '{"xmin":18393806.49,"ymin":12856096.66,"xmax":2739503.09,"ymax":3072157.04,' +
          '"spatialReference":{"wkid":102100}}',
      )
    }&size=800,500&dpi=96&format=png32&transparent=true&f=image`,
  );
  assertSamePixels(jsonBox, ordered, "JSON bbox");

  // identify: mapExtent and an envelope geometry, corners swapped.
  const identify = async (mapExtent: string, geometry: string) =>
    (await rest(s.url, `${SERVICE}/identify`, {
      geometry,
      geometryType: "esriGeometryEnvelope",
      tolerance: "1",
      mapExtent,
      imageDisplay: "800,400,96",
      layers: "all",
      returnGeometry: "false",
      f: "json",
    })).body;
  const plain = await identify("20,40,180,78", "99,61,101,63");
  assert.ok(plain.results.length > 0, JSON.stringify(plain));
  assert.deepEqual(
    await identify(
      "180,40,20,78",
      '{"xmin":101,"ymin":63,"xmax":99,"ymax":61}',
    ),
    plain,
  );
  // query: an envelope geometry in either corner order finds the same features.
  const query = async (geometry: string) =>
    (await rest(s.url, `${SERVICE}/0/query`, {
      geometry,
      geometryType: "esriGeometryEnvelope",
      returnIdsOnly: "true",
      f: "json",
    })).body;
  const ids = await query("30,50,40,60");
  assert.ok(ids.objectIds.length > 0, JSON.stringify(ids));
  assert.deepEqual(await query("40,60,30,50"), ids);
  assert.deepEqual(await query('{"xmin":40,"ymin":50,"xmax":30,"ymax":60}'), ids);

  // SOAP reads an inverted EnvelopeN the same way (ArcGIS's PutCoords): the same scale.
  const scale = async (xmin: number, ymin: number, xmax: number, ymax: number) => {
    const reply = await postSoap(
      `${s.url}/arcgis/services/Recruitment/MapServer`,
      operationEnvelope(
        "ComputeScale",
        `<MapDescription><Name>Layers</Name><MapArea xsi:type="e:MapExtent"><Extent xsi:type="e:EnvelopeN">` +
          `<XMin>${xmin}</XMin><YMin>${ymin}</YMin><XMax>${xmax}</XMax><YMax>${ymax}</YMax></Extent>` +
          `</MapArea></MapDescription><MapImageDisplay><ImageHeight>400</ImageHeight>` +
          `<ImageWidth>800</ImageWidth><ImageDPI>96</ImageDPI></MapImageDisplay>`,
      ),
    );
    assert.equal(reply.status, 200, reply.text.slice(0, 500));
    return Number(/<Result>([^<]*)<\/Result>/.exec(reply.text)?.[1]);
  };
  const normal = await scale(0, 0, 10, 1);
  assert.ok(normal > 0);
  assert.equal(await scale(10, 1, 0, 0), normal);
});

test("REST query: returnExtentOnly answers the extent of every match, in outSR (esri-leaflet's bounds())", async (s) => {
  const query = async (params: Record<string, string>) =>
    (await rest(s.url, `${SERVICE}/0/query`, { where: "1=1", f: "json", ...params })).body;
  const ids = (await query({ returnIdsOnly: "true" })).objectIds as number[];
  const some = ids.slice(0, 5).join(",");
  for (const outSR of ["4326", "102100"]) {
    const { features } = await query({ objectIds: some, outSR, returnGeometry: "true" });
    assert.equal(features.length, 5);
    const xs = features.map((f: { geometry: { x: number } }) => f.geometry.x);
    const ys = features.map((f: { geometry: { y: number } }) => f.geometry.y);
    const { extent } = await query({ objectIds: some, outSR, returnExtentOnly: "true" });
    assert.deepEqual(extent, {
      xmin: Math.min(...xs),
      ymin: Math.min(...ys),
      xmax: Math.max(...xs),
      ymax: Math.max(...ys),
      spatialReference: outSR === "4326"
        ? { wkid: 4326, latestWkid: 4326 }
        : { wkid: 102100, latestWkid: 3857 },
    });
  }
  // Every match counts (not only a page of maxRecordCount); with returnCountOnly, the count too.
  const all = await query({ returnExtentOnly: "true", returnCountOnly: "true" });
  assert.deepEqual(Object.keys(all), ["count", "extent"]);
  assert.equal(all.count, ids.length);
  const xs: number[] = [];
  const ys: number[] = [];
  for (let offset = 0; offset < ids.length; offset += 500) {
    const page = await query({
      returnGeometry: "true",
      resultOffset: String(offset),
      resultRecordCount: "500",
    });
    for (const f of page.features) {
      xs.push(f.geometry.x);
      ys.push(f.geometry.y);
    }
  }
  assert.equal(xs.length, ids.length);
  assert.deepEqual(
    [all.extent.xmin, all.extent.ymin, all.extent.xmax, all.extent.ymax],
    [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)],
  );
  // No match: the empty envelope ArcGIS Server's MapServer answers.
  assert.deepEqual(await query({ where: "1=2", returnExtentOnly: "true" }), {
    extent: {
      xmin: "NaN",
      ymin: "NaN",
      xmax: "NaN",
      ymax: "NaN",
      spatialReference: { wkid: 4326, latestWkid: 4326 },
    },
  });
  // The layer says it can.
  const layer = (await rest(s.url, `${SERVICE}/0`, { f: "json" })).body;
  assert.equal(layer.advancedQueryCapabilities.supportsReturningQueryExtent, true);
});

test("REST JSON parameters read as leniently as ArcGIS reads them (QGIS's {x: 31, y: 51})", async (s) => {
  // QGIS's identify, as captured: unquoted member names.
  const identify = async (geometry: string, extra: Record<string, string> = {}) =>
    (await rest(s.url, `${SERVICE}/identify`, {
      f: "json",
      geometryType: "esriGeometryPoint",
      geometry,
      tolerance: "2",
      mapExtent: "20,40,60,60",
      imageDisplay: "800,400,96",
      layers: "all:1",
      returnGeometry: "false",
      ...extra,
    })).body;
  const strict = await identify('{"x":31,"y":51}');
  assert.deepEqual(strict.results.map((r: { value: string }) => r.value), ["Ukraine"]);
  assert.deepEqual(await identify("{x: 31.000000, y: 51.000000}"), strict);
  assert.deepEqual(
    await identify("{'x': 31, 'y': 51, spatialReference: {wkid: 4326,},}", {
      mapExtent: "{xmin: 20, ymin: 40, xmax: 60, ymax: 60, /* the view */}",
      sr: "{wkid: 4326}",
      layerDefs: "{1: 'NAME <> \\'Russia\\''}",
    }),
    strict,
  );
  // Every JSON parameter of query: geometry, inSR, outSR, outStatistics.
  const query = async (params: Record<string, string>) =>
    (await rest(s.url, `${SERVICE}/0/query`, { f: "json", ...params })).body;
  const box = await query({
    geometry: '{"xmin":20,"ymin":40,"xmax":60,"ymax":60}',
    inSR: '{"wkid":4326}',
    outSR: '{"wkid":102100}',
    returnIdsOnly: "true",
  });
  assert.ok(box.objectIds.length > 0);
  assert.deepEqual(
    await query({
      geometry: "{xmin: 20, ymin: 40, xmax: 60, ymax: 60,}",
      inSR: "{wkid: 4326}",
      outSR: "{wkid: 102100, latestWkid: 3857}",
      returnIdsOnly: "true",
    }),
    box,
  );
  const statistics = (text: string) => query({ outStatistics: text, where: "1=1" });
  assert.deepEqual(
    await statistics(
      "[{statisticType: 'count', onStatisticField: 'id', outStatisticFieldName: 'n',},]",
    ),
    await statistics(
      '[{"statisticType":"count","onStatisticField":"id","outStatisticFieldName":"n"}]',
    ),
  );
  // export: bboxSR, imageSR and layerDefs.
  const view = "bbox=20,40,60,60&size=200,100&format=png32&f=image";
  assertSamePixels(
    await exportPixels(
      s,
      `${view}&bboxSR=${encodeURIComponent("{wkid: 4326}")}&imageSR=${
        encodeURIComponent("{'wkid': 4326}")
      }&layerDefs=${encodeURIComponent("{0: 'id < 0'}")}`,
    ),
    await exportPixels(s, `${view}&layerDefs=${encodeURIComponent('{"0":"id < 0"}')}`),
    "lenient bboxSR, imageSR, layerDefs",
  );
  // What no ArcGIS parser reads stays a 400 naming the parameter and the place.
  assertRestError(
    await rest(s.url, `${SERVICE}/identify`, {
      geometry: "{x: 31 y: 51}",
      tolerance: "2",
      mapExtent: "20,40,60,60",
      imageDisplay: "800,400,96",
      f: "json",
    }),
    400,
    /'geometry'.*character 8/,
  );
  assertRestError(
    await rest(s.url, `${SERVICE}/0/query`, { outSR: "{wkid: }", f: "json" }),
    400,
    /'outSR'/,
  );
});

/**
 * The Web Mercator WKT the ArcGIS Maps SDK's MapImageLayer sends across 180°
 * (captured): ArcGIS's own, with its central meridian moved.
 */
function sdkWebMercator(centralMeridian: string): string {
  const wkt = spatialReferenceWkt(3857)!;
  assert.match(wkt, /"Central_Meridian",0\.0/);
  return wkt.replace('"Central_Meridian",0.0', `"Central_Meridian",${centralMeridian}`);
}

const R = 6378137;
const mercX = (lon: number) => R * lon * Math.PI / 180;
const mercY = (lat: number) => R * Math.log(Math.tan(Math.PI / 4 + lat * Math.PI / 360));

test("REST export: WKT spatial references, and the SDK's Web Mercator with a moved central meridian across 180°", async (s) => {
  const SEA = [205, 225, 240, 255];
  const LAND = [244, 241, 230, 255];
  const near = (a: readonly number[], b: readonly number[]) =>
    a.every((v, i) => Math.abs(v - b[i]) <= 4);
  const wkt = encodeURIComponent(JSON.stringify({ wkt: sdkWebMercator("99.99999999999999") }));
  // The view around 180° (lon 150°..210°, lat 50°..75°), in the SDK's frame: x = R * (lon - 100°).
  const [y0, y1] = [mercY(50), mercY(75)];
  const frame = [mercX(50), y0, mercX(110), y1];
  const shifted = `bbox=${frame.join(",")}&bboxSR=${wkt}&imageSR=${wkt}&size=600,400&format=png32`;
  const image = await exportPixels(s, `${shifted}&f=image`);
  // The same ground in plain Web Mercator, past the antimeridian: the same pixels.
  const plain = [mercX(150), y0, mercX(210), y1];
  assertSamePixels(
    image,
    await exportPixels(s, `bbox=${plain.join(",")}&bboxSR=3857&size=600,400&format=png32&f=image`),
    "moved meridian = plain Web Mercator across 180°",
  );
  // f=json: the extent in the SDK's frame, with its WKT.
  const json = (await rest(s.url, `${SERVICE}/export?${shifted}&f=json`)).body;
  assert.deepEqual(json.extent.spatialReference, { wkt: sdkWebMercator("99.99999999999999") });
  const e = json.extent;
  // The bbox, widened to the image's aspect around its centre, in the SDK's frame.
  assert.ok(Math.abs((e.xmin + e.xmax) / 2 - (frame[0] + frame[2]) / 2) < 1e-3, JSON.stringify(e));
  assert.ok(Math.abs(e.ymin - y0) < 1e-3 && Math.abs(e.ymax - y1) < 1e-3, JSON.stringify(e));
  // Known places land where they are: Chukotka (170°E, 67°N) and Alaska (155°W, 66°N) are
  // land, the Bering Sea (175°W, 57°N) is sea.
  const at = (lon: number, lat: number) => {
    const px = (mercX(lon - 100) - e.xmin) / (e.xmax - e.xmin) * image.width;
    const py = (e.ymax - mercY(lat)) / (e.ymax - e.ymin) * image.height;
    const i = (Math.floor(py) * image.width + Math.floor(px)) * 4;
    return [...image.data.slice(i, i + 4)];
  };
  assert.ok(near(at(170, 67), LAND), `Chukotka ${at(170, 67)}`);
  assert.ok(near(at(-155, 66), LAND), `Alaska ${at(-155, 66)}`);
  assert.ok(near(at(-175, 57), SEA), `Bering Sea ${at(-175, 57)}`);

  // WKT naming plain Web Mercator and WGS 84 draws as their WKIDs do.
  const view = "bbox=-2000000,4000000,6000000,9000000&size=300,200&format=png32&f=image";
  const byWkid = await exportPixels(s, `${view}&bboxSR=102100`);
  assertSamePixels(
    await exportPixels(
      s,
      `${view}&bboxSR=${encodeURIComponent(JSON.stringify({ wkt: sdkWebMercator("0.0") }))}`,
    ),
    byWkid,
    "Web Mercator WKT",
  );
  assertSamePixels(
    await exportPixels(
      s,
      `${view}&bboxSR=${encodeURIComponent('{"wkid": 102100, "latestWkid": 3857}')}`,
    ),
    byWkid,
    "wkid and latestWkid",
  );
  const ogcWgs84 = 'GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563,' +
    'AUTHORITY["EPSG","7030"]],AUTHORITY["EPSG","6326"]],PRIMEM["Greenwich",0],' +
    'UNIT["degree",0.0174532925199433],AUTHORITY["EPSG","4326"]]';
  const geoView = "bbox=20,40,60,60&size=200,100&format=png32&f=image";
  assertSamePixels(
    await exportPixels(
      s,
      `${geoView}&bboxSR=${encodeURIComponent(JSON.stringify({ wkt: ogcWgs84 }))}`,
    ),
    await exportPixels(s, `${geoView}&bboxSR=4326`),
    "OGC WGS 84 WKT",
  );
  // query and identify take WKT too (inSR, outSR, sr).
  const ids = async (params: Record<string, string>) =>
    (await rest(s.url, `${SERVICE}/0/query`, { returnIdsOnly: "true", f: "json", ...params })).body;
  assert.deepEqual(
    await ids({ geometry: "20,40,60,60", inSR: JSON.stringify({ wkt: ogcWgs84 }) }),
    await ids({ geometry: "20,40,60,60", inSR: "4326" }),
  );
  const q = (outSR: string) =>
    rest(s.url, `${SERVICE}/0/query`, { where: "1=1", resultRecordCount: "3", outSR, f: "json" });
  const merc = (await q(JSON.stringify({ wkt: sdkWebMercator("0") }))).body;
  assert.deepEqual(merc.features, (await q("3857")).body.features);
  // What cannot be drawn or projected is a 400 that says what is unsupported.
  const lambert =
    'PROJCS["RGF93 / Lambert-93",GEOGCS["RGF93",DATUM["RGF93",SPHEROID["GRS 1980",6378137,' +
    '298.257222101]],PRIMEM["Greenwich",0],UNIT["degree",0.0174532925199433]],' +
    'PROJECTION["Lambert_Conformal_Conic_2SP"],PARAMETER["standard_parallel_1",49],' +
    'PARAMETER["standard_parallel_2",44],PARAMETER["latitude_of_origin",46.5],' +
    'PARAMETER["central_meridian",3],PARAMETER["false_easting",700000],' +
    'PARAMETER["false_northing",6600000],UNIT["metre",1]]';
  assertRestError(
    await rest(s.url, `${SERVICE}/export`, {
      bbox: "0,0,1,1",
      imageSR: JSON.stringify({ wkt: lambert }),
      f: "json",
    }),
    400,
    /'imageSR'.*Lambert_Conformal_Conic_2SP is not supported/,
  );
});

test("REST query and identify in the SDK's moved-meridian Web Mercator (inSR, outSR, sr)", async (s) => {
  const moved = JSON.stringify({ wkt: sdkWebMercator("100.0") });
  const shift = mercX(100);
  const world = 2 * mercX(180);
  const query = async (params: Record<string, string>) =>
    (await rest(s.url, `${SERVICE}/0/query`, { f: "json", ...params })).body;
  // outSR: each point is where it lies in the moved frame, inside its one world.
  const plain = await query({ where: "1=1", resultRecordCount: "50", outSR: "3857" });
  const inFrame = await query({ where: "1=1", resultRecordCount: "50", outSR: moved });
  assert.deepEqual(inFrame.spatialReference, { wkt: sdkWebMercator("100.0") });
  assert.equal(inFrame.features.length, plain.features.length);
  for (const [i, f] of inFrame.features.entries()) {
    const x = plain.features[i].geometry.x - shift;
    const expected = x < -world / 2 ? x + world : x;
    assert.ok(Math.abs(f.geometry.x - expected) < 1e-6, `${f.geometry.x} vs ${expected}`);
    assert.ok(f.geometry.x >= -world / 2 && f.geometry.x <= world / 2);
    assert.equal(f.geometry.y, plain.features[i].geometry.y);
  }
  // inSR: a box given in the moved frame finds what the same box in degrees finds.
  const box = [mercX(20 - 100), mercY(40), mercX(60 - 100), mercY(60)].join(",");
  const ids = (await query({ geometry: box, inSR: moved, returnIdsOnly: "true" })).objectIds;
  assert.ok(ids.length > 0);
  assert.deepEqual(
    ids,
    (await query({ geometry: "20,40,60,60", inSR: "4326", returnIdsOnly: "true" })).objectIds,
  );
  // returnExtentOnly in the moved frame.
  const { extent } = await query({
    objectIds: ids.slice(0, 3).join(","),
    outSR: moved,
    returnExtentOnly: "true",
  });
  const { extent: extentDeg } = await query({
    objectIds: ids.slice(0, 3).join(","),
    returnExtentOnly: "true",
  });
  assert.ok(Math.abs(extent.xmin - mercX(extentDeg.xmin - 100)) < 1e-3, JSON.stringify(extent));
  assert.deepEqual(extent.spatialReference, { wkt: sdkWebMercator("100.0") });
  // identify with sr in the moved frame: Ukraine at (31°E, 51°N), its shape in that frame.
  const identify = async (sr: string, geometry: string, mapExtent: string) =>
    (await rest(s.url, `${SERVICE}/identify`, {
      geometry,
      sr,
      mapExtent,
      imageDisplay: "800,400,96",
      tolerance: "2",
      layers: "all:1",
      f: "json",
    })).body;
  const deg = await identify("4326", "31,51", "20,40,60,60");
  const frame = await identify(
    moved,
    `${mercX(31 - 100)},${mercY(51)}`,
    `${mercX(20 - 100)},${mercY(40)},${mercX(60 - 100)},${mercY(60)}`,
  );
  assert.deepEqual(frame.results.map((r: { value: string }) => r.value), ["Ukraine"]);
  assert.deepEqual(frame.results[0].attributes, deg.results[0].attributes);
  assert.deepEqual(frame.results[0].geometry.spatialReference, { wkt: sdkWebMercator("100.0") });
  const xs = frame.results[0].geometry.rings.flat().map((p: number[]) => p[0]);
  assert.ok(
    Math.min(...xs) > mercX(20 - 100) && Math.max(...xs) < mercX(42 - 100),
    `${Math.min(...xs)}`,
  );
});

test("REST layerDefs as esri-leaflet writes them (`<id>:<where>;`, trailing ';') filter identify and find", async (s) => {
  const identify = async (layerDefs?: string) =>
    (await rest(s.url, `${SERVICE}/identify`, {
      geometry: "67,48",
      geometryType: "esriGeometryPoint",
      sr: "4326",
      mapExtent: "0,0,100,80",
      imageDisplay: "800,500,96",
      tolerance: "3",
      layers: "all:1",
      returnGeometry: "false",
      f: "json",
      ...(layerDefs === undefined ? {} : { layerDefs }),
    })).body;
  assert.deepEqual(
    (await identify()).results.map((r: { value: string }) => r.value),
    ["Kazakhstan"],
  );
  assert.deepEqual((await identify("1:name <> 'Kazakhstan';")).results, []);
  assert.deepEqual(
    (await identify("0:1=1;1:name = 'Kazakhstan';")).results.map((r: { value: string }) => r.value),
    ["Kazakhstan"],
  );
  // A ';' inside a quoted value stays part of the where clause.
  assert.deepEqual((await identify("1:name = 'Kazakhstan;';")).results, []);
  const find = await rest(s.url, `${SERVICE}/find`, {
    searchText: "Russia",
    searchFields: "name",
    layers: "1",
    returnGeometry: "false",
    layerDefs: "1:name <> 'x';",
    f: "json",
  });
  assert.deepEqual(find.body.results.map((r: { value: string }) => r.value), ["Russia"]);
  assertRestError(
    await rest(s.url, `${SERVICE}/identify`, {
      geometry: "67,48",
      sr: "4326",
      mapExtent: "0,0,100,80",
      imageDisplay: "800,500,96",
      tolerance: "3",
      layerDefs: "1:name = 'x';;",
      f: "json",
    }),
    400,
    /layerDefs/,
  );
});

test("REST query distance/units around a point (esri-leaflet's nearby) finds what lies within it", async (s) => {
  const query = async (params: Record<string, string>) =>
    (await rest(s.url, `${SERVICE}/0/query`, { f: "json", where: "1=1", ...params })).body;
  const all = (await query({ outFields: "id", outSR: "4326", resultRecordCount: "2000" })).features;
  const [lng, lat] = [37.6, 55.75];
  const radius = 400_000;
  const { Geodesic } = geographiclib;
  const near = new Set<number>(), edge = new Set<number>();
  for (const f of all) {
    const d = Geodesic.WGS84.Inverse(lat, lng, f.geometry.y, f.geometry.x).s12 ?? 0;
    if (Math.abs(d - radius) < radius * 0.01) edge.add(f.attributes.id);
    else if (d < radius) near.add(f.attributes.id);
  }
  assert.ok(near.size > 0 && near.size < all.length, `${near.size} of ${all.length}`);
  const info = (await rest(s.url, `${SERVICE}/0`, { f: "json" })).body;
  assert.equal(info.advancedQueryCapabilities.supportsQueryWithDistance, true);
  // As esri-leaflet sends it: geometry=lng,lat, inSR=4326, distance in metres.
  const nearby = {
    geometry: `${lng},${lat}`,
    geometryType: "esriGeometryPoint",
    inSR: "4326",
    spatialRel: "esriSpatialRelIntersects",
    units: "esriSRUnit_Meter",
    distance: String(radius),
    returnIdsOnly: "true",
  };
  const found: number[] = (await query(nearby)).objectIds;
  assert.deepEqual(
    found.filter((id) => !edge.has(id)).sort((a, b) => a - b),
    [...near].sort((a, b) => a - b),
  );
  assert.equal(
    (await query({ ...nearby, returnIdsOnly: "false", returnCountOnly: "true" })).count,
    found.length,
  );
  // The same circle in kilometres, and around the point given in Web Mercator.
  assert.deepEqual(
    (await query({ ...nearby, units: "esriSRUnit_Kilometer", distance: String(radius / 1000) }))
      .objectIds,
    found,
  );
  const x = lng * 20037508.342789244 / 180;
  const y = Math.log(Math.tan((90 + lat) * Math.PI / 360)) * 6378137;
  assert.deepEqual(
    (await query({ ...nearby, geometry: `${x},${y}`, inSR: "3857" })).objectIds,
    found,
  );
  // No distance keeps the point itself; a distance around a box is refused, not ignored.
  assert.deepEqual((await query({ ...nearby, distance: "0" })).objectIds, []);
  assertRestError(
    await rest(s.url, `${SERVICE}/0/query`, {
      f: "json",
      geometry: "30,50,40,60",
      geometryType: "esriGeometryEnvelope",
      distance: "1000",
    }),
    400,
    /distance/,
  );
  assertRestError(
    await rest(s.url, `${SERVICE}/0/query`, { ...nearby, units: "parsecs", f: "json" }),
    400,
    /units/,
  );
});

test("REST export: a fractional size (OpenLayers' TileArcGISRest at pixel ratio 1.1) is rounded", async (s) => {
  // OpenLayers' getRequestUrl: size = tile extent / (resolution / pixelRatio), to 4 decimals.
  const view = "bbox=0,40,40,80&bboxSR=4326&imageSR=4326&dpi=99&format=png32&transparent=true";
  const whole = await exportPixels(s, `${view}&size=282,282&f=image`);
  const fractional = await exportPixels(s, `${view}&size=281.6,281.6&f=image`);
  assert.equal(fractional.width, 282);
  assert.equal(fractional.height, 282);
  assertSamePixels(fractional, whole, "281.6 draws as 282");
  const json = await rest(s.url, `${SERVICE}/export`, {
    bbox: "0,40,40,80",
    size: "281.6,140.2",
    f: "json",
  });
  assert.deepEqual([json.body.width, json.body.height], [282, 140]);
  for (const size of ["0.4,10", "10,-1", "a,b", "10"]) {
    assertRestError(
      await rest(s.url, `${SERVICE}/export`, { bbox: "0,40,40,80", size, f: "json" }),
      400,
      /'size'/,
    );
  }
});
