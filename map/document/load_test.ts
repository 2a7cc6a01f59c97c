import assert from "node:assert/strict";
import { join } from "node:path";
import { COMPETITION_CATALOG_MODULE, createDemoDatabase, openCatalog } from "../../data/mod.ts";
import { writeGeoPackageLayer } from "../sources/geopackage_writer.ts";
import { projectExtent } from "../geo/projection.ts";
import {
  DEFAULT_DOCUMENT,
  loadMapDocument,
  loadMapDocumentValue,
  loadServices,
  MapDocumentError,
  mapDocumentJsonSchema,
  validateMapDocument,
} from "./mod.ts";

const dir = await Deno.makeTempDir({ prefix: "document_test_" });
const dbPath = join(dir, "catalog.db");
createDemoDatabase(dbPath, { agencies: 5, vacancies: 10, competitions: 60, seed: 3 });
const catalog = openCatalog(dbPath, { readonly: true });
const mapsDir = join(dir, "maps");
await Deno.mkdir(join(mapsDir, "data"), { recursive: true });
writeGeoPackageLayer(join(mapsDir, "data", "towns.gpkg"), {
  table: "towns",
  geometryType: "Point",
  fields: [{ name: "pop", type: "Integer" }, { name: "name", type: "String" }, {
    name: "url",
    type: "String",
  }],
}, [
  {
    attributes: { pop: 10, name: "A", url: "http://a" },
    geometry: { type: "Point", x: 10, y: 50 },
  },
  {
    attributes: { pop: 20, name: "B", url: "http://b" },
    geometry: { type: "Point", x: 12, y: 52 },
  },
]);
await Deno.writeTextFile(
  join(mapsDir, "data", "zones.geojson"),
  JSON.stringify({
    type: "FeatureCollection",
    features: [{
      type: "Feature",
      properties: { kind: "z" },
      geometry: { type: "Polygon", coordinates: [[[9, 49], [13, 49], [13, 53], [9, 53], [9, 49]]] },
    }],
  }),
);
const TOWNS = {
  name: "Towns",
  description: "Test towns",
  maps: [{
    name: "Main",
    layers: [
      {
        name: "Towns",
        source: { type: "geopackage", path: "data/towns.gpkg" },
        aliases: { name: "Название" },
        hyperlinkField: "url",
        definitionExpression: "pop >= 10",
        labels: { field: "NAME" },
      },
      { id: 7, name: "Zones", source: { type: "geojson", path: "data/zones.geojson" } },
    ],
  }],
};
await Deno.writeTextFile(join(mapsDir, "towns.json"), JSON.stringify(TOWNS));
await Deno.writeTextFile(
  join(mapsDir, "a_world.json"),
  JSON.stringify({
    name: "World",
    maps: [{
      name: "M",
      wkid: 102100,
      layers: [{ name: "Land", source: { type: "world-atlas", object: "land", scale: "110m" } }],
    }],
  }),
);
globalThis.addEventListener("unload", () => {
  catalog.close();
  Deno.removeSync(dir, { recursive: true });
});

Deno.test("the embedded service has a WGS 84 and a Web Mercator map over shared sources", async () => {
  const [service] = await loadServices({ catalog });
  assert.equal(service.name, "Recruitment");
  assert.equal(service.defaultMapName, "Layers");
  assert.deepEqual(service.maps.map((m) => [m.name, m.wkid, m.units]), [
    ["Layers", 4326, "esriDecimalDegrees"],
    ["WebMercator", 3857, "esriMeters"],
  ]);
  const [geo, merc] = service.maps;
  assert.deepEqual(geo.layers.map((l) => [l.id, l.geometryType]), [[0, "Point"], [1, "Polygon"]]);
  assert.equal(geo.layers[0].source, merc.layers[0].source);
  assert.equal(geo.layers[1].source, merc.layers[1].source);
  assert.equal(
    geo.layers[0].source.count({}),
    catalog.db.prepare(
      "SELECT count(*) AS n FROM competition WHERE published = 1 AND lat IS NOT NULL AND lon IS NOT NULL",
    ).get()!.n,
  );
  assert.equal(geo.layers[0].hyperlinkField, "site_link");
  assert.equal(geo.layers[0].displayField, "title");
  assert.equal(geo.layers[1].fields.find((f) => f.name === "name")!.alias, "Название");
  assert.equal(geo.layers[1].source.count({}), 241);
  assert.equal(merc.tiling?.format, "PNG32");
  // The two initial extents frame the same place.
  const projected = projectExtent(geo.initialExtent, 4326, 3857);
  for (const k of ["xmin", "ymin", "xmax", "ymax"] as const) {
    assert.ok(Math.abs(projected[k] - merc.initialExtent[k]) < 1, k);
  }
  service.close();
});

Deno.test("a catalogue path and the module that opens it are enough (for render workers)", async () => {
  const [service] = await loadServices({
    catalogPath: dbPath,
    catalogModule: COMPETITION_CATALOG_MODULE,
  });
  assert.ok(service.maps[0].layers[0].source.count({}) > 0);
  // A path alone: map/ cannot open the application's database by itself, and says so.
  await assert.rejects(
    () => loadServices({ catalogPath: dbPath }),
    /competitions source needs the recruitment database/,
  );
});

Deno.test("a document folder is served in file order with paths relative to each file", async () => {
  const services = await loadServices({ mapsDir });
  assert.deepEqual(services.map((s) => s.name), ["World", "Towns"]);
  const world = services[0].maps[0];
  assert.equal(world.wkid, 3857);
  assert.ok(world.fullExtent.xmax > 2e7 - 1e3 && world.fullExtent.ymax <= 20037508.35);
  const towns = services[1].maps[0];
  const [layer, zones] = towns.layers;
  assert.deepEqual(towns.layers.map((l) => l.id), [0, 7]);
  assert.equal(layer.displayField, "name");
  assert.equal(layer.fields.find((f) => f.name === "name")!.alias, "Название");
  assert.deepEqual(layer.definition, {
    kind: "compare",
    op: ">=",
    left: { kind: "field", name: "pop" },
    right: { kind: "literal", value: 10 },
  });
  assert.equal(layer.labels?.field, "name");
  assert.equal(layer.renderer.type, "simple");
  assert.equal(zones.renderer.type === "simple" && zones.renderer.symbol.type, "simple-fill");
  assert.deepEqual(towns.fullExtent, { xmin: 9, ymin: 49, xmax: 13, ymax: 53 });
  assert.deepEqual(towns.initialExtent, towns.fullExtent);
  for (const s of services) s.close();
});

/** Descriptors of this process open on `path` (Linux: /proc/self/fd). */
function openFds(path: string): number {
  let n = 0;
  for (const e of Deno.readDirSync("/proc/self/fd")) {
    try {
      if (Deno.readLinkSync(`/proc/self/fd/${e.name}`) === path) n++;
    } catch {
      // Closed meanwhile (the directory listing's own descriptor).
    }
  }
  return n;
}

Deno.test("a folder whose later document fails closes the sources the earlier ones opened", async () => {
  const bad = await Deno.makeTempDir({ prefix: "document_clash_" });
  try {
    await Deno.mkdir(join(bad, "data"));
    const gpkg = join(bad, "data", "towns.gpkg");
    await Deno.copyFile(join(mapsDir, "data", "towns.gpkg"), gpkg);
    await Deno.copyFile(join(mapsDir, "data", "zones.geojson"), join(bad, "data", "zones.geojson"));
    await Deno.writeTextFile(join(bad, "a.json"), JSON.stringify(TOWNS));
    // The same service name again: the second document is refused.
    await Deno.writeTextFile(join(bad, "b.json"), JSON.stringify(TOWNS));
    await assert.rejects(() => loadServices({ mapsDir: bad }), /also used by/);
    assert.equal(openFds(gpkg), 0, "the GeoPackage opened for a.json was closed");
  } finally {
    await Deno.remove(bad, { recursive: true });
  }
});

async function rejects(doc: unknown, message: RegExp): Promise<void> {
  await assert.rejects(
    () => loadMapDocumentValue(doc, { catalog, baseDir: mapsDir, origin: "test.json" }),
    (e: unknown) => {
      assert.ok(e instanceof MapDocumentError, String(e));
      assert.match(e.message, message);
      return true;
    },
  );
}

const withLayer = (layer: Record<string, unknown>, map: Record<string, unknown> = {}) => ({
  name: "T",
  maps: [{ name: "M", ...map, layers: [{ name: "L", ...layer }] }],
});

Deno.test("document errors name the file, the JSON path and the problem", async () => {
  await rejects({ name: "T", maps: [] }, /^test\.json: maps: Too small/);
  await rejects(
    withLayer({ source: { type: "mapinfo", path: "x.tab" } }),
    /^test\.json: maps\[0\]\.layers\[0\]\.source\.type: /,
  );
  await rejects(
    withLayer({ source: { type: "competitions" }, colour: 1 }),
    /layers\[0\]: Unrecognized key: "colour"/,
  );
  await rejects(
    withLayer({ source: { type: "geopackage", path: "data/none.gpkg" } }),
    /maps\[0\]\.layers\[0\]\.source: GeoPackage file .*none\.gpkg does not exist/,
  );
  await rejects(
    withLayer({ source: { type: "geopackage", path: "data/towns.gpkg" }, aliases: { nme: "x" } }),
    /layers\[0\]\.aliases\.nme: unknown field "nme"; the layer's fields are: fid, geom, pop, name, url/,
  );
  await rejects(
    withLayer({
      source: { type: "geopackage", path: "data/towns.gpkg" },
      definitionExpression: "pop >",
    }),
    /layers\[0\]\.definitionExpression: Invalid where clause at position 5/,
  );
  await rejects(
    withLayer({ source: { type: "geopackage", path: "data/towns.gpkg" }, hyperlinkField: "pop" }),
    /hyperlinkField: field "pop" is not a text field/,
  );
  await rejects(
    withLayer({
      source: { type: "geopackage", path: "data/towns.gpkg" },
      renderer: { type: "uniqueValue", field: "kind", values: [] },
    }),
    /renderer\.field: unknown field "kind"/,
  );
  await rejects(
    {
      name: "T",
      maps: [{
        name: "M",
        layers: [{ name: "A", source: { type: "competitions" } }, {
          id: 0,
          name: "B",
          source: { type: "competitions" },
        }],
      }],
    },
    /layers\[1\]\.id: layer id 0 is already used by "A"/,
  );
  await rejects(
    { ...withLayer({ source: { type: "competitions" } }), defaultMap: "X" },
    /defaultMap: no map is called "X"/,
  );
  await rejects(
    withLayer({ source: { type: "competitions" } }, { wkid: 999999 }),
    /maps\[0\]\.wkid: spatial reference 999999/,
  );
  await assert.rejects(
    () => loadMapDocumentValue(withLayer({ source: { type: "competitions" } })),
    /competitions source needs the recruitment database/,
  );
  await assert.rejects(
    () => loadMapDocument(join(dir, "nope.json")),
    /nope\.json: the file does not exist/,
  );
  await assert.rejects(
    () => loadServices({ mapsDir: join(dir, "nothing") }),
    /maps folder does not exist/,
  );
  const bad = join(dir, "bad.json");
  await Deno.writeTextFile(bad, "{");
  await assert.rejects(() => loadMapDocument(bad), /bad\.json: not valid JSON/);
});

Deno.test("the default document passes validation on its own", () => {
  const doc = validateMapDocument(DEFAULT_DOCUMENT);
  assert.equal(doc.maps.length, 2);
  assert.equal(doc.maps[0].layers[1].renderer?.type, "simple");
});

Deno.test("the example documents load", async () => {
  const services = await loadServices({ mapsDir: new URL("./examples", import.meta.url).pathname });
  assert.deepEqual(services.map((s) => s.name), ["World"]);
  const [countries, land] = services[0].maps[0].layers;
  assert.equal(services[0].maps[0].wkid, 3857);
  assert.equal(countries.source.count({ where: countries.definition }), 176);
  assert.equal(land.visible, false);
  assert.equal(services[0].limits?.maxRecordCount, 2000);
  for (const s of services) s.close();
});

Deno.test("the format is published as a JSON Schema", () => {
  const schema = mapDocumentJsonSchema();
  assert.equal(schema.type, "object");
  assert.deepEqual((schema.required as string[]).sort(), ["maps", "name"]);
});

Deno.test("the example documents of the README and docs/map-documents.md are valid", async () => {
  for (const page of ["../../README.md", "../../docs/map-documents.md"]) {
    const md = await Deno.readTextFile(new URL(page, import.meta.url));
    const json = md.split("```json")[1].split("```")[0];
    const doc = validateMapDocument(JSON.parse(json), page);
    assert.equal(doc.maps[0].layers[0].source.type, "geopackage", page);
  }
});

Deno.test("source paths may not leave the maps folder unless allowed", async () => {
  // A second folder beside `maps`, with documents that reach out of it in three ways.
  const root = join(dir, "escape");
  const inside = join(root, "maps");
  await Deno.mkdir(join(inside, "data"), { recursive: true });
  await Deno.copyFile(join(mapsDir, "data", "towns.gpkg"), join(root, "outside.gpkg"));
  await Deno.symlink(join(root, "outside.gpkg"), join(inside, "data", "link.gpkg"));
  await Deno.copyFile(join(mapsDir, "data", "towns.gpkg"), join(inside, "data", "towns.gpkg"));
  const doc = (path: string) =>
    JSON.stringify({
      name: "Escape",
      maps: [{ name: "Main", layers: [{ name: "T", source: { type: "geopackage", path } }] }],
    });
  const file = join(inside, "escape.json");
  for (
    const [path, shown] of [
      ["../outside.gpkg", /"\.\.\/outside\.gpkg" is outside the maps folder/],
      ["data/../../outside.gpkg", /is outside the maps folder/],
      [join(root, "outside.gpkg"), /is outside the maps folder/],
      [
        "data/link.gpkg",
        /data\/link\.gpkg" is outside the maps folder .*resolves to .*outside\.gpkg/,
      ],
    ] as const
  ) {
    await Deno.writeTextFile(file, doc(path));
    await assert.rejects(
      () => loadServices({ mapsDir: inside }),
      (e: Error) => {
        assert.ok(e instanceof MapDocumentError, String(e));
        assert.match(e.message, /escape\.json: maps\[0\]\.layers\[0\]\.source\.path: /);
        assert.match(e.message, shown);
        assert.match(e.message, /--allow-map-paths-outside/);
        return true;
      },
      path,
    );
    // Allowed explicitly, the same document loads.
    const [service] = await loadServices({ mapsDir: inside, allowPathsOutside: true });
    assert.ok(service.maps[0].layers[0].source.count({}) > 0, path);
    service.close();
  }
  // Paths that stay inside (also through a `..` that comes back) are fine.
  await Deno.writeTextFile(file, doc("data/../data/towns.gpkg"));
  const [service] = await loadServices({ mapsDir: inside });
  assert.ok(service.maps[0].layers[0].source.count({}) > 0);
  service.close();
});
