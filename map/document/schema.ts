/**
 * The map-document JSON format (zod). A document defines one map service:
 * its name, description, copyright and maps (data frames); each map has
 * a spatial reference, extents, units, background colour, optional tile
 * cache and an ordered list of layers, top-most first (layer 0 is drawn
 * last, as in ArcGIS).
 *
 * ```json
 * {
 *   "name": "Cities",
 *   "description": "Cities of Russia",
 *   "maps": [{
 *     "name": "Layers",
 *     "wkid": 4326,
 *     "layers": [{
 *       "name": "Cities",
 *       "source": { "type": "geopackage", "path": "cities.gpkg", "table": "cities" },
 *       "aliases": { "name": "Название" },
 *       "displayField": "name",
 *       "renderer": { "type": "simple", "symbol": { "type": "simple-marker", "color": [200, 0, 0] } }
 *     }]
 *   }]
 * }
 * ```
 *
 * Relative source paths are resolved against the document's folder.
 *
 * @module
 */
import { z } from "zod";
import { LabelSpecSchema, RendererSpecSchema } from "./renderer.ts";
import { ESRI_UNITS } from "../geo/units.ts";

/** An extent in the map's spatial reference. */
export const ExtentSchema = z.strictObject({
  xmin: z.number(),
  ymin: z.number(),
  xmax: z.number(),
  ymax: z.number(),
}).refine((e) => e.xmin < e.xmax && e.ymin < e.ymax, {
  message: "xmin must be less than xmax and ymin less than ymax",
});

/** Where a layer's features come from; one variant per source plug-in. */
export const SourceSpecSchema = z.discriminatedUnion("type", [
  z.strictObject({
    type: z.literal("geopackage"),
    /** Path of the .gpkg file (relative to the document). */
    path: z.string().min(1),
    /** Feature table; default the first one. */
    table: z.string().min(1).optional(),
  }),
  z.strictObject({
    type: z.literal("geojson"),
    path: z.string().min(1),
    /** Property holding integer object ids. */
    idProperty: z.string().min(1).optional(),
    /** Spatial reference of the coordinates (default 4326). */
    wkid: z.number().int().positive().optional(),
  }),
  z.strictObject({
    type: z.literal("shapefile"),
    /** Path of the .shp file (relative to the document); .shx and .dbf beside it. */
    path: z.string().min(1),
    /** DBF text encoding ("UTF-8", "CP1251", "1251"…); default the .cpg, then the DBF header. */
    encoding: z.string().min(1).optional(),
    /** Spatial reference of the coordinates; default the one the .prj describes. */
    wkid: z.number().int().positive().optional(),
  }),
  z.strictObject({
    type: z.literal("postgis"),
    /**
     * `postgresql://user@host:port/db`, no password: libpq's environment (PGPASSWORD, PGPASSFILE…)
     * or a `${VAR}` reference to an environment variable supplies it.
     */
    url: z.string().regex(
      /^postgres(ql)?:\/\//,
      "must start with postgresql:// (e.g. postgresql://gis@127.0.0.1:5432/gis)",
    ).refine(
      (u) => !/^postgres(ql)?:\/\/[^/@]*:(?!\$\{[A-Za-z_][A-Za-z0-9_]*\}@)[^/@]*@/.test(u),
      "must not hold a password; use PGPASSWORD/PGPASSFILE or ${VAR} (an environment variable)",
    ),
    /** `schema.name`, or `name` in schema public. */
    table: z.string().regex(/^[^.]+(\.[^.]+)?$/, "must be schema.name or name"),
    /** Geometry column; default the first one geometry_columns lists for the table. */
    geometryColumn: z.string().min(1).optional(),
    /** Unique integer column of the object ids; default the primary key. */
    idField: z.string().min(1).optional(),
    /** Spatial reference id of the geometries; default the one geometry_columns gives. */
    srid: z.number().int().positive().optional(),
  }),
  z.strictObject({
    type: z.literal("flatgeobuf"),
    /** Path of the .fgb file (relative to the document). */
    path: z.string().min(1),
    /** Spatial reference of the coordinates; default the file's CRS. */
    wkid: z.number().int().positive().optional(),
  }),
  z.strictObject({
    type: z.literal("world-atlas"),
    scale: z.enum(["110m", "50m", "10m"]).default("50m"),
    object: z.enum(["countries", "land"]).default("countries"),
  }),
  z.strictObject({ type: z.literal("competitions") }),
]);

/** One layer of a map. */
export const LayerSpecSchema = z.strictObject({
  /** Layer id (unique in the map); default its position in the list. */
  id: z.number().int().min(0).optional(),
  name: z.string().min(1),
  description: z.string().default(""),
  copyright: z.string().default(""),
  source: SourceSpecSchema,
  /** Field name → alias shown to users. */
  aliases: z.record(z.string(), z.string()).default({}),
  /** Field shown as the feature's name (Find/Identify); default the first text field. */
  displayField: z.string().min(1).optional(),
  visible: z.boolean().default(true),
  /** Zoomed-out limit (scale denominator); 0 = none. */
  minScale: z.number().min(0).default(0),
  /** Zoomed-in limit (scale denominator); 0 = none. */
  maxScale: z.number().min(0).default(0),
  /** Where clause every use of the layer applies. */
  definitionExpression: z.string().default(""),
  /** Text field holding a URL per feature (QueryHyperlinks). */
  hyperlinkField: z.string().min(1).optional(),
  /** Symbology; default a plain symbol for the geometry type. */
  renderer: RendererSpecSchema.optional(),
  labels: LabelSpecSchema.optional(),
});

/** A tile cache for a map (fixed-scale levels of the standard scheme for its SR). */
export const TilingSpecSchema = z.strictObject({
  minLevel: z.number().int().min(0).max(23).optional(),
  maxLevel: z.number().int().min(0).max(23).optional(),
  /** Image format name, e.g. "PNG32", "PNG", "JPG". */
  format: z.string().min(1).optional(),
  quality: z.number().int().min(1).max(100).optional(),
});

const channel = z.number().int().min(0).max(255);

/** One map (data frame). */
export const MapSpecSchema = z.strictObject({
  name: z.string().min(1),
  description: z.string().default(""),
  copyright: z.string().optional(),
  /** Spatial reference of the map (4326, 3857/102100, …). */
  wkid: z.number().int().positive().default(4326),
  /** Default: the union of the layers' extents. */
  fullExtent: ExtentSchema.optional(),
  /** Default: the full extent. */
  initialExtent: ExtentSchema.optional(),
  /** Default: the units of the spatial reference. */
  units: z.enum(ESRI_UNITS).optional(),
  backgroundColor: z.tuple([channel, channel, channel]).default([255, 255, 255]),
  tiling: TilingSpecSchema.optional(),
  layers: z.array(LayerSpecSchema),
});

/** Service limits (ArcGIS defaults apply to the ones left out). */
export const LimitsSchema = z.strictObject({
  maxRecordCount: z.number().int().positive().optional(),
  maxBufferCount: z.number().int().positive().optional(),
  maxImageWidth: z.number().int().positive().optional(),
  maxImageHeight: z.number().int().positive().optional(),
});

/** A whole map document: one service. */
export const MapDocumentSchema = z.strictObject({
  /** Service name as it appears in URLs (`/arcgis/services/<name>/MapServer`). */
  name: z.string().regex(
    /^[A-Za-z][A-Za-z0-9_]*$/,
    "a service name starts with a letter and has only letters, digits and _",
  ),
  description: z.string().default(""),
  copyright: z.string().default(""),
  /** Name of the default map; default the first. */
  defaultMap: z.string().min(1).optional(),
  /** GetDocumentInfo properties (Title, Author, Subject, Category, Keywords, Comments). */
  documentInfo: z.record(z.string(), z.string()).default({}),
  limits: LimitsSchema.optional(),
  maps: z.array(MapSpecSchema).min(1),
});

/** A source description (plain type). */
export type SourceSpec = z.infer<typeof SourceSpecSchema>;
/** A layer description (plain type). */
export type LayerSpec = z.infer<typeof LayerSpecSchema>;
/** A layer description as written (defaults not yet applied). */
export type LayerSpecInput = z.input<typeof LayerSpecSchema>;
/** A map description (plain type). */
export type MapSpec = z.infer<typeof MapSpecSchema>;
/** A tile cache description (plain type). */
export type TilingSpec = z.infer<typeof TilingSpecSchema>;
/** A map document after validation (plain type). */
export type MapDocument = z.infer<typeof MapDocumentSchema>;
/** A map document as written (defaults not yet applied). */
export type MapDocumentInput = z.input<typeof MapDocumentSchema>;

/**
 * The document format as a JSON Schema (draft 2020-12), for editors and
 * validators outside this server; it describes documents as written.
 *
 * @example
 * ```ts
 * Deno.writeTextFileSync("map-document.schema.json", JSON.stringify(mapDocumentJsonSchema(), null, 2));
 * ```
 */
export function mapDocumentJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(MapDocumentSchema, { io: "input", unrepresentable: "any" }) as Record<
    string,
    unknown
  >;
}
