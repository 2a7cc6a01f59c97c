/**
 * ArcGIS REST request parameters, typed: names are case-insensitive (as
 * ArcGIS Server reads them), an empty value counts as absent, and a value
 * that cannot be read is an {@link InvalidRequestError} naming the
 * parameter and the form it takes.
 *
 * @module
 */
import { InvalidRequestError } from "../errors.ts";
import { LenientJsonError, parseLenientJson } from "./_lenient_json.ts";

const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const WHOLE = /^[+-]?\d+$/;

/**
 * A number written in decimal notation (`12`, `-0.5`, `1e3`), or `NaN`.
 * `Number()` alone also reads `0x1`, `0b1`, `0o1`, `Infinity` and a blank
 * string (as 0), which no ArcGIS client means: ArcGIS Server (Java) rejects
 * them, so `objectIds=0x1` is an error rather than object 1. With `integer`,
 * only digits (and a sign) are read, as Java's `Integer.parseInt` reads them:
 * `1.0` and `1e0` are no ids.
 *
 * @example
 * ```ts
 * decimalNumber(" 42 "); // 42
 * decimalNumber("0x1"); // NaN
 * decimalNumber("1e0", true); // NaN
 * ```
 */
export function decimalNumber(text: string, integer = false): number {
  const t = text.trim();
  return (integer ? WHOLE : DECIMAL).test(t) ? Number(t) : NaN;
}

/** Bounds and form of a number parameter. */
export interface NumberOptions {
  /** Whole numbers only. */
  integer?: boolean;
  min?: number;
  max?: number;
}

/** Options of {@link RestParams.size}. */
export interface SizeOptions {
  /** Whole numbers only (pixels). */
  integer?: boolean;
  /**
   * Pixels, a fraction rounded to the nearest whole one (at least 1):
   * OpenLayers' `TileArcGISRest` asks for `281.6,281.6` at a device pixel
   * ratio of 1.1.
   */
  round?: boolean;
  /** Largest width or height. */
  max?: number;
  /** Also read a third value, the DPI, which is this when left out. */
  dpi?: number;
  /** What the numbers measure, for the error ("of a swatch in points"). */
  what?: string;
  /** An example value for the error ("400,400"). */
  example: string;
}

/** A `width,height[,dpi]` parameter's values. */
export interface SizeValue {
  width: number;
  height: number;
  /** The DPI given, or {@link SizeOptions.dpi}; undefined without it. */
  dpi?: number;
}

/** The error of a parameter whose value is not of the `expected` form. */
export function invalid(name: string, expected: string, got: string): InvalidRequestError {
  const shown = got.length > 80 ? `${got.slice(0, 80)}...` : got;
  return new InvalidRequestError(
    `Invalid value of parameter '${name}': expected ${expected}, got '${shown}'.`,
    { [name]: shown },
    [`'${name}' parameter is invalid`],
  );
}

/**
 * Parses a parameter's JSON as leniently as ArcGIS does (unquoted names,
 * single quotes, trailing commas, comments; see `_lenient_json.ts`); a
 * value that cannot be read is the parameter's error, saying where.
 *
 * @example
 * ```ts
 * import { jsonValue } from "./params.ts";
 * jsonValue("geometry", "{x: 31.0, y: 51.0}", "Esri JSON"); // { x: 31, y: 51 }
 * ```
 */
export function jsonValue(name: string, text: string, expected: string): unknown {
  try {
    return parseLenientJson(text);
  } catch (e) {
    if (!(e instanceof LenientJsonError)) throw e;
    throw invalid(name, `${expected} (${e.message})`, text);
  }
}

/**
 * The parameters of one REST request (query string and form body merged;
 * the body wins for a name given in both).
 *
 * @example
 * ```ts
 * import { RestParams } from "./params.ts";
 * const p = new RestParams(new URLSearchParams("returnCountOnly=TRUE&resultOffset=20"));
 * p.boolean("returncountonly"); // true
 * p.number("resultOffset", { integer: true, min: 0 }); // 20
 * ```
 */
export class RestParams {
  readonly #values = new Map<string, string>();

  /** Reads `sources` in order; a later source overrides an earlier one. */
  constructor(...sources: URLSearchParams[]) {
    for (const s of sources) {
      for (const [k, v] of s) this.#values.set(k.toLowerCase(), v);
    }
  }

  /** The raw text, or undefined when absent or empty (blank = absent, as ArcGIS reads forms). */
  string(name: string): string | undefined {
    const v = this.#values.get(name.toLowerCase());
    return v === undefined || v.trim() === "" ? undefined : v;
  }

  /** Whether the parameter is given (and not blank). */
  has(name: string): boolean {
    return this.string(name) !== undefined;
  }

  /** A finite number within the bounds. */
  number(name: string, opts: NumberOptions = {}): number | undefined {
    const raw = this.string(name);
    if (raw === undefined) return undefined;
    const n = decimalNumber(raw, opts.integer);
    const what = opts.integer ? "a whole number" : "a number";
    const bounds = opts.min !== undefined && opts.max !== undefined
      ? ` from ${opts.min} to ${opts.max}`
      : opts.min !== undefined
      ? ` of at least ${opts.min}`
      : opts.max !== undefined
      ? ` of at most ${opts.max}`
      : "";
    if (opts.integer && n > Number.MAX_SAFE_INTEGER && n !== Infinity) {
      // Past 2^53 a whole number is no longer exact, and no count, offset or id is that large.
      throw invalid(name, `${what} of at most ${Number.MAX_SAFE_INTEGER}`, raw);
    }
    if (
      !Number.isFinite(n) || (opts.integer && !Number.isSafeInteger(n)) ||
      (opts.min !== undefined && n < opts.min) || (opts.max !== undefined && n > opts.max)
    ) {
      throw invalid(name, what + bounds, raw);
    }
    return n;
  }

  /** `true` / `false` in any case. */
  boolean(name: string): boolean | undefined {
    const raw = this.string(name);
    if (raw === undefined) return undefined;
    const t = raw.trim().toLowerCase();
    if (t === "true") return true;
    if (t === "false") return false;
    throw invalid(name, "true or false", raw);
  }

  /** A JSON value (object, array, ...), read as leniently as ArcGIS reads it. */
  json(name: string): unknown {
    const raw = this.string(name);
    return raw === undefined ? undefined : jsonValue(name, raw, "JSON");
  }

  /** A comma-separated list, items trimmed, blanks dropped. */
  list(name: string): string[] | undefined {
    const raw = this.string(name);
    if (raw === undefined) return undefined;
    return raw.split(",").map((s) => s.trim()).filter((s) => s !== "");
  }

  /** A comma-separated list of numbers. */
  numbers(name: string, opts: NumberOptions = {}): number[] | undefined {
    const items = this.list(name);
    if (items === undefined) return undefined;
    return items.map((item) => {
      const n = decimalNumber(item, opts.integer);
      if (
        !Number.isFinite(n) || (opts.integer && !Number.isSafeInteger(n)) ||
        (opts.min !== undefined && n < opts.min) || (opts.max !== undefined && n > opts.max)
      ) {
        throw invalid(
          name,
          `a comma-separated list of ${opts.integer ? "whole " : ""}numbers`,
          item,
        );
      }
      return n;
    });
  }

  /**
   * A size: `width,height` (`400,400`), or `width,height[,dpi]` when
   * `opts.dpi` is set; positive finite numbers (`,` or `;` between them).
   */
  size(name: string, opts: SizeOptions): SizeValue | undefined {
    const raw = this.string(name);
    if (raw === undefined) return undefined;
    const parts = raw.split(/[,;]/).map((s) => s.trim());
    const numbers = parts.map((p) => decimalNumber(p));
    const [width, height] = opts.round ? numbers.slice(0, 2).map(Math.round) : numbers;
    const dpi = numbers[2] ?? opts.dpi;
    const fits = (n: number) =>
      Number.isFinite(n) && n > 0 && (!opts.integer || Number.isInteger(n)) &&
      (opts.max === undefined || n <= opts.max);
    if (
      parts.length < 2 || parts.length > (opts.dpi === undefined ? 2 : 3) ||
      parts.some((s) => s === "") || !fits(width) || !fits(height) ||
      (dpi !== undefined && !(Number.isFinite(dpi) && dpi > 0))
    ) {
      const form = opts.dpi === undefined ? "width,height" : "width,height[,dpi]";
      const what = opts.what ? ` ${opts.what}` : "";
      const kind = `positive ${opts.integer ? "whole " : ""}numbers`;
      const max = opts.max === undefined ? "" : ` up to ${opts.max}`;
      throw invalid(name, `${form}${what}, ${kind}${max} (e.g. ${opts.example})`, raw);
    }
    return { width, height, ...(dpi === undefined ? {} : { dpi }) };
  }

  /** One of `choices` (compared case-insensitively; the choice's own spelling is returned). */
  choice<T extends string>(name: string, choices: readonly T[]): T | undefined {
    const raw = this.string(name);
    if (raw === undefined) return undefined;
    const t = raw.trim().toLowerCase();
    const hit = choices.find((c) => c.toLowerCase() === t);
    if (hit === undefined) throw invalid(name, `one of ${choices.join(", ")}`, raw);
    return hit;
  }
}
