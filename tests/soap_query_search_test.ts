/**
 * Find, Identify and QueryHyperlinks through a real node-soap client built
 * from our WSDL, against the GeoPackage fixture; every response validated
 * against our WSDL's schema.
 */
import assert from "node:assert/strict";
import {
  type Any,
  call,
  imageDisplay,
  items,
  mapDescription,
  near,
  pointArg,
  properties as props,
  type QueryServer,
  typed,
  withFixture,
} from "./_soap_query_fixtures.ts";

/** 30..50 x 50..60 on 400 x 200 px: 0.05 degrees per pixel. */
const MD = mapDescription("Layers", [30, 50, 50, 60]);
const DISPLAY = imageDisplay(400, 200);

async function find(s: QueryServer, args: Record<string, unknown>): Promise<Any[]> {
  const c = await s.client("Fixture");
  const r = await call(c, "Find", {
    MapDescription: MD,
    MapImageDisplay: DISPLAY,
    Contains: true,
    SearchFields: "",
    FindOption: "esriFindVisibleLayers",
    ...args,
  });
  return items(r.Result?.MapServerFindResult);
}

Deno.test("Find: contains vs exact, fields, layers, visibility and definition expressions", async () => {
  await withFixture(async (s) => {
    const kaz = await find(s, {
      SearchString: "kaz",
      SearchFields: "NAME",
      LayerIDs: { Int: [0] },
    });
    assert.equal(kaz.length, 1);
    assert.equal(kaz[0].Value, "Kazan");
    assert.equal(Number(kaz[0].LayerID), 0);
    assert.equal(Number(kaz[0].FeatureID), 2);
    assert.equal(kaz[0].FieldName, "NAME");
    assert.equal(kaz[0].Shape.attributes["xsi:type"], "tns:PointN");
    near(Number(kaz[0].Shape.X), 49.1221, 1e-9, "x");
    near(Number(kaz[0].Shape.Y), 55.7887, 1e-9, "y");
    assert.deepEqual(props(kaz[0].Properties), {
      OBJECTID: "2",
      geom: "Point",
      Name: "Kazan",
      Population: "1308660",
      "Area (km²)": "425.3",
      Founded: "1005-08-30",
      "Web site": "https://example.org/kazan",
    });
    // Without geometry: no Shape element, and the shape field still says "Point", not "Null".
    const bare = await find(s, {
      SearchString: "kaz",
      SearchFields: "NAME",
      LayerIDs: { Int: [0] },
      MapDescription: {
        ...MD,
        LayerDescriptions: {
          LayerDescription: [{
            LayerID: 0,
            Visible: true,
            LayerResultOptions: { IncludeGeometry: false },
          }],
        },
      },
    });
    assert.equal(bare.length, 1);
    assert.equal(bare[0].Shape, undefined);
    assert.deepEqual(props(bare[0].Properties), props(kaz[0].Properties));
    // Exact match is case-sensitive and whole-value.
    assert.equal(
      (await find(s, { SearchString: "kazan", Contains: false, LayerIDs: { Int: [0] } })).length,
      0,
    );
    assert.equal(
      (await find(s, { SearchString: "Kazan", Contains: false, LayerIDs: { Int: [0] } })).length,
      1,
    );
    // Case-insensitive contains on Cyrillic text.
    const tver = await find(s, {
      SearchString: "ТВЕ",
      SearchFields: "name",
      LayerIDs: { Int: [0] },
    });
    assert.deepEqual(tver.map((r) => r.Value), ["Тверь"]);
    // All visible layers: Cities (0) and BigCities (3, POP > 1.5M) both have Moscow; HiddenCities (4) is off.
    const moscow = await find(s, { SearchString: "Moscow" });
    assert.deepEqual(moscow.map((r) => Number(r.LayerID)), [0, 3]);
    const everywhere = await find(s, { SearchString: "Moscow", FindOption: "esriFindAllLayers" });
    assert.deepEqual(everywhere.map((r) => Number(r.LayerID)), [0, 3, 4]);
    // Kazan is below BigCities' definition expression.
    assert.deepEqual((await find(s, { SearchString: "Kazan" })).map((r) => Number(r.LayerID)), [0]);
    // Numbers are searched in numeric fields; the first matching field is reported.
    const pop = await find(s, { SearchString: "13010112", LayerIDs: { Int: [0] } });
    assert.deepEqual(pop.map((r) => [r.FieldName, r.Value]), [["POP", "13010112"]]);
    // LIKE wildcards in the search text are plain characters.
    assert.equal((await find(s, { SearchString: "%", LayerIDs: { Int: [0] } })).length, 0);
    assert.equal((await find(s, { SearchString: "_", LayerIDs: { Int: [0] } })).length, 0);
    assert.deepEqual(
      (await find(s, { SearchString: "-", LayerIDs: { Int: [0] } })).map((r) => r.Value),
      [
        "Rostov-on-Don",
      ],
    );
    // The object id is searchable like any numeric field.
    const seven = await find(s, {
      SearchString: "7",
      SearchFields: "OBJECTID,NAME",
      LayerIDs: { Int: [0] },
    });
    assert.deepEqual(seven.map((r) => [r.FieldName, r.Value, Number(r.FeatureID)]), [[
      "OBJECTID",
      "7",
      7,
    ]]);
    // Polygon layer: the result carries the polygon.
    const east = await find(s, { SearchString: "East", LayerIDs: { Int: [1] } });
    assert.equal(east[0].Shape.attributes["xsi:type"], "tns:PolygonN");
    // A LayerDescription switching Cities off hides it from a visible-layers Find.
    const off = await find(s, {
      SearchString: "Moscow",
      MapDescription: {
        ...MD,
        LayerDescriptions: {
          LayerDescription: [{ LayerID: 0, Visible: false, DefinitionExpression: "" }],
        },
      },
    });
    assert.deepEqual(off.map((r) => Number(r.LayerID)), [3]);
    // A LayerDescription definition expression filters Find.
    const filtered = await find(s, {
      SearchString: "an",
      SearchFields: "NAME",
      LayerIDs: { Int: [0] },
      MapDescription: {
        ...MD,
        LayerDescriptions: {
          LayerDescription: [{ LayerID: 0, Visible: true, DefinitionExpression: "POP > 1200000" }],
        },
      },
    });
    assert.deepEqual(filtered.map((r) => r.Value), ["Kazan"]);
  });
});

async function identify(s: QueryServer, args: Record<string, unknown>): Promise<Any[]> {
  const c = await s.client("Fixture");
  const r = await call(c, "Identify", {
    MapDescription: MD,
    MapImageDisplay: DISPLAY,
    SearchShape: pointArg(37.62, 55.76),
    Tolerance: 3,
    IdentifyOption: "esriIdentifyTopmost",
    ...args,
  });
  return items(r.Result?.MapServerIdentifyResult);
}

Deno.test("Identify: topmost / visible / all layers, pixel tolerance, names and properties by alias", async () => {
  await withFixture(async (s) => {
    const top = await identify(s, {});
    assert.equal(top.length, 1);
    assert.equal(Number(top[0].LayerID), 0);
    assert.equal(top[0].Name, "Moscow");
    assert.equal(Number(top[0].FeatureID), 1);
    assert.equal(props(top[0].Properties).Population, "13010112");
    assert.equal(props(top[0].Properties)["Web site"], "https://example.org/moscow");
    near(Number(top[0].Shape.X), 37.6173, 1e-9, "x");

    const visible = await identify(s, { IdentifyOption: "esriIdentifyVisibleLayers" });
    assert.deepEqual(visible.map((r) => [Number(r.LayerID), r.Name]), [[0, "Moscow"], [1, "West"], [
      3,
      "Moscow",
    ]]);
    assert.equal(visible[1].Shape.attributes["xsi:type"], "tns:PolygonN");
    const all = await identify(s, { IdentifyOption: "esriIdentifyAllLayers" });
    assert.deepEqual(all.map((r) => Number(r.LayerID)), [0, 1, 3, 4]);
    const popups = await identify(s, { IdentifyOption: "esriIdentifyVisibleWithHTMLPopup" });
    assert.deepEqual(popups.map((r) => Number(r.LayerID)), [0, 1, 3]);
    assert.match(popups[0].HTMLPopup, /<h3>Moscow<\/h3>/);
    assert.match(popups[0].HTMLPopup, /<tr><th>Population<\/th><td>13010112<\/td><\/tr>/);
    const one = await identify(s, {
      SearchShape: typed("EnvelopeN", { XMin: 29, YMin: 54, XMax: 41, YMax: 61 }),
      Tolerance: 0,
      IdentifyOption: "esriIdentifyTopOneWithHTMLPopup",
    });
    assert.deepEqual(one.map((r) => [Number(r.LayerID), r.Name]), [[0, "Moscow"]]);
    assert.match(one[0].HTMLPopup, /<h3>Moscow<\/h3>/);
    const only = await identify(s, {
      IdentifyOption: "esriIdentifyAllLayers",
      LayerIDs: { Int: [1] },
    });
    assert.deepEqual(only.map((r) => r.Name), ["West"]);

    // 0.05°/px: Moscow is 0.383° from (38, 55.76): missed at 3 px (0.15°), found at 10 px (0.5°).
    assert.deepEqual(
      (await identify(s, { SearchShape: pointArg(38, 55.76), LayerIDs: { Int: [0] } })).length,
      0,
    );
    const wide = await identify(s, {
      SearchShape: pointArg(38, 55.76),
      Tolerance: 10,
      LayerIDs: { Int: [0] },
    });
    assert.deepEqual(wide.map((r) => r.Name), ["Moscow"]);
    // A twice larger image halves the map tolerance.
    const small = await identify(s, {
      SearchShape: pointArg(38, 55.76),
      Tolerance: 10,
      LayerIDs: { Int: [0] },
      MapImageDisplay: imageDisplay(1600, 800),
    });
    assert.equal(small.length, 0);

    // An envelope search shape over the cities of the west.
    const box = await identify(s, {
      SearchShape: typed("EnvelopeN", { XMin: 29, YMin: 54, XMax: 41, YMax: 61 }),
      Tolerance: 0,
      LayerIDs: { Int: [0] },
    });
    assert.deepEqual(box.map((r) => r.Name), ["Moscow", "Saint Petersburg", "Тверь"]);
  });
});

Deno.test("Identify on the Web Mercator map: search shape and results in 3857", async () => {
  await withFixture(async (s) => {
    const m = (lon: number, lat: number) => [
      6378137 * lon * Math.PI / 180,
      6378137 * Math.log(Math.tan(Math.PI / 4 + lat * Math.PI / 360)),
    ];
    const [x, y] = m(37.6173, 55.7558);
    const r = await identify(s, {
      MapDescription: mapDescription("Mercator", [x - 50000, y - 50000, x + 50000, y + 50000]),
      MapImageDisplay: imageDisplay(500, 500),
      SearchShape: pointArg(x + 300, y - 300),
      Tolerance: 3,
    });
    assert.deepEqual(r.map((i) => i.Name), ["Moscow"]);
    near(Number(r[0].Shape.X), x, 1e-6, "x");
    near(Number(r[0].Shape.Y), y, 1e-6, "y");
  });
});

Deno.test("QueryHyperlinks: URLs of features inside the current extent", async () => {
  await withFixture(async (s) => {
    const c = await s.client("Fixture");
    const r = await call(c, "QueryHyperlinks", {
      MapDescription: MD,
      MapImageDisplay: DISPLAY,
      LayerIDs: { Int: [0] },
    });
    const links = items(r.Result?.MapServerHyperlink);
    assert.deepEqual(links.map((l) => l.URL), [
      "https://example.org/moscow",
      "https://example.org/kazan",
    ]);
    assert.equal(links[0].Location.attributes["xsi:type"], "tns:PointN");
    near(Number(links[0].Location.X), 37.6173, 1e-9, "x");
    // Narrower extent (30..40 x 50..60 widened to 25..45 x 50..60 on 400x200) keeps only Moscow.
    const west = await call(c, "QueryHyperlinks", {
      MapDescription: mapDescription("Layers", [30, 50, 40, 60]),
      MapImageDisplay: DISPLAY,
    });
    assert.deepEqual(items(west.Result?.MapServerHyperlink).map((l) => l.URL), [
      "https://example.org/moscow",
    ]);
  });
});
