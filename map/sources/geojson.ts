/**
 * GeoJSON FeatureCollections (files or objects) as in-memory layer
 * sources. Geometry becomes the ArcGIS model (polygon rings re-oriented:
 * outer clockwise, holes counter-clockwise); fields are inferred from the
 * properties; object ids come from `feature.id`, a chosen property, or
 * the feature's position (1, 2, …).
 *
 * @module
 */
import { z } from "zod";
import type { AttributeValue, Feature, FieldInfo, LayerGeometryType, Position } from "../types.ts";
import type { FeatureSource } from "./source.ts";
import { MemoryFeatureSource } from "./_memory_source.ts";
import { layerTypeOfParts, partsToGeometry, type WkbParts } from "./_wkb.ts";

/** Options of the GeoJSON source. */
export interface GeoJsonOptions {
  /** Property holding the object id (integers); default: feature.id when all are integers, else 1..n. */
  idProperty?: string;
  /** Spatial reference of the coordinates (RFC 7946 says 4326, the default). */
  wkid?: number;
  /** Layer geometry type; default: the kind of the first geometry. */
  geometryType?: LayerGeometryType;
  /** Revision token (files use their modification time). */
  revision?: string;
  /** Where the data came from, for error messages. */
  origin?: string;
  /** Name of the object-id field (default OBJECTID, or a variant free of clashes). */
  idFieldName?: string;
}

const GeometrySchema: z.ZodType<unknown> = z.lazy(() =>
  z.union([
    z.object({
      type: z.enum([
        "Point",
        "MultiPoint",
        "LineString",
        "MultiLineString",
        "Polygon",
        "MultiPolygon",
      ]),
      coordinates: z.array(z.unknown()).or(z.array(z.number())),
    }),
    z.object({ type: z.literal("GeometryCollection"), geometries: z.array(GeometrySchema) }),
  ])
);

const FeatureCollectionSchema = z.object({
  type: z.literal("FeatureCollection"),
  features: z.array(z.object({
    type: z.literal("Feature"),
    id: z.union([z.string(), z.number()]).optional(),
    properties: z.record(z.string(), z.unknown()).nullable().optional(),
    geometry: GeometrySchema.nullable(),
  })),
});

type GeoJsonGeometry = { type: string; coordinates?: unknown; geometries?: GeoJsonGeometry[] };

function position(v: unknown, where: string): Position {
  if (
    !Array.isArray(v) || v.length < 2 ||
    !v.every((n) => typeof n === "number" && Number.isFinite(n))
  ) {
    throw new Error(`${where}: a position must be an array of at least two finite numbers.`);
  }
  return [v[0], v[1]];
}

function positions(v: unknown, where: string): Position[] {
  if (!Array.isArray(v)) throw new Error(`${where}: expected an array of positions.`);
  return v.map((p, i) => position(p, `${where}[${i}]`));
}

function collect(g: GeoJsonGeometry, out: WkbParts, where: string): void {
  const c = g.coordinates as unknown[];
  switch (g.type) {
    case "Point":
      out.points.push(position(c, where));
      return;
    case "MultiPoint":
      out.points.push(...positions(c, where));
      return;
    case "LineString":
      out.paths.push(positions(c, where));
      return;
    case "MultiLineString":
      c.forEach((p, i) => out.paths.push(positions(p, `${where}[${i}]`)));
      return;
    case "Polygon":
      out.polygons.push(c.map((r, i) => positions(r, `${where}[${i}]`)));
      return;
    case "MultiPolygon":
      c.forEach((poly, i) => {
        if (!Array.isArray(poly)) throw new Error(`${where}[${i}]: expected a polygon.`);
        out.polygons.push(poly.map((r, j) => positions(r, `${where}[${i}][${j}]`)));
      });
      return;
    case "GeometryCollection":
      (g.geometries ?? []).forEach((x, i) => collect(x, out, `${where}.geometries[${i}]`));
      return;
  }
}

function inferField(name: string, values: unknown[]): FieldInfo {
  const present = values.filter((v) => v !== null && v !== undefined);
  let type: FieldInfo["type"] = "String";
  if (present.length > 0 && present.every((v) => typeof v === "number")) {
    const ints = present.every((v) => Number.isInteger(v) && Math.abs(v as number) <= 2147483647);
    type = ints ? "Integer" : "Double";
  } else if (present.length > 0 && present.every((v) => typeof v === "boolean")) {
    type = "SmallInteger";
  }
  const length = type === "String"
    ? Math.max(1, ...present.map((v) => (typeof v === "string" ? v : JSON.stringify(v)).length))
    : 0;
  return { name, type, alias: name, length, nullable: true };
}

function attributeValue(v: unknown, field: FieldInfo): AttributeValue {
  if (v === null || v === undefined) return null;
  if (field.type === "SmallInteger" && typeof v === "boolean") return v ? 1 : 0;
  if (field.type === "String") return typeof v === "string" ? v : JSON.stringify(v);
  return v as AttributeValue;
}

/**
 * Builds a source from a parsed GeoJSON value. Throws an Error naming the
 * origin and the JSON path of the first problem.
 *
 * @example
 * ```ts
 * const src = geoJsonSource({ type: "FeatureCollection", features: [] });
 * ```
 */
export function geoJsonSource(value: unknown, opts: GeoJsonOptions = {}): FeatureSource {
  const origin = opts.origin ?? "GeoJSON";
  const parsed = FeatureCollectionSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(
      `${origin} is not a GeoJSON FeatureCollection: at ${
        issue.path.join(".") || "(root)"
      }: ${issue.message}.`,
    );
  }
  const raw = parsed.data.features;
  const names = [...new Set(raw.flatMap((f) => Object.keys(f.properties ?? {})))];
  const idName = [opts.idFieldName ?? "OBJECTID", "OBJECTID_1", "OBJECTID_2", "FID"]
    .find((n) => !names.includes(n))!;
  const attrNames = names.filter((n) => n !== opts.idProperty);
  const fields = attrNames.map((n) => inferField(n, raw.map((f) => f.properties?.[n])));
  const ids = raw.map((f, i) => {
    if (opts.idProperty) {
      const v = f.properties?.[opts.idProperty];
      if (!Number.isInteger(v)) {
        throw new Error(
          `${origin}: features[${i}].properties.${opts.idProperty} must be an integer id.`,
        );
      }
      return v as number;
    }
    return f.id;
  });
  const useIds = ids.every((id) => Number.isInteger(id)) && new Set(ids).size === ids.length;
  const parts = raw.map((f, i) => {
    if (!f.geometry) return null;
    const out: WkbParts = { points: [], paths: [], polygons: [] };
    collect(f.geometry as GeoJsonGeometry, out, `${origin}: features[${i}].geometry.coordinates`);
    return out;
  });
  const geometryType = opts.geometryType ??
    parts.map((p) => (p ? layerTypeOfParts(p) : null)).find((t) => t !== null) ?? "Point";
  const features: Feature[] = raw.map((f, i) => {
    const attributes: Record<string, AttributeValue> = {};
    fields.forEach((field) => {
      attributes[field.name] = attributeValue(f.properties?.[field.name], field);
    });
    const p = parts[i];
    return {
      id: useIds ? Number(ids[i]) : i + 1,
      attributes,
      geometry: p ? partsToGeometry(p, geometryType) : null,
    };
  });
  return new MemoryFeatureSource({
    features,
    fields: [{ name: idName, type: "OID", alias: idName, length: 4, nullable: false }, {
      name: "Shape",
      type: "Geometry",
      alias: "Shape",
      length: 0,
      nullable: true,
    }, ...fields],
    idField: idName,
    wkid: opts.wkid ?? 4326,
    geometryType,
    revision: opts.revision ?? "0",
  });
}

/**
 * Reads a GeoJSON file into a source (revision = file modification time).
 *
 * @example
 * ```ts
 * const rivers = openGeoJsonFile("maps/rivers.geojson");
 * ```
 */
export function openGeoJsonFile(path: string, opts: GeoJsonOptions = {}): FeatureSource {
  let text: string;
  try {
    text = Deno.readTextFileSync(path);
  } catch {
    throw new Error(`GeoJSON file ${path} does not exist or cannot be read.`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new Error(`GeoJSON file ${path} is not valid JSON: ${(e as Error).message}`);
  }
  const mtime = Deno.statSync(path).mtime?.getTime() ?? 0;
  return geoJsonSource(value, { origin: path, revision: String(mtime), ...opts });
}
