/**
 * SQLSyntaxInfo for our where-clause dialect, built from the engine's own
 * description (map/query SQL_SYNTAX) so that what GetSQLSyntaxInfo claims is
 * what the parser accepts, plus the Prefix/Postfix clauses the query
 * operations understand (DISTINCT, ORDER BY).
 *
 * @module
 */
import { SQL_SYNTAX as ENGINE } from "../query/mod.ts";
import type { Property, SqlSyntaxInfo } from "./results.ts";

/** Clauses QueryFilter.PrefixClause / PostfixClause accept (map/ops query filter). */
const CLAUSES = ["DISTINCT", "ORDER BY"];
const CLAUSE_KEYWORDS = ["DISTINCT", "ORDER", "BY", "ASC", "DESC"];

function properties(entries: [string, string][]): Property<string>[] {
  return entries.map(([key, value]) => ({ key, value }));
}

/** The SQLSyntaxInfo every layer reports (all sources share one dialect). */
export const SQL_SYNTAX: SqlSyntaxInfo = {
  // Keys follow the ArcObjects esriSQLFunctionName / esriSQLSpecialCharacters names; the value
  // is the function's name as a where clause writes it.
  functionNames: properties(ENGINE.functions.map((f) => [f.esriKey, f.name])),
  specialCharacters: properties([
    ["esriSQL_WildcardManyMatch", ENGINE.specialCharacters.wildcardMany],
    ["esriSQL_WildcardSingleMatch", ENGINE.specialCharacters.wildcardSingle],
    ["esriSQL_DelimitedIdentifierPrefix", ENGINE.specialCharacters.identifierQuote],
    ["esriSQL_DelimitedIdentifierSuffix", ENGINE.specialCharacters.identifierQuote],
  ]),
  supportedPredicates: [...ENGINE.supportedPredicates],
  supportedClauses: [...new Set([...ENGINE.supportedClauses, ...CLAUSES])],
  identifierCase: ENGINE.identifierCase,
  delimitedIdentifierCase: ENGINE.delimitedIdentifierCase,
  stringComparisonCase: ENGINE.stringComparisonCase,
  keywords: [...new Set([...ENGINE.keywords, ...CLAUSE_KEYWORDS])],
  invalidCharacters: ENGINE.invalidCharacters,
  invalidStartingCharacters: ENGINE.invalidStartingCharacters,
};
