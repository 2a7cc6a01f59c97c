/**
 * Turns a typed `QueryFilter` (a SOAP QueryFilter / SpatialFilter, §5.6, or a REST query) into a
 * {@link LayerQuery}: where clause and definition expressions parsed and
 * field-checked into one syntax tree, FIDSet, filter geometry projected to
 * the source's spatial reference, SubFields, OutputSpatialReference, and
 * the Prefix (`DISTINCT`) / Postfix (`ORDER BY`) clauses.
 *
 * @module
 */
import type { Feature, FieldInfo } from "../types.ts";
import type { WhereNode } from "../query/ast.ts";
import type { MapFrame, MapLayer, QueryFilter } from "./types.ts";
import { combineWhere, MAX_LIKE_PATTERN, parseWhere, WhereClauseError } from "../query/mod.ts";
import { canProject, normalizeWkid } from "../geo/projection.ts";
import { InvalidRequestError, member, type MemberRef, say } from "../errors.ts";
import { type ColumnSelection, findColumn, layerColumns, selectColumns } from "./_query_records.ts";
import type { LayerQuery } from "./_query_exec.ts";
import { toWkid } from "./_query_map_state.ts";
import { checkSearchVertices } from "./_geometry_extent.ts";

/** One ORDER BY key. */
export interface SortKey {
  field: FieldInfo;
  descending: boolean;
}

/** A parsed QueryFilter, ready to run against one layer. */
export interface ParsedFilter {
  query: LayerQuery;
  selection: ColumnSelection;
  /** WKID results are returned in. */
  outWkid: number;
  orderBy: SortKey[];
  distinct: boolean;
}

/** Fields a where clause may name: the attribute columns (shape excluded). */
function whereFields(layer: MapLayer): FieldInfo[] {
  return layerColumns(layer).all.filter((f) => f.type !== "Geometry");
}

/**
 * Parses a where clause or definition expression against the layer's
 * fields; a bad clause becomes a Client fault with the parser's message.
 */
export function parseClause(
  layer: MapLayer,
  text: string | undefined,
  what: string | MemberRef,
): WhereNode | undefined {
  if (text === undefined) return undefined;
  try {
    const tree = parseWhere(text, whereFields(layer));
    return tree;
  } catch (e) {
    if (e instanceof WhereClauseError) {
      throw new InvalidRequestError(
        say`Invalid ${what} for layer ${layer.id} (${layer.name}): ${e.message}`,
        { LayerID: layer.id, Position: e.position },
      );
    }
    throw e;
  }
}

/** Longest LIKE pattern accepted: the where-clause parser refuses longer literals. */
export { MAX_LIKE_PATTERN };

function objectIds(filter: QueryFilter): number[] | undefined {
  const fids = filter.FIDSet;
  if (!fids || fids.length === 0) return undefined;
  return [...new Set(fids)].sort((a, b) => a - b);
}

function outputWkid(frame: MapFrame, filter: QueryFilter): number {
  const wkid = filter.OutputSpatialReference ?? frame.wkid;
  if (!canProject(frame.wkid, wkid)) {
    throw new InvalidRequestError(
      say`${
        member("outputSpatialReference")
      } ${wkid} is not supported; use WKID 4326 or 3857 (102100).`,
    );
  }
  return normalizeWkid(wkid);
}

function parseOrderBy(layer: MapLayer, postfix: string | undefined): SortKey[] {
  const text = postfix?.trim() ?? "";
  if (text === "") return [];
  const m = /^ORDER\s+BY\s+(.+)$/is.exec(text);
  if (!m) {
    throw new InvalidRequestError(
      say`${member("orderBy")} supports only "ORDER BY field [ASC|DESC], ..."; got "${
        text.slice(0, 80)
      }".`,
    );
  }
  return m[1].split(",").map((part) => {
    const k = /^\s*("?)([\p{L}_][\p{L}\p{N}_]*)\1\s*(ASC|DESC)?\s*$/iu.exec(part);
    if (!k) {
      throw new InvalidRequestError(
        say`${member("orderBy")}: cannot read the sort key "${part.trim()}".`,
      );
    }
    const field = findColumn(layer, k[2], member("orderBy"));
    if (field.type === "Geometry") {
      throw new InvalidRequestError(say`${member("orderBy")} cannot sort by the shape field.`);
    }
    return { field, descending: (k[3] ?? "").toUpperCase() === "DESC" };
  });
}

function parseDistinct(prefix: string | undefined): boolean {
  const text = prefix?.trim() ?? "";
  if (text === "") return false;
  if (/^DISTINCT$/i.test(text)) return true;
  throw new InvalidRequestError(
    say`${member("distinct")} supports only "DISTINCT"; got "${text.slice(0, 80)}".`,
  );
}

/** Options of {@linkcode parseQueryFilter}. */
export interface FilterOptions {
  /** Definition expressions to AND with the where clause (layer's, LayerDescription's). */
  definitionExpressions?: { text: string; what: string | MemberRef }[];
}

/**
 * Parses a QueryFilter (or SpatialFilter) for `layer` of `frame`; a missing
 * filter selects everything. The filter geometry defaults to the map's
 * spatial reference when it carries none.
 *
 * @throws InvalidRequestError for bad clauses, unknown fields, bad geometry
 */
export function parseQueryFilter(
  frame: MapFrame,
  layer: MapLayer,
  filterValue: QueryFilter | undefined,
  opts: FilterOptions = {},
): ParsedFilter {
  const filter = filterValue ?? {};
  const defs = (opts.definitionExpressions ?? []).map((d) => parseClause(layer, d.text, d.what));
  const where = combineWhere(
    ...defs,
    parseClause(layer, filter.WhereClause ?? "", member("whereClause")),
    filter.WhereTree,
  );
  const selection = selectColumns(layer, filter.SubFields);
  const query: LayerQuery = {
    where,
    objectIds: objectIds(filter),
    attributeNames: selection.attributeNames,
    returnGeometry: selection.geometry,
  };
  if (filter.FilterGeometry) {
    const { geometry, wkid } = filter.FilterGeometry;
    checkSearchVertices(geometry, "filter geometry");
    const relation = filter.SpatialRel ?? "esriSpatialRelIntersects";
    const description = filter.SpatialRelDescription?.trim() ?? "";
    // Checked up front: with no candidate in the envelope the predicate would never run.
    if (relation === "esriSpatialRelRelation" && !/^[TF*012]{9}$/i.test(description)) {
      throw new InvalidRequestError(
        say`esriSpatialRelRelation needs a ${
          member("relationDescription")
        } of 9 DE-9IM characters (T, F, *, 0, 1, 2), e.g. "T*F**F***"; got "${
          description.slice(0, 40)
        }".`,
      );
    }
    query.spatial = {
      geometry: toWkid(geometry, wkid ?? frame.wkid, layer.source.wkid),
      relation,
      description: description === "" ? undefined : description,
    };
  }
  const orderBy = parseOrderBy(layer, filter.PostfixClause);
  // Sort keys must be read even when SubFields leaves them out of the result.
  for (const k of orderBy) {
    if (k.field.type !== "OID" && !query.attributeNames!.includes(k.field.name)) {
      query.attributeNames = [...query.attributeNames!, k.field.name];
    }
  }
  return {
    query,
    selection,
    outWkid: outputWkid(frame, filter),
    orderBy,
    distinct: parseDistinct(filter.PrefixClause),
  };
}

/** Numbers before text, text in code-point order (SQLite's default collation). */
function compareScalars(a: string | number, b: string | number): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  if (typeof a === "number") return -1;
  if (typeof b === "number") return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function sortValue(f: Feature, field: FieldInfo): string | number | null {
  if (field.type === "OID") return f.id;
  const v = f.attributes[field.name];
  if (v === undefined || v === null) return null;
  return typeof v === "boolean" ? (v ? 1 : 0) : v;
}

/**
 * Applies ORDER BY (nulls first, as SQLite does ascending) and DISTINCT
 * (over the selected non-OID columns, keeping the first row) in memory.
 */
export function orderAndDistinct(features: Feature[], parsed: ParsedFilter): Feature[] {
  let out = features;
  if (parsed.orderBy.length > 0) {
    out = [...out].sort((a, b) => {
      for (const k of parsed.orderBy) {
        const va = sortValue(a, k.field), vb = sortValue(b, k.field);
        const c = va === null ? (vb === null ? 0 : -1) : vb === null ? 1 : compareScalars(va, vb);
        if (c !== 0) return k.descending ? -c : c;
      }
      return a.id - b.id;
    });
  }
  if (parsed.distinct) {
    const cols = parsed.selection.columns.filter((c) => c.type !== "OID" && c.type !== "Geometry");
    const seen = new Set<string>();
    out = out.filter((f) => {
      const key = JSON.stringify(cols.map((c) => f.attributes[c.name] ?? null));
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }
  return out;
}
