/**
 * Text for full-text search: HTML to plain text, tokens, Russian/English stems,
 * and the FTS5 query built from a DRF-style `search` value.
 *
 * Index and query go through the same `stems()` so word forms meet in the middle:
 * `специалиста` and `специалисты` both become `специалист`.
 *
 * What these functions return is stored (the search indexes and the bitmap
 * index keep each record's terms as written): a change to it, the
 * stemmer's version included, needs a migration that re-indexes, or
 * searches miss the records indexed before. `text_pinned_test.ts` pins it.
 *
 * @module
 */
import { LRUCache } from "lru-cache";
import snowball from "snowball-stemmers";

const russian = snowball.newStemmer("russian");
const english = snowball.newStemmer("english");

/** Named entities seen in the catalogue's HTML (and common typography). */
const ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  laquo: "«",
  raquo: "»",
  mdash: "—",
  ndash: "–",
  hellip: "…",
  bull: "•",
  middot: "·",
  ldquo: "“",
  rdquo: "”",
  bdquo: "„",
  lsquo: "‘",
  rsquo: "’",
  sbquo: "‚",
  shy: "",
  copy: "©",
  reg: "®",
  trade: "™",
  deg: "°",
  plusmn: "±",
  times: "×",
  sect: "§",
  para: "¶",
  euro: "€",
};

/** Decodes named and numeric character references; unknown names become a space. */
export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z][a-zA-Z0-9]*);/g, (_m, ref: string) => {
    if (ref[0] === "#") {
      const code = ref[1] === "x" || ref[1] === "X"
        ? parseInt(ref.slice(2), 16)
        : parseInt(ref.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : " ";
    }
    return ENTITIES[ref] ?? ENTITIES[ref.toLowerCase()] ?? " ";
  });
}

/** Plain text of an HTML fragment: tags become spaces, entities are decoded. */
export function htmlToText(html: string): string {
  const noTags = html
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, " ")
    .replace(/<!--[\s\S]*?-->/g, " ")
    .replace(/<[^>]*>/g, " ");
  return decodeEntities(noTags).replace(/\s+/g, " ").trim();
}

const WORD_RE = /[\p{L}\p{N}]+/gu;
const CYRILLIC_RE = /^[\u0400-\u04ff]+$/;
const LATIN_RE = /^[a-z]+$/;

/** Words whose stems are kept: the vocabulary is small next to the number of words indexed. */
export const STEM_CACHE_MAX = 200_000;
/** Stems by word, the most recently used kept (made at first use: lru-cache allocates `max` slots). */
let stemCache: LRUCache<string, string> | undefined;

function stemWord(word: string): string {
  const cache = stemCache ??= new LRUCache({ max: STEM_CACHE_MAX });
  const kept = cache.get(word);
  if (kept !== undefined) return kept;
  const s: string = CYRILLIC_RE.test(word)
    ? russian.stem(word)
    : LATIN_RE.test(word)
    ? english.stem(word)
    : word;
  cache.set(word, s);
  return s;
}

/** Lower-cases and folds ё to е, the only folding Russian readers expect. */
export function fold(s: string): string {
  return s.toLowerCase().replaceAll("ё", "е");
}

/** Stems of every word of a plain text, in order, duplicates kept. */
export function stems(text: string): string[] {
  const out: string[] = [];
  for (const m of fold(text).matchAll(WORD_RE)) out.push(stemWord(m[0]));
  return out;
}

/** Field values whose stems are kept: templates repeat across records, so most are hits. */
export const FIELD_CACHE_MAX = 20_000;
/** Distinct stems by field value, the most recently used kept (made at first use). */
let fieldCache: LRUCache<string, readonly string[]> | undefined;

/** Distinct stems of one field; `html` fields are stripped and decoded first. */
export function fieldStems(raw: string, html: boolean): readonly string[] {
  if (raw === "") return [];
  const key = (html ? "h" : "t") + raw;
  const cache = fieldCache ??= new LRUCache({ max: FIELD_CACHE_MAX });
  let out = cache.get(key);
  if (out === undefined) {
    out = [...new Set(stems(html ? htmlToText(raw) : raw))];
    cache.set(key, out);
  }
  return out;
}

/**
 * How many words and field values this isolate keeps the stems of now
 * (at most {@linkcode STEM_CACHE_MAX} and {@linkcode FIELD_CACHE_MAX}).
 *
 * @example
 * ```ts
 * import { stemCacheSizes } from "./_text.ts";
 * stemCacheSizes(); // { words: 0, fields: 0 } before anything is stemmed
 * ```
 */
export function stemCacheSizes(): { words: number; fields: number } {
  return { words: stemCache?.size ?? 0, fields: fieldCache?.size ?? 0 };
}

/** A field for the search index: its raw value and whether it is HTML. */
export type SearchField = readonly [raw: string, html: boolean];

/**
 * The FTS5 body for a record: distinct stems of all its fields, space-separated.
 * Distinct, because search is a boolean AND and never ranks.
 */
export function indexBody(fields: readonly SearchField[]): string {
  return [...indexTerms(fields)].join(" ");
}

/** The distinct stems of a record's fields (what {@linkcode indexBody} joins). */
export function indexTerms(fields: readonly SearchField[]): Set<string> {
  const seen = new Set<string>();
  for (const [raw, html] of fields) for (const s of fieldStems(raw, html)) seen.add(s);
  return seen;
}

/**
 * The terms of a `search` value as DRF's `SearchFilter.get_search_terms`
 * splits them: on white space and commas, NUL characters removed, empty
 * terms dropped.
 *
 * @example
 * ```ts
 * import { searchTerms } from "./_text.ts";
 * searchTerms(" аудит,  отдел "); // ["аудит", "отдел"]
 * ```
 */
export function searchTerms(search: string): string[] {
  return search.replaceAll("\0", "").split(/[\s,]+/).filter((t) => t.length > 0);
}

/**
 * The stems of a `search` value (a raw value, or its terms already split by
 * {@linkcode searchTerms}): each term split into words and stemmed. Empty
 * when nothing searchable remains (the filter is then ignored, as DRF
 * ignores blank terms).
 */
export function searchStems(search: string | readonly string[]): string[] {
  const out = new Set<string>();
  for (const term of typeof search === "string" ? searchTerms(search) : search) {
    for (const s of stems(term)) out.add(s);
  }
  return [...out];
}

/** Shortest stem that also matches as a prefix (`програм` finds `программист`). */
export const PREFIX_MIN = 3;

/**
 * The terms of a `search` value (raw, or split by {@linkcode searchTerms})
 * as an AND of OR-groups of indexed terms: every
 * stem must match; a stem of {@linkcode PREFIX_MIN}+ letters also matches the
 * longer terms `expand` lists (null when too many: the group is then the stem
 * with a trailing `*`, FTS5's prefix query). Returns null when nothing is
 * searchable, and `""` when some stem matches no indexed term.
 *
 * @example
 * ```ts
 * import { searchGroups } from "./_text.ts";
 * searchGroups("IT"); // [["it"]]
 * ```
 */
export function searchGroups(
  search: string | readonly string[],
  expand: (prefix: string) => string[] | null = () => null,
): string[][] | null | "" {
  const stemsOf = searchStems(search);
  if (stemsOf.length === 0) return null;
  const groups: string[][] = [];
  for (const s of stemsOf) {
    if (s.length < PREFIX_MIN) {
      groups.push([s]);
      continue;
    }
    const terms = expand(s);
    if (terms === null) groups.push([`${s}*`]);
    else if (terms.length === 0) return "";
    else groups.push(terms);
  }
  return groups;
}

/** An FTS5 MATCH expression of {@linkcode searchGroups}' groups (AND of ORs). */
export function matchOfGroups(groups: readonly (readonly string[])[]): string {
  // Stems hold only letters and digits, so quoting needs no escaping.
  const quote = (t: string) => t.endsWith("*") ? `"${t.slice(0, -1)}"*` : `"${t}"`;
  return groups.map((g) => g.length === 1 ? quote(g[0]) : `(${g.map(quote).join(" OR ")})`)
    .join(" AND ");
}

/**
 * Turns a `search` value into an FTS5 MATCH expression: every stem must match
 * (AND); see {@linkcode searchGroups}. Returns null when nothing is
 * searchable, and `""` when some stem matches no indexed term (so nothing can
 * match).
 */
export function ftsQuery(
  search: string | readonly string[],
  expand: (prefix: string) => string[] | null = () => null,
): string | null {
  const groups = searchGroups(search, expand);
  if (groups === null || groups === "") return groups;
  return matchOfGroups(groups);
}

/** The filters whose values are also indexed as search terms (see {@linkcode filterTerm}). */
export type TermFilter = "agency" | "group" | "status" | "industry";

const FILTER_LETTER: Record<TermFilter, string> = {
  agency: "a",
  group: "g",
  status: "s",
  industry: "i",
};

/**
 * The search-index term of one filter value, e.g. agency 17. A private-use
 * character starts it, so no searched word (letters and digits only) nor any
 * prefix of one can match it; `fts_term` never lists it. With these terms a
 * search combined with these filters is a single FTS5 query whose AND skips
 * along the doclists, instead of a join row by row.
 *
 * @example
 * ```ts
 * import { filterTerm } from "./_text.ts";
 * filterTerm("agency", 17); // "\uE000a17"
 * ```
 */
export function filterTerm(filter: TermFilter, id: number): string {
  return `\uE000${FILTER_LETTER[filter]}${id}`;
}
