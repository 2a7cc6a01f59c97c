/**
 * GetFeature: each query (type names, BBOX, RESOURCEID, an FES filter,
 * PROPERTYNAME, SORTBY, SRSNAME) becomes a QueryFeatureSet request on the
 * layer, the same LayerDescription and QueryFilter the REST query builds
 * (so the layer's definition expression applies and the answers agree);
 * COUNT/MAXFEATURES and STARTINDEX page across the queries in order;
 * RESULTTYPE=hits counts only. The rows are written as GML 3.2 (WFS 2.0.0),
 * GML 3.1.1 (1.1.0) or GeoJSON.
 *
 * Resource ids are `{type}.{objectid}` (`competitions.5`), the features'
 * gml:id.
 *
 * @module
 */
import type { Feature, Geometry } from "../types.ts";
import type { QueryFeatureSetRequest, QueryFilter, RecordSet } from "../ops/mod.ts";
import {
  fieldValue,
  geoJsonGeometry,
  LAYER_QUERY_OPERATIONS,
  queryFeatureSet,
  serviceLimits,
} from "../ops/mod.ts";
import { gmlGeometry } from "../ops/_gml.ts";
import { projectGeometry } from "../geo/projection.ts";
import { combineWhere, type WhereNode } from "../query/mod.ts";
import { escapeAttr, escapeText } from "../xml_text.ts";
import { axes, parseCrs, urnCrs, type WfsCrs } from "./_crs.ts";
import { WfsError } from "./_exception.ts";
import { type FeatureType, findProperty, findType, type WfsScope } from "./_feature_types.ts";
import { readFilter } from "./_fes.ts";
import type { GetFeatureRequest, WfsQuery, WfsVersion } from "./_request.ts";
import type { WfsReply } from "./_reply.ts";

/** One query made ready for the engine. */
interface Plan {
  type: FeatureType;
  crs: WfsCrs;
  filter: Partial<QueryFilter>;
  /** Fields written besides the id (undefined: all). */
  properties?: Set<string>;
  geometry: boolean;
  /** No feature can match (resource ids of other types only). */
  empty: boolean;
}

/** Output formats by the names clients give them. */
function outputKind(format: string | undefined, version: WfsVersion): "gml" | "json" {
  if (format === undefined) return "gml";
  const f = format.toLowerCase().replace(/\s+/g, "");
  if (["application/json", "json", "geojson", "application/geo+json"].includes(f)) return "json";
  const gml = version === "2.0.0"
    ? [
      "application/gml+xml;version=3.2",
      "text/xml;subtype=gml/3.2",
      "text/xml;subtype=gml/3.2.1",
      "gml32",
      "application/gml+xml",
    ]
    : ["text/xml;subtype=gml/3.1.1", "gml3", "text/xml"];
  if (gml.includes(f)) return "gml";
  throw new WfsError(
    "InvalidParameterValue",
    `OUTPUTFORMAT "${format}" is not offered in WFS ${version}; see the GetFeature operation's outputFormat values.`,
    "OUTPUTFORMAT",
  );
}

function resourceIdParts(id: string): { local: string; oid: number } {
  const m = /^(.*)\.(\d{1,15})$/.exec(id.trim());
  if (!m) {
    throw new WfsError(
      "InvalidParameterValue",
      `Resource id "${id}" is not of the form {featuretype}.{objectid}.`,
      "RESOURCEID",
    );
  }
  return { local: m[1].replace(/^[^:]*:/, "").toLowerCase(), oid: Number(m[2]) };
}

function plan(scope: WfsScope, q: WfsQuery): Plan[] {
  let names = q.typeNames;
  if (names.length === 0) {
    if (!q.resourceIds) {
      throw new WfsError("MissingParameterValue", "TYPENAMES is missing.", "TYPENAMES");
    }
    names = [...new Set(q.resourceIds.map((id) => resourceIdParts(id).local))];
  }
  return names.map((name) => {
    const type = findType(scope, name, "TYPENAMES");
    const own = urnCrs(type.layer.source.wkid);
    const crs = q.srsName ? parseCrs(q.srsName, "SRSNAME") : own;
    let where: WhereNode | undefined;
    let spatial: { geometry: Geometry; wkid: number } | undefined;
    let ids = q.resourceIds;
    if (q.bbox) {
      const bcrs = q.bbox.crs ? parseCrs(q.bbox.crs, "BBOX") : own;
      const [a, b, c, d] = q.bbox.coords;
      const [x0, y0] = axes(bcrs, [a, b]), [x1, y1] = axes(bcrs, [c, d]);
      if (x0 > x1 || y0 > y1) {
        throw new WfsError(
          "InvalidParameterValue",
          "BBOX's lower corner is not below and left of its upper corner (mind the CRS's axis order).",
          "BBOX",
        );
      }
      spatial = {
        geometry: { type: "Envelope", xmin: x0, ymin: y0, xmax: x1, ymax: y1 },
        wkid: bcrs.wkid,
      };
    }
    if (q.filter) {
      const f = readFilter(q.filter, type, own);
      where = f.where;
      spatial = f.spatial;
      if (f.ids) ids = f.ids;
    }
    let fids: number[] | undefined;
    if (ids) {
      fids = ids.map(resourceIdParts).filter((r) => r.local === type.local.toLowerCase()).map((r) =>
        r.oid
      );
    }
    const order = q.sortBy?.map((s) => {
      const f = findProperty(type, s.property, "SORTBY");
      if (f === "geometry") {
        throw new WfsError(
          "InvalidParameterValue",
          "Features cannot be sorted by geometry.",
          "SORTBY",
        );
      }
      return `${f.name} ${s.descending ? "DESC" : "ASC"}`;
    });
    let properties: Set<string> | undefined;
    let geometry = true;
    if (q.propertyNames && q.propertyNames.length) {
      properties = new Set();
      geometry = false;
      for (const n of q.propertyNames) {
        const f = findProperty(type, n, "PROPERTYNAME");
        if (f === "geometry") geometry = true;
        else properties.add(f.name);
      }
    }
    const filter: Partial<QueryFilter> = {
      SubFields: "*",
      OutputSpatialReference: crs.wkid,
      ...(where ? { WhereTree: combineWhere(where) } : {}),
      ...(spatial
        ? { FilterGeometry: spatial, SpatialRel: "esriSpatialRelIntersects" as const }
        : {}),
      ...(fids && fids.length ? { FIDSet: fids } : {}),
      ...(order?.length ? { PostfixClause: `ORDER BY ${order.join(", ")}` } : {}),
    };
    return { type, crs, filter, properties, geometry, empty: fids !== undefined && !fids.length };
  });
}

function request(scope: WfsScope, p: Plan): QueryFeatureSetRequest {
  return {
    MapName: scope.frame.name,
    LayerDescription: { LayerID: p.type.layer.id },
    QueryFilter: p.filter,
  };
}

/** The rows of one query's page. */
interface Page {
  plan: Plan;
  rows?: RecordSet;
}

/** The rows of a request's page across its queries, and how many match in all. */
interface Collected {
  plans: Plan[];
  pages: Page[];
  matched: number;
  /** The page size asked for (capped at maxRecordCount). */
  count: number;
}

async function collect(scope: WfsScope, req: GetFeatureRequest): Promise<Collected> {
  const plans = req.queries.flatMap((q) => plan(scope, q));
  const max = serviceLimits(scope.service).maxRecordCount;
  const count = Math.min(req.count ?? max, max);
  let matched = 0;
  const pages: Page[] = [];
  let skip = req.startIndex;
  let room = req.hits ? 0 : count;
  for (const p of plans) {
    const n = p.empty
      ? 0
      : await LAYER_QUERY_OPERATIONS.QueryFeatureCount2(request(scope, p), scope.ctx);
    matched += n;
    if (room > 0 && skip < n) {
      const rows = queryFeatureSet(
        { ...request(scope, p), ResultOffset: skip, ResultRecordCount: Math.min(room, n - skip) },
        scope.ctx,
      );
      room -= rows.features.length;
      pages.push({ plan: p, rows });
    }
    skip = Math.max(0, skip - n);
  }
  return { plans, pages, matched, count };
}

/** What {@link getFeature} needs besides the request. */
export interface GetFeatureOptions {
  version: WfsVersion;
  /** The URL of the same KVP request from `startIndex` on (for `next`), when it was a KVP request. */
  pageUrl?: (startIndex: number) => string;
}

function values(p: Plan, f: Feature): [string, string | number | boolean][] {
  const out: [string, string | number | boolean][] = [];
  for (const { field, xml } of p.type.fields) {
    if (p.properties && !p.properties.has(field.name) && field.type !== "OID") continue;
    const raw = field.type === "OID"
      ? f.id
      : fieldValue(f.attributes[field.name] ?? null, field.type);
    if (raw === null || raw === undefined) continue;
    const v = raw instanceof Date ? raw.toISOString() : raw as string | number | boolean;
    out.push([xml, v]);
  }
  return out;
}

function projected(f: Feature, r: RecordSet, crs: WfsCrs): Geometry | null {
  return f.geometry ? projectGeometry(f.geometry, r.wkid, crs.wkid) : null;
}

function jsonFeature(p: Plan, f: Feature, r: RecordSet): Record<string, unknown> {
  const g = p.geometry ? projected(f, r, p.crs) : null;
  return {
    type: "Feature",
    id: `${p.type.local}.${f.id}`,
    geometry: g ? geoJsonGeometry(g, (q) => q) : null,
    properties: Object.fromEntries(values(p, f)),
  };
}

function geometryGml(p: Plan, g: Geometry, id: string, v2: boolean): string {
  const multi = p.type.layer.geometryType === "Polyline" || p.type.layer.geometryType === "Polygon";
  return gmlGeometry(geoJsonGeometry(g, (q) => axes(p.crs, q)), {
    version: v2 ? "3.2" : "3.1.1",
    srsName: p.crs.urn,
    id,
    multi,
  });
}

function gmlFeature(scope: WfsScope, p: Plan, f: Feature, r: RecordSet, v2: boolean): string {
  const pre = scope.prefix;
  const id = `${p.type.local}.${f.id}`;
  const vals = values(p, f);
  const parts = vals.map(([k, v]) => `<${pre}:${k}>${escapeText(String(v))}</${pre}:${k}>`);
  const g = p.geometry ? projected(f, r, p.crs) : null;
  if (g) {
    const gml = geometryGml(p, g, `${id}.geom`, v2);
    // The geometry follows the id field, as the schema orders them.
    parts.splice(
      vals.length && vals[0][0] === p.type.fields[0].xml ? 1 : 0,
      0,
      `<${pre}:${p.type.geometryName}>${gml}</${pre}:${p.type.geometryName}>`,
    );
  }
  return `<${pre}:${p.type.local} gml:id="${escapeAttr(id)}">${
    parts.join("")
  }</${pre}:${p.type.local}>`;
}

/**
 * Answers a GetFeature.
 *
 * @example
 * ```ts ignore
 * const reply = await getFeature(scope, req.getFeature!, { version: "2.0.0" });
 * ```
 */
export async function getFeature(
  scope: WfsScope,
  req: GetFeatureRequest,
  opts: GetFeatureOptions,
): Promise<WfsReply> {
  const kind = outputKind(req.outputFormat, opts.version);
  const { plans, pages, matched, count } = await collect(scope, req);
  const returned = pages.reduce((s, p) => s + (p.rows?.features.length ?? 0), 0);
  const timeStamp = new Date().toISOString().replace(/\.\d{3}Z$/, "Z");
  const more = !req.hits && req.startIndex + returned < matched && count > 0;
  if (kind === "json") {
    const features = pages.flatMap(({ plan: p, rows }) =>
      rows!.features.map((f) => jsonFeature(p, f, rows!))
    );
    const body = {
      type: "FeatureCollection",
      numberMatched: matched,
      numberReturned: returned,
      timeStamp,
      ...(more && opts.pageUrl
        ? { links: [{ rel: "next", href: opts.pageUrl(req.startIndex + returned) }] }
        : {}),
      features,
    };
    return {
      status: 200,
      contentType: "application/json; charset=utf-8",
      body: JSON.stringify(body),
    };
  }
  const v2 = opts.version === "2.0.0";
  const members = pages.flatMap(({ plan: p, rows }) =>
    rows!.features.map((f) =>
      v2
        ? `<wfs:member>${gmlFeature(scope, p, f, rows!, true)}</wfs:member>`
        : `<gml:featureMember>${gmlFeature(scope, p, f, rows!, false)}</gml:featureMember>`
    )
  );
  const ns = escapeAttr(scope.endpoint);
  const typeList = [...new Set(plans.map((p) => p.type.name))].join(",");
  const dft =
    `${scope.endpoint}?SERVICE=WFS&VERSION=${opts.version}&REQUEST=DescribeFeatureType&TYPENAMES=${
      encodeURIComponent(typeList)
    }`;
  let head: string;
  if (v2) {
    const next = more && opts.pageUrl
      ? ` next="${escapeAttr(opts.pageUrl(req.startIndex + returned))}"`
      : "";
    head =
      `<wfs:FeatureCollection xmlns:wfs="http://www.opengis.net/wfs/2.0" xmlns:gml="http://www.opengis.net/gml/3.2" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:${scope.prefix}="${ns}" xsi:schemaLocation="http://www.opengis.net/wfs/2.0 http://schemas.opengis.net/wfs/2.0/wfs.xsd http://www.opengis.net/gml/3.2 http://schemas.opengis.net/gml/3.2.1/gml.xsd ${ns} ${
        escapeAttr(dft)
      }" timeStamp="${timeStamp}" numberMatched="${matched}" numberReturned="${
        req.hits ? 0 : returned
      }"${next}>`;
  } else {
    head =
      `<wfs:FeatureCollection xmlns:wfs="http://www.opengis.net/wfs" xmlns:gml="http://www.opengis.net/gml" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:${scope.prefix}="${ns}" xsi:schemaLocation="http://www.opengis.net/wfs http://schemas.opengis.net/wfs/1.1.0/wfs.xsd ${ns} ${
        escapeAttr(dft.replace("TYPENAMES=", "TYPENAME="))
      }" timeStamp="${timeStamp}" numberOfFeatures="${req.hits ? matched : returned}">`;
  }
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n${head}\n${
    members.join("\n")
  }\n</wfs:FeatureCollection>\n`;
  return {
    status: 200,
    contentType: v2
      ? "application/gml+xml; version=3.2; charset=utf-8"
      : "text/xml; subtype=gml/3.1.1; charset=utf-8",
    body,
  };
}

/**
 * The stored query GetFeatureById (WFS 2.0): the one feature `id` names,
 * bare (no collection), or a NotFound exception (404).
 *
 * @example
 * ```ts ignore
 * await getFeatureById(scope, "competitions.5", undefined, undefined);
 * ```
 */
export function getFeatureById(
  scope: WfsScope,
  id: string,
  srsName: string | undefined,
  outputFormat: string | undefined,
): WfsReply {
  const kind = outputKind(outputFormat, "2.0.0");
  const { local } = resourceIdParts(id);
  const [p] = plan(scope, { typeNames: [local], resourceIds: [id], srsName });
  const rows = p.empty ? undefined : queryFeatureSet(request(scope, p), scope.ctx);
  const f = rows?.features[0];
  if (!rows || !f) throw new WfsError("NotFound", `Feature "${id}" does not exist.`, "ID", 404);
  if (kind === "json") {
    return {
      status: 200,
      contentType: "application/json; charset=utf-8",
      body: JSON.stringify(jsonFeature(p, f, rows)),
    };
  }
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n${
    gmlFeature(scope, p, f, rows, true).replace(
      /^<([^ >]+)/,
      `<$1 xmlns:${scope.prefix}="${
        escapeAttr(scope.endpoint)
      }" xmlns:gml="http://www.opengis.net/gml/3.2"`,
    )
  }\n`;
  return { status: 200, contentType: "application/gml+xml; version=3.2; charset=utf-8", body };
}

/**
 * GetPropertyValue (WFS 2.0.0): the values of one property (`valueReference`)
 * of the features a GetFeature of the same queries would page, as a
 * `wfs:ValueCollection`; features without a value give no member.
 *
 * @example
 * ```ts ignore
 * await getPropertyValue(scope, req.getFeature!, "title", {});
 * ```
 */
export async function getPropertyValue(
  scope: WfsScope,
  req: GetFeatureRequest,
  valueReference: string,
  opts: { pageUrl?: (startIndex: number) => string },
): Promise<WfsReply> {
  const { plans, pages, matched, count } = await collect(scope, req);
  const props = plans.map((p) => findProperty(p.type, valueReference, "VALUEREFERENCE"));
  const members: string[] = [];
  let returned = 0;
  for (const { plan: p, rows } of pages) {
    const prop = props[plans.indexOf(p)];
    for (const f of rows!.features) {
      returned++;
      if (prop === "geometry") {
        const g = projected(f, rows!, p.crs);
        if (g) {
          members.push(
            `<wfs:member>${geometryGml(p, g, `${p.type.local}.${f.id}.geom`, true)}</wfs:member>`,
          );
        }
        continue;
      }
      const raw = prop.type === "OID"
        ? f.id
        : fieldValue(f.attributes[prop.name] ?? null, prop.type);
      if (raw === null || raw === undefined) continue;
      const v = raw instanceof Date ? raw.toISOString() : String(raw);
      members.push(`<wfs:member>${escapeText(v)}</wfs:member>`);
    }
  }
  const more = !req.hits && req.startIndex + returned < matched && count > 0;
  const next = more && opts.pageUrl
    ? ` next="${escapeAttr(opts.pageUrl(req.startIndex + returned))}"`
    : "";
  const timeStamp = new Date().toISOString().replace(/\.\d{3}Z$/, "Z");
  const body = `<?xml version="1.0" encoding="UTF-8"?>
<wfs:ValueCollection xmlns:wfs="http://www.opengis.net/wfs/2.0" xmlns:gml="http://www.opengis.net/gml/3.2" timeStamp="${timeStamp}" numberMatched="${matched}" numberReturned="${
    req.hits ? 0 : members.length
  }"${next}>
${members.join("\n")}
</wfs:ValueCollection>
`;
  return { status: 200, contentType: "text/xml; charset=utf-8", body };
}
