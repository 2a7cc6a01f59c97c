/**
 * Reading decoded SOAP values: the decoder (decode.ts) has typed every
 * element by the type table, so a complex value is a plain object whose
 * members are numbers, booleans, strings, arrays or further objects (`$type`
 * = its concrete type), and a nil element is `null`. These helpers read
 * members by name, treat nil as absent and raise an InvalidRequestError
 * naming the element when a required one is missing or has the wrong shape.
 *
 * @module
 */
import { InvalidRequestError } from "../errors.ts";

/** A decoded complex value: members by local name, `$type` = its concrete type. */
export type Decoded = Record<string, unknown>;

/**
 * Whether `v` is a decoded complex value (an object, not an array or text).
 *
 * @example
 * ```ts
 * isDecoded({ $type: "PointN", X: 1, Y: 2 }); // true
 * isDecoded([1, 2]); // false
 * ```
 */
export function isDecoded(v: unknown): v is Decoded {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** `v` as a complex value, or undefined when missing or nil; text is refused. */
export function complexOrAbsent(v: unknown, what: string): Decoded | undefined {
  if (v === undefined || v === null) return undefined;
  if (!isDecoded(v)) throw new InvalidRequestError(`${what} must be a complex value, not text.`);
  return v;
}

/** The complex member `name` of `raw`, or undefined when missing or nil; text is refused. */
export function optionalObject(raw: Decoded, name: string, what = name): Decoded | undefined {
  return complexOrAbsent(raw[name], what);
}

/** A number member (numeric text accepted: anyType values arrive as text); undefined when absent. */
export function optionalNumber(raw: Decoded, name: string, what = name): number | undefined {
  const v = raw[name];
  if (v === undefined || v === null || v === "") return undefined;
  if (typeof v === "number" && !Number.isNaN(v)) return v;
  if (typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v))) return Number(v);
  throw new InvalidRequestError(`${what} must be a number; got "${String(v).slice(0, 40)}".`);
}

/** A finite number member that must be there. */
export function requiredNumber(raw: Decoded, name: string, what = name): number {
  const v = optionalNumber(raw, name, what);
  if (v === undefined || !Number.isFinite(v)) {
    throw new InvalidRequestError(`${what} must be a finite number.`);
  }
  return v;
}

/** A text member; undefined when absent or nil. */
export function optionalString(raw: Decoded, name: string, what = name): string | undefined {
  const v = raw[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string") throw new InvalidRequestError(`${what} must be a string.`);
  return v;
}

/** A boolean member; undefined when absent or nil. */
export function optionalBoolean(raw: Decoded, name: string, what = name): boolean | undefined {
  const v = raw[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "boolean") throw new InvalidRequestError(`${what} must be true or false.`);
  return v;
}

/** The items of an array member (a lone value counts as one item; absent or nil = none). */
export function list(v: unknown): unknown[] {
  if (v === undefined || v === null) return [];
  return Array.isArray(v) ? v : [v];
}

/** Options of {@link intList}. */
export interface IntListOptions {
  /** The member as messages name it (default its name). */
  what?: string;
  /** What each item must be, for messages (default "an integer"). */
  item?: string;
  /** Refuse nil items instead of skipping them (arrays whose positions pair up). */
  refuseNil?: boolean;
}

/** The integers of an ArrayOfInt member; nil items are skipped (or refused), anything else is refused. */
export function intList(raw: Decoded, name: string, opts: IntListOptions = {}): number[] {
  const out: number[] = [];
  list(raw[name]).forEach((n, i) => {
    if (n === null && !opts.refuseNil) return;
    if (typeof n !== "number" || !Number.isInteger(n)) {
      throw new InvalidRequestError(
        `${opts.what ?? name}[${i}] must be ${opts.item ?? "an integer"}.`,
      );
    }
    out.push(n);
  });
  return out;
}

/**
 * An integer member that must be there; `message` says what it must be
 * (default "<name> is required and must be an integer.").
 */
export function requiredInt(raw: Decoded, name: string, message?: string): number {
  const v = raw[name];
  if (typeof v !== "number" || !Number.isInteger(v)) {
    throw new InvalidRequestError(message ?? `${name} is required and must be an integer.`);
  }
  return v;
}
