/**
 * The query operations against the embedded default service
 * (`Recruitment`: live competitions over Natural Earth countries, maps
 * `Layers` in WGS 84 and `WebMercator`), on a demo catalogue built in a
 * temp dir. Expected values come from SQL on the catalogue itself.
 */
import assert from "node:assert/strict";
import { createDemoDatabase, openCatalog } from "../data/mod.ts";
import { loadServices } from "../map/document/mod.ts";
import {
  type Any,
  call,
  envelopeArg,
  imageDisplay,
  items,
  mapDescription,
  near,
  pointArg,
  startQueryServer,
  typed,
} from "./_soap_query_fixtures.ts";

interface Row {
  id: number;
  title: string;
  agency_title: string;
  lat: number;
  lon: number;
  site_link: string | null;
}

Deno.test("default service: competitions and countries through every query operation", async () => {
  const dir = await Deno.makeTempDir({ prefix: "soap-default-" });
  const dbPath = `${dir}/catalog.db`;
  await createDemoDatabase(dbPath, { seed: 7 });
  const catalog = openCatalog(dbPath, { readonly: true });
  const services = await loadServices({ catalog });
  const server = await startQueryServer(services);
  try {
    const c = await server.client("Recruitment");
    const published = catalog.db.prepare(
      "SELECT id, title, agency_title, lat, lon, site_link FROM competition " +
        "WHERE published = 1 AND lat IS NOT NULL AND lon IS NOT NULL ORDER BY id",
    ).all() as unknown as Row[];
    assert.ok(published.length > 10, "the demo catalogue has published competitions");

    // Count and IDs of the competitions layer (0) match the catalogue.
    const count = await call(c, "QueryFeatureCount", { MapName: "Layers", LayerID: 0 });
    assert.equal(Number(count.Result), published.length);
    const ids = await call(c, "QueryFeatureIDs", { MapName: "Layers", LayerID: 0 });
    assert.deepEqual(items(ids.Result.FIDArray.Int).map(Number), published.map((r) => r.id));

    // Spatial: competitions around Moscow.
    const inMoscow = published.filter((r) =>
      r.lon >= 37 && r.lon <= 38.2 && r.lat >= 55.4 && r.lat <= 56.1
    );
    assert.ok(inMoscow.length > 0 && inMoscow.length < published.length);
    const moscowIds = await call(c, "QueryFeatureIDs", {
      MapName: "Layers",
      LayerID: 0,
      QueryFilter: typed("SpatialFilter", {
        WhereClause: "",
        SpatialRel: "esriSpatialRelIntersects",
        FilterGeometry: envelopeArg(37, 55.4, 38.2, 56.1),
      }),
    });
    assert.deepEqual(items(moscowIds.Result.FIDArray?.Int).map(Number), inMoscow.map((r) => r.id));

    // Data: attribute values and coordinates of the first competition.
    const first = published[0];
    const data = await call(c, "QueryFeatureData", {
      MapName: "Layers",
      LayerID: 0,
      QueryFilter: { WhereClause: `id = ${first.id}`, SubFields: "title,agency,Shape" },
    });
    const fields = items(data.Result.Fields.FieldArray.Field).map((f: Any) => f.Name);
    assert.deepEqual(fields, ["id", "Shape", "title", "agency"]);
    const values = items(items(data.Result.Records.Record)[0].Values.Value);
    assert.equal(Number(values[0].$value ?? values[0]), first.id);
    near(Number(values[1].X), first.lon, 1e-9, "lon");
    near(Number(values[1].Y), first.lat, 1e-9, "lat");
    assert.equal(values[2].$value ?? values[2], first.title);
    assert.equal(values[3].$value ?? values[3], first.agency_title);

    // The Web Mercator map returns the same point in 3857.
    const merc = await call(c, "QueryFeatureData2", {
      MapName: "WebMercator",
      LayerDescription: { LayerID: 0, Visible: true, DefinitionExpression: "" },
      QueryFilter: { WhereClause: `id = ${first.id}`, SubFields: "Shape" },
      QueryResultOptions: { Format: "esriQueryResultRecordSetAsObject" },
    });
    const mv = items(items(merc.Result.Object.Records.Record)[0].Values.Value);
    near(Number(mv[1].X), 6378137 * first.lon * Math.PI / 180, 1e-6, "x");
    near(
      Number(mv[1].Y),
      6378137 * Math.log(Math.tan(Math.PI / 4 + first.lat * Math.PI / 360)),
      1e-6,
      "y",
    );

    // Identify at the first competition: its title is the name (display field).
    const md = mapDescription("Layers", [
      first.lon - 1,
      first.lat - 1,
      first.lon + 1,
      first.lat + 1,
    ]);
    const hit = await call(c, "Identify", {
      MapDescription: md,
      MapImageDisplay: imageDisplay(400, 400),
      SearchShape: pointArg(first.lon, first.lat),
      Tolerance: 2,
      IdentifyOption: "esriIdentifyAllLayers",
      LayerIDs: { Int: [0, 1] },
    });
    const results = items(hit.Result.MapServerIdentifyResult);
    const here = published.filter((r) =>
      Math.abs(r.lon - first.lon) <= 0.01 && Math.abs(r.lat - first.lat) <= 0.01
    );
    assert.ok(results.some((r: Any) => Number(r.LayerID) === 0 && r.Name === first.title));
    assert.ok(results.filter((r: Any) => Number(r.LayerID) === 0).length >= here.length);
    // Properties are keyed by the Russian aliases.
    const props = Object.fromEntries(
      items(results[0].Properties.PropertyArray.PropertySetProperty).map((
        p: Any,
      ) => [p.Key, p.Value?.$value ?? p.Value]),
    );
    assert.ok("Наименование конкурса" in props, Object.keys(props).join(", "));

    // Countries (layer 1): Moscow lies in Russia.
    const country = await call(c, "Identify", {
      MapDescription: mapDescription("Layers", [30, 50, 45, 60]),
      MapImageDisplay: imageDisplay(300, 200),
      SearchShape: pointArg(37.6173, 55.7558),
      Tolerance: 0,
      IdentifyOption: "esriIdentifyAllLayers",
      LayerIDs: { Int: [1] },
    });
    assert.deepEqual(items(country.Result.MapServerIdentifyResult).map((r: Any) => r.Name), [
      "Russia",
    ]);

    // Find a country by name, exact.
    const found = await call(c, "Find", {
      MapDescription: mapDescription("Layers", [-180, -90, 180, 90]),
      MapImageDisplay: imageDisplay(800, 400),
      SearchString: "Kazakhstan",
      Contains: false,
      SearchFields: "name",
      FindOption: "esriFindAllLayers",
      LayerIDs: { Int: [1] },
    });
    const fr = items(found.Result.MapServerFindResult);
    assert.equal(fr.length, 1);
    assert.equal(fr[0].Value, "Kazakhstan");
    assert.equal(fr[0].Shape.attributes["xsi:type"], "tns:PolygonN");

    // Hyperlinks of the competitions in the initial extent with a site link.
    const links = await call(c, "QueryHyperlinks", {
      MapDescription: mapDescription("Layers", [19, 40, 180, 78]),
      MapImageDisplay: imageDisplay(1000, 400),
      LayerIDs: { Int: [0] },
    });
    const adjusted = { xmin: 19, xmax: 180, ymin: 59 - 161 * 0.4 / 2, ymax: 59 + 161 * 0.4 / 2 };
    const expectedLinks = published.filter((r) =>
      (r.site_link ?? "").trim() !== "" && r.lon >= adjusted.xmin && r.lon <= adjusted.xmax &&
      r.lat >= adjusted.ymin && r.lat <= adjusted.ymax
    );
    assert.ok(expectedLinks.length > 0);
    assert.deepEqual(
      items(links.Result?.MapServerHyperlink).map((l: Any) => l.URL),
      expectedLinks.slice(0, 1000).map((r) => r.site_link),
    );

    // *2 counts with a LayerDescription definition expression, on the Web Mercator map.
    const firstAgency = published[0].agency_title.replaceAll("'", "''");
    const sameAgency = published.filter((r) => r.agency_title === published[0].agency_title);
    const c2 = await call(c, "QueryFeatureCount2", {
      MapName: "WebMercator",
      LayerDescription: {
        LayerID: 0,
        Visible: true,
        DefinitionExpression: `agency = '${firstAgency}'`,
      },
      QueryFilter: { WhereClause: "" },
    });
    assert.equal(Number(c2.Result), sameAgency.length);
    const ids2 = await call(c, "QueryFeatureIDs2", {
      MapName: "WebMercator",
      LayerDescription: {
        LayerID: 0,
        Visible: true,
        DefinitionExpression: `agency = '${firstAgency}'`,
      },
      QueryFilter: { WhereClause: `id <> ${first.id}` },
    });
    assert.deepEqual(
      items(ids2.Result.FIDArray?.Int).map(Number),
      sameAgency.filter((r) => r.id !== first.id).map((r) => r.id),
    );

    // Scale and pixels of the Web Mercator map's initial extent on a 1024 x 512 image.
    const mercMd = {
      Name: "WebMercator",
      MapArea: typed("MapExtent", {
        Extent: envelopeArg(2115070.33, 4865942.28, 20037508.34, 14317392.23),
      }),
      Rotation: 0,
    };
    const scale = await call(c, "ComputeScale", {
      MapDescription: mercMd,
      MapImageDisplay: imageDisplay(1024, 512),
    });
    const res = Math.max((20037508.34 - 2115070.33) / 1024, (14317392.23 - 4865942.28) / 512);
    near(Number(scale.Result), res * 96 * 39.37, 1e-6, "scale");
    const [fx, fy] = [
      6378137 * first.lon * Math.PI / 180,
      6378137 * Math.log(Math.tan(Math.PI / 4 + first.lat * Math.PI / 360)),
    ];
    const px = await call(c, "FromMapPoints", {
      MapDescription: mercMd,
      MapImageDisplay: imageDisplay(1024, 512),
      MapPoints: typed("MultipointN", {
        HasID: false,
        HasZ: false,
        HasM: false,
        PointArray: { Point: [pointArg(first.lon, first.lat, 4326)] },
      }),
    });
    const cx = (2115070.33 + 20037508.34) / 2, cy = (4865942.28 + 14317392.23) / 2;
    const sx = Math.round((fx - (cx - 512 * res)) / res),
      sy = Math.round(((cy + 256 * res) - fy) / res);
    assert.deepEqual([
      Number(items(px.ScreenXValues.Int)[0]),
      Number(items(px.ScreenYValues.Int)[0]),
    ], [sx, sy]);
    const back = await call(c, "ToMapPoints", {
      MapDescription: mercMd,
      MapImageDisplay: imageDisplay(1024, 512),
      ScreenXValues: { Int: [sx] },
      ScreenYValues: { Int: [sy] },
    });
    const bp = items(back.Result.PointArray.Point)[0];
    assert.ok(
      Math.abs(Number(bp.X) - fx) <= res && Math.abs(Number(bp.Y) - fy) <= res,
      "within a pixel",
    );

    // Distance Moscow -> Saint Petersburg on the geographic map (GeographicLib inverse: 634.6019457966 km).
    const d = await call(c, "ComputeDistance", {
      MapName: "Layers",
      FromPoint: pointArg(37.6173, 55.7558),
      ToPoint: pointArg(30.3351, 59.9343),
      Units: "esriKilometers",
    });
    near(Number(d.Result), 634.6019457966, 1e-9, "Moscow - Saint Petersburg");
  } finally {
    await server.close();
    catalog.close();
    await Deno.remove(dir, { recursive: true });
  }
});
