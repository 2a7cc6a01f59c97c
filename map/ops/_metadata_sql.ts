/**
 * SQLSyntaxInfo for our where-clause dialect (map/query): what the parser
 * accepts, stated as ArcGIS reports a workspace's SQL syntax.
 *
 * @module
 */
import type { SoapObject } from "./_geometry_xml.ts";

function propertySet(entries: [string, string][]): SoapObject {
  return {
    $type: "PropertySet",
    PropertyArray: entries.map(([Key, Value]) => ({ $type: "PropertySetProperty", Key, Value })),
  };
}

/** The SQLSyntaxInfo every layer reports (all sources share one dialect). */
export const SQL_SYNTAX: SoapObject = {
  $type: "SQLSyntaxInfo",
  // Keys follow the ArcObjects esriSQLFunctionName / esriSQLSpecialCharacters names.
  FunctionNames: propertySet([
    ["esriSQL_UPPER", "UPPER"],
    ["esriSQL_LOWER", "LOWER"],
  ]),
  SpecialCharacters: propertySet([
    ["esriSQL_WildcardManyMatch", "%"],
    ["esriSQL_WildcardSingleMatch", "_"],
    ["esriSQL_DelimitedIdentifierPrefix", '"'],
    ["esriSQL_DelimitedIdentifierSuffix", '"'],
    ["esriSQL_EscapeKeyPrefix", "ESCAPE '"],
    ["esriSQL_EscapeKeySuffix", "'"],
  ]),
  SupportedPredicates: [
    "=",
    "<>",
    "<",
    "<=",
    ">",
    ">=",
    "AND",
    "OR",
    "NOT",
    "IN",
    "NOT IN",
    "BETWEEN",
    "NOT BETWEEN",
    "LIKE",
    "NOT LIKE",
    "IS NULL",
    "IS NOT NULL",
  ],
  // QueryFilter.PrefixClause / PostfixClause.
  SupportedClauses: ["DISTINCT", "ORDER BY"],
  // Field names are matched case-insensitively, plain, "quoted" or [bracketed]; text
  // comparisons (=, IN, BETWEEN, LIKE) are case-sensitive, UPPER()/LOWER() make them not.
  IdentifierCase: false,
  DelimitedIdentifierCase: false,
  StringComparisonCase: true,
  Keywords: [
    "AND",
    "OR",
    "NOT",
    "IN",
    "BETWEEN",
    "LIKE",
    "ESCAPE",
    "IS",
    "NULL",
    "UPPER",
    "LOWER",
    "DATE",
    "TIMESTAMP",
    "DISTINCT",
    "ORDER",
    "BY",
    "ASC",
    "DESC",
  ],
  InvalidCharacters: "",
  InvalidStartingCharacters: "",
};
