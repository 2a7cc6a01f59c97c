/**
 * The live point layer of the recruitment catalogue: published
 * competitions that have reception coordinates, read straight from the
 * `competition` table (so every import shows up at once), with the
 * `competition_rtree` index answering envelope queries and
 * `meta.revision` as the revision token. Field names are short English
 * identifiers (usable in where clauses); aliases are Russian.
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite";
import type { Extent } from "../types.ts";
import type { FeatureSource } from "./source.ts";
import { SqlFeatureSource, type SqlField } from "./_sql_source.ts";

/** What the source needs of the catalogue (data/mod.ts's Catalog fits). */
export interface CompetitionCatalog {
  readonly db: DatabaseSync;
  revision(): number;
}

const str = (name: string, column: string, alias: string, length = 255): SqlField => ({
  info: { name, type: "String", alias, length, nullable: true },
  column,
});

/** The layer's attribute fields: name, column, Russian alias. */
const ATTRIBUTES: SqlField[] = [
  str("title", "title", "Наименование конкурса", 1000),
  {
    info: { name: "agency_id", type: "Integer", alias: "Код ведомства", length: 0, nullable: true },
    column: "agency_id",
  },
  str("agency", "agency_title", "Ведомство", 500),
  str("type", "competition_type", "Вид конкурса", 100),
  str("group", "group_title", "Группа должностей", 100),
  {
    info: { name: "published", type: "Date", alias: "Дата публикации", length: 0, nullable: true },
    column: "publish_date",
    dateText: true,
  },
  {
    info: {
      name: "deadline",
      type: "Date",
      alias: "Окончание приёма документов",
      length: 0,
      nullable: true,
    },
    column: "reception_finished",
    dateText: true,
  },
  str("address", "address_text", "Адрес приёма документов", 1000),
  str("site_link", "site_link", "Ссылка на сайт", 500),
];

/** Russian alias of the object-id field. */
export const COMPETITION_ID_ALIAS = "Идентификатор";

/**
 * Opens the competitions point layer (WGS 84) over a catalogue connection.
 * The connection stays the catalogue's: close() does not close it.
 *
 * @example
 * ```ts
 * declare const catalog: CompetitionCatalog; // the application's opened catalogue
 * const layer = openCompetitions(catalog);
 * layer.count({ bbox: { xmin: 37, ymin: 55, xmax: 38, ymax: 56 } });
 * ```
 */
export function openCompetitions(catalog: CompetitionCatalog): FeatureSource {
  const db = catalog.db;
  const revision = () => String(catalog.revision());
  let extentCache: { rev: string; extent: Extent | null } | undefined;
  const source = new SqlFeatureSource({
    db,
    table: "competition",
    pk: "id",
    idField: "id",
    idAlias: COMPETITION_ID_ALIAS,
    wkid: 4326,
    geometryType: "Point",
    shapeField: "Shape",
    attributes: ATTRIBUTES,
    geometryColumns: ["lon", "lat"],
    readGeometry(row) {
      const x = row.lon;
      const y = row.lat;
      return typeof x === "number" && typeof y === "number" ? { type: "Point", x, y } : null;
    },
    baseCondition: {
      sql: "t.published = 1 AND t.lat IS NOT NULL AND t.lon IS NOT NULL",
      params: [],
    },
    hasGeometry: { sql: "1 = 1", params: [] },
    bboxCondition(b) {
      return {
        sql: "t.id IN (SELECT id FROM competition_rtree WHERE min_lon <= ? AND max_lon >= ? " +
          "AND min_lat <= ? AND max_lat >= ?)",
        params: [b.xmax, b.xmin, b.ymax, b.ymin],
      };
    },
    revision,
    extent() {
      const rev = revision();
      if (extentCache?.rev !== rev) {
        const r = db.prepare(
          `SELECT min(lon) AS xmin, min(lat) AS ymin, max(lon) AS xmax, max(lat) AS ymax
             FROM competition WHERE published = 1 AND lat IS NOT NULL AND lon IS NOT NULL`,
        ).get() as Record<string, number | null>;
        extentCache = {
          rev,
          extent: r.xmin === null
            ? null
            : { xmin: r.xmin!, ymin: r.ymin!, xmax: r.xmax!, ymax: r.ymax! },
        };
      }
      return extentCache.extent;
    },
    ownsDb: false,
    collection: "competition",
  });
  return source;
}
