/**
 * Fixtures for the rendering tests: an in-memory feature source, Natural
 * Earth countries from `world-atlas`, and small pixel helpers over decoded
 * PNG/JPEG images.
 *
 * @module
 */
import assert from "node:assert/strict";
import * as topojson from "topojson-client";
import { PNG } from "pngjs";
import jpeg from "jpeg-js";
import { Buffer } from "node:buffer";
import { evaluate } from "../map/query/mod.ts";
import { LabelSpecSchema, RendererSpecSchema, type Rgba } from "../map/document/renderer.ts";
import type { LoadedService } from "../map/render/_loader.ts";
import type { RenderLayer } from "../map/render/types.ts";
import { cutPolygonAtAntimeridian } from "../map/geo/antimeridian.ts";
import type { FeatureQuery, FeatureSource } from "../map/sources/source.ts";
import type {
  Extent,
  Feature,
  FieldInfo,
  Geometry,
  LayerGeometryType,
  Position,
} from "../map/types.ts";

/** A feature source over an array, with a bbox prefilter and in-memory where evaluation. */
export class MemorySource implements FeatureSource {
  readonly wkid: number;
  readonly geometryType: LayerGeometryType;
  readonly idField = "OBJECTID";
  #features: Feature[];
  #boxes: Extent[];
  #fields: FieldInfo[];
  queries = 0;

  /** Wraps `features` (ids and attributes as given). */
  constructor(
    features: Feature[],
    geometryType: LayerGeometryType,
    wkid = 4326,
    fields: FieldInfo[] = [],
  ) {
    this.#features = features;
    this.geometryType = geometryType;
    this.wkid = wkid;
    this.#fields = [{
      name: "OBJECTID",
      type: "OID",
      alias: "OBJECTID",
      length: 0,
      nullable: false,
    }, ...fields];
    this.#boxes = features.map((f) => bboxOf(f.geometry));
  }
  fields(): FieldInfo[] {
    return this.#fields;
  }
  extent(): Extent | null {
    return null;
  }
  query(q: FeatureQuery): Feature[] {
    this.queries++;
    const b = q.bbox;
    const where = q.where;
    return this.#features.filter((f, i) => {
      if (where && !evaluate(where, f.attributes)) return false;
      if (!b) return true;
      const e = this.#boxes[i];
      return e.xmax >= b.xmin && e.xmin <= b.xmax && e.ymax >= b.ymin && e.ymin <= b.ymax;
    });
  }
  count(q: FeatureQuery): number {
    return this.query(q).length;
  }
  get(id: number): Feature | null {
    return this.#features.find((f) => f.id === id) ?? null;
  }
  revision(): string {
    return "1";
  }
}

function bboxOf(g: Geometry | null): Extent {
  const pts: Position[] = !g
    ? []
    : g.type === "Point"
    ? [[g.x, g.y]]
    : g.type === "Multipoint"
    ? g.points
    : g.type === "Polyline"
    ? g.paths.flat()
    : g.type === "Polygon"
    ? g.rings.flat()
    : [[g.xmin, g.ymin], [g.xmax, g.ymax]];
  let xmin = Infinity, ymin = Infinity, xmax = -Infinity, ymax = -Infinity;
  for (const [x, y] of pts) {
    xmin = Math.min(xmin, x);
    xmax = Math.max(xmax, x);
    ymin = Math.min(ymin, y);
    ymax = Math.max(ymax, y);
  }
  return { xmin, ymin, xmax, ymax };
}

/**
 * Natural Earth countries (`world-atlas`, "10m" | "50m" | "110m") as
 * polygon features, cut at the antimeridian as the world-atlas source
 * repairs them at load (the drawing draws geometry as stored).
 */
export async function countries(res: "10m" | "50m" | "110m" = "110m"): Promise<Feature[]> {
  const text = await Deno.readTextFile(
    new URL(`../node_modules/world-atlas/countries-${res}.json`, import.meta.url),
  );
  // deno-lint-ignore no-explicit-any
  const topo = JSON.parse(text) as any;
  // deno-lint-ignore no-explicit-any
  const fc = topojson.feature(topo, topo.objects.countries) as any;
  const out: Feature[] = [];
  let id = 1;
  for (const f of fc.features) {
    const g = f.geometry;
    if (!g) continue;
    const polys: Position[][][] = g.type === "Polygon" ? [g.coordinates] : g.coordinates;
    out.push({
      id: id++,
      attributes: { name: f.properties?.name ?? "", iso: String(f.id ?? "") },
      geometry: { type: "Polygon", rings: polys.flatMap(cutPolygonAtAntimeridian).flat() },
    });
  }
  return out;
}

/** Decoded image pixels (RGBA). */
export interface Pixels {
  width: number;
  height: number;
  data: Uint8Array;
}

/** Decodes PNG or JPEG bytes. */
export function decode(bytes: Uint8Array): Pixels {
  if (bytes[0] === 0x89 && bytes[1] === 0x50) {
    const png = PNG.sync.read(Buffer.from(bytes));
    return { width: png.width, height: png.height, data: new Uint8Array(png.data) };
  }
  if (bytes[0] === 0xff && bytes[1] === 0xd8) {
    const j = jpeg.decode(bytes, { useTArray: true, formatAsRGBA: true });
    return { width: j.width, height: j.height, data: j.data };
  }
  throw new Error("Neither PNG nor JPEG.");
}

/** RGBA of pixel (x, y). */
export function pixel(p: Pixels, x: number, y: number): [number, number, number, number] {
  const i = (Math.round(y) * p.width + Math.round(x)) * 4;
  return [p.data[i], p.data[i + 1], p.data[i + 2], p.data[i + 3]];
}

/** Asserts that two images have the same size and the very same pixels. */
export function assertSamePixels(a: Pixels, b: Pixels, what: string): void {
  assert.equal(a.width, b.width, what);
  assert.equal(a.height, b.height, what);
  let differ = 0;
  for (let i = 0; i < a.data.length; i++) if (a.data[i] !== b.data[i]) differ++;
  assert.equal(differ, 0, `${what}: ${differ} channel values differ`);
}

/** True when the two colours differ by at most `tol` on every channel. */
export function near(a: readonly number[], b: readonly number[], tol = 3): boolean {
  return a.every((v, i) => Math.abs(v - b[i]) <= tol);
}

/** Number of pixels in the box that differ from `bg` by more than `tol`. */
export function countNot(
  p: Pixels,
  bg: readonly number[],
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  tol = 8,
): number {
  let n = 0;
  for (let y = Math.max(0, y0); y < Math.min(p.height, y1); y++) {
    for (let x = Math.max(0, x0); x < Math.min(p.width, x1); x++) {
      if (!near(pixel(p, x, y), bg, tol)) n++;
    }
  }
  return n;
}

/**
 * A loader for render workers (`ServiceLoaderSpec` export): one service
 * "Pool" with a 4326 map "Layers" of two cities over the 110m countries.
 */
export async function loadTestServices(): Promise<LoadedService[]> {
  const world = await countries("110m");
  const cities = new MemorySource(
    [
      { id: 1, attributes: { name: "Москва" }, geometry: { type: "Point", x: 37.62, y: 55.75 } },
      { id: 2, attributes: { name: "Lima" }, geometry: { type: "Point", x: -77.03, y: -12.05 } },
    ],
    "Point",
  );
  return [{
    name: "Pool",
    defaultMapName: "Layers",
    maps: [{
      name: "Layers",
      wkid: 4326,
      backgroundColor: [200, 225, 255],
      layers: [
        {
          id: 0,
          name: "Cities",
          geometryType: "Point",
          source: cities,
          visible: true,
          minScale: 0,
          maxScale: 0,
          renderer: {
            type: "simple",
            transparency: 0,
            label: "",
            description: "",
            symbol: {
              type: "simple-marker",
              style: "circle",
              color: [220, 30, 30, 255],
              size: 9,
              angle: 0,
              xoffset: 0,
              yoffset: 0,
            },
          },
        },
        {
          id: 1,
          name: "Countries",
          geometryType: "Polygon",
          source: new MemorySource(world, "Polygon"),
          visible: true,
          minScale: 0,
          maxScale: 0,
          // Every layer carries its renderer, as map documents' layers do.
          renderer: RendererSpecSchema.parse({
            type: "simple",
            symbol: {
              type: "simple-fill",
              style: "solid",
              color: [235, 230, 215],
              outline: { type: "simple-line", style: "solid", color: [130, 130, 130], width: 0.5 },
            },
          }),
        },
      ],
    }],
  }];
}

/**
 * A loader for render workers: service "Store" with a 4326 map "Layers" of
 * one GeoPackage polygon table (`path`, `table`) drawn as a simple fill with
 * an outline, for the shared geometry store tests.
 */
export async function loadGeoPackageService(path: string, table: string): Promise<unknown[]> {
  const { openGeoPackage } = await import("../map/sources/geopackage.ts");
  return [{
    name: "Store",
    defaultMapName: "Layers",
    maps: [{
      name: "Layers",
      wkid: 4326,
      backgroundColor: [205, 225, 240],
      layers: [storeTestLayer(openGeoPackage(path, { table }))],
    }],
  }];
}

/** The polygon layer of {@link loadGeoPackageService} over any source. */
export function storeTestLayer(source: FeatureSource) {
  return {
    id: 0,
    name: "Land",
    geometryType: "Polygon" as const,
    source,
    visible: true,
    minScale: 0,
    maxScale: 0,
    renderer: {
      type: "simple" as const,
      transparency: 0,
      label: "",
      description: "",
      symbol: {
        type: "simple-fill" as const,
        style: "solid" as const,
        color: [244, 241, 230, 255] as [number, number, number, number],
        outline: {
          type: "simple-line" as const,
          style: "solid" as const,
          color: [150, 150, 150, 255] as [number, number, number, number],
          width: 0.5,
        },
      },
    },
  };
}

/**
 * A loader for render workers: service "Points" with a 4326 map "Layers" of
 * one GeoPackage point table (`path`, `table`) drawn by a unique-value
 * renderer on its `kind` field (kinds 1 and 2; others unclassed, not drawn)
 * and labelled with its `name` field, for the shared point store tests.
 */
export async function loadGeoPackagePointService(
  path: string,
  table: string,
): Promise<unknown[]> {
  const { openGeoPackage } = await import("../map/sources/geopackage.ts");
  return [{
    name: "Points",
    defaultMapName: "Layers",
    maps: [{
      name: "Layers",
      wkid: 4326,
      backgroundColor: [205, 225, 240],
      layers: [pointStoreTestLayer(openGeoPackage(path, { table }))],
    }],
  }];
}

/** The point layer of {@link loadGeoPackagePointService} over any source. */
export function pointStoreTestLayer(source: FeatureSource): RenderLayer {
  const marker = (color: Rgba, size: number) => ({
    type: "simple-marker" as const,
    style: "circle" as const,
    color,
    size,
    angle: 0,
    xoffset: 0,
    yoffset: 0,
  });
  return {
    id: 0,
    name: "Points",
    geometryType: "Point",
    source,
    visible: true,
    minScale: 0,
    maxScale: 0,
    renderer: {
      type: "uniqueValue",
      field: "kind",
      transparency: 0,
      values: [
        { value: "1", label: "one", description: "", symbol: marker([200, 30, 30, 255], 7) },
        { value: "2", label: "two", description: "", symbol: marker([30, 30, 200, 255], 11) },
      ],
    },
    labels: LabelSpecSchema.parse({ field: "name", sizePt: 9 }),
  };
}
