/**
 * Natural Earth countries (or land) from the `world-atlas` npm package,
 * converted from TopoJSON with `topojson-client`, as an in-memory layer
 * in WGS 84. Fields: `id` (object id, the feature's position in the
 * file), `name`, `iso_n3` (ISO 3166 numeric code, null for a few
 * disputed areas). World-atlas is spherical data: rings that jump across
 * the antimeridian (Russia, Fiji) are cut so they stay flat polygons.
 *
 * @module
 */
import { feature } from "topojson-client";
import type { FeatureSource } from "./source.ts";
import { geoJsonSource } from "./geojson.ts";
import { cutPolygonAtAntimeridian } from "../geo/antimeridian.ts";
import type { Position } from "../types.ts";

/** Natural Earth scales shipped by world-atlas. */
export type WorldAtlasScale = "110m" | "50m" | "10m";

/** Which world-atlas object to load. */
export interface WorldAtlasOptions {
  /** Default "50m". */
  scale?: WorldAtlasScale;
  /** Default "countries". */
  object?: "countries" | "land";
}

// Literal specifiers keep the imports visible to the module graph (and `deno compile`).
async function loadTopology(scale: WorldAtlasScale, object: "countries" | "land") {
  const key = `${object}-${scale}`;
  switch (key) {
    case "countries-110m":
      return (await import("world-atlas/countries-110m.json", { with: { type: "json" } })).default;
    case "countries-50m":
      return (await import("world-atlas/countries-50m.json", { with: { type: "json" } })).default;
    case "countries-10m":
      return (await import("world-atlas/countries-10m.json", { with: { type: "json" } })).default;
    case "land-110m":
      return (await import("world-atlas/land-110m.json", { with: { type: "json" } })).default;
    case "land-50m":
      return (await import("world-atlas/land-50m.json", { with: { type: "json" } })).default;
    case "land-10m":
      return (await import("world-atlas/land-10m.json", { with: { type: "json" } })).default;
  }
  throw new Error(
    `world-atlas has no "${key}"; use scale 110m, 50m or 10m and object countries or land.`,
  );
}

/**
 * Loads a world-atlas layer as a FeatureSource (polygons, WKID 4326).
 *
 * @example
 * ```ts
 * const countries = await openWorldAtlas({ scale: "50m" });
 * countries.count({}); // 241
 * ```
 */
export async function openWorldAtlas(opts: WorldAtlasOptions = {}): Promise<FeatureSource> {
  const scale = opts.scale ?? "50m";
  const object = opts.object ?? "countries";
  // deno-lint-ignore no-explicit-any
  const topology = await loadTopology(scale, object) as any;
  const collection = feature(topology, topology.objects[object]) as {
    features: { id?: string; properties?: { name?: string } }[];
  };
  const features = collection.features.map((f) => ({
    type: "Feature",
    properties: { name: f.properties?.name ?? null, iso_n3: f.id ?? null },
    geometry: flatGeometry((f as { geometry: FlatInput | null }).geometry),
  }));
  return geoJsonSource({ type: "FeatureCollection", features }, {
    origin: `world-atlas ${object}-${scale}`,
    idFieldName: "id",
    geometryType: "Polygon",
    revision: `world-atlas-2.0.2-${object}-${scale}`,
  });
}

type FlatInput =
  | { type: "Polygon"; coordinates: Position[][] }
  | { type: "MultiPolygon"; coordinates: Position[][][] }
  | { type: string; coordinates: unknown };

/** Polygons cut at the antimeridian (as a MultiPolygon); other geometry unchanged. */
function flatGeometry(g: FlatInput | null): unknown {
  if (!g) return null;
  if (g.type !== "Polygon" && g.type !== "MultiPolygon") return g;
  const polygons = g.type === "Polygon"
    ? [g.coordinates as Position[][]]
    : g.coordinates as Position[][][];
  return { type: "MultiPolygon", coordinates: polygons.flatMap(cutPolygonAtAntimeridian) };
}
