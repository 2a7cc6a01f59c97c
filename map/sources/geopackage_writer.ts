/**
 * A small GeoPackage 1.3 writer: feature tables with their metadata rows,
 * standard geometry blobs and the R*Tree spatial index. Tests and
 * benchmarks build fixtures with it (e.g. a 100,000-feature layer); it is
 * not an editing API.
 *
 * @module
 */
import { DatabaseSync, type SQLInputValue } from "node:sqlite";
import type { AttributeValue, Extent, FieldType, Geometry, LayerGeometryType } from "../types.ts";
import { bboxOf, unionExtent } from "../geo/relate.ts";
import { isGeographic, normalizeWkid, spatialReferenceWkt } from "../geo/projection.ts";
import { quoteIdent } from "../query/mod.ts";
import { encodeGpkgBlob } from "./_wkb.ts";

/** An attribute column of a new layer. */
export interface GpkgFieldDef {
  name: string;
  /** SmallInteger/Integer → INTEGER, Single/Double → DOUBLE, String → TEXT, Date → DATETIME. */
  type: Exclude<FieldType, "OID" | "Geometry">;
  nullable?: boolean;
}

/** A feature table to create. */
export interface GpkgLayerDef {
  table: string;
  geometryType: LayerGeometryType;
  /** EPSG code of the coordinates (default 4326). */
  wkid?: number;
  fields: GpkgFieldDef[];
  /** Geometry column name (default "geom"). */
  geometryColumn?: string;
  /** Primary key column name (default "fid"). */
  pk?: string;
  /** Build the R*Tree index (default true). */
  spatialIndex?: boolean;
  identifier?: string;
  description?: string;
}

/** A feature to write; ids are assigned in order when missing. Dates are epoch milliseconds. */
export interface GpkgFeatureInput {
  id?: number;
  attributes: Record<string, AttributeValue>;
  geometry: Geometry | null;
}

const GEOMETRY_TYPE_NAME: Record<LayerGeometryType, string> = {
  Point: "POINT",
  Multipoint: "MULTIPOINT",
  Polyline: "MULTILINESTRING",
  Polygon: "MULTIPOLYGON",
};

const SQL_TYPE: Record<GpkgFieldDef["type"], string> = {
  SmallInteger: "SMALLINT",
  Integer: "INTEGER",
  Single: "FLOAT",
  Double: "DOUBLE",
  String: "TEXT",
  Date: "DATETIME",
};

function createCoreTables(db: DatabaseSync): void {
  db.exec(`
    PRAGMA application_id = 1196444487;
    PRAGMA user_version = 10300;
    CREATE TABLE IF NOT EXISTS gpkg_spatial_ref_sys (
      srs_name TEXT NOT NULL, srs_id INTEGER PRIMARY KEY, organization TEXT NOT NULL,
      organization_coordsys_id INTEGER NOT NULL, definition TEXT NOT NULL, description TEXT);
    CREATE TABLE IF NOT EXISTS gpkg_contents (
      table_name TEXT NOT NULL PRIMARY KEY, data_type TEXT NOT NULL, identifier TEXT UNIQUE,
      description TEXT DEFAULT '', last_change DATETIME NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
      min_x DOUBLE, min_y DOUBLE, max_x DOUBLE, max_y DOUBLE,
      srs_id INTEGER REFERENCES gpkg_spatial_ref_sys(srs_id));
    CREATE TABLE IF NOT EXISTS gpkg_geometry_columns (
      table_name TEXT NOT NULL, column_name TEXT NOT NULL, geometry_type_name TEXT NOT NULL,
      srs_id INTEGER NOT NULL, z TINYINT NOT NULL, m TINYINT NOT NULL,
      CONSTRAINT pk_geom_cols PRIMARY KEY (table_name, column_name));
    CREATE TABLE IF NOT EXISTS gpkg_extensions (
      table_name TEXT, column_name TEXT, extension_name TEXT NOT NULL, definition TEXT NOT NULL,
      scope TEXT NOT NULL, CONSTRAINT ge_tce UNIQUE (table_name, column_name, extension_name));
    INSERT OR IGNORE INTO gpkg_spatial_ref_sys VALUES
      ('Undefined cartesian SRS', -1, 'NONE', -1, 'undefined', 'undefined cartesian coordinate reference system'),
      ('Undefined geographic SRS', 0, 'NONE', 0, 'undefined', 'undefined geographic coordinate reference system');
  `);
}

function ensureSrs(db: DatabaseSync, wkid: number): void {
  const wkt = spatialReferenceWkt(wkid);
  if (!wkt) throw new Error(`The GeoPackage writer has no definition for WKID ${wkid}.`);
  const name = isGeographic(wkid) ? "WGS 84 geodetic" : "WGS 84 / Pseudo-Mercator";
  db.prepare("INSERT OR IGNORE INTO gpkg_spatial_ref_sys VALUES (?, ?, 'EPSG', ?, ?, ?)")
    .run(name, wkid, wkid, wkt, name);
}

function dateText(v: AttributeValue): SQLInputValue {
  if (typeof v === "number") return new Date(v).toISOString();
  return v === null ? null : typeof v === "boolean" ? Number(v) : v;
}

/**
 * Writes one feature table (with metadata and spatial index) into a
 * GeoPackage file, creating the file when needed. Returns the extent.
 *
 * @example
 * ```ts
 * writeGeoPackageLayer("var/fixture.gpkg", { table: "pts", geometryType: "Point", fields: [] }, [
 *   { attributes: {}, geometry: { type: "Point", x: 37.6, y: 55.7 } },
 * ]);
 * ```
 */
export function writeGeoPackageLayer(
  path: string,
  def: GpkgLayerDef,
  features: Iterable<GpkgFeatureInput>,
): Extent | null {
  const db = new DatabaseSync(path);
  try {
    createCoreTables(db);
    const wkid = normalizeWkid(def.wkid ?? 4326);
    ensureSrs(db, wkid);
    const pk = def.pk ?? "fid";
    const geom = def.geometryColumn ?? "geom";
    const t = quoteIdent(def.table);
    const cols = def.fields.map((f) =>
      `${quoteIdent(f.name)} ${SQL_TYPE[f.type]}${f.nullable === false ? " NOT NULL" : ""}`
    );
    db.exec(
      `CREATE TABLE ${t} (${quoteIdent(pk)} INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, ${
        quoteIdent(geom)
      } ${GEOMETRY_TYPE_NAME[def.geometryType]}${cols.map((c) => `, ${c}`).join("")})`,
    );
    db.prepare(
      "INSERT INTO gpkg_contents (table_name, data_type, identifier, description, srs_id) VALUES (?, 'features', ?, ?, ?)",
    ).run(def.table, def.identifier ?? def.table, def.description ?? "", wkid);
    db.prepare("INSERT INTO gpkg_geometry_columns VALUES (?, ?, ?, ?, 0, 0)")
      .run(def.table, geom, GEOMETRY_TYPE_NAME[def.geometryType], wkid);
    const indexed = def.spatialIndex !== false;
    const rtree = quoteIdent(`rtree_${def.table}_${geom}`);
    if (indexed) {
      db.exec(`CREATE VIRTUAL TABLE ${rtree} USING rtree(id, minx, maxx, miny, maxy)`);
      db.prepare(
        "INSERT INTO gpkg_extensions VALUES (?, ?, 'gpkg_rtree_index', 'http://www.geopackage.org/spec120/#extension_rtree', 'write-only')",
      ).run(def.table, geom);
    }
    const names = [pk, geom, ...def.fields.map((f) => f.name)].map(quoteIdent);
    const insert = db.prepare(
      `INSERT INTO ${t} (${names.join(", ")}) VALUES (${names.map(() => "?").join(", ")})`,
    );
    const insertIndex = indexed ? db.prepare(`INSERT INTO ${rtree} VALUES (?, ?, ?, ?, ?)`) : null;
    let extent: Extent | null = null;
    let next = 1;
    db.exec("BEGIN");
    for (const f of features) {
      const id = f.id ?? next;
      next = Math.max(next, id + 1);
      const values: SQLInputValue[] = [id, f.geometry ? encodeGpkgBlob(f.geometry, wkid) : null];
      for (const field of def.fields) {
        const v = f.attributes[field.name] ?? null;
        values.push(field.type === "Date" ? dateText(v) : typeof v === "boolean" ? Number(v) : v);
      }
      insert.run(...values);
      const box = f.geometry ? bboxOf(f.geometry) : null;
      if (box) {
        insertIndex?.run(id, box.xmin, box.xmax, box.ymin, box.ymax);
        extent = unionExtent(extent, box);
      }
    }
    if (extent) {
      db.prepare(
        "UPDATE gpkg_contents SET min_x = ?, min_y = ?, max_x = ?, max_y = ? WHERE table_name = ?",
      ).run(extent.xmin, extent.ymin, extent.xmax, extent.ymax, def.table);
    }
    db.exec("COMMIT");
    return extent;
  } finally {
    db.close();
  }
}
