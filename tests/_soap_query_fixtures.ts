/**
 * Fixtures of the query-operation tests (`tests/soap_query_*_test.ts`): a
 * loopback server publishing given services with every MapServer
 * operation plus the query operations, a node-soap caller that validates
 * each raw response against our WSDL's schema, and raw-envelope helpers.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { MapService } from "../map/soap/operation.ts";
import { createMapServer } from "../map/mod.ts";
import { arcgisRoutes } from "../routes/arcgis.ts";
import { arcgisRestRoutes } from "../routes/arcgis_rest.ts";
import { arcgisFileRoutes } from "../routes/arcgis_files.ts";
import { loadServices } from "../map/document/mod.ts";
import { writeGeoPackageLayer } from "../map/sources/geopackage_writer.ts";
import { projectPoint } from "../map/geo/projection.ts";
import {
  assertSchemaValid,
  faultOf,
  NS,
  operationEnvelope,
  postSoap,
  type SoapClient,
  soapClient,
  startRoutesServer,
  type TestServer,
} from "./_soap_helpers.ts";

// deno-lint-ignore no-explicit-any
export type Any = any;

/** A started query test server with a node-soap client per service. */
export interface QueryServer extends TestServer {
  /** node-soap client of a service (built from our WSDL URL). */
  client(service: string): Promise<SoapClient>;
  /** Directory exported files are written to. */
  outputDir: string;
}

/**
 * Starts a loopback server publishing `services` with all operations (query
 * ones included), through SOAP and the ArcGIS REST API.
 */
export async function startQueryServer(services: MapService[]): Promise<QueryServer> {
  const outputDir = await Deno.makeTempDir({ prefix: "soap-query-out-" });
  const maps = createMapServer({
    services,
    outputDir,
  });
  const routes = [
    ...arcgisRoutes({ maps, baseUrl: (req) => new URL(req.url).origin }),
    ...arcgisFileRoutes({ maps, outputDir }),
    ...arcgisRestRoutes({ maps, baseUrl: (req) => new URL(req.url).origin }),
  ];
  const server = startRoutesServer(routes);
  const clients = new Map<string, Promise<SoapClient>>();
  return {
    ...server,
    outputDir,
    client(name) {
      let c = clients.get(name);
      if (!c) clients.set(name, c = soapClient(`${server.serviceUrl(name)}?wsdl`));
      return c;
    },
    async close() {
      await server.close();
      await Deno.remove(outputDir, { recursive: true }).catch(() => {});
    },
  };
}

/** Calls `op` with node-soap, validates the raw response, returns the parsed response object. */
export async function call(
  client: SoapClient,
  op: string,
  args: Record<string, unknown>,
): Promise<Any> {
  const [result, raw] = await (client as Any)[`${op}Async`](args);
  await assertSchemaValid(raw);
  return result;
}

/** Posts a raw operation envelope; asserts a Client fault and returns its message. */
export async function expectClientFault(
  url: string,
  op: string,
  children: string,
): Promise<string> {
  const reply = await postSoap(url, operationEnvelope(op, children));
  const fault = faultOf(reply.text);
  assert.ok(fault, `expected a fault from ${op}, got:\n${reply.text.slice(0, 1500)}`);
  assert.equal(reply.status, 500);
  assert.match(fault.code, /Client$/, `fault code of ${op}: ${fault.code} ${fault.message}`);
  return fault.message;
}

/** Posts a raw operation envelope, asserts success and schema validity, returns the XML. */
export async function rawCall(url: string, op: string, children: string): Promise<string> {
  const reply = await postSoap(url, operationEnvelope(op, children));
  assert.equal(reply.status, 200, reply.text.slice(0, 1500));
  await assertSchemaValid(reply.text);
  return reply.text;
}

/** node-soap gives one item or an array for repeated elements: always an array. */
export function items<T = Any>(v: T | T[] | undefined | null): T[] {
  if (v === undefined || v === null) return [];
  return Array.isArray(v) ? v : [v];
}

/** A PropertySet as node-soap parses it, as `{Key: Value}` (an empty typed string is ""). */
export function properties(ps: Any): Record<string, string> {
  return Object.fromEntries(
    items(ps?.PropertyArray?.PropertySetProperty).map((p: Any) => [
      p.Key,
      typeof p.Value === "object" && p.Value !== null ? p.Value.$value ?? "" : p.Value,
    ]),
  );
}

/** Asserts |actual - expected| <= tol. */
export function near(actual: number, expected: number, tol: number, what = "value"): void {
  assert.ok(
    Math.abs(Number(actual) - expected) <= tol,
    `${what}: expected ${expected} ± ${tol}, got ${actual}`,
  );
}

/** A node-soap argument object carrying `xsi:type="<ns>:<type>"` (polymorphic parameters). */
export function typed(type: string, members: Record<string, unknown>): Record<string, unknown> {
  return { attributes: { xsi_type: { type, xmlns: NS } }, ...members };
}

/** A `SpatialReference` argument with a WKID. */
export function srArg(wkid: number): Record<string, unknown> {
  const geographic = wkid === 4326;
  return typed(geographic ? "GeographicCoordinateSystem" : "ProjectedCoordinateSystem", {
    WKID: wkid,
  });
}

/** An `EnvelopeN` argument. */
export function envelopeArg(
  xmin: number,
  ymin: number,
  xmax: number,
  ymax: number,
  wkid?: number,
): Record<string, unknown> {
  return typed("EnvelopeN", {
    XMin: xmin,
    YMin: ymin,
    XMax: xmax,
    YMax: ymax,
    ...(wkid ? { SpatialReference: srArg(wkid) } : {}),
  });
}

/** A `PointN` argument. */
export function pointArg(x: number, y: number, wkid?: number): Record<string, unknown> {
  return typed("PointN", { X: x, Y: y, ...(wkid ? { SpatialReference: srArg(wkid) } : {}) });
}

/** A MapDescription with a MapExtent (and optional layer descriptions / SR). */
export function mapDescription(
  name: string,
  extent: [number, number, number, number],
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    Name: name,
    MapArea: typed("MapExtent", { Extent: envelopeArg(...extent) }),
    Rotation: 0,
    ...extra,
  };
}

/** An ImageDisplay argument. */
export function imageDisplay(width: number, height: number, dpi = 96): Record<string, unknown> {
  return { ImageHeight: height, ImageWidth: width, ImageDPI: dpi };
}

export { NS };

/** One city of the fixture: [id, name, lon, lat, population | null, area km² | null, founded (ISO date), url]. */
export type CityRow = [
  number,
  string,
  number,
  number,
  number | null,
  number | null,
  string,
  string | null,
];

/** The Cities layer of the GeoPackage fixture (WGS 84 points). */
export const CITIES: readonly CityRow[] = [
  [1, "Moscow", 37.6173, 55.7558, 13010112, 2561.5, "1147-04-04", "https://example.org/moscow"],
  [2, "Kazan", 49.1221, 55.7887, 1308660, 425.3, "1005-08-30", "https://example.org/kazan"],
  [3, "Saint Petersburg", 30.3351, 59.9343, 5601911, 1439, "1703-05-27", null],
  [4, "Novosibirsk", 82.9346, 55.0084, 1633595, 502.7, "1893-05-20", null],
  [5, "Yekaterinburg", 60.6122, 56.8519, 1544376, 468, "1723-11-18", null],
  [6, "Nizhny Novgorod", 44.002, 56.3269, 1228199, 410.7, "1221-01-01", null],
  [7, "Samara", 50.1008, 53.1959, 1173299, 541.4, "1586-01-01", null],
  [8, "Omsk", 73.3686, 54.9885, 1125695, 566.9, "1716-01-01", null],
  [9, "Rostov-on-Don", 39.7015, 47.2357, 1142162, 348.5, "1749-12-15", null],
  [10, "Vladivostok", 131.8869, 43.1155, null, null, "1860-07-02", null],
  [11, "Тверь", 35.9006, 56.8587, 416219, 152.2, "1135-01-01", null],
];

/** Regions (WGS 84 polygons, ArcGIS ring order): [id, name, kind, rings]. */
export const REGIONS: readonly [number, string, string, [number, number][][]][] = [
  // A: 30..40 x 50..60 with a hole 34..36 x 54..56.
  [1, "West", "square", [
    [[30, 50], [30, 60], [40, 60], [40, 50], [30, 50]],
    [[34, 54], [36, 54], [36, 56], [34, 56], [34, 54]],
  ]],
  // B: 40..50 x 50..60, sharing the edge x = 40 with A.
  [2, "East", "square", [[[40, 50], [40, 60], [50, 60], [50, 50], [40, 50]]]],
  // C: 45..55 x 45..52, overlapping B.
  [3, "South", "rectangle", [[[45, 45], [45, 52], [55, 52], [55, 45], [45, 45]]]],
];

/** Roads (polylines stored in Web Mercator), given here in lon/lat: [id, name, path]. */
export const ROADS: readonly [number, string, [number, number][]][] = [
  [1, "Parallel 55", [[30, 55], [50, 55]]],
  [2, "Meridian 60", [[60, 40], [60, 70]]],
];

/** Writes the fixture GeoPackage (`Cities`, `Regions`, `Roads`) into `dir`; returns its path. */
export function writeFixtureGeoPackage(dir: string): string {
  const path = `${dir}/fixture.gpkg`;
  writeGeoPackageLayer(
    path,
    {
      table: "Cities",
      geometryType: "Point",
      wkid: 4326,
      pk: "OBJECTID",
      fields: [
        { name: "NAME", type: "String" },
        { name: "POP", type: "Integer" },
        { name: "AREA", type: "Double" },
        { name: "FOUNDED", type: "Date" },
        { name: "URL", type: "String" },
      ],
    },
    CITIES.map(([id, name, x, y, pop, area, founded, url]) => ({
      id,
      attributes: {
        NAME: name,
        POP: pop,
        AREA: area,
        FOUNDED: Date.parse(`${founded}T00:00:00Z`),
        URL: url,
      },
      geometry: { type: "Point", x, y },
    })),
  );
  writeGeoPackageLayer(
    path,
    {
      table: "Regions",
      geometryType: "Polygon",
      wkid: 4326,
      fields: [{ name: "NAME", type: "String" }, { name: "KIND", type: "String" }],
    },
    REGIONS.map(([id, name, kind, rings]) => ({
      id,
      attributes: { NAME: name, KIND: kind },
      geometry: { type: "Polygon", rings },
    })),
  );
  writeGeoPackageLayer(
    path,
    {
      table: "Roads",
      geometryType: "Polyline",
      wkid: 3857,
      fields: [{ name: "NAME", type: "String" }],
    },
    ROADS.map(([id, name, path]) => ({
      id,
      attributes: { NAME: name },
      geometry: { type: "Polyline", paths: [path.map((p) => projectPoint(p, 4326, 3857))] },
    })),
  );
  return path;
}

/** Aliases the fixture documents give the fields. */
const ALIASES: Readonly<Record<string, string>> = {
  NAME: "Name",
  POP: "Population",
  AREA: "Area (km²)",
  FOUNDED: "Founded",
  URL: "Web site",
  KIND: "Kind",
};

/** Attribute fields of each fixture table. */
const TABLE_FIELDS: Readonly<Record<string, string[]>> = {
  Cities: ["NAME", "POP", "AREA", "FOUNDED", "URL"],
  Regions: ["NAME", "KIND"],
  Roads: ["NAME"],
};

function layerSpec(name: string, table: string, extra: Record<string, unknown> = {}) {
  return {
    name,
    description: `${name} of the fixture`,
    source: { type: "geopackage", path: "../fixture.gpkg", table },
    aliases: Object.fromEntries(
      Object.entries(ALIASES).filter(([field]) => TABLE_FIELDS[table].includes(field)),
    ),
    displayField: "NAME",
    ...extra,
  };
}

/**
 * The map document of the GeoPackage fixture: map "Layers" (WGS 84) with
 * Cities (0, hyperlinks in URL), Regions (1), Roads (2, stored in Web
 * Mercator), BigCities (3: Cities with the definition expression
 * `POP > 1500000`), HiddenCities (4: not visible, drawn only below
 * 1:1,000,000); map "Mercator" (3857) with Cities (0) and Regions (1).
 */
export function fixtureDocument(name = "Fixture", limits?: Record<string, number>): unknown {
  return {
    name,
    description: "GeoPackage fixture",
    defaultMap: "Layers",
    ...(limits ? { limits } : {}),
    maps: [
      {
        name: "Layers",
        description: "Fixture in WGS 84",
        wkid: 4326,
        fullExtent: { xmin: -180, ymin: -90, xmax: 180, ymax: 90 },
        initialExtent: { xmin: 20, ymin: 40, xmax: 140, ymax: 70 },
        layers: [
          layerSpec("Cities", "Cities", { hyperlinkField: "URL" }),
          layerSpec("Regions", "Regions"),
          layerSpec("Roads", "Roads"),
          layerSpec("BigCities", "Cities", { definitionExpression: "POP > 1500000" }),
          layerSpec("HiddenCities", "Cities", { visible: false, minScale: 1000000 }),
        ],
      },
      {
        name: "Mercator",
        description: "Fixture in Web Mercator",
        wkid: 102100,
        fullExtent: {
          xmin: -20037508.342789244,
          ymin: -20037508.342789244,
          xmax: 20037508.342789244,
          ymax: 20037508.342789244,
        },
        initialExtent: { xmin: 2e6, ymin: 5e6, xmax: 1.5e7, ymax: 1e7 },
        layers: [
          layerSpec("Cities", "Cities", { hyperlinkField: "URL" }),
          layerSpec("Regions", "Regions"),
        ],
      },
    ],
  };
}

/** A written fixture: the GeoPackage and a `--maps` folder of documents. */
export interface Fixture {
  dir: string;
  gpkg: string;
  mapsDir: string;
  /** The services loaded from `mapsDir` (Fixture, and Capped with MaximumRecordCount 3). */
  services: MapService[];
  /** Closes the sources and removes the files. */
  dispose(): Promise<void>;
}

/**
 * Writes the fixture GeoPackage and two map documents (`Fixture`, and
 * `Capped` with `limits.maxRecordCount` 3) into a temp dir, and loads them
 * the way `--maps DIR` does.
 */
export async function createFixture(): Promise<Fixture> {
  const dir = await Deno.makeTempDir({ prefix: "soap-query-fixture-" });
  const gpkg = writeFixtureGeoPackage(dir);
  const mapsDir = `${dir}/maps`;
  await Deno.mkdir(mapsDir);
  await Deno.writeTextFile(`${mapsDir}/Fixture.json`, JSON.stringify(fixtureDocument(), null, 2));
  await Deno.writeTextFile(
    `${mapsDir}/Capped.json`,
    JSON.stringify(fixtureDocument("Capped", { maxRecordCount: 3 }), null, 2),
  );
  // The documents name "../fixture.gpkg", beside the maps folder.
  const services = await loadServices({ mapsDir, allowPathsOutside: true });
  return {
    dir,
    gpkg,
    mapsDir,
    services,
    async dispose() {
      const sources = new Set(
        services.flatMap((s) => s.maps.flatMap((m) => m.layers.map((l) => l.source))),
      );
      for (const source of sources) {
        try {
          source.close?.();
        } catch {
          // Layers of one GeoPackage may share a connection that an earlier close() ended.
        }
      }
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/** Runs `fn` with a server publishing the fixture services. */
export async function withFixture(
  fn: (s: QueryServer, f: Fixture) => Promise<void>,
): Promise<void> {
  const fixture = await createFixture();
  const server = await startQueryServer(fixture.services);
  try {
    await fn(server, fixture);
  } finally {
    await server.close();
    await fixture.dispose();
  }
}
