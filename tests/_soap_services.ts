/**
 * Map services for SOAP tests: a small in-memory point source and service
 * ({@link memoryService}), and the same service built by the real document
 * loader over a GeoJSON file ({@link loadTestService}).
 *
 * @module
 */
import { join } from "node:path";
import type { Extent, Feature, FieldInfo } from "../map/types.ts";
import type { FeatureQuery, FeatureSource } from "../map/sources/source.ts";
import type { MapLayer, MapService } from "../map/soap/operation.ts";
import { loadMapDocumentValue } from "../map/document/mod.ts";
import { RendererSpecSchema } from "../map/document/renderer.ts";

/** A tiny in-memory point layer source for protocol tests (no where-clause support). */
export class MemoryPointSource implements FeatureSource {
  readonly wkid: number;
  readonly geometryType = "Point" as const;
  readonly idField = "OBJECTID";
  readonly #features: Feature[];
  readonly #fields: FieldInfo[];

  /** `points`: [id, name, x, y] rows. */
  constructor(points: [number, string, number, number][], wkid = 4326) {
    this.wkid = wkid;
    this.#features = points.map(([id, name, x, y]) => ({
      id,
      attributes: { OBJECTID: id, NAME: name },
      geometry: { type: "Point", x, y },
    }));
    this.#fields = [
      { name: "OBJECTID", type: "OID", alias: "OBJECTID", length: 4, nullable: false },
      { name: "NAME", type: "String", alias: "Name", length: 50, nullable: true },
    ];
  }

  /** Attribute fields, OID first. */
  fields(): FieldInfo[] {
    return this.#fields;
  }

  /** Bounding box of the points. */
  extent(): Extent | null {
    if (this.#features.length === 0) return null;
    const xs = this.#features.map((f) => (f.geometry as { x: number }).x);
    const ys = this.#features.map((f) => (f.geometry as { y: number }).y);
    return {
      xmin: Math.min(...xs),
      ymin: Math.min(...ys),
      xmax: Math.max(...xs),
      ymax: Math.max(...ys),
    };
  }

  #match(q: FeatureQuery): Feature[] {
    if (q.where) throw new Error("MemoryPointSource does not evaluate where clauses");
    return this.#features.filter((f) => {
      if (q.objectIds && !q.objectIds.includes(f.id)) return false;
      const g = f.geometry as { x: number; y: number };
      const b = q.bbox;
      return !b || (g.x >= b.xmin && g.x <= b.xmax && g.y >= b.ymin && g.y <= b.ymax);
    });
  }

  /** Matching features by id. */
  query(q: FeatureQuery): Feature[] {
    const all = this.#match(q);
    const start = q.offset ?? 0;
    return all.slice(start, q.limit === undefined ? undefined : start + q.limit);
  }

  /** Number of matches. */
  count(q: FeatureQuery): number {
    return this.#match(q).length;
  }

  /** One feature. */
  get(id: number): Feature | null {
    return this.#features.find((f) => f.id === id) ?? null;
  }

  /** Never changes. */
  revision(): string {
    return "1";
  }
}

/**
 * A map service with two maps ("Layers" in WGS 84 with a point layer of two
 * cities, "Mercator" in Web Mercator without layers), built in memory
 * without the document loader (see {@link loadTestService} for the loaded form).
 */
export function memoryService(name = "Test"): MapService {
  const source = new MemoryPointSource([[1, "Moscow", 37.6173, 55.7558], [
    2,
    "Kazan",
    49.1221,
    55.7887,
  ]]);
  const layer: MapLayer = {
    id: 0,
    name: "Cities",
    description: "Two cities",
    copyrightText: "",
    source,
    sourceSpec: { type: "geojson", path: "(memory)" },
    geometryType: "Point",
    fields: source.fields(),
    displayField: "NAME",
    visible: true,
    minScale: 0,
    maxScale: 0,
    definitionExpression: "",
    renderer: RendererSpecSchema.parse({
      type: "simple",
      symbol: { type: "simple-marker", style: "circle", color: [200, 0, 0, 255], size: 6 },
    }),
  };
  const world = { xmin: -180, ymin: -90, xmax: 180, ymax: 90 };
  return {
    name,
    description: "In-memory test service",
    copyrightText: "",
    defaultMapName: "Layers",
    documentInfo: {},
    origin: "(memory)",
    close: () => {},
    maps: [
      {
        name: "Layers",
        description: "Cities in WGS 84",
        copyrightText: "",
        wkid: 4326,
        fullExtent: world,
        initialExtent: { xmin: 30, ymin: 50, xmax: 60, ymax: 60 },
        units: "esriDecimalDegrees",
        backgroundColor: [255, 255, 254],
        layers: [layer],
      },
      {
        name: "Mercator",
        description: "Empty Web Mercator map",
        copyrightText: "",
        wkid: 3857,
        fullExtent: {
          xmin: -20037508.34,
          ymin: -20037508.34,
          xmax: 20037508.34,
          ymax: 20037508.34,
        },
        initialExtent: { xmin: -1e6, ymin: -1e6, xmax: 1e6, ymax: 1e6 },
        units: "esriMeters",
        backgroundColor: [200, 220, 255],
        layers: [],
      },
    ],
  };
}

/**
 * The same service as {@link memoryService}, but written as a map document
 * over a GeoJSON file (in a temp dir) and built by the real document loader.
 */
export async function loadTestService(name = "Test"): Promise<MapService> {
  const dir = await Deno.makeTempDir({ prefix: "soap-doc-" });
  await Deno.writeTextFile(
    join(dir, "cities.geojson"),
    JSON.stringify({
      type: "FeatureCollection",
      features: [[1, "Moscow", 37.6173, 55.7558], [2, "Kazan", 49.1221, 55.7887]].map((
        [id, n, x, y],
      ) => ({
        type: "Feature",
        properties: { fid: id, NAME: n },
        geometry: { type: "Point", coordinates: [x, y] },
      })),
    }),
  );
  return await loadMapDocumentValue({
    name,
    description: "In-memory test service",
    documentInfo: { Author: "Test Author", Keywords: "cities,test" },
    limits: { maxRecordCount: 500 },
    defaultMap: "Layers",
    maps: [
      {
        name: "Layers",
        description: "Cities in WGS 84",
        copyright: "Test copyright",
        wkid: 4326,
        fullExtent: { xmin: -180, ymin: -90, xmax: 180, ymax: 90 },
        initialExtent: { xmin: 30, ymin: 50, xmax: 60, ymax: 60 },
        backgroundColor: [255, 255, 254],
        layers: [{
          id: 0,
          name: "Cities",
          description: "Two cities",
          source: { type: "geojson", path: "cities.geojson", idProperty: "fid" },
          aliases: { NAME: "Name" },
          displayField: "NAME",
          minScale: 50_000_000,
          labels: { field: "NAME" },
        }],
      },
      {
        name: "Mercator",
        description: "Empty Web Mercator map",
        wkid: 102100,
        fullExtent: {
          xmin: -20037508.34,
          ymin: -20037508.34,
          xmax: 20037508.34,
          ymax: 20037508.34,
        },
        initialExtent: { xmin: -1e6, ymin: -1e6, xmax: 1e6, ymax: 1e6 },
        backgroundColor: [200, 220, 255],
        tiling: { maxLevel: 3 },
        layers: [],
      },
    ],
  }, { baseDir: dir, origin: join(dir, "test.json") });
}
