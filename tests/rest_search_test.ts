/**
 * `/identify` and `/find` of the ArcGIS REST face on the real server,
 * against SOAP Identify and Find on the same server through node-soap (the
 * same features, values, attributes and shapes), plus spatial references,
 * short geometry forms, layer options and bad input as ArcGIS JSON errors.
 */
import assert from "node:assert/strict";
import { startTestServer, type TestServer } from "./_api_helpers.ts";
import { assertRestError, rest } from "./_rest_helpers.ts";
import { soapClient } from "./_soap_helpers.ts";
import {
  type Any,
  call,
  envelopeArg,
  imageDisplay,
  items,
  mapDescription,
  pointArg,
  properties,
} from "./_soap_query_fixtures.ts";
import { projectPoint } from "../map/geo/projection.ts";

const SERVICE = "/services/Recruitment/MapServer";
const VIEW = { mapExtent: "20,40,180,78", imageDisplay: "800,400,96" };

async function soap(s: TestServer) {
  return await soapClient(`${s.url}/arcgis/services/Recruitment/MapServer?wsdl`);
}

/** A REST result and a SOAP result as one comparable shape. */
interface Hit {
  layerId: number;
  value: string;
  attributes: Record<string, string>;
  xy?: [number, number];
  field?: string;
}

function restHits(results: Any[]): Hit[] {
  return results.map((r) => ({
    layerId: r.layerId,
    value: r.value,
    attributes: r.attributes,
    ...(r.geometry?.x !== undefined ? { xy: [r.geometry.x, r.geometry.y] } : {}),
    ...(r.foundFieldName !== undefined ? { field: r.foundFieldName } : {}),
  }));
}

function soapHits(results: Any[], kind: "identify" | "find"): Hit[] {
  return results.map((r) => ({
    layerId: Number(r.LayerID),
    value: kind === "identify" ? r.Name : r.Value,
    attributes: properties(r.Properties),
    ...(r.Shape?.X !== undefined ? { xy: [Number(r.Shape.X), Number(r.Shape.Y)] } : {}),
    ...(kind === "find" ? { field: r.FieldName } : {}),
  }));
}

/** One competition's point in Moscow, from REST find. */
async function moscowPoint(s: TestServer): Promise<[number, number]> {
  const { body } = await rest(s.url, `${SERVICE}/find`, {
    searchText: "Москва",
    searchFields: "address",
    layers: "0",
    f: "json",
  });
  const g = body.results[0].geometry;
  return [g.x, g.y];
}

Deno.test({
  name: "REST identify answers what SOAP Identify answers: top, all layers, envelopes, sr",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const s = await startTestServer();
    try {
      const client = await soap(s);
      const [x, y] = await moscowPoint(s);
      const md = mapDescription("Layers", [20, 40, 180, 78]);
      const display = imageDisplay(800, 400, 96);
      for (
        const [layers, option] of [
          ["top", "esriIdentifyTopmost"],
          ["visible", "esriIdentifyVisibleLayers"],
          ["all", "esriIdentifyAllLayers"],
        ]
      ) {
        const { body } = await rest(s.url, `${SERVICE}/identify`, {
          geometry: `${x},${y}`,
          tolerance: "3",
          layers,
          ...VIEW,
          f: "json",
        });
        const r = await call(client, "Identify", {
          MapDescription: md,
          MapImageDisplay: display,
          SearchShape: pointArg(x, y),
          Tolerance: 3,
          IdentifyOption: option,
          LayerIDs: {},
        });
        const expected = soapHits(items(r.Result?.MapServerIdentifyResult), "identify");
        assert.ok(expected.length > 0, layers);
        assert.deepEqual(restHits(body.results), expected, layers);
        const first = body.results[0];
        assert.equal(first.layerId, 0);
        assert.equal(first.layerName, "Конкурсы");
        assert.equal(first.displayFieldName, "title");
        assert.equal(first.geometryType, "esriGeometryPoint");
        assert.deepEqual(first.geometry.spatialReference, { wkid: 4326, latestWkid: 4326 });
        if (layers === "all") {
          const country = body.results.find((h: Any) => h.layerId === 1);
          assert.equal(country?.value, "Russia");
          assert.equal(country.geometryType, "esriGeometryPolygon");
          assert.ok(Array.isArray(country.geometry.rings));
        } else if (layers === "top") {
          assert.ok(body.results.every((h: Any) => h.layerId === 0));
        }
      }

      // An envelope as JSON, layers all:1 and no geometry: the country under it.
      const box = { xmin: x - 1, ymin: y - 1, xmax: x + 1, ymax: y + 1 };
      const { body: boxed } = await rest(s.url, `${SERVICE}/identify`, {
        geometry: JSON.stringify({ ...box, spatialReference: { wkid: 4326 } }),
        geometryType: "esriGeometryEnvelope",
        tolerance: "0",
        layers: "all:1",
        returnGeometry: "false",
        ...VIEW,
        f: "json",
      });
      const r = await call(client, "Identify", {
        MapDescription: md,
        MapImageDisplay: display,
        SearchShape: envelopeArg(box.xmin, box.ymin, box.xmax, box.ymax),
        Tolerance: 0,
        IdentifyOption: "esriIdentifyAllLayers",
        LayerIDs: { Int: [1] },
      });
      const soapBoxed = soapHits(items(r.Result?.MapServerIdentifyResult), "identify");
      assert.deepEqual(
        restHits(boxed.results),
        soapBoxed.map(({ xy: _, ...h }) => h),
      );
      assert.deepEqual(boxed.results.map((h: Any) => h.value), ["Russia"]);
      assert.equal(boxed.results[0].geometry, undefined);

      // sr=102100: the point and the view in Web Mercator find the same features,
      // and the shapes come back in Web Mercator.
      const [mx, my] = projectPoint([x, y], 4326, 3857);
      const [ex0, ey0] = projectPoint([20, 40], 4326, 3857);
      const [ex1, ey1] = projectPoint([180, 78], 4326, 3857);
      const { body: merc } = await rest(s.url, `${SERVICE}/identify`, {
        geometry: JSON.stringify({ x: mx, y: my }),
        sr: "102100",
        tolerance: "3",
        mapExtent: `${ex0},${ey0},${ex1},${ey1}`,
        imageDisplay: "800,400",
        f: "json",
      });
      const { body: geo } = await rest(s.url, `${SERVICE}/identify`, {
        geometry: `${x},${y}`,
        tolerance: "3",
        ...VIEW,
        f: "json",
      });
      assert.ok(merc.results.length > 0);
      assert.deepEqual(
        merc.results.map((h: Any) => h.attributes),
        geo.results.slice(0, merc.results.length).map((h: Any) => h.attributes),
      );
      assert.deepEqual(merc.results[0].geometry.spatialReference, {
        wkid: 102100,
        latestWkid: 3857,
      });
      assert.ok(Math.abs(merc.results[0].geometry.x - mx) < 1e-3);

      // layerDefs leaves the filtered competitions out: identify falls through to the countries.
      const { body: defs } = await rest(s.url, `${SERVICE}/identify`, {
        geometry: `${x},${y}`,
        tolerance: "3",
        layerDefs: JSON.stringify({ 0: "id < 0" }),
        ...VIEW,
        f: "json",
      });
      assert.deepEqual(defs.results.map((h: Any) => [h.layerId, h.value]), [[1, "Russia"]]);
      // Far out at sea: nothing.
      const { body: none } = await rest(s.url, `${SERVICE}/identify`, {
        geometry: "-30,-30",
        tolerance: "1",
        ...VIEW,
        f: "json",
      });
      assert.deepEqual(none, { results: [] });
    } finally {
      await s.close();
    }
  },
});

Deno.test({
  name: "REST find answers what SOAP Find answers: contains, fields, layers, geometry",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const s = await startTestServer();
    try {
      const client = await soap(s);
      const cases: [Record<string, string>, Record<string, unknown>][] = [
        [{ searchText: "Москва" }, { SearchString: "Москва", Contains: true, SearchFields: "" }],
        [
          { searchText: "Russia", contains: "false", layers: "1", searchFields: "name" },
          {
            SearchString: "Russia",
            Contains: false,
            SearchFields: "name",
            LayerIDs: { Int: [1] },
          },
        ],
        [
          { searchText: "резерв", searchFields: "title,type", layers: "0,1" },
          {
            SearchString: "резерв",
            Contains: true,
            SearchFields: "title,type",
            LayerIDs: { Int: [0, 1] },
          },
        ],
      ];
      for (const [params, args] of cases) {
        const { body } = await rest(s.url, `${SERVICE}/find`, { ...params, f: "json" });
        const r = await call(client, "Find", {
          MapDescription: { Name: "Layers" },
          FindOption: "esriFindAllLayers",
          LayerIDs: {},
          ...args,
        });
        const expected = soapHits(items(r.Result?.MapServerFindResult), "find");
        assert.ok(expected.length > 0, JSON.stringify(params));
        assert.deepEqual(restHits(body.results), expected, JSON.stringify(params));
        for (const hit of body.results) {
          assert.equal(typeof hit.layerName, "string");
          assert.equal(typeof hit.displayFieldName, "string");
          assert.match(hit.geometryType, /^esriGeometry(Point|Polygon)$/);
          assert.ok(hit.geometry.spatialReference);
        }
      }
      // Polygons come back as rings; without geometry there is none.
      const { body: russia } = await rest(s.url, `${SERVICE}/find`, {
        searchText: "Russia",
        contains: "false",
        layers: "1",
        f: "json",
      });
      assert.equal(russia.results[0].foundFieldName, "name");
      assert.ok(russia.results[0].geometry.rings.length > 0);
      const { body: plain } = await rest(s.url, `${SERVICE}/find`, {
        searchText: "Russia",
        contains: "false",
        layers: "1",
        returnGeometry: "false",
        f: "json",
      });
      assert.equal("geometry" in plain.results[0], false);
      // The shape field still says the kind of shape ("Polygon"), as with geometry, not "Null".
      assert.deepEqual(plain.results[0].attributes, russia.results[0].attributes);
      assert.ok(Object.values(plain.results[0].attributes).includes("Polygon"));
      // maxAllowableOffset generalises the returned rings.
      const { body: coarse } = await rest(s.url, `${SERVICE}/find`, {
        searchText: "Russia",
        contains: "false",
        layers: "1",
        maxAllowableOffset: "1",
        f: "json",
      });
      const points = (g: Any) => g.rings.flat().length;
      assert.ok(points(coarse.results[0].geometry) < points(russia.results[0].geometry));
      // layerDefs narrow the search; POST answers like GET.
      const { body: narrowed } = await rest(s.url, `${SERVICE}/find`, {
        searchText: "Москва",
        layerDefs: "0:id < 0",
        f: "json",
      }, true);
      assert.deepEqual(narrowed, { results: [] });
    } finally {
      await s.close();
    }
  },
});

Deno.test({
  name: "REST identify and find: bad input is an ArcGIS JSON error, never a 500",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const s = await startTestServer();
    try {
      const point = { geometry: "37,55", tolerance: "3", ...VIEW, f: "json" };
      const identify: [Record<string, string>, RegExp][] = [
        [{ ...point, geometry: "" }, /'geometry' is required/],
        [{ ...point, geometry: "1,2,3" }, /'geometry'/],
        [{ ...point, geometry: '{"x":1' }, /'geometry'/],
        [{ ...point, geometry: '{"rings":[[[1,"a"]]]}' }, /'geometry'/],
        [{ ...point, geometry: '{"xmin":5,"ymin":0,"xmax":1}' }, /'geometry'/],
        [{ ...point, geometryType: "esriGeometryPolygon" }, /geometryType/],
        [{ ...point, geometryType: "circle" }, /'geometryType'/],
        [{ ...point, tolerance: "" }, /'tolerance' is required/],
        [{ ...point, tolerance: "-1" }, /'tolerance'/],
        [{ ...point, mapExtent: "" }, /'mapExtent' is required/],
        [{ ...point, mapExtent: "1,2,3" }, /'mapExtent'/],
        [{ ...point, mapExtent: "5,5,5,5" }, /'mapExtent'/],
        [{ ...point, imageDisplay: "" }, /'imageDisplay' is required/],
        [{ ...point, imageDisplay: "800" }, /'imageDisplay'/],
        [{ ...point, imageDisplay: "0,400,96" }, /'imageDisplay'/],
        [{ ...point, layers: "some" }, /'layers'/],
        [{ ...point, layers: "all:9" }, /layer 9 does not exist/],
        [{ ...point, sr: "abc" }, /'sr'/],
        [{ ...point, sr: "999999" }, /^sr 999999 is not supported/],
        [{ ...point, layerDefs: "0:nope = 1" }, /^Invalid layerDefs for layer 0 .*nope/],
        [{ ...point, returnGeometry: "yes" }, /'returnGeometry'/],
      ];
      for (const [params, message] of identify) {
        assertRestError(await rest(s.url, `${SERVICE}/identify`, params), 400, message);
      }
      const find: [Record<string, string>, RegExp][] = [
        [{ f: "json" }, /'searchText' is required/],
        [{ searchText: "a", layers: "9", f: "json" }, /layer 9 does not exist/],
        [{ searchText: "a", layers: "x", f: "json" }, /'layers'/],
        [{ searchText: "a", searchFields: "nope", f: "json" }, /^searchFields: .*"nope"/],
        [{ searchText: "a", contains: "perhaps", f: "json" }, /'contains'/],
        [{ searchText: "a", layerDefs: "{", f: "json" }, /'layerDefs'/],
        [{ searchText: "a".repeat(5000), f: "json" }, /^searchText has 5000 characters/],
      ];
      for (const [params, message] of find) {
        assertRestError(await rest(s.url, `${SERVICE}/find`, params), 400, message);
      }
    } finally {
      await s.close();
    }
  },
});

Deno.test({
  name:
    "REST identify and find with returnUnformattedValues give the values query gives; text without",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const s = await startTestServer();
    try {
      const asked = {
        geometry: "37.6,55.75",
        geometryType: "esriGeometryPoint",
        sr: "4326",
        layers: "all:0",
        tolerance: "400",
        returnGeometry: "false",
        returnFieldName: "true",
        f: "json",
        ...VIEW,
      };
      const formatted = (await rest(s.url, `${SERVICE}/identify`, asked)).body.results;
      const raw = (await rest(s.url, `${SERVICE}/identify`, {
        ...asked,
        returnUnformattedValues: "true",
      })).body.results;
      assert.ok(raw.length > 0, "something identified");
      assert.equal(raw.length, formatted.length);
      const { body: layer } = await rest(s.url, `${SERVICE}/0`, { f: "json" });
      const oid = layer.fields.find((f: Any) => f.type === "esriFieldTypeOID").name;
      const shape = layer.fields.find((f: Any) => f.type === "esriFieldTypeGeometry").name;
      for (const [i, r] of raw.entries()) {
        // Without the option every value is text, as ArcGIS 10.3 writes it.
        assert.ok(Object.values(formatted[i].attributes).every((v) => typeof v === "string"));
        const id = r.attributes[oid];
        assert.equal(typeof id, "number");
        const { body: q } = await rest(s.url, `${SERVICE}/0/query`, {
          objectIds: String(id),
          outFields: "*",
          returnGeometry: "false",
          f: "json",
        });
        const { [shape]: kind, ...values } = r.attributes;
        assert.equal(kind, "Point");
        assert.deepEqual(values, q.features[0].attributes, `feature ${id}`);
      }
      const found = (await rest(s.url, `${SERVICE}/find`, {
        searchText: "Москва",
        layers: "0",
        returnFieldName: "true",
        returnUnformattedValues: "true",
        f: "json",
      })).body.results;
      assert.ok(found.length > 0);
      assert.equal(typeof found[0].attributes[oid], "number");
    } finally {
      await s.close();
    }
  },
});
