/**
 * URL path patterns in URLPattern's pathname syntax (`/services/:service/MapServer{/}?`),
 * matched against a pathname the URL parser has already canonicalized, by
 * one regular expression compiled when the pattern is made.
 *
 * Why not `URLPattern` itself: each `exec` parses its input again (an op
 * into Rust) and builds a result for every URL component. The route table
 * and the REST face's endpoints ran about ten of them for a map export:
 * 0.2 ms of the main thread's 0.5 ms before the job reached its worker
 * when requests come apart (caches cold); a JSON detail request ran one,
 * yet took a tenth more CPU (the op parsed the whole URL once more).
 *
 * The expression is built as the URL Pattern standard builds a pathname's
 * ("generate a regular expression and name list"): fixed text escaped,
 * `:name` a segment (`[^/]+?`) or its own `(regexp)`, `*` anything, `{...}`
 * groups with a prefix and suffix, the `?` modifier. A pattern with what
 * this does not build (the `*` and `+` modifiers on a group or parameter) is
 * matched by `URLPattern` instead, with the same results. The test
 * (`path_pattern_test.ts`) compares both on the server's route patterns (as
 * listed there) and the REST face's endpoints.
 *
 * @module
 */

/** The named (and numbered, for unnamed groups) parameters of a match; absent optional ones undefined. */
export type PathGroups = Record<string, string | undefined>;

/** A part of a parsed pattern. */
type Part =
  | { kind: "fixed"; value: string; modifier: "" | "?" }
  | {
    kind: "group";
    name: string;
    regexp: string;
    prefix: string;
    suffix: string;
    modifier: "" | "?";
  };

/** The default of a `:name` without its own regexp in a pathname: one segment. */
const SEGMENT = "[^/]+?";
/** What `*` matches. */
const FULL_WILDCARD = ".*";

function escapeRegExp(text: string): string {
  return text.replace(/[.+*?^${}()[\]|/\\]/g, "\\$&");
}

/** Characters of a parameter name after `:` (the standard's identifier code points). */
const NAME_CHAR = /[$_\p{ID_Continue}]/u;

/**
 * The parts of a pattern string as URLPattern normalizes it (its `pathname`
 * getter), or null for syntax compiled by URLPattern only.
 */
function parse(pattern: string): Part[] | null {
  const parts: Part[] = [];
  let fixed = "";
  let unnamed = 0;
  let i = 0;
  const flush = () => {
    if (fixed) parts.push({ kind: "fixed", value: fixed, modifier: "" });
    fixed = "";
  };
  /**
   * A `:name`, `(regexp)` or `*` at `i`: its name and regexp; undefined when there is none there,
   * null for a regexp this does not compile.
   */
  const parameter = (): { name: string; regexp: string } | undefined | null => {
    let name = "";
    if (pattern[i] === ":") {
      let j = i + 1;
      while (j < pattern.length && NAME_CHAR.test(pattern[j])) j++;
      if (j === i + 1) return null;
      name = pattern.slice(i + 1, j);
      i = j;
    }
    if (pattern[i] === "(") {
      const end = regexpEnd(pattern, i);
      if (end < 0) return null;
      const regexp = pattern.slice(i + 1, end);
      i = end + 1;
      return { name: name || String(unnamed++), regexp };
    }
    if (!name && pattern[i] === "*") {
      i++;
      return { name: String(unnamed++), regexp: FULL_WILDCARD };
    }
    return name ? { name, regexp: SEGMENT } : undefined;
  };
  /** A `?` at `i` (taken), or "" when none; null for `*` or `+`, which are not compiled. */
  const modifier = (): "" | "?" | null => {
    if (pattern[i] === "?") {
      i++;
      return "?";
    }
    return pattern[i] === "*" || pattern[i] === "+" ? null : "";
  };
  /**
   * Literal text at `i` up to syntax. An escaped character (a backslash) stops it: such patterns
   * are left to URLPattern (an escaped `/` is no parameter's prefix there).
   */
  const text = (): string => {
    const start = i;
    while (i < pattern.length && !/[:*(){}?+\\]/.test(pattern[i])) i++;
    return pattern.slice(start, i);
  };
  while (i < pattern.length) {
    const c = pattern[i];
    if (c === "{") {
      i++;
      const prefix = text();
      const p = parameter();
      if (p === null) return null;
      const suffix = p ? text() : "";
      if (pattern[i] !== "}") return null; // an escape, a second parameter, ...
      i++;
      const m = modifier();
      if (m === null) return null;
      flush();
      if (p) parts.push({ kind: "group", ...p, prefix, suffix, modifier: m });
      else if (prefix) parts.push({ kind: "fixed", value: prefix, modifier: m });
      continue;
    }
    if (c === ":" || c === "(" || c === "*") {
      const p = parameter();
      if (!p) return null;
      const m = modifier();
      if (m === null) return null;
      // A parameter right after "/" takes it as its prefix (what `?` makes optional with it).
      let prefix = "";
      if (fixed.endsWith("/")) {
        prefix = "/";
        fixed = fixed.slice(0, -1);
      }
      flush();
      parts.push({ kind: "group", ...p, prefix, suffix: "", modifier: m });
      continue;
    }
    if (c === "?" || c === "+" || c === ")" || c === "}" || c === "\\") return null;
    const t = text();
    if (!t) return null;
    fixed += t;
  }
  flush();
  return parts;
}

/** The index of the `)` closing the regexp group opened at `start`, or -1. */
function regexpEnd(pattern: string, start: number): number {
  let depth = 1;
  for (let j = start + 1; j < pattern.length; j++) {
    const c = pattern[j];
    if (c === "\\") {
      j++;
      continue;
    }
    if (c === "(") {
      // Only non-capturing groups inside (URLPattern refuses capturing ones).
      if (pattern[j + 1] !== "?") return -1;
      depth++;
    } else if (c === ")" && --depth === 0) return j === start + 1 ? -1 : j;
  }
  return -1;
}

/** The regular expression source and group names of parsed parts. */
function expression(parts: Part[]): { source: string; names: string[] } {
  let source = "^";
  const names: string[] = [];
  for (const p of parts) {
    if (p.kind === "fixed") {
      source += p.modifier ? `(?:${escapeRegExp(p.value)})?` : escapeRegExp(p.value);
      continue;
    }
    names.push(p.name);
    if (!p.prefix && !p.suffix) source += `(${p.regexp})${p.modifier}`;
    else {
      source += `(?:${escapeRegExp(p.prefix)}(${p.regexp})${escapeRegExp(p.suffix)})${p.modifier}`;
    }
  }
  return { source: source + "$", names };
}

/**
 * A compiled URLPattern pathname.
 *
 * @example
 * ```ts
 * import { PathPattern } from "./path_pattern.ts";
 * const p = new PathPattern("/services/:service/MapServer{/}?", { ignoreCase: true });
 * p.exec("/services/World/mapserver/"); // { service: "World" }
 * p.exec("/services/World/FeatureServer"); // null
 * ```
 */
export class PathPattern {
  /** The pattern as URLPattern normalizes it (literal text percent-encoded). */
  readonly source: string;
  /** Whether a compiled expression matches it (else URLPattern does). */
  readonly compiled: boolean;
  readonly #re: RegExp | undefined;
  readonly #names: readonly string[];
  readonly #fallback: URLPattern | undefined;

  /** Throws URLPattern's TypeError for a pattern it refuses. */
  constructor(path: string, opts: { ignoreCase?: boolean } = {}) {
    const pattern = new URLPattern({ pathname: path }, { ignoreCase: opts.ignoreCase ?? false });
    this.source = pattern.pathname;
    const parts = parse(this.source);
    if (parts) {
      const { source, names } = expression(parts);
      this.#re = new RegExp(source, opts.ignoreCase ? "iu" : "u");
      this.#names = names;
      this.#fallback = undefined;
    } else {
      this.#re = undefined;
      this.#names = [];
      this.#fallback = pattern;
    }
    this.compiled = this.#re !== undefined;
  }

  /**
   * The parameters of `pathname` (as `new URL(...).pathname` gives it), or
   * null when the pattern does not match it.
   */
  exec(pathname: string): PathGroups | null {
    if (this.#fallback) return this.#fallback.exec({ pathname })?.pathname.groups ?? null;
    const m = this.#re!.exec(pathname);
    if (!m) return null;
    const groups: PathGroups = {};
    for (let k = 0; k < this.#names.length; k++) groups[this.#names[k]] = m[k + 1];
    return groups;
  }

  /** Whether the pattern matches `pathname`. */
  test(pathname: string): boolean {
    return this.#fallback ? this.#fallback.test({ pathname }) : this.#re!.test(pathname);
  }
}
