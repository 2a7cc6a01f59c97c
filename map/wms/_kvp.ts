/**
 * The key-value parameters of a WMS request: names match in any case (as
 * the standard asks), the first of a repeated name wins, and the version is
 * negotiated into one of the two this server speaks.
 *
 * @module
 */
import { WmsError } from "./_exception.ts";

/** The WMS versions served. */
export type WmsVersion = "1.3.0" | "1.1.1";

/**
 * A WMS request's parameters.
 *
 * @example
 * ```ts
 * const p = new WmsParams(new URLSearchParams("request=GetMap&Layers=0,1"));
 * p.get("LAYERS"); // "0,1"
 * ```
 */
export class WmsParams {
  readonly #values = new Map<string, string>();

  /** Reads `params` (a query string or a POSTed form). */
  constructor(params: URLSearchParams) {
    for (const [k, v] of params) {
      const key = k.toUpperCase();
      if (!this.#values.has(key)) this.#values.set(key, v);
    }
  }

  /** The value of `name` (any case), or undefined. */
  get(name: string): string | undefined {
    return this.#values.get(name.toUpperCase());
  }

  /** The value of `name`; MissingParameterValue when absent or empty. */
  required(name: string, what: string): string {
    const v = this.get(name);
    if (v === undefined || v.trim() === "") {
      throw new WmsError(
        "MissingParameterValue",
        `Parameter ${name} is required: ${what}.`,
        name,
      );
    }
    return v;
  }

  /** A whole number of `name` within 1..`max`; InvalidParameterValue otherwise. */
  pixels(name: string, max: number): number {
    const text = this.required(name, "a size in pixels").trim();
    const n = /^\d+$/.test(text) ? Number(text) : NaN;
    if (!Number.isInteger(n) || n < 1 || n > max) {
      throw new WmsError(
        "InvalidParameterValue",
        `Parameter ${name} must be a whole number of pixels from 1 to ${max}, not "${text}".`,
        name,
      );
    }
    return n;
  }
}

/**
 * The version a request is answered in: `VERSION` (or 1.0's `WMTVER`)
 * negotiated as the standard says (the highest served not above the one
 * asked for, else the lowest served); 1.3.0 when none is given.
 *
 * @example
 * ```ts
 * negotiateVersion("1.1.0"); // "1.1.1"
 * ```
 */
export function negotiateVersion(asked: string | undefined): WmsVersion {
  if (asked === undefined || asked.trim() === "") return "1.3.0";
  const parts = asked.trim().split(".").map((x) => Number(x));
  if (parts.some((x) => !Number.isInteger(x))) return "1.3.0";
  const [a = 0, b = 0, c = 0] = parts;
  const n = a * 10000 + b * 100 + c;
  return n >= 10300 ? "1.3.0" : "1.1.1";
}

/** The version of a request's parameters (`VERSION`, else `WMTVER`). */
export function requestVersion(p: WmsParams): WmsVersion {
  return negotiateVersion(p.get("VERSION") ?? p.get("WMTVER"));
}
