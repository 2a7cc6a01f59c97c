/**
 * Building one layer of a map document: opening (and sharing) its source,
 * applying aliases and checking every field the document names.
 *
 * @module
 */
import type { FieldInfo, LayerGeometryType } from "../types.ts";
import type { FeatureSource } from "../sources/source.ts";
import { openGeoPackage } from "../sources/geopackage.ts";
import { openGeoJsonFile } from "../sources/geojson.ts";
import { openShapefile } from "../sources/shapefile.ts";
import { openPostgis } from "../sources/postgis.ts";
import { openFlatGeobuf } from "../sources/flatgeobuf.ts";
import { openWorldAtlas } from "../sources/world_atlas.ts";
import { type CompetitionCatalog, openCompetitions } from "../sources/competitions.ts";
import { parseWhere, WhereClauseError } from "../query/mod.ts";
import { canProject, normalizeWkid } from "../geo/projection.ts";
import {
  type LabelSpec,
  rendererFields,
  type RendererSpec,
  RendererSpecSchema,
} from "./renderer.ts";
import type { LayerSpec, MapSpec, SourceSpec } from "./schema.ts";
import type { MapLayer } from "./types.ts";

/** A map document that cannot be served, with where and why. */
export class MapDocumentError extends Error {
  /** Builds "<file>: <path>: <problem>". */
  constructor(readonly file: string, readonly path: string, readonly problem: string) {
    super(`${file}: ${path ? `${path}: ` : ""}${problem}`);
    this.name = "MapDocumentError";
  }
}

/** Where competitions come from: an open catalogue or a database path (opened read-only). */
export interface LoadOptions {
  /** The recruitment catalogue (for "competitions" sources). */
  catalog?: CompetitionCatalog;
  /** Path of the recruitment database, opened read-only when a document needs it. */
  catalogPath?: string;
  /**
   * URL of the module that opens `catalogPath`: it exports
   * `openCompetitionCatalog(path)` returning a {@link CompetitionCatalog}. The
   * application names it (its catalogue code); a path crosses to a render
   * worker where an open catalogue cannot.
   */
  catalogModule?: string;
}

/** Shared state of one load: sources opened so far, the catalogue. */
export interface LoadContext {
  opts: LoadOptions;
  sources: Map<string, FeatureSource>;
  catalog?: CompetitionCatalog;
  /** When set, source paths must resolve inside this (real) folder. */
  pathRoot?: string;
}

function sourceKey(spec: SourceSpec): string {
  return JSON.stringify(spec);
}

async function openSource(
  spec: SourceSpec,
  ctx: LoadContext,
  fail: (problem: string) => never,
): Promise<FeatureSource> {
  const key = sourceKey(spec);
  const hit = ctx.sources.get(key);
  if (hit) return hit;
  let source: FeatureSource;
  try {
    switch (spec.type) {
      case "geopackage":
        source = openGeoPackage(spec.path, { table: spec.table });
        break;
      case "geojson":
        source = openGeoJsonFile(spec.path, { idProperty: spec.idProperty, wkid: spec.wkid });
        break;
      case "shapefile":
        source = openShapefile(spec.path, { encoding: spec.encoding, wkid: spec.wkid });
        break;
      case "postgis":
        source = openPostgis({
          url: spec.url,
          table: spec.table,
          geometryColumn: spec.geometryColumn,
          idField: spec.idField,
          srid: spec.srid,
        });
        break;
      case "flatgeobuf":
        source = openFlatGeobuf(spec.path, { wkid: spec.wkid });
        break;
      case "world-atlas":
        source = await openWorldAtlas({ scale: spec.scale, object: spec.object });
        break;
      case "competitions": {
        if (!ctx.catalog && ctx.opts.catalogPath && ctx.opts.catalogModule) {
          const m = await import(ctx.opts.catalogModule) as {
            openCompetitionCatalog(path: string): CompetitionCatalog;
          };
          ctx.catalog = m.openCompetitionCatalog(ctx.opts.catalogPath);
        }
        if (!ctx.catalog) {
          fail("the competitions source needs the recruitment database, but none is open");
        }
        source = openCompetitions(ctx.catalog);
        break;
      }
    }
  } catch (e) {
    if (e instanceof MapDocumentError) throw e;
    fail((e as Error).message);
  }
  ctx.sources.set(key, source);
  return source;
}

function defaultRenderer(type: LayerGeometryType): RendererSpec {
  const symbol = type === "Polygon"
    ? {
      type: "simple-fill",
      color: [230, 230, 210, 255],
      outline: { type: "simple-line", color: [110, 110, 110, 255], width: 0.7 },
    }
    : type === "Polyline"
    ? { type: "simple-line", color: [60, 90, 160, 255], width: 1 }
    : { type: "simple-marker", style: "circle", color: [40, 110, 200, 255], size: 6 };
  return RendererSpecSchema.parse({ type: "simple", symbol });
}

export async function buildLayer(
  spec: LayerSpec,
  index: number,
  map: MapSpec,
  ctx: LoadContext,
  fail: (path: string, problem: string) => never,
): Promise<MapLayer> {
  const at = (p: string) => `layers[${index}]${p}`;
  const source = await openSource(spec.source, ctx, (problem) => fail(at(".source"), problem));
  const mapWkid = normalizeWkid(map.wkid);
  if (source.wkid !== 0 && !canProject(source.wkid, mapWkid)) {
    fail(
      at(".source"),
      `the layer's data is in WKID ${source.wkid}, which cannot be projected to the map's WKID ${map.wkid}`,
    );
  }
  const raw = source.fields();
  const names = raw.map((f) => f.name);
  const field = (name: string, path: string): FieldInfo => {
    const f = raw.find((x) => x.name === name) ??
      raw.find((x) => x.name.toLowerCase() === name.toLowerCase());
    if (!f) fail(at(path), `unknown field "${name}"; the layer's fields are: ${names.join(", ")}`);
    return f;
  };
  for (const name of Object.keys(spec.aliases)) field(name, `.aliases.${name}`);
  const fields = raw.map((f) => {
    const alias = Object.entries(spec.aliases).find(([k]) =>
      k.toLowerCase() === f.name.toLowerCase()
    );
    return alias ? { ...f, alias: alias[1] } : f;
  });
  const displayField = spec.displayField
    ? field(spec.displayField, ".displayField").name
    : (fields.find((f) => f.type === "String") ?? fields[0]).name;
  let hyperlinkField: string | undefined;
  if (spec.hyperlinkField) {
    const f = field(spec.hyperlinkField, ".hyperlinkField");
    if (f.type !== "String") fail(at(".hyperlinkField"), `field "${f.name}" is not a text field`);
    hyperlinkField = f.name;
  }
  let definition;
  try {
    definition = parseWhere(spec.definitionExpression, fields);
  } catch (e) {
    if (e instanceof WhereClauseError) fail(at(".definitionExpression"), e.message);
    throw e;
  }
  const renderer = spec.renderer ?? defaultRenderer(source.geometryType);
  const rendererFieldsOk = rendererFields(renderer).map((n) => field(n, ".renderer.field").name);
  const fixedRenderer: RendererSpec = renderer.type === "simple"
    ? renderer
    : { ...renderer, field: rendererFieldsOk[0] };
  let labels: LabelSpec | undefined;
  if (spec.labels) {
    labels = { ...spec.labels, field: field(spec.labels.field, ".labels.field").name };
  }
  return {
    id: spec.id ?? index,
    name: spec.name,
    description: spec.description,
    copyrightText: spec.copyright,
    source,
    sourceSpec: spec.source,
    geometryType: source.geometryType,
    fields,
    displayField,
    visible: spec.visible,
    minScale: spec.minScale,
    maxScale: spec.maxScale,
    definitionExpression: spec.definitionExpression,
    // Re-parsed on each read so CURRENT_DATE in a definition stays current.
    get definition() {
      return definition === undefined ? undefined : parseWhere(spec.definitionExpression, fields);
    },
    hyperlinkField,
    renderer: fixedRenderer,
    labels,
  };
}
