/**
 * The map-wide searches: Find (attribute text search), Identify (features
 * near a shape, tolerance in pixels) and QueryHyperlinks (hyperlinks of
 * the features in the current extent), all against one {@link MapState}.
 *
 * @module
 */
import { NUMERIC_FIELD_TYPES } from "../types.ts";
import type { Extent, Feature, FieldInfo, Geometry, Position } from "../types.ts";
import type { WhereNode } from "../query/ast.ts";
import type {
  FindRequest,
  FindResult,
  HyperlinkResult,
  IdentifyRequest,
  IdentifyResult,
  MapLayer,
  Operation,
  Property,
  QueryHyperlinksRequest,
} from "./types.ts";
import { combineWhere } from "../query/mod.ts";
import { toleranceToMapUnits } from "../geo/display.ts";
import { projectExtent, projectGeometry } from "../geo/projection.ts";
import { withinDistance } from "../geo/relate.ts";
import { shiftExtent, shiftGeometry, windowShifts } from "../geo/wrap.ts";
import { InvalidRequestError, member, say } from "../errors.ts";
import { serviceLimits } from "./metadata.ts";
import { checkSearchVertices, geometryExtent } from "./_geometry_extent.ts";
import {
  isLayerVisible,
  type LayerState,
  type MapState,
  mapStateFrom,
  toWkid,
} from "./_query_map_state.ts";
import {
  featureProperties,
  featureValues,
  findColumn,
  formatValue,
  layerColumns,
} from "./_query_records.ts";
import { MAX_LIKE_PATTERN, parseClause } from "./_query_filter.ts";
import { queryLayer } from "./_query_exec.ts";
import { applyShapeOptions } from "./_query_shape_options.ts";

/** The where tree of a layer in a map state: its own and the LayerDescription's definition expressions. */
export function layerDefinition(ls: LayerState): WhereNode | undefined {
  return combineWhere(
    parseClause(ls.layer, ls.layer.definitionExpression, "definition expression"),
    parseClause(ls.layer, ls.definitionExpression, member("layerDefinition")),
  );
}

function layerIdFilter(ids: number[]): Set<number> | null {
  return ids.length === 0 ? null : new Set(ids);
}

/** LayerIDs that name no layer of the map are an error, not an empty result. */
function checkLayerIds(state: MapState, ids: Set<number> | null): void {
  if (!ids) return;
  for (const id of ids) {
    if (!state.layers.some((l) => l.layer.id === id)) {
      throw new InvalidRequestError(
        say`${
          member("layerIds")
        }: layer ${id} does not exist in map ${state.frame.name}. Layer ids: ${
          state.layers.map((l) => l.layer.id).join(", ")
        }.`,
        { LayerID: id },
      );
    }
  }
}

function project(g: Geometry, layer: MapLayer, wkid: number): Geometry {
  return projectGeometry(g, layer.source.wkid, wkid);
}

function displayName(layer: MapLayer, f: Feature): string {
  const cols = layerColumns(layer);
  const field = cols.all.find((c) => c.name === layer.displayField) ??
    cols.all.find((c) => c.name.toLowerCase() === layer.displayField.toLowerCase());
  if (!field) return String(f.id);
  if (field.type === "OID") return String(f.id);
  if (field.type === "Geometry") return f.geometry ? f.geometry.type : "Null";
  return formatValue(f.attributes[field.name] ?? null, field.type);
}

/** The first field of `fields` whose value matches, or null. */
function firstMatch(
  f: Feature,
  fields: FieldInfo[],
  text: string,
  contains: boolean,
): { field: FieldInfo; value: string } | null {
  const upper = text.toUpperCase();
  const asNumber = numericText(text);
  for (const field of fields) {
    const v = field.type === "OID" ? f.id : f.attributes[field.name];
    if (v === null || v === undefined) continue;
    if (field.type === "String") {
      const s = String(v);
      if (contains ? s.toUpperCase().includes(upper) : s === text) return { field, value: s };
    } else if (NUMERIC_FIELD_TYPES.has(field.type) && asNumber !== null && Number(v) === asNumber) {
      return { field, value: String(v) };
    }
  }
  return null;
}

function numericText(text: string): number | null {
  return text.trim() !== "" && Number.isFinite(Number(text)) ? Number(text) : null;
}

/**
 * The where tree of the features that can match (the same test as
 * {@linkcode firstMatch}, so the source filters with its indexes instead of
 * handing every row over): `UPPER(f) LIKE '%TEXT%'` (wildcards escaped) or
 * `f = 'text'` for strings, `f = n` for numbers. The OID is looked up
 * separately. Null when no field can match.
 */
function findCondition(fields: FieldInfo[], text: string, contains: boolean): WhereNode | null {
  const asNumber = numericText(text);
  const parts: WhereNode[] = [];
  for (const field of fields) {
    const ref = { kind: "field" as const, name: field.name };
    if (field.type === "String") {
      parts.push(
        contains
          ? {
            kind: "like",
            value: { kind: "call", name: "UPPER", args: [ref] },
            pattern: {
              kind: "literal",
              value: `%${text.toUpperCase().replace(/[\\%_]/g, "\\$&")}%`,
            },
            escape: "\\",
            negated: false,
          }
          : { kind: "compare", op: "=", left: ref, right: { kind: "literal", value: text } },
      );
    } else if (field.type !== "OID" && NUMERIC_FIELD_TYPES.has(field.type) && asNumber !== null) {
      parts.push({
        kind: "compare",
        op: "=",
        left: ref,
        right: { kind: "literal", value: asNumber },
      });
    }
  }
  return parts.length === 0 ? null : parts.reduce((a, b) => ({ kind: "or", left: a, right: b }));
}

/** Candidates of one layer for Find, ordered by object id, at most `limit`. */
function findCandidates(
  ls: LayerState,
  fields: FieldInfo[],
  text: string,
  contains: boolean,
  limit: number,
): Feature[] {
  const source = ls.layer.source;
  const where = layerDefinition(ls);
  const condition = findCondition(fields, text, contains);
  const found = condition
    ? source.query({
      where: combineWhere(where, condition),
      returnGeometry: ls.includeGeometry,
      limit,
    })
    : [];
  const id = numericText(text);
  if (id === null || !Number.isInteger(id) || !fields.some((f) => f.type === "OID")) return found;
  if (found.some((f) => f.id === id)) return found;
  const byId = source.query({ where, objectIds: [id], returnGeometry: ls.includeGeometry });
  return [...found, ...byId].sort((a, b) => a.id - b.id).slice(0, limit);
}

/** The map-wide search operations by their ArcGIS names, each with its request and result type. */
export interface SearchOperations {
  Find: Operation<FindRequest, FindResult[]>;
  Identify: Operation<IdentifyRequest, IdentifyResult[]>;
  QueryHyperlinks: Operation<QueryHyperlinksRequest, HyperlinkResult[]>;
}

/** Find (§2): text search over the fields of several layers. */
const find: SearchOperations["Find"] = (req, ctx) => {
  const state = mapStateFrom(ctx.service, req.MapDescription, req.MapImageDisplay);
  const text = req.SearchString;
  if (text.length > MAX_LIKE_PATTERN - 2) {
    throw new InvalidRequestError(
      say`${member("searchText")} has ${text.length} characters; at most ${
        MAX_LIKE_PATTERN - 2
      } are allowed.`,
    );
  }
  const contains = req.Contains;
  const names = req.SearchFields
    .split(",").map((s) => s.trim()).filter((s) => s !== "");
  const allLayers = req.FindOption === "esriFindAllLayers";
  const ids = layerIdFilter(req.LayerIDs);
  checkLayerIds(state, ids);
  const layers = state.layers.filter((ls) =>
    (!ids || ids.has(ls.layer.id)) && (allLayers || isLayerVisible(state, ls))
  );
  for (const name of names) {
    const known = layers.some((ls) =>
      layerColumns(ls.layer).all.some((c) => c.name.toLowerCase() === name.toLowerCase())
    );
    if (!known && layers.length > 0) {
      throw new InvalidRequestError(
        say`${member("searchFields")}: no searched layer has a field "${name}".`,
        {
          Field: name,
        },
      );
    }
  }
  const max = serviceLimits(ctx.service).maxRecordCount;
  const results: FindResult[] = [];
  for (const ls of layers) {
    if (results.length >= max) break;
    const layer = ls.layer;
    const cols = layerColumns(layer).all.filter((c) => c.type !== "Geometry");
    const fields = names.length === 0
      ? cols
      : cols.filter((c) => names.some((n) => n.toLowerCase() === c.name.toLowerCase()));
    if (fields.length === 0) continue;
    for (const f of findCandidates(ls, fields, text, contains, max - results.length)) {
      const h = firstMatch(f, fields, text, contains);
      if (!h) continue;
      results.push({
        layerId: layer.id,
        featureId: f.id,
        fieldName: h.field.name,
        value: h.value,
        properties: featureProperties(layer, f, {
          byName: ls.returnFieldNames,
          geometryRead: ls.includeGeometry,
        }),
        values: featureValues(layer, f, {
          byName: ls.returnFieldNames,
          geometryRead: ls.includeGeometry,
        }),
        ...(ls.includeGeometry && f.geometry
          ? {
            shape: applyShapeOptions(project(f.geometry, layer, state.wkid), ls.shapeOptions),
          }
          : {}),
      });
    }
  }
  return results;
};

function expand(e: Extent, d: number): Extent {
  return { xmin: e.xmin - d, ymin: e.ymin - d, xmax: e.xmax + d, ymax: e.ymax + d };
}

/** Identify (§2, §5.4): features within Tolerance pixels of SearchShape. */
const identify: SearchOperations["Identify"] = (req, ctx) => {
  const state = mapStateFrom(ctx.service, req.MapDescription, req.MapImageDisplay, {
    requireDisplay: true,
  });
  const display = state.display!;
  checkSearchVertices(req.SearchShape.geometry, "identify geometry");
  const shape = toWkid(req.SearchShape.geometry, req.SearchShape.wkid, state.wkid);
  const tolerancePx = req.Tolerance;
  if (tolerancePx < 0) {
    throw new InvalidRequestError(
      say`${member("tolerance")} must be zero or a positive number of pixels.`,
    );
  }
  const tol = toleranceToMapUnits(display, tolerancePx);
  const option = req.IdentifyOption;
  const topOne = option === "esriIdentifyTopOneWithHTMLPopup";
  const topmost = option === "esriIdentifyTopmost" || topOne;
  const allLayers = option === "esriIdentifyAllLayers";
  const withPopup = topOne || option === "esriIdentifyVisibleWithHTMLPopup";
  const ids = layerIdFilter(req.LayerIDs);
  checkLayerIds(state, ids);
  const box = geometryExtent(shape);
  if (!box) return [];
  const searchBox = expand(box, tol);
  const max = serviceLimits(ctx.service).maxRecordCount;
  const results: IdentifyResult[] = [];
  for (const ls of state.layers) {
    if (results.length >= max) break;
    if (ids && !ids.has(ls.layer.id)) continue;
    if (!allLayers && !isLayerVisible(state, ls)) continue;
    const layer = ls.layer;
    const projected = new Map<number, Geometry>();
    const limit = topOne ? 1 : max - results.length;
    // A view past the antimeridian draws the world again there (map/geo/wrap.ts): search
    // each world copy the search box meets, with the shape moved back into the stored world.
    const found = new Map<number, Feature>();
    for (const shift of windowShifts(searchBox, state.wkid)) {
      const here = shiftGeometry(shape, -shift);
      const box = shiftExtent(searchBox, -shift);
      for (
        const f of queryLayer(layer, {
          where: layerDefinition(ls),
          bbox: projectExtent(box, state.wkid, layer.source.wkid),
          accept: (f) => {
            if (!f.geometry || found.has(f.id)) return false;
            const g = project(f.geometry, layer, state.wkid);
            if (!withinDistance(here, g, tol)) return false;
            projected.set(f.id, g);
            return true;
          },
          returnGeometry: true,
          limit,
        })
      ) found.set(f.id, f);
    }
    const features = [...found.values()].sort((a, b) => a.id - b.id).slice(0, limit);
    for (const f of features) {
      const g = projected.get(f.id);
      const name = displayName(layer, f);
      const properties = featureProperties(layer, f, { byName: ls.returnFieldNames });
      results.push({
        layerId: layer.id,
        featureId: f.id,
        name,
        properties,
        values: featureValues(layer, f, { byName: ls.returnFieldNames }),
        ...(ls.includeGeometry && g ? { shape: applyShapeOptions(g, ls.shapeOptions) } : {}),
        ...(withPopup ? { htmlPopup: htmlPopup(layer, name, properties) } : {}),
      });
    }
    if (topmost && features.length > 0) break;
  }
  return results;
};

function escapeHtml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The HTML popup of an identified feature: its name and a table of its properties. */
function htmlPopup(layer: MapLayer, name: string, properties: Property<string>[]): string {
  const rows = properties
    .map((p) => `<tr><th>${escapeHtml(p.key)}</th><td>${escapeHtml(p.value)}</td></tr>`)
    .join("");
  return `<div class="esriPopup"><h3>${escapeHtml(name)}</h3><p>${escapeHtml(layer.name)}</p>` +
    `<table>${rows}</table></div>`;
}

/** A representative point of a geometry for a hyperlink's Location. */
function anchor(g: Geometry): Position {
  if (g.type === "Point") return [g.x, g.y];
  if (g.type === "Multipoint" && g.points.length > 0) return g.points[0];
  const e = geometryExtent(g)!;
  return [(e.xmin + e.xmax) / 2, (e.ymin + e.ymax) / 2];
}

/** QueryHyperlinks (§2): hyperlink values of the features inside the current map extent. */
const queryHyperlinks: SearchOperations["QueryHyperlinks"] = (req, ctx) => {
  const state = mapStateFrom(ctx.service, req.MapDescription, req.MapImageDisplay);
  const ids = layerIdFilter(req.LayerIDs);
  checkLayerIds(state, ids);
  const extent = state.display ? state.display.visibleExtent : state.extent;
  const max = serviceLimits(ctx.service).maxRecordCount;
  const results: HyperlinkResult[] = [];
  for (const ls of state.layers) {
    if (results.length >= max) break;
    const layer = ls.layer;
    if (ids ? !ids.has(layer.id) : !layer.hyperlinkField) continue;
    if (!layer.hyperlinkField) continue;
    const field = findColumn(layer, layer.hyperlinkField, "hyperlink field");
    const notNull: WhereNode = {
      kind: "isNull",
      value: { kind: "field", name: field.name },
      negated: true,
    };
    const sourceBox = projectExtent(extent, state.wkid, layer.source.wkid);
    const features = queryLayer(layer, {
      where: combineWhere(layerDefinition(ls), notNull),
      spatial: {
        geometry: { type: "Envelope", ...sourceBox },
        relation: "esriSpatialRelIntersects",
      },
      attributeNames: [field.name],
      returnGeometry: true,
      limit: max - results.length,
    });
    for (const f of features) {
      const url = String(f.attributes[field.name] ?? "").trim();
      if (url === "" || !f.geometry) continue;
      results.push({ location: anchor(project(f.geometry, layer, state.wkid)), url });
    }
  }
  return results;
};

/**
 * The map-wide searches: Find, Identify and QueryHyperlinks.
 *
 * @example
 * ```ts ignore
 * const hits = await SEARCH_OPERATIONS.QueryHyperlinks({ MapDescription, LayerIDs: [] }, ctx);
 * ```
 */
export const SEARCH_OPERATIONS: SearchOperations = {
  Find: find,
  Identify: identify,
  QueryHyperlinks: queryHyperlinks,
};
