import assert from "node:assert/strict";
import {
  attribute,
  competitionOf,
  competitionPoints,
  epsgOf,
  exportLayers,
  identifyParams,
  restError,
  type ServiceInfo,
  webMercatorCache,
} from "./_arcgis.ts";

Deno.test("epsgOf knows WGS 84 and every Web Mercator wkid, and nothing else", () => {
  assert.equal(epsgOf({ wkid: 4326 }), "EPSG:4326");
  for (const wkid of [3857, 102100, 102113, 900913]) assert.equal(epsgOf({ wkid }), "EPSG:3857");
  assert.equal(epsgOf({ wkid: 102100, latestWkid: 3857 }), "EPSG:3857");
  assert.equal(epsgOf({ wkid: 32637 }), null);
  assert.equal(epsgOf(undefined), null);
});

Deno.test("restError reads ArcGIS error bodies and leaves answers alone", () => {
  assert.equal(
    restError({
      error: { code: 400, message: "Unable to complete operation.", details: ["bbox"] },
    }),
    "Unable to complete operation.: bbox (code 400)",
  );
  assert.equal(restError({ layers: [] }), null);
  assert.equal(restError(null), null);
});

Deno.test("exportLayers lists checked ids once, sorted, and nothing for none", () => {
  assert.equal(exportLayers([1, 0, 1]), "show:0,1");
  assert.equal(exportLayers(new Set([3])), "show:3");
  assert.equal(exportLayers([]), null);
});

Deno.test("identifyParams writes ArcGIS 10.3 identify parameters", () => {
  const q = identifyParams({
    x: 4187591.89,
    y: 7509137.3,
    extent: [1, 2, 3, 4],
    widthPx: 800.4,
    heightPx: 600,
    wkid: 3857,
    layerIds: [0, 1],
    tolerancePx: 6,
  });
  assert.deepEqual(Object.fromEntries(q), {
    f: "json",
    geometry: '{"x":4187591.89,"y":7509137.3}',
    geometryType: "esriGeometryPoint",
    sr: "3857",
    layers: "all:0,1",
    tolerance: "6",
    mapExtent: "1,2,3,4",
    imageDisplay: "800,600,96",
    returnGeometry: "false",
  });
  const every = identifyParams({
    x: 0,
    y: 0,
    extent: [0, 0, 1, 1],
    widthPx: 1,
    heightPx: 1,
    wkid: 4326,
    layerIds: [],
    tolerancePx: 1,
  });
  assert.equal(every.get("layers"), "all", "no list of layers: every layer");
});

Deno.test("competition attributes are found by name or by alias", () => {
  const fields = [
    { name: "id", alias: "Идентификатор" },
    { name: "title", alias: "Наименование конкурса" },
    { name: "agency", alias: "Ведомство" },
    { name: "deadline", alias: "Окончание приёма документов" },
  ];
  const byAlias = {
    layerId: 0,
    layerName: "Конкурсы",
    attributes: {
      "Идентификатор": "12",
      "Наименование конкурса": "Конкурс",
      "Ведомство": "Росстат",
      "Окончание приёма документов": "2024-03-01",
    },
  };
  assert.deepEqual(competitionOf(byAlias, fields), {
    id: 12,
    title: "Конкурс",
    agency: "Росстат",
    deadline: "2024-03-01",
    href: "/api/v1/competitions/12/",
  });
  assert.equal(attribute(byAlias.attributes, "agency"), undefined, "aliases need the fields");
  const byName = {
    layerId: 0,
    layerName: "Конкурсы",
    attributes: { id: 5, title: "T", agency: null, deadline: Date.UTC(2024, 0, 31) },
  };
  assert.deepEqual(competitionOf(byName), {
    id: 5,
    title: "T",
    agency: "",
    deadline: "2024-01-31",
    href: "/api/v1/competitions/5/",
  });
  const country = { layerId: 1, layerName: "Страны", attributes: { id: "643", name: "Russia" } };
  assert.equal(competitionOf(country), null, "a result without a title is not a competition");
  assert.equal(competitionOf({ ...byName, attributes: { id: "x", title: "T" } }), null);
});

Deno.test("competitionPoints keeps records with possible coordinates", () => {
  const page = {
    results: [
      {
        id: 1,
        title: "a",
        document_reception_map_latitude: "55.75",
        document_reception_map_longitude: "37.6",
      },
      {
        id: 2,
        title: "b",
        document_reception_map_latitude: "",
        document_reception_map_longitude: "",
      },
      {
        id: 3,
        title: "c",
        document_reception_map_latitude: "95",
        document_reception_map_longitude: "1",
      },
      {
        id: 4,
        title: "d",
        document_reception_map_latitude: "x",
        document_reception_map_longitude: "1",
      },
    ],
  };
  assert.deepEqual(competitionPoints(page), [{ id: 1, title: "a", lon: 37.6, lat: 55.75 }]);
  assert.deepEqual(competitionPoints({ detail: "Not found." }), []);
});

Deno.test("webMercatorCache reads the tile choice from the service JSON", () => {
  const lods = [0, 1, 2, 3].map((level) => ({ level, resolution: 2 ** -level, scale: 1 }));
  const cached: ServiceInfo = {
    singleFusedMapCache: true,
    spatialReference: { wkid: 102100, latestWkid: 3857 },
    tileInfo: {
      rows: 256,
      cols: 256,
      origin: { x: -20037508.342787, y: 20037508.342787 },
      spatialReference: { wkid: 102100, latestWkid: 3857 },
      lods,
    },
  };
  assert.equal(webMercatorCache(cached), 3);
  assert.equal(webMercatorCache({ ...cached, singleFusedMapCache: false }), null);
  assert.equal(webMercatorCache({ ...cached, tileInfo: undefined }), null);
  const tileInfo = cached.tileInfo!;
  const variants = [
    { ...tileInfo, spatialReference: { wkid: 4326 } },
    { ...tileInfo, rows: 512, cols: 512 },
    { ...tileInfo, origin: { x: -180, y: 90 } },
    { ...tileInfo, lods: lods.slice(1) },
    { ...tileInfo, lods: [] },
  ];
  for (const t of variants) assert.equal(webMercatorCache({ ...cached, tileInfo: t }), null);
});
