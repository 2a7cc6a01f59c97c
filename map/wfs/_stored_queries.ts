/**
 * The one stored query of the face, GetFeatureById (WFS 2.0.0 §7.9.3.6,
 * which every basic WFS has): ListStoredQueries and DescribeStoredQueries.
 *
 * @module
 */
import { escapeText } from "../xml_text.ts";
import { WfsError } from "./_exception.ts";
import type { WfsScope } from "./_feature_types.ts";
import { type WfsReply, XML } from "./_reply.ts";

/** The id of the GetFeatureById stored query. */
export const GET_FEATURE_BY_ID = "urn:ogc:def:query:OGC-WFS::GetFeatureById";

const HEAD =
  `xmlns:wfs="http://www.opengis.net/wfs/2.0" xmlns:xsd="http://www.w3.org/2001/XMLSchema"`;

/**
 * ListStoredQueries: GetFeatureById, returning every feature type.
 *
 * @example
 * ```ts ignore
 * listStoredQueries(scope).body.includes("GetFeatureById"); // true
 * ```
 */
export function listStoredQueries(scope: WfsScope): WfsReply {
  const body = `<?xml version="1.0" encoding="UTF-8"?>
<wfs:ListStoredQueriesResponse ${HEAD} xmlns:${scope.prefix}="${escapeText(scope.endpoint)}">
  <wfs:StoredQuery id="${GET_FEATURE_BY_ID}">
    <wfs:Title>Get feature by identifier</wfs:Title>
    ${scope.types.map((t) => `<wfs:ReturnFeatureType>${t.name}</wfs:ReturnFeatureType>`).join("")}
  </wfs:StoredQuery>
</wfs:ListStoredQueriesResponse>
`;
  return { status: 200, contentType: XML, body };
}

/**
 * DescribeStoredQueries of `ids` (all when empty); an unknown id is an InvalidParameterValue.
 *
 * @example
 * ```ts ignore
 * describeStoredQueries(scope, []).status; // 200
 * ```
 */
export function describeStoredQueries(scope: WfsScope, ids: string[]): WfsReply {
  for (const id of ids) {
    if (id !== GET_FEATURE_BY_ID) {
      throw new WfsError(
        "InvalidParameterValue",
        `Stored query "${id}" does not exist; the one stored query is ${GET_FEATURE_BY_ID}.`,
        "STOREDQUERY_ID",
      );
    }
  }
  const body = `<?xml version="1.0" encoding="UTF-8"?>
<wfs:DescribeStoredQueriesResponse ${HEAD} xmlns:${scope.prefix}="${escapeText(scope.endpoint)}">
  <wfs:StoredQueryDescription id="${GET_FEATURE_BY_ID}">
    <wfs:Title>Get feature by identifier</wfs:Title>
    <wfs:Parameter name="ID" type="xsd:string"/>
    <wfs:QueryExpressionText isPrivate="true" language="urn:ogc:def:queryLanguage:OGC-WFS::WFS_QueryExpression" returnFeatureTypes="${
    scope.types.map((t) => t.name).join(" ")
  }"/>
  </wfs:StoredQueryDescription>
</wfs:DescribeStoredQueriesResponse>
`;
  return { status: 200, contentType: XML, body };
}
