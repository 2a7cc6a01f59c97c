/**
 * The `esriUnits` vocabulary and length conversions between its members.
 *
 * Linear units convert exactly (international definitions). Degrees are an
 * angle, not a length: converting them to or from a linear unit depends on
 * where on the Earth one is, so {@linkcode convertLength} refuses it; display
 * scale uses the equatorial constant {@linkcode METERS_PER_DEGREE} instead,
 * as Esri's tiling schemes do.
 *
 * @module
 */
import { InvalidRequestError } from "../errors.ts";

/** Every `esriUnits` value, in schema order. */
export const ESRI_UNITS = [
  "esriUnknownUnits",
  "esriInches",
  "esriPoints",
  "esriFeet",
  "esriYards",
  "esriMiles",
  "esriNauticalMiles",
  "esriMillimeters",
  "esriCentimeters",
  "esriMeters",
  "esriKilometers",
  "esriDecimalDegrees",
  "esriDecimeters",
] as const;

/** One `esriUnits` value. */
export type EsriUnits = typeof ESRI_UNITS[number];

/** Inches per metre used by ArcGIS for scale (matches Esri's LOD tables exactly). */
export const INCHES_PER_METER = 39.37;

/** Metres per degree of longitude at the equator (2π·6378137/360), Esri's display constant. */
export const METERS_PER_DEGREE = 111319.49079327358;

/** Metres in one unit, for the linear units. */
const LINEAR_METERS: Readonly<Record<string, number>> = {
  esriInches: 0.0254,
  esriPoints: 0.0254 / 72,
  esriFeet: 0.3048,
  esriYards: 0.9144,
  esriMiles: 1609.344,
  esriNauticalMiles: 1852,
  esriMillimeters: 0.001,
  esriCentimeters: 0.01,
  esriMeters: 1,
  esriKilometers: 1000,
  esriDecimeters: 0.1,
};

/**
 * Whether `value` is an `esriUnits` name.
 *
 * @example
 * ```ts
 * isEsriUnits("esriFeet"); // true
 * ```
 */
export function isEsriUnits(value: unknown): value is EsriUnits {
  return typeof value === "string" && (ESRI_UNITS as readonly string[]).includes(value);
}

/**
 * Parses a unit name leniently: exact `esriUnits` values, or the same
 * without the `esri` prefix in any case (`"meters"`, `"Kilometers"`).
 * Throws an InvalidRequestError listing the valid names otherwise.
 *
 * @example
 * ```ts
 * parseEsriUnits("kilometers"); // "esriKilometers"
 * ```
 */
export function parseEsriUnits(value: string): EsriUnits {
  if (isEsriUnits(value)) return value;
  const wanted = value.trim().toLowerCase().replace(/^esri/, "");
  const hit = ESRI_UNITS.find((u) => u.slice(4).toLowerCase() === wanted);
  if (hit) return hit;
  throw new InvalidRequestError(
    `Unknown unit "${value}"; expected one of ${ESRI_UNITS.join(", ")}.`,
  );
}

/**
 * Whether the unit measures length (everything but degrees and unknown).
 *
 * @example
 * ```ts
 * isLinearUnit("esriMiles"); // true
 * ```
 */
export function isLinearUnit(units: EsriUnits): boolean {
  return units in LINEAR_METERS;
}

/**
 * Metres per unit for display scale: linear units exactly, decimal degrees
 * as {@linkcode METERS_PER_DEGREE}. Unknown units are treated as metres,
 * because a scale must still be reported for an unknown coordinate system.
 *
 * @example
 * ```ts
 * displayMetersPerUnit("esriDecimalDegrees"); // 111319.49079327358
 * ```
 */
export function displayMetersPerUnit(units: EsriUnits): number {
  if (units === "esriDecimalDegrees") return METERS_PER_DEGREE;
  return LINEAR_METERS[units] ?? 1;
}

/**
 * Converts a length between two `esriUnits`. Degrees convert only to
 * degrees and unknown units only to themselves; every other pair throws a
 * InvalidRequestError that says why.
 *
 * @example
 * ```ts
 * convertLength(1, "esriMiles", "esriKilometers"); // 1.609344
 * ```
 */
export function convertLength(value: number, from: EsriUnits, to: EsriUnits): number {
  if (from === to) return value;
  const a = LINEAR_METERS[from];
  const b = LINEAR_METERS[to];
  if (a === undefined || b === undefined) {
    const odd = a === undefined ? from : to;
    const why = odd === "esriDecimalDegrees"
      ? "degrees measure an angle, and their length in metres depends on the latitude"
      : "the unit is unknown";
    throw new InvalidRequestError(`Cannot convert a length from ${from} to ${to}: ${why}.`);
  }
  // Multiply before dividing so that exact pairs (m -> km) stay exact.
  return (value * a) / b;
}
