/**
 * ComputeScale, ComputeDistance, ToMapPoints and FromMapPoints through a
 * real node-soap client built from our WSDL, on a loopback server; every
 * response validated against our WSDL's schema.
 */
import assert from "node:assert/strict";
import { memoryService } from "./_soap_helpers.ts";
import {
  call,
  expectClientFault,
  imageDisplay,
  items,
  mapDescription,
  near,
  pointArg,
  startQueryServer,
  typed,
  withFixture,
} from "./_soap_query_fixtures.ts";

const KM = 1000;
// GeographicLib reference (Karney): JFK (40.6N, 73.8W) -> LHR (51.6N, 0.5W) on WGS 84.
const JFK_LHR_M = 5551759.400319;
// Vincenty's published test line: Flinders Peak -> Buninyong, 54972.271 m.
const FLINDERS = [144 + 25 / 60 + 29.5244 / 3600, -(37 + 57 / 60 + 3.7203 / 3600)];
const BUNINYONG = [143 + 55 / 60 + 35.3839 / 3600, -(37 + 39 / 60 + 10.1561 / 3600)];

Deno.test("ComputeDistance: geodesic on WGS 84 in every linear unit, arc degrees, planar on Web Mercator", async () => {
  const server = await startQueryServer([memoryService("Geo")]);
  try {
    const c = await server.client("Geo");
    const dist = async (
      units: string | undefined,
      from = [-73.8, 40.6],
      to = [-0.5, 51.6],
      map = "Layers",
    ) =>
      Number(
        (await call(c, "ComputeDistance", {
          MapName: map,
          FromPoint: pointArg(from[0], from[1]),
          ToPoint: pointArg(to[0], to[1]),
          ...(units ? { Units: units } : {}),
        })).Result,
      );
    near(await dist("esriMeters"), JFK_LHR_M, 1e-5, "metres");
    near(await dist("esriKilometers"), JFK_LHR_M / KM, 1e-8, "km");
    near(await dist("esriMiles"), JFK_LHR_M / 1609.344, 1e-8, "miles");
    near(await dist("esriNauticalMiles"), JFK_LHR_M / 1852, 1e-8, "nautical miles");
    near(await dist("esriFeet"), JFK_LHR_M / 0.3048, 1e-4, "feet");
    near(await dist("esriYards"), JFK_LHR_M / 0.9144, 1e-4, "yards");
    near(await dist("esriInches"), JFK_LHR_M / 0.0254, 1e-3, "inches");
    near(await dist("esriPoints"), JFK_LHR_M / (0.0254 / 72), 1e-1, "points");
    near(await dist("esriCentimeters"), JFK_LHR_M * 100, 1e-3, "cm");
    near(await dist("esriMillimeters"), JFK_LHR_M * 1000, 1e-2, "mm");
    near(await dist("esriDecimeters"), JFK_LHR_M * 10, 1e-4, "dm");
    // No unit: metres.
    near(await dist(undefined), JFK_LHR_M, 1e-5, "default unit");
    // Degrees: the geodesic's arc on the auxiliary sphere, ~49.94°.
    const deg = await dist("esriDecimalDegrees");
    assert.ok(deg > 49.9 && deg < 50, `arc degrees ${deg}`);
    near(
      await dist("esriMeters", FLINDERS, BUNINYONG),
      54972.271,
      1e-3,
      "Flinders Peak -> Buninyong",
    );
    // Same point: zero.
    assert.equal(await dist("esriMeters", [10, 10], [10, 10]), 0);

    // Web Mercator map: planar in map metres.
    near(await dist("esriMeters", [0, 0], [3000, 4000], "Mercator"), 5000, 1e-9, "planar m");
    near(await dist("esriKilometers", [0, 0], [3000, 4000], "Mercator"), 5, 1e-12, "planar km");

    // Points in another SR are projected to the map's first: WGS 84 points on the Mercator map.
    const r = await call(c, "ComputeDistance", {
      MapName: "Layers",
      FromPoint: pointArg(0, 0, 3857),
      ToPoint: pointArg(111319.49079327357, 0, 3857),
      Units: "esriMeters",
    });
    // One degree of longitude along the equator on WGS 84: 111319.4908 m.
    near(Number(r.Result), 111319.49079327357, 1e-6, "1 degree along the equator");
  } finally {
    await server.close();
  }
});

Deno.test("ComputeScale uses the aspect-adjusted extent, DPI and 39.37 in/m", async () => {
  const server = await startQueryServer([memoryService("Geo")]);
  try {
    const c = await server.client("Geo");
    // 30° x 10° on 600 x 200 px: resolution 0.05°/px.
    const geo = await call(c, "ComputeScale", {
      MapDescription: mapDescription("Layers", [30, 50, 60, 60]),
      MapImageDisplay: imageDisplay(600, 200, 96),
    });
    near(Number(geo.Result), 0.05 * 111319.49079327358 * 96 * 39.37, 1e-6, "geographic scale");
    // Widened extent: 30° x 30° on 600 x 200 px -> resolution 0.15°/px.
    const wide = await call(c, "ComputeScale", {
      MapDescription: mapDescription("Layers", [30, 30, 60, 60]),
      MapImageDisplay: imageDisplay(600, 200, 96),
    });
    near(
      Number(wide.Result),
      0.15 * 111319.49079327358 * 96 * 39.37,
      1e-6,
      "aspect-adjusted scale",
    );
    // Web Mercator LOD 0 (Esri: 591657527.591555).
    const merc = await call(c, "ComputeScale", {
      MapDescription: mapDescription("Mercator", [
        -20037508.342789244,
        -20037508.342789244,
        20037508.342789244,
        20037508.342789244,
      ]),
      MapImageDisplay: imageDisplay(256, 256, 96),
    });
    near(Number(merc.Result), 591657527.591555, 1e-3, "Web Mercator level 0");
    // DPI matters: 192 dpi doubles the scale.
    const hi = await call(c, "ComputeScale", {
      MapDescription: mapDescription("Layers", [30, 50, 60, 60]),
      MapImageDisplay: imageDisplay(600, 200, 192),
    });
    near(Number(hi.Result), 2 * Number(geo.Result), 1e-6, "192 dpi");
    // CenterAndScale map area round-trips its scale.
    const cs = await call(c, "ComputeScale", {
      MapDescription: {
        Name: "Mercator",
        MapArea: typed("CenterAndScale", { Center: pointArg(0, 0), Scale: 50000 }),
        Rotation: 0,
      },
      MapImageDisplay: imageDisplay(800, 600, 96),
    });
    near(Number(cs.Result), 50000, 1e-6, "CenterAndScale");
  } finally {
    await server.close();
  }
});

Deno.test("ToMapPoints / FromMapPoints: upper-left pixel origin on the aspect-adjusted extent", async () => {
  const server = await startQueryServer([memoryService("Geo")]);
  try {
    const c = await server.client("Geo");
    // 0..100 x 0..100 on 200 x 100 px widens to -50..150 x 0..100, 1 unit/px.
    const md = mapDescription("Layers", [0, 0, 100, 100]);
    const display = imageDisplay(200, 100);
    const r = await call(c, "ToMapPoints", {
      MapDescription: md,
      MapImageDisplay: display,
      ScreenXValues: { Int: [0, 200, 10, 100] },
      ScreenYValues: { Int: [0, 100, 20, 50] },
    });
    assert.equal(r.Result.attributes["xsi:type"], "tns:MultipointN");
    const pts = items(r.Result.PointArray.Point).map((p) => [Number(p.X), Number(p.Y)]);
    const expected = [[-50, 100], [150, 0], [-40, 80], [50, 50]];
    assert.equal(pts.length, 4);
    pts.forEach((p, i) => {
      near(p[0], expected[i][0], 1e-9, `x${i}`);
      near(p[1], expected[i][1], 1e-9, `y${i}`);
    });
    assert.equal(r.Result.SpatialReference.WKID, 4326);

    const back = await call(c, "FromMapPoints", {
      MapDescription: md,
      MapImageDisplay: display,
      MapPoints: typed("MultipointN", {
        HasID: false,
        HasZ: false,
        HasM: false,
        PointArray: { Point: expected.map(([x, y]) => pointArg(x, y)) },
      }),
    });
    assert.deepEqual(items(back.ScreenXValues.Int).map(Number), [0, 200, 10, 100]);
    assert.deepEqual(items(back.ScreenYValues.Int).map(Number), [0, 100, 20, 50]);

    // Fractional pixels round to the nearest integer.
    const frac = await call(c, "FromMapPoints", {
      MapDescription: md,
      MapImageDisplay: display,
      MapPoints: typed("MultipointN", {
        HasID: false,
        HasZ: false,
        HasM: false,
        PointArray: { Point: [pointArg(-49.4, 99.6)] },
      }),
    });
    assert.deepEqual(items(frac.ScreenXValues.Int).map(Number), [1]);
    assert.deepEqual(items(frac.ScreenYValues.Int).map(Number), [0]);
  } finally {
    await server.close();
  }
});

Deno.test("ToMapPoints in a requested output SR; FromMapPoints projects points given in another SR", async () => {
  const server = await startQueryServer([memoryService("Geo")]);
  try {
    const c = await server.client("Geo");
    // The WGS 84 map drawn in Web Mercator: the extent is given in 3857.
    const md = {
      ...mapDescription("Layers", [-1000, -1000, 1000, 1000]),
      SpatialReference: typed("ProjectedCoordinateSystem", { WKID: 102100 }),
    };
    const r = await call(c, "ToMapPoints", {
      MapDescription: md,
      MapImageDisplay: imageDisplay(100, 100),
      ScreenXValues: { Int: [50] },
      ScreenYValues: { Int: [0] },
    });
    const p = items(r.Result.PointArray.Point)[0];
    near(Number(p.X), 0, 1e-9, "x");
    near(Number(p.Y), 1000, 1e-9, "y");
    assert.equal(Number(r.Result.SpatialReference.WKID), 102100);
    // A WGS 84 point at the map's centre lands on the centre pixel.
    const s = await call(c, "FromMapPoints", {
      MapDescription: md,
      MapImageDisplay: imageDisplay(100, 100),
      MapPoints: typed("MultipointN", {
        HasID: false,
        HasZ: false,
        HasM: false,
        PointArray: { Point: [pointArg(0, 0)] },
        SpatialReference: typed("GeographicCoordinateSystem", { WKID: 4326 }),
      }),
    });
    assert.deepEqual(items(s.ScreenXValues.Int).map(Number), [50]);
    assert.deepEqual(items(s.ScreenYValues.Int).map(Number), [50]);
  } finally {
    await server.close();
  }
});

Deno.test("coordinate operations fault on bad input", async () => {
  const server = await startQueryServer([memoryService("Geo")]);
  try {
    const url = server.serviceUrl("Geo");
    const md =
      `<MapDescription><Name>Layers</Name><MapArea xsi:type="e:MapExtent"><Extent xsi:type="e:EnvelopeN">` +
      `<XMin>0</XMin><YMin>0</YMin><XMax>10</XMax><YMax>10</YMax></Extent></MapArea><Rotation>0</Rotation></MapDescription>`;
    const disp =
      `<MapImageDisplay><ImageHeight>100</ImageHeight><ImageWidth>100</ImageWidth><ImageDPI>96</ImageDPI></MapImageDisplay>`;
    assert.match(
      await expectClientFault(
        url,
        "ToMapPoints",
        `${md}${disp}<ScreenXValues><Int>1</Int><Int>2</Int></ScreenXValues><ScreenYValues><Int>1</Int></ScreenYValues>`,
      ),
      /same length/,
    );
    assert.match(
      await expectClientFault(
        url,
        "ComputeScale",
        `${md}<MapImageDisplay><ImageHeight>0</ImageHeight><ImageWidth>0</ImageWidth><ImageDPI>96</ImageDPI></MapImageDisplay>`,
      ),
      /ImageWidth and ImageHeight must be positive/,
    );
    assert.match(
      await expectClientFault(url, "ComputeScale", `${md.replace("Layers", "Nope")}${disp}`),
      /Map "Nope" does not exist/,
    );
    assert.match(
      await expectClientFault(
        url,
        "ComputeDistance",
        `<MapName>Layers</MapName><FromPoint xsi:type="e:PointN"><X>0</X><Y>95</Y></FromPoint>` +
          `<ToPoint xsi:type="e:PointN"><X>0</X><Y>0</Y></ToPoint><Units>esriMeters</Units>`,
      ),
      /latitude/,
    );
    assert.match(
      await expectClientFault(
        url,
        "ComputeDistance",
        `<MapName>Layers</MapName><FromPoint xsi:type="e:PointN"><X>0</X><Y>0</Y></FromPoint>` +
          `<ToPoint xsi:type="e:PointN"><X>1</X><Y>0</Y></ToPoint><Units>esriParsecs</Units>`,
      ),
      /esriUnits|Units/,
    );
    assert.match(
      await expectClientFault(
        url,
        "ComputeDistance",
        `<MapName>Mercator</MapName><FromPoint xsi:type="e:PointN"><X>0</X><Y>0</Y></FromPoint>` +
          `<ToPoint xsi:type="e:PointN"><X>1</X><Y>0</Y></ToPoint><Units>esriDecimalDegrees</Units>`,
      ),
      /degrees/,
    );
  } finally {
    await server.close();
  }
});

Deno.test("MapArea forms: FeatureExtent (with ExpandRatio, DefaultScale for points) and CenterAndSize", async () => {
  await withFixture(async (server) => {
    const c = await server.client("Fixture");
    const scale = async (area: Record<string, unknown>, width = 400, height = 200) =>
      Number(
        (await call(c, "ComputeScale", {
          MapDescription: { Name: "Layers", MapArea: area, Rotation: 0 },
          MapImageDisplay: imageDisplay(width, height),
        })).Result,
      );
    const perDegree = 111319.49079327358 * 96 * 39.37;
    // Region West spans 10° x 10°; on 400 x 200 px that is 0.05°/px.
    const region = (ratio: number) =>
      typed("FeatureExtent", {
        DefaultScale: 0,
        ExpandRatio: ratio,
        FeatureIDs: { Int: [1] },
        LayerID: 1,
        MapName: "Layers",
      });
    near(await scale(region(1)), 0.05 * perDegree, 1e-6, "FeatureExtent");
    near(await scale(region(2)), 0.1 * perDegree, 1e-6, "FeatureExtent x2");
    // One point: DefaultScale decides.
    const city = typed("FeatureExtent", {
      DefaultScale: 25000,
      ExpandRatio: 1,
      FeatureIDs: { Int: [2] },
      LayerID: 0,
      MapName: "Layers",
    });
    near(await scale(city), 25000, 1e-6, "DefaultScale");
    // CenterAndSize: 20° x 10° around (35, 55).
    const size = typed("CenterAndSize", {
      Center: pointArg(35, 55),
      Height: 10,
      Width: 20,
      Units: "esriDecimalDegrees",
    });
    near(await scale(size), 0.05 * perDegree, 1e-6, "CenterAndSize");
    // ToMapPoints of the FeatureExtent's corner pixel: the region's corner.
    const corner = await call(c, "ToMapPoints", {
      MapDescription: { Name: "Layers", MapArea: region(1), Rotation: 0 },
      MapImageDisplay: imageDisplay(200, 200),
      ScreenXValues: { Int: [0] },
      ScreenYValues: { Int: [200] },
    });
    const p = items(corner.Result.PointArray.Point)[0];
    near(Number(p.X), 30, 1e-9, "x");
    near(Number(p.Y), 50, 1e-9, "y");
  });
});
