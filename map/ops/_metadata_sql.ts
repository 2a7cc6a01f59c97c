/**
 * SQLSyntaxInfo for our where-clause dialect, built from the engine's own
 * description (map/query SQL_SYNTAX) so that what GetSQLSyntaxInfo claims is
 * what the parser accepts, plus the Prefix/Postfix clauses the query
 * operations understand (DISTINCT, ORDER BY).
 *
 * @module
 */
import { SQL_SYNTAX as ENGINE } from "../query/mod.ts";
import type { SoapObject } from "./_geometry_xml.ts";

/** Clauses QueryFilter.PrefixClause / PostfixClause accept (map/ops query filter). */
const CLAUSES = ["DISTINCT", "ORDER BY"];
const CLAUSE_KEYWORDS = ["DISTINCT", "ORDER", "BY", "ASC", "DESC"];

function propertySet(entries: [string, string][]): SoapObject {
  return {
    $type: "PropertySet",
    PropertyArray: entries.map(([Key, Value]) => ({ $type: "PropertySetProperty", Key, Value })),
  };
}

/** The SQLSyntaxInfo every layer reports (all sources share one dialect). */
export const SQL_SYNTAX: SoapObject = {
  $type: "SQLSyntaxInfo",
  // Keys follow the ArcObjects esriSQLFunctionName / esriSQLSpecialCharacters names; the value
  // is the function's name as a where clause writes it.
  FunctionNames: propertySet(ENGINE.functions.map((f) => [f.esriKey, f.name])),
  SpecialCharacters: propertySet([
    ["esriSQL_WildcardManyMatch", ENGINE.specialCharacters.wildcardMany],
    ["esriSQL_WildcardSingleMatch", ENGINE.specialCharacters.wildcardSingle],
    ["esriSQL_DelimitedIdentifierPrefix", ENGINE.specialCharacters.identifierQuote],
    ["esriSQL_DelimitedIdentifierSuffix", ENGINE.specialCharacters.identifierQuote],
  ]),
  SupportedPredicates: [...ENGINE.supportedPredicates],
  SupportedClauses: [...new Set([...ENGINE.supportedClauses, ...CLAUSES])],
  IdentifierCase: ENGINE.identifierCase,
  DelimitedIdentifierCase: ENGINE.delimitedIdentifierCase,
  StringComparisonCase: ENGINE.stringComparisonCase,
  Keywords: [...new Set([...ENGINE.keywords, ...CLAUSE_KEYWORDS])],
  InvalidCharacters: ENGINE.invalidCharacters,
  InvalidStartingCharacters: ENGINE.invalidStartingCharacters,
};
