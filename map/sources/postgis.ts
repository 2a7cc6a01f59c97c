/**
 * A live PostGIS table as a layer source. Nothing is cached but the
 * table's description: every query, count and drawing asks PostgreSQL, so
 * a row changed by another system shows in the next answer. Filters run in
 * PostgreSQL (`toPgSql`, parameters only), boxes as `geom && ST_MakeEnvelope`
 * (the GiST index), ordering and paging too; geometries arrive as WKB
 * (`ST_AsBinary`) for the shared WKB reader.
 *
 * `revision()` is the cluster's WAL insert position: it moves with every
 * committed change, so tiles, geometry caches and ETags drawn from the table
 * are dropped as soon as anything is written to the cluster (and kept while
 * nothing is). Writes to UNLOGGED tables write no WAL and are not seen by it.
 *
 * @module
 */
import type { AttributeValue, Extent, Feature, FieldInfo, FieldType } from "../types.ts";
import type { Geometry, LayerGeometryType } from "../types.ts";
import type { FeatureQuery, FeatureSource } from "./source.ts";
import { registerSpatialReference } from "../geo/projection.ts";
import {
  combineWhere,
  evaluate,
  type PgColumnMap,
  pgColumnValue,
  quoteIdent,
  toPgSql,
  type WhereNode,
} from "../query/mod.ts";
import { DataUnavailableError } from "../errors.ts";
import { PgSyncClient } from "./_pg_client.ts";
import { decodeWkb, layerTypeOfParts, partsToGeometry } from "./_wkb.ts";
import { geometryTypeOf } from "./geopackage.ts";

/** What a document says about a PostGIS source. */
export interface PostgisOptions {
  /** `postgresql://user@host:port/db`; `${VAR}` is replaced by the environment variable. */
  url: string;
  /** `schema.name` or `name` (schema public). */
  table: string;
  geometryColumn?: string;
  idField?: string;
  srid?: number;
  /** Connections in this source's pool (default 4). */
  maxConnections?: number;
  /** statement_timeout, ms (default 15,000). */
  statementTimeoutMs?: number;
}

interface PgField {
  info: FieldInfo;
  column: string;
  kind: "number" | "text" | "date";
  /** Booleans read as 0/1. */
  bool?: boolean;
}

/**
 * Replaces `${VAR}` in a connection URL by the environment variable
 * (URL-encoded); throws naming a variable that is not set.
 *
 * @example
 * ```ts
 * expandUrl("postgresql://gis:${GIS_PASSWORD}@db/gis", { GIS_PASSWORD: "s" }); // "postgresql://gis:s@db/gis"
 * ```
 */
export function expandUrl(url: string, env: Record<string, string | undefined>): string {
  return url.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => {
    const v = env[name];
    if (v === undefined) throw new Error(`environment variable ${name} (used in url) is not set`);
    return encodeURIComponent(v);
  });
}

/** host:port/db of a URL, never its password. */
function where(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname || "(socket)"}${u.port ? `:${u.port}` : ""}${u.pathname}`;
  } catch {
    return "(unparsable url)";
  }
}

function fieldOf(name: string, type: string, maxLen: number | null, nullable: boolean) {
  const t = type.toLowerCase();
  const f = (ft: FieldType, kind: PgField["kind"], length = 0, bool = false): PgField => ({
    info: { name, type: ft, alias: name, length, nullable },
    column: name,
    kind,
    bool,
  });
  if (t === "smallint") return f("SmallInteger", "number");
  if (t === "integer") return f("Integer", "number");
  if (t === "boolean") return f("SmallInteger", "number", 0, true);
  if (t === "real") return f("Single", "number");
  if (t === "bigint" || t === "double precision" || t === "numeric") return f("Double", "number");
  if (/^(text|character varying|character|varchar|name|citext)$/.test(t)) {
    return f("String", "text", maxLen ?? 0);
  }
  if (/^(date|timestamp)/.test(t)) return f("Date", "date");
  return null;
}

/** The terms of a chain of ANDs (a single term for anything else). */
function conjuncts(n: WhereNode): WhereNode[] {
  return n.kind === "and" ? [...conjuncts(n.left), ...conjuncts(n.right)] : [n];
}

function num(v: unknown): number | null {
  if (v === null || v === undefined) return null;
  return typeof v === "number" ? v : Number(v);
}

/**
 * Opens a PostGIS table: connects, reads `geometry_columns`, the primary
 * key and the columns, and returns the live source. Throws a one-line
 * Error naming the server (never the password) and the problem.
 *
 * @example
 * ```ts
 * const roads = openPostgis({ url: "postgresql://gis@127.0.0.1:5432/gis", table: "public.roads" });
 * roads.count({});
 * ```
 */
export function openPostgis(
  opts: PostgisOptions,
  env: Record<string, string | undefined> = Deno.env.toObject(),
): FeatureSource {
  const url = expandUrl(opts.url, env);
  const pg = new PgSyncClient(url, {
    max: opts.maxConnections ?? 4,
    statementTimeoutMs: opts.statementTimeoutMs,
  });
  try {
    return new PostgisSource(pg, opts, where(url));
  } catch (e) {
    pg.close();
    throw e;
  }
}

class PostgisSource implements FeatureSource {
  readonly wkid: number;
  readonly geometryType: LayerGeometryType;
  readonly idField: string;
  readonly #pg: PgSyncClient;
  readonly #from: string;
  readonly #geom: string;
  readonly #srid: number;
  readonly #attributes: PgField[];
  readonly #byName = new Map<string, PgField>();
  readonly #columns: PgColumnMap = {};
  readonly #server: string;
  #revision = "";
  #serving = false;
  #extent?: { rev: string; extent: Extent | null };

  constructor(pg: PgSyncClient, opts: PostgisOptions, server: string) {
    this.#pg = pg;
    this.#server = server;
    const dot = opts.table.indexOf(".");
    const schema = dot < 0 ? "public" : opts.table.slice(0, dot);
    const table = dot < 0 ? opts.table : opts.table.slice(dot + 1);
    this.#from = `${quoteIdent(schema)}.${quoteIdent(table)}`;
    const gcols = this.#run(
      `SELECT f_geometry_column AS col, srid, type FROM geometry_columns
        WHERE f_table_schema = $1 AND f_table_name = $2 ORDER BY f_geometry_column`,
      [schema, table],
    );
    const g = opts.geometryColumn === undefined
      ? gcols[0]
      : gcols.find((r) => r.col === opts.geometryColumn);
    if (!g) {
      throw new Error(
        gcols.length === 0
          ? `PostgreSQL ${server} has no table "${schema}.${table}" with a geometry column`
          : `table "${schema}.${table}" has no geometry column "${opts.geometryColumn}"; it has ${
            gcols.map((r) => r.col).join(", ")
          }`,
      );
    }
    this.#geom = String(g.col);
    this.#srid = opts.srid ?? Number(g.srid);
    this.wkid = this.#wkidOf(this.#srid);
    const cols = this.#run(
      `SELECT a.attname AS name, format_type(a.atttypid, NULL) AS type, a.attnotnull AS notnull,
              CASE WHEN a.atttypmod > 4 AND a.atttypid IN (1042, 1043) THEN a.atttypmod - 4 END AS len,
              EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = a.attrelid AND i.indisprimary
                        AND i.indnatts = 1 AND i.indkey[0] = a.attnum) AS pk
         FROM pg_attribute a
        WHERE a.attrelid = ($1 || '.' || $2)::regclass AND a.attnum > 0 AND NOT a.attisdropped
        ORDER BY a.attnum`,
      [quoteIdent(schema), quoteIdent(table)],
    );
    const isInt = (t: unknown) => /^(smallint|integer|bigint)$/.test(String(t));
    const pk = opts.idField === undefined
      ? cols.find((c) => c.pk === true && isInt(c.type))
      : cols.find((c) => c.name === opts.idField);
    if (!pk) {
      throw new Error(
        opts.idField === undefined
          ? `table "${schema}.${table}" has no integer primary key; name a unique integer column in idField`
          : `table "${schema}.${table}" has no column "${opts.idField}"`,
      );
    }
    if (!isInt(pk.type)) {
      throw new Error(`idField "${pk.name}" of "${schema}.${table}" is ${pk.type}, not an integer`);
    }
    this.idField = String(pk.name);
    this.#attributes = [];
    for (const c of cols) {
      if (c.name === this.idField || c.name === this.#geom) continue;
      const f = fieldOf(String(c.name), String(c.type), num(c.len), c.notnull !== true);
      if (!f) continue;
      this.#attributes.push(f);
      this.#byName.set(f.info.name, f);
      this.#columns[f.info.name] = { column: f.column, kind: f.kind };
    }
    this.#columns[this.idField] = { column: this.idField, kind: "number" };
    this.geometryType = geometryTypeOf(String(g.type).toUpperCase()) ?? this.#firstShapeType();
    this.#serving = true;
  }

  #run(sql: string, params: unknown[]): Record<string, unknown>[] {
    try {
      return this.#pg.query(sql, params);
    } catch (e) {
      const why = (e as Error).message;
      // At start the document's loader names the document and layer; later a client is waiting.
      if (!this.#serving) throw new Error(`PostgreSQL ${this.#server}: ${why}`);
      throw new DataUnavailableError(`The layer's PostgreSQL data cannot be read now: ${why}`);
    }
  }

  #wkidOf(srid: number): number {
    const row = this.#run(
      "SELECT auth_name, auth_srid, srtext FROM spatial_ref_sys WHERE srid = $1",
      [srid],
    )[0];
    if (!row) return srid;
    const auth = String(row.auth_name ?? "").toUpperCase();
    const wkid = auth === "EPSG" || auth === "ESRI" ? Number(row.auth_srid) : srid;
    if (typeof row.srtext === "string" && row.srtext) registerSpatialReference(wkid, row.srtext);
    return wkid;
  }

  #firstShapeType(): LayerGeometryType {
    const row = this.#run(
      `SELECT ST_AsBinary(${quoteIdent(this.#geom)}) AS g FROM ${this.#from}
        WHERE ${quoteIdent(this.#geom)} IS NOT NULL LIMIT 1`,
      [],
    )[0];
    return (row?.g instanceof Uint8Array ? layerTypeOfParts(decodeWkb(row.g)) : null) ?? "Point";
  }

  fields(): FieldInfo[] {
    return [
      { name: this.idField, type: "OID", alias: this.idField, length: 4, nullable: false },
      { name: this.#geom, type: "Geometry", alias: this.#geom, length: 0, nullable: true },
      ...this.#attributes.map((f) => ({ ...f.info })),
    ];
  }

  /** The WAL insert position; the last one known while PostgreSQL cannot be reached. */
  revision(): string {
    try {
      const row = this.#pg.query("SELECT pg_current_wal_insert_lsn()::text AS lsn", [])[0];
      this.#revision = `pg:${row.lsn}`;
    } catch {
      // Queries report the outage themselves; caches stay as they were.
    }
    return this.#revision;
  }

  extent(): Extent | null {
    const rev = this.revision();
    if (this.#extent?.rev !== rev) {
      const g = quoteIdent(this.#geom);
      const row = this.#run(
        `SELECT ST_XMin(e) AS xmin, ST_YMin(e) AS ymin, ST_XMax(e) AS xmax, ST_YMax(e) AS ymax
           FROM (SELECT ST_Extent(${g}) AS e FROM ${this.#from}) s`,
        [],
      )[0];
      const e = row && row.xmin !== null
        ? { xmin: num(row.xmin)!, ymin: num(row.ymin)!, xmax: num(row.xmax)!, ymax: num(row.ymax)! }
        : null;
      this.#extent = { rev, extent: e };
    }
    return this.#extent.extent;
  }

  /** WHERE text and parameters; `memory` is the part PostgreSQL could not take. */
  #conditions(q: FeatureQuery, params: unknown[]): { sql: string; memory?: WhereNode } {
    const parts: string[] = [];
    const p = (v: unknown, cast: string) => {
      params.push(v);
      return `$${params.length}::${cast}`;
    };
    if (q.objectIds) {
      const ids = q.objectIds.filter((n) => Number.isInteger(n));
      parts.push(`t.${quoteIdent(this.idField)} = ANY(${p(`{${ids.join(",")}}`, "bigint[]")})`);
    }
    if (q.bbox) {
      const b = q.bbox;
      parts.push(
        `t.${quoteIdent(this.#geom)} && ST_MakeEnvelope(${p(b.xmin, "float8")}, ${
          p(b.ymin, "float8")
        }, ${p(b.xmax, "float8")}, ${p(b.ymax, "float8")}, ${Math.trunc(this.#srid)})`,
      );
    }
    // Each conjunct PostgreSQL can answer exactly goes there; the rest is checked in memory.
    const rest: WhereNode[] = [];
    for (const term of q.where ? conjuncts(q.where) : []) {
      const c = toPgSql(term, this.#columns, "t", params.length + 1);
      if (c) {
        parts.push(c.sql);
        params.push(...c.params);
      } else {
        rest.push(term);
      }
    }
    const memory = combineWhere(...rest);
    return { sql: parts.length ? `WHERE ${parts.join(" AND ")}` : "", memory };
  }

  #select(f: PgField): string {
    const v = pgColumnValue("t", { column: f.column, kind: f.kind });
    return f.bool ? `${v}::int` : v;
  }

  query(q: FeatureQuery): Feature[] {
    const params: unknown[] = [];
    const cond = this.#conditions(q, params);
    const wanted = q.fields === undefined
      ? this.#attributes
      : q.fields.map((n) => this.#byName.get(n)).filter((f): f is PgField => f !== undefined);
    // Rows filtered in memory need every field the filter reads: take them all.
    const read = cond.memory ? this.#attributes : wanted;
    const withGeometry = q.returnGeometry !== false;
    const cols = [`t.${quoteIdent(this.idField)} AS __id`];
    read.forEach((f, i) => cols.push(`${this.#select(f)} AS __a${i}`));
    if (withGeometry) cols.push(`ST_AsBinary(t.${quoteIdent(this.#geom)}) AS __g`);
    let tail = "";
    if (!cond.memory && (q.limit !== undefined || q.offset)) {
      tail = ` LIMIT ${q.limit === undefined ? "ALL" : `$${params.push(q.limit)}::bigint`}` +
        ` OFFSET $${params.push(q.offset ?? 0)}::bigint`;
    }
    const rows = this.#run(
      `SELECT ${cols.join(", ")} FROM ${this.#from} AS t ${cond.sql} ORDER BY t.${
        quoteIdent(this.idField)
      }${tail}`,
      params,
    );
    let features = rows.map((row) => {
      const attributes: Record<string, AttributeValue> = {};
      read.forEach((f, i) => {
        const v = row[`__a${i}`];
        attributes[f.info.name] = v === null || v === undefined
          ? null
          : f.kind === "text"
          ? String(v)
          : Number(v);
      });
      let geometry: Geometry | null = null;
      if (withGeometry && row.__g instanceof Uint8Array) {
        try {
          geometry = partsToGeometry(decodeWkb(row.__g), this.geometryType);
        } catch {
          geometry = null;
        }
      }
      return { id: Number(row.__id), attributes, geometry };
    });
    if (cond.memory) {
      features = features.filter((f) =>
        evaluate(q.where!, { ...f.attributes, [this.idField]: f.id })
      );
      const start = q.offset ?? 0;
      features = features.slice(start, q.limit === undefined ? undefined : start + q.limit);
      if (read !== wanted) {
        for (const f of features) {
          const keep: Record<string, AttributeValue> = {};
          for (const w of wanted) keep[w.info.name] = f.attributes[w.info.name];
          f.attributes = keep;
        }
      }
    }
    return features;
  }

  count(q: FeatureQuery): number {
    const params: unknown[] = [];
    const cond = this.#conditions(q, params);
    if (cond.memory) {
      return this.query({ ...q, limit: undefined, offset: undefined, returnGeometry: false })
        .length;
    }
    const row = this.#run(`SELECT count(*) AS n FROM ${this.#from} AS t ${cond.sql}`, params)[0];
    return Number(row.n);
  }

  get(id: number): Feature | null {
    return this.query({ objectIds: [id] })[0] ?? null;
  }

  close(): void {
    this.#pg.close();
  }
}
