/**
 * OGC GeoPackage feature tables as layer sources (read-only, node:sqlite).
 *
 * Reads `gpkg_contents`, `gpkg_geometry_columns` and
 * `gpkg_spatial_ref_sys`, decodes GeoPackage geometry blobs, answers the
 * envelope prefilter from the table's R*Tree (`rtree_<table>_<column>`)
 * when there is one and from each blob's header envelope otherwise.
 * Spatial references other than 4326/3857 are registered with the
 * projection module from their WKT, so layers in UTM or national grids
 * reproject like the built-ins.
 *
 * @module
 */
import { bboxOfParts, unionExtent } from "../geo/relate.ts";
import { resolve } from "node:path";
import { DatabaseSync } from "node:sqlite";
import type { Extent, FieldType, LayerGeometryType } from "../types.ts";
import { registerSpatialReference } from "../geo/projection.ts";
import type { FeatureSource } from "./source.ts";
import { SqlFeatureSource, type SqlField } from "./_sql_source.ts";
import { decodeGpkgBlob, layerTypeOfParts, partsToGeometry } from "./_wkb.ts";
import { quoteIdent } from "../query/mod.ts";

/** One feature table listed in a GeoPackage. */
export interface GeoPackageLayerInfo {
  table: string;
  identifier: string;
  description: string;
  geometryColumn: string;
  /** `gpkg_geometry_columns.geometry_type_name`, e.g. POINT, MULTIPOLYGON, GEOMETRY. */
  geometryTypeName: string;
  srsId: number;
  /** EPSG/ESRI id of the table's spatial reference (0 when undefined). */
  wkid: number;
  /** Extent from gpkg_contents, when filled in. */
  extent: Extent | null;
  hasSpatialIndex: boolean;
}

/** Options of {@linkcode openGeoPackage}. */
export interface GeoPackageOptions {
  /** Feature table to open; default the first one in gpkg_contents. */
  table?: string;
}

function openDb(path: string): DatabaseSync {
  try {
    Deno.statSync(path);
  } catch {
    throw new Error(`GeoPackage file ${path} does not exist or cannot be read.`);
  }
  const db = new DatabaseSync(path, { readOnly: true });
  const has = db.prepare(
    "SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name IN ('gpkg_contents', 'gpkg_geometry_columns', 'gpkg_spatial_ref_sys')",
  ).get() as { n: number };
  if (Number(has.n) < 3) {
    db.close();
    throw new Error(
      `${path} is not a GeoPackage: gpkg_contents, gpkg_geometry_columns or gpkg_spatial_ref_sys is missing.`,
    );
  }
  return db;
}

function wkidOf(db: DatabaseSync, srsId: number): number {
  if (srsId === 0) return 4326; // "undefined geographic" of the spec
  if (srsId === -1) return 0; // "undefined Cartesian"
  const row = db.prepare(
    "SELECT organization, organization_coordsys_id AS code, definition FROM gpkg_spatial_ref_sys WHERE srs_id = ?",
  ).get(srsId) as { organization: string; code: number; definition: string } | undefined;
  if (!row) return srsId;
  const org = String(row.organization ?? "").toUpperCase();
  const wkid = org === "EPSG" || org === "ESRI" ? Number(row.code) : srsId;
  if (row.definition && row.definition !== "undefined") {
    registerSpatialReference(wkid, String(row.definition));
  }
  return wkid;
}

function layersOf(db: DatabaseSync): GeoPackageLayerInfo[] {
  const rows = db.prepare(
    `SELECT c.table_name AS t, c.identifier AS ident, c.description AS descr, c.min_x, c.min_y,
            c.max_x, c.max_y, g.column_name AS col, g.geometry_type_name AS gtype, g.srs_id AS srs
       FROM gpkg_contents c JOIN gpkg_geometry_columns g ON g.table_name = c.table_name
      WHERE c.data_type = 'features' ORDER BY c.rowid`,
  ).all() as Record<string, unknown>[];
  return rows.map((r) => {
    const table = String(r.t);
    const col = String(r.col);
    const idx = db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = ?")
      .get(`rtree_${table}_${col}`) as { n: number };
    const box = [r.min_x, r.min_y, r.max_x, r.max_y];
    return {
      table,
      identifier: String(r.ident ?? table),
      description: String(r.descr ?? ""),
      geometryColumn: col,
      geometryTypeName: String(r.gtype).toUpperCase(),
      srsId: Number(r.srs),
      wkid: wkidOf(db, Number(r.srs)),
      extent: box.every((v) => typeof v === "number")
        ? {
          xmin: box[0] as number,
          ymin: box[1] as number,
          xmax: box[2] as number,
          ymax: box[3] as number,
        }
        : null,
      hasSpatialIndex: Number(idx.n) > 0,
    };
  });
}

/**
 * Lists the feature tables of a GeoPackage.
 *
 * @example
 * ```ts
 * listGeoPackageLayers("data/roads.gpkg").map((l) => l.table);
 * ```
 */
export function listGeoPackageLayers(path: string): GeoPackageLayerInfo[] {
  const db = openDb(path);
  try {
    return layersOf(db);
  } finally {
    db.close();
  }
}

function fieldType(declared: string): { type: FieldType; length: number; date: boolean } | null {
  const t = declared.trim().toUpperCase();
  const len = Number(/\((\d+)\)/.exec(t)?.[1] ?? 0);
  if (/^(TINYINT|SMALLINT|BOOLEAN)/.test(t)) {
    return { type: "SmallInteger", length: 0, date: false };
  }
  if (/^(INTEGER|INT|MEDIUMINT|BIGINT)/.test(t)) return { type: "Integer", length: 0, date: false };
  if (/^(FLOAT)/.test(t)) return { type: "Single", length: 0, date: false };
  if (/^(DOUBLE|REAL|NUMERIC|DECIMAL)/.test(t)) return { type: "Double", length: 0, date: false };
  if (/^(DATETIME|DATE|TIMESTAMP)/.test(t)) return { type: "Date", length: 0, date: true };
  if (/^(TEXT|VARCHAR|CHAR|CLOB)/.test(t) || t === "") {
    return { type: "String", length: len, date: false };
  }
  return null; // BLOB and unknown types are not attributes
}

/** Value ranges of the esri integer field types (SQLite stores any integer up to 64 bits). */
const INTEGER_RANGES: [FieldType, number, number][] = [
  ["SmallInteger", -32768, 32767],
  ["Integer", -2147483648, 2147483647],
];

/**
 * SQLite does not enforce declared column types: an INTEGER column may
 * hold values beyond 32 bits (or fractions), which no esriFieldTypeInteger
 * can carry. Each integer field is widened, once at open, to the narrowest
 * type that holds every stored value: SmallInteger, Integer, or Double.
 */
function widenIntegerFields(db: DatabaseSync, table: string, fields: SqlField[]): void {
  const ints = fields.filter((f) => f.info.type === "SmallInteger" || f.info.type === "Integer");
  if (ints.length === 0) return;
  const parts = ints.map((f, i) => {
    const c = quoteIdent(f.column);
    return `MIN(${c}) AS lo${i}, MAX(${c}) AS hi${i}, MAX(typeof(${c}) = 'real') AS real${i}`;
  });
  const row = db.prepare(`SELECT ${parts.join(", ")} FROM ${quoteIdent(table)}`).get() as Record<
    string,
    number | bigint | null
  >;
  ints.forEach((f, i) => {
    const lo = row[`lo${i}`], hi = row[`hi${i}`];
    if (lo === null || hi === null || lo === undefined || hi === undefined) return;
    const order = INTEGER_RANGES.findIndex(([t]) => t === f.info.type);
    const fits = row[`real${i}`]
      ? undefined
      : INTEGER_RANGES.slice(order).find(([, min, max]) => Number(lo) >= min && Number(hi) <= max);
    f.info.type = fits ? fits[0] : "Double";
  });
}

/** The layer type of an OGC geometry type name (POINT, MULTIPOLYGON…), or null for GEOMETRY. */
export function geometryTypeOf(name: string): LayerGeometryType | null {
  if (name === "POINT") return "Point";
  if (name === "MULTIPOINT") return "Multipoint";
  if (/LINESTRING|CURVE/.test(name)) return "Polyline";
  if (/POLYGON|SURFACE/.test(name)) return "Polygon";
  return null;
}

/**
 * Opens one feature table of a GeoPackage as a FeatureSource. Throws an
 * Error naming the file and the problem (missing file, not a GeoPackage,
 * unknown table with the list of tables).
 *
 * @example
 * ```ts
 * const roads = openGeoPackage("data/roads.gpkg", { table: "roads" });
 * roads.count({ bbox: { xmin: 30, ymin: 55, xmax: 31, ymax: 56 } });
 * ```
 */
export function openGeoPackage(path: string, opts: GeoPackageOptions = {}): FeatureSource {
  const db = openDb(path);
  try {
    return buildSource(db, path, opts);
  } catch (e) {
    db.close();
    throw e;
  }
}

function buildSource(db: DatabaseSync, path: string, opts: GeoPackageOptions): FeatureSource {
  const layers = layersOf(db);
  if (layers.length === 0) throw new Error(`GeoPackage ${path} has no feature tables.`);
  const info = opts.table === undefined ? layers[0] : layers.find((l) => l.table === opts.table) ??
    layers.find((l) => l.table.toLowerCase() === opts.table!.toLowerCase());
  if (!info) {
    throw new Error(
      `GeoPackage ${path} has no feature table "${opts.table}"; tables: ${
        layers.map((l) => l.table).join(", ")
      }.`,
    );
  }
  const columns = db.prepare(`PRAGMA table_info(${quoteIdent(info.table)})`).all() as {
    name: string;
    type: string;
    notnull: number;
    pk: number;
  }[];
  const pkCol = columns.find((c) => c.pk === 1 && /^INT/i.test(c.type));
  const pk = pkCol?.name ?? "rowid";
  const attributes: SqlField[] = [];
  for (const c of columns) {
    if (c.name === pk || c.name === info.geometryColumn) continue;
    const t = fieldType(c.type ?? "");
    if (!t) continue;
    attributes.push({
      info: {
        name: c.name,
        type: t.type,
        alias: c.name,
        length: t.length,
        nullable: c.notnull !== 1,
      },
      column: c.name,
      dateText: t.date,
    });
  }
  widenIntegerFields(db, info.table, attributes);
  const geomCol = info.geometryColumn;
  let geometryType = geometryTypeOf(info.geometryTypeName);
  if (!geometryType) {
    // GEOMETRY / GEOMETRYCOLLECTION columns: take the kind of the first stored shape.
    const first = db.prepare(
      `SELECT ${quoteIdent(geomCol)} AS g FROM ${quoteIdent(info.table)} WHERE ${
        quoteIdent(geomCol)
      } IS NOT NULL LIMIT 1`,
    ).get() as { g: Uint8Array } | undefined;
    geometryType = first ? layerTypeOfParts(decodeGpkgBlob(first.g).parts) : null;
    geometryType ??= "Point";
  }
  const type = geometryType;
  const rtree = `rtree_${info.table}_${geomCol}`;
  db.function("gpkg_envelope_hits", { deterministic: true }, (
    blob: unknown,
    xmin: unknown,
    ymin: unknown,
    xmax: unknown,
    ymax: unknown,
  ) => {
    if (!(blob instanceof Uint8Array)) return 0;
    try {
      const g = decodeGpkgBlob(blob);
      const e = g.envelope ??
        bboxOfParts([g.parts.points, ...g.parts.paths, ...g.parts.polygons.flat()]);
      if (!e) return 0;
      return e.xmin <= Number(xmax) && e.xmax >= Number(xmin) && e.ymin <= Number(ymax) &&
          e.ymax >= Number(ymin)
        ? 1
        : 0;
    } catch {
      return 0;
    }
  });
  const pkRef = `t.${quoteIdent(pk)}`;
  let extentCache: { rev: string; extent: Extent | null } | undefined;
  const revision = () => {
    const st = Deno.statSync(path);
    return `${st.mtime?.getTime() ?? 0}-${st.size}`;
  };
  const source = new SqlFeatureSource({
    db,
    table: info.table,
    pk,
    idField: pk === "rowid" ? "OBJECTID" : pk,
    wkid: info.wkid,
    geometryType: type,
    shapeField: geomCol,
    attributes,
    geometryColumns: [geomCol],
    readGeometry(row) {
      const blob = row[geomCol];
      if (!(blob instanceof Uint8Array)) return null;
      const g = decodeGpkgBlob(blob);
      return g.empty ? null : partsToGeometry(g.parts, type);
    },
    bboxCondition(b) {
      if (info.hasSpatialIndex) {
        return {
          sql: `${pkRef} IN (SELECT id FROM ${
            quoteIdent(rtree)
          } WHERE minx <= ? AND maxx >= ? AND miny <= ? AND maxy >= ?)`,
          params: [b.xmax, b.xmin, b.ymax, b.ymin],
        };
      }
      return {
        sql: `gpkg_envelope_hits(t.${quoteIdent(geomCol)}, ?, ?, ?, ?)`,
        params: [b.xmin, b.ymin, b.xmax, b.ymax],
      };
    },
    hasGeometry: { sql: `t.${quoteIdent(geomCol)} IS NOT NULL`, params: [] },
    revision,
    extent() {
      const rev = revision();
      if (extentCache?.rev !== rev) {
        extentCache = { rev, extent: computeExtent(db, info) };
      }
      return extentCache.extent;
    },
    ownsDb: true,
    storeKey: `geopackage:${resolve(path)}|${info.table}|${geomCol}`,
  });
  return source;
}

function computeExtent(db: DatabaseSync, info: GeoPackageLayerInfo): Extent | null {
  // gpkg_contents holds exact doubles (the R*Tree rounds to 32-bit floats); scan when it is blank.
  if (info.extent) return info.extent;
  let e: Extent | null = null;
  const rows = db.prepare(
    `SELECT ${quoteIdent(info.geometryColumn)} AS g FROM ${quoteIdent(info.table)}`,
  ).iterate() as Iterable<{ g: unknown }>;
  for (const row of rows) {
    if (!(row.g instanceof Uint8Array)) continue;
    try {
      const g = decodeGpkgBlob(row.g);
      const b = g.envelope ??
        bboxOfParts([g.parts.points, ...g.parts.paths, ...g.parts.polygons.flat()]);
      if (!b) continue;
      e = unionExtent(e, b);
    } catch {
      // Skip corrupt blobs.
    }
  }
  return e;
}
