/**
 * WFS requests, typed: the key-value parameters of a GET (or a POSTed
 * form), or a POSTed XML request (`wfs:GetCapabilities`,
 * `wfs:DescribeFeatureType`, `wfs:GetFeature` with `wfs:Query` elements),
 * become one {@link WfsRequest}. Parameter names are case-insensitive.
 *
 * @module
 */
import { WfsError } from "./_exception.ts";
import { childrenNamed, parseXml, type XmlNode } from "./_xml.ts";

/** The versions served. */
export type WfsVersion = "2.0.0" | "1.1.0";

/** One query of a GetFeature. */
export interface WfsQuery {
  /** Type names as the client gave them (empty: from the resource ids). */
  typeNames: string[];
  /** The filter element, if any. */
  filter?: XmlNode;
  /** BBOX parameter: four numbers and an optional CRS name. */
  bbox?: { coords: number[]; crs?: string };
  /** RESOURCEID / FEATUREID values. */
  resourceIds?: string[];
  propertyNames?: string[];
  /** SORTBY entries: a property and a direction. */
  sortBy?: { property: string; descending: boolean }[];
  srsName?: string;
}

/** A GetFeature. */
export interface GetFeatureRequest {
  queries: WfsQuery[];
  count?: number;
  startIndex: number;
  hits: boolean;
  outputFormat?: string;
  /** STOREDQUERY_ID, when a stored query is asked for. */
  storedQuery?: { id: string; params: Map<string, string> };
}

/** Any request of the face. */
export interface WfsRequest {
  request: string;
  /** The version asked for (VERSION, or ACCEPTVERSIONS for GetCapabilities). */
  version?: string;
  acceptVersions?: string[];
  service?: string;
  /** DescribeFeatureType's type names. */
  typeNames?: string[];
  /** GetPropertyValue's property. */
  valueReference?: string;
  /** DescribeStoredQueries' ids. */
  storedQueryIds?: string[];
  getFeature?: GetFeatureRequest;
  /** The locator of `request` (REQUEST for KVP, the root element for XML). */
  requestLocator: string;
}

/** Case-insensitive key-value parameters. */
export class Kvp {
  private readonly map = new Map<string, string>();
  /** Reads `query`; the first value of a repeated name counts. */
  constructor(query: URLSearchParams) {
    for (const [k, v] of query) {
      if (!this.map.has(k.toUpperCase())) this.map.set(k.toUpperCase(), v);
    }
  }
  /** The value of `name`, or undefined when absent. */
  get(name: string): string | undefined {
    return this.map.get(name.toUpperCase());
  }
  /** Every parameter (names upper-cased). */
  entries(): [string, string][] {
    return [...this.map];
  }
}

function integer(v: string | undefined, name: string, min: number): number | undefined {
  if (v === undefined || v.trim() === "") return undefined;
  if (!/^\s*\d{1,15}\s*$/.test(v) || Number(v) < min) {
    throw new WfsError(
      "InvalidParameterValue",
      `${name} must be a whole number of at least ${min}, not "${v}".`,
      name,
    );
  }
  return Number(v);
}

function list(v: string | undefined): string[] | undefined {
  if (v === undefined || v.trim() === "") return undefined;
  return v.replace(/^\((.*)\)$/, "$1").split(",").map((s) => s.trim()).filter((s) => s !== "");
}

function sortBy(v: string | undefined, locator: string): WfsQuery["sortBy"] {
  return list(v)?.map((s) => {
    const [property, dir = "ASC"] = s.split(/\s+/);
    const d = dir.toUpperCase();
    if (!["ASC", "DESC", "A", "D"].includes(d)) {
      throw new WfsError(
        "InvalidParameterValue",
        `Sort order "${dir}" is not ASC or DESC.`,
        locator,
      );
    }
    return { property, descending: d.startsWith("D") };
  });
}

/**
 * A KVP request.
 *
 * @example
 * ```ts
 * kvpRequest(new URLSearchParams("REQUEST=GetFeature&TYPENAMES=a:b&COUNT=5")).getFeature?.count; // 5
 * ```
 */
export function kvpRequest(query: URLSearchParams): WfsRequest {
  const p = new Kvp(query);
  const request = p.get("REQUEST");
  if (request === undefined || request.trim() === "") {
    throw new WfsError("MissingParameterValue", "REQUEST is missing.", "REQUEST");
  }
  const types = list(p.get("TYPENAMES") ?? p.get("TYPENAME"));
  const out: WfsRequest = {
    request: request.trim(),
    version: p.get("VERSION")?.trim() || undefined,
    acceptVersions: list(p.get("ACCEPTVERSIONS")),
    service: p.get("SERVICE"),
    typeNames: types,
    storedQueryIds: list(p.get("STOREDQUERY_ID")),
    requestLocator: "REQUEST",
  };
  const op = out.request.toLowerCase();
  if (op !== "getfeature" && op !== "getpropertyvalue") return out;
  out.valueReference = p.get("VALUEREFERENCE")?.trim() || undefined;
  const bboxText = p.get("BBOX");
  let bbox: WfsQuery["bbox"];
  if (bboxText !== undefined && bboxText.trim() !== "") {
    const parts = bboxText.split(",").map((s) => s.trim());
    const crs = parts.length === 5 || parts.length === 7 ? parts.pop() : undefined;
    const coords = parts.map((s) => s === "" ? NaN : Number(s));
    if (coords.length !== 4 || coords.some((n) => !Number.isFinite(n))) {
      throw new WfsError(
        "InvalidParameterValue",
        `BBOX must be minx,miny,maxx,maxy[,crs], not "${bboxText}".`,
        "BBOX",
      );
    }
    bbox = { coords, crs };
  }
  const filterText = p.get("FILTER");
  const filter = filterText !== undefined && filterText.trim() !== ""
    ? parseXml(filterText.trim().replace(/^\((.*)\)$/s, "$1"), "FILTER")
    : undefined;
  const resourceIds = list(p.get("RESOURCEID") ?? p.get("FEATUREID"));
  const given = [bbox && "BBOX", filter && "FILTER", resourceIds && "RESOURCEID"].filter(Boolean);
  if (given.length > 1) {
    throw new WfsError(
      "InvalidParameterValue",
      `${given.join(" and ")} exclude each other; give one of them.`,
      String(given[1]),
    );
  }
  const storedId = p.get("STOREDQUERY_ID");
  out.getFeature = {
    queries: [{
      typeNames: types ?? [],
      filter,
      bbox,
      resourceIds,
      propertyNames: list(p.get("PROPERTYNAME"))?.filter((n) => n !== "*"),
      sortBy: sortBy(p.get("SORTBY"), "SORTBY"),
      srsName: p.get("SRSNAME")?.trim() || undefined,
    }],
    count: integer(
      p.get("COUNT") ?? p.get("MAXFEATURES"),
      p.get("COUNT") ? "COUNT" : "MAXFEATURES",
      0,
    ),
    startIndex: integer(p.get("STARTINDEX"), "STARTINDEX", 0) ?? 0,
    hits: resultType(p.get("RESULTTYPE")),
    outputFormat: p.get("OUTPUTFORMAT")?.trim() || undefined,
    ...(storedId ? { storedQuery: { id: storedId, params: new Map(p.entries()) } } : {}),
  };
  return out;
}

function resultType(v: string | undefined): boolean {
  if (v === undefined || v.trim() === "" || v.trim().toLowerCase() === "results") return false;
  if (v.trim().toLowerCase() === "hits") return true;
  throw new WfsError(
    "InvalidParameterValue",
    `RESULTTYPE must be results or hits, not "${v}".`,
    "RESULTTYPE",
  );
}

/**
 * A POSTed XML request.
 *
 * @example
 * ```ts
 * xmlRequest('<GetCapabilities xmlns="http://www.opengis.net/wfs/2.0" service="WFS"/>').request;
 * // "GetCapabilities"
 * ```
 */
export function xmlRequest(text: string): WfsRequest {
  const root = parseXml(text, "request body");
  // Attribute names as the schemas spell them, or in any case (OWSLib writes `typenames`).
  const a = (n: XmlNode, k: string) =>
    n.attrs.get(k) ?? [...n.attrs].find(([name]) => name.toLowerCase() === k.toLowerCase())?.[1];
  const out: WfsRequest = {
    request: root.local,
    version: a(root, "version"),
    service: a(root, "service"),
    requestLocator: root.local,
  };
  if (root.local === "GetCapabilities") {
    const av = childrenNamed(root, "AcceptVersions")[0];
    if (av) out.acceptVersions = childrenNamed(av, "Version").map((v) => v.text.trim());
    return out;
  }
  if (root.local === "DescribeFeatureType") {
    out.typeNames = childrenNamed(root, "TypeName").map((n) => n.text.trim());
    return out;
  }
  if (root.local === "DescribeStoredQueries") {
    out.storedQueryIds = childrenNamed(root, "StoredQueryId").map((n) => n.text.trim());
    return out;
  }
  if (root.local !== "GetFeature" && root.local !== "GetPropertyValue") return out;
  out.valueReference = a(root, "valueReference");
  const queries: WfsQuery[] = childrenNamed(root, "Query").map((q) => {
    const sort = childrenNamed(q, "SortBy")[0];
    return {
      typeNames: (a(q, "typeNames") ?? a(q, "typeName") ?? "").split(/[\s,]+/).filter((s) => s),
      filter: childrenNamed(q, "Filter")[0],
      propertyNames: [...childrenNamed(q, "PropertyName"), ...childrenNamed(q, "ValueReference")]
        .map((n) => n.text.trim()),
      sortBy: sort
        ? childrenNamed(sort, "SortProperty").map((s) => ({
          property: (s.children.find((c) => c.local !== "SortOrder")?.text ?? "").trim(),
          descending: /^D/i.test(childrenNamed(s, "SortOrder")[0]?.text.trim() ?? ""),
        }))
        : undefined,
      srsName: a(q, "srsName"),
    };
  });
  const stored = childrenNamed(root, "StoredQuery")[0];
  if (queries.length === 0 && !stored) {
    throw new WfsError("MissingParameterValue", "GetFeature needs a wfs:Query.", "Query");
  }
  out.getFeature = {
    queries,
    count: integer(a(root, "count") ?? a(root, "maxFeatures"), "count", 0),
    startIndex: integer(a(root, "startIndex"), "startIndex", 0) ?? 0,
    hits: resultType(a(root, "resultType")),
    outputFormat: a(root, "outputFormat"),
    ...(stored
      ? {
        storedQuery: {
          id: a(stored, "id") ?? "",
          params: new Map(
            childrenNamed(stored, "Parameter").map((p) => [
              (a(p, "name") ?? "").toUpperCase(),
              p.text.trim(),
            ]),
          ),
        },
      }
      : {}),
  };
  return out;
}
