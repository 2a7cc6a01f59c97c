/**
 * A FeatureSource over one SQLite table: the GeoPackage and competitions
 * sources describe their table (columns, geometry, spatial index) and this
 * class does the querying: where clause through `toSql` (bound
 * parameters only), object ids through `json_each`, the envelope
 * prefilter through the source's spatial index, ordering by object id,
 * LIMIT/OFFSET, and conversion of rows to features.
 *
 * @module
 */
import { LRUCache } from "lru-cache";
import { NUMERIC_FIELD_TYPES } from "../types.ts";
import type { DatabaseSync, SQLInputValue, StatementSync } from "node:sqlite";
import type { Extent, Feature, FieldInfo, Geometry, LayerGeometryType } from "../types.ts";
import type { AttributeValue } from "../types.ts";
import type { FeatureQuery, FeatureSource } from "./source.ts";
import { type ColumnMap, quoteIdent, registerSqlFunctions, toSql } from "../query/mod.ts";
import { parseDateLiteral } from "../query/mod.ts";

/** A SQL fragment with its parameters. */
export interface SqlPart {
  sql: string;
  params: SQLInputValue[];
}

/** How one attribute field is stored. */
export interface SqlField {
  info: FieldInfo;
  /** Column in the table (unquoted). */
  column: string;
  /** Text dates (ISO 8601) read as epoch milliseconds. */
  dateText?: boolean;
}

/** Everything the generic source needs to know about a table. */
export interface SqlSourceConfig {
  db: DatabaseSync;
  /** Table name (unquoted). */
  table: string;
  /** Integer primary key column (unquoted). */
  pk: string;
  idField: string;
  /** Alias of the object-id field (default: its name). */
  idAlias?: string;
  wkid: number;
  geometryType: LayerGeometryType;
  /** Name of the geometry field reported in fields() (not an attribute). */
  shapeField: string;
  /** Attribute fields other than the object id, in order. */
  attributes: SqlField[];
  /** Columns (unquoted) that readGeometry needs. */
  geometryColumns: string[];
  /** Builds the geometry from a row holding `geometryColumns`. */
  readGeometry(row: Record<string, unknown>): Geometry | null;
  /** Condition "row's envelope meets bbox" (on table alias `t`), ideally from an index. */
  bboxCondition(bbox: Extent): SqlPart;
  /** Condition "row has a geometry" (on alias `t`). */
  hasGeometry: SqlPart;
  /** Condition every row must meet (e.g. published only), on alias `t`. */
  baseCondition?: SqlPart;
  revision(): string;
  extent(): Extent | null;
  /** Close the database on close() (false when the connection is shared). */
  ownsDb: boolean;
  /** Catalogue collection the rows belong to (tile invalidation reads change_log by it). */
  collection?: string;
  /** Same name for the same table in every thread (see FeatureSource.storeKey). */
  storeKey?: string;
}

/**
 * Prepared statements a source keeps (the most recently used): the SQL
 * varies with the where clause's shape, not with its values.
 */
export const SOURCE_STATEMENTS_MAX = 200;

/** The generic table-backed FeatureSource. */
export class SqlFeatureSource implements FeatureSource {
  readonly wkid: number;
  readonly geometryType: LayerGeometryType;
  readonly idField: string;
  /** Catalogue collection behind this table, if any (e.g. "competition"). */
  readonly collection?: string;
  /** Thread-independent name of the table (see FeatureSource.storeKey). */
  readonly storeKey?: string;
  private readonly statements = new LRUCache<string, StatementSync>({
    max: SOURCE_STATEMENTS_MAX,
  });
  private readonly byName = new Map<string, SqlField>();
  private readonly columnMap: ColumnMap = {};

  /** Wraps a described table. */
  constructor(private readonly cfg: SqlSourceConfig) {
    this.wkid = cfg.wkid;
    this.geometryType = cfg.geometryType;
    this.idField = cfg.idField;
    this.collection = cfg.collection;
    this.storeKey = cfg.storeKey;
    registerSqlFunctions(cfg.db);
    this.columnMap[cfg.idField] = cfg.pk;
    for (const f of cfg.attributes) {
      this.byName.set(f.info.name, f);
      this.columnMap[f.info.name] = f.dateText ? { column: f.column, dateText: true } : f.column;
    }
  }

  /** Object id field, geometry field, then the attributes. */
  fields(): FieldInfo[] {
    return [
      {
        name: this.idField,
        type: "OID",
        alias: this.cfg.idAlias ?? this.idField,
        length: 4,
        nullable: false,
      },
      {
        name: this.cfg.shapeField,
        type: "Geometry",
        alias: this.cfg.shapeField,
        length: 0,
        nullable: true,
      },
      ...this.cfg.attributes.map((f) => ({ ...f.info })),
    ];
  }

  /** Extent of all features. */
  extent(): Extent | null {
    return this.cfg.extent();
  }

  /** Revision token from the table's owner. */
  revision(): string {
    return this.cfg.revision();
  }

  private prepare(sql: string): StatementSync {
    let st = this.statements.get(sql);
    if (!st) this.statements.set(sql, st = this.cfg.db.prepare(sql));
    return st;
  }

  private conditions(q: FeatureQuery): SqlPart {
    const parts: string[] = [];
    const params: SQLInputValue[] = [];
    const add = (p: SqlPart) => {
      parts.push(p.sql);
      params.push(...p.params);
    };
    if (this.cfg.baseCondition) add(this.cfg.baseCondition);
    if (q.objectIds) {
      add({
        sql: `t.${quoteIdent(this.cfg.pk)} IN (SELECT value FROM json_each(?))`,
        params: [JSON.stringify(q.objectIds.filter(Number.isFinite))],
      });
    }
    if (q.bbox) {
      const all = this.cfg.extent();
      const covers = all !== null && q.bbox.xmin <= all.xmin && q.bbox.ymin <= all.ymin &&
        q.bbox.xmax >= all.xmax && q.bbox.ymax >= all.ymax;
      // A box around the whole layer (a full-extent map) needs no index walk, only a shape.
      add(covers ? this.cfg.hasGeometry : this.cfg.bboxCondition(q.bbox));
    }
    if (q.where) {
      const c = toSql(q.where, this.columnMap, { tableAlias: "t" });
      add({ sql: c.sql, params: c.params });
    }
    return { sql: parts.length ? `WHERE ${parts.join(" AND ")}` : "", params };
  }

  /** Features matching the query, ordered by object id. */
  query(q: FeatureQuery): Feature[] {
    const wanted = q.fields === undefined
      ? this.cfg.attributes
      : q.fields.map((n) => this.byName.get(n)).filter((f): f is SqlField => f !== undefined);
    const withGeometry = q.returnGeometry !== false;
    const cols = [`t.${quoteIdent(this.cfg.pk)} AS "__id"`];
    wanted.forEach((f, i) => cols.push(`t.${quoteIdent(f.column)} AS "__a${i}"`));
    if (withGeometry) {
      this.cfg.geometryColumns.forEach((c) => cols.push(`t.${quoteIdent(c)} AS ${quoteIdent(c)}`));
    }
    const where = this.conditions(q);
    const params = [...where.params];
    let tail = "";
    if (q.limit !== undefined || q.offset) {
      tail = " LIMIT ? OFFSET ?";
      params.push(q.limit ?? -1, q.offset ?? 0);
    }
    const sql = `SELECT ${cols.join(", ")} FROM ${quoteIdent(this.cfg.table)} AS t ${where.sql} ` +
      `ORDER BY t.${quoteIdent(this.cfg.pk)}${tail}`;
    const rows = this.prepare(sql).all(...params) as Record<string, unknown>[];
    return rows.map((row) => {
      const attributes: Record<string, AttributeValue> = {};
      wanted.forEach((f, i) => {
        attributes[f.info.name] = readValue(f, row[`__a${i}`]);
      });
      let geometry: Geometry | null = null;
      if (withGeometry) {
        try {
          geometry = this.cfg.readGeometry(row);
        } catch {
          // A corrupt geometry must not take the whole request down; it reads as empty.
          geometry = null;
        }
      }
      return { id: Number(row.__id), attributes, geometry };
    });
  }

  /** Number of matching features. */
  count(q: FeatureQuery): number {
    const where = this.conditions(q);
    const sql = `SELECT count(*) AS n FROM ${quoteIdent(this.cfg.table)} AS t ${where.sql}`;
    return Number((this.prepare(sql).get(...where.params) as { n: number }).n);
  }

  /** One feature by object id. */
  get(id: number): Feature | null {
    return this.query({ objectIds: [id] })[0] ?? null;
  }

  /** Prepared statements kept now (diagnostics; at most {@link SOURCE_STATEMENTS_MAX}). */
  get statementsKept(): number {
    return this.statements.size;
  }

  /** Closes the database when this source opened it. */
  close(): void {
    this.statements.clear();
    if (this.cfg.ownsDb) this.cfg.db.close();
  }
}

function readValue(f: SqlField, v: unknown): AttributeValue {
  if (v === null || v === undefined) return null;
  if (f.dateText || f.info.type === "Date") {
    if (typeof v === "number") return v;
    const s = String(v);
    return parseDateLiteral(s) ?? (Number.isNaN(Date.parse(s)) ? null : Date.parse(s));
  }
  if (typeof v === "bigint") return Number(v);
  if (NUMERIC_FIELD_TYPES.has(f.info.type)) return typeof v === "number" ? v : Number(v);
  if (v instanceof Uint8Array) return null;
  return typeof v === "number" || typeof v === "string" ? v : String(v);
}
