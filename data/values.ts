/**
 * The value rules shared by record validation (import, sync, demo data) and
 * the API's filter parameters, so the two can never disagree about what a
 * date, a coordinate or a salary is.
 *
 * Each rule is a predicate plus the sentence to show when it fails; the zod
 * schemas in `schemas.ts` and `routes/_api_params.ts` attach them with
 * `.refine(rule.test, rule.message)`.
 *
 * @module
 */

/** A named predicate over one value and the message shown when it fails. */
export interface ValueRule<T> {
  /** True when the value is acceptable. */
  test: (value: T) => boolean;
  /** Why a value was refused, as a sentence fragment ("not a real calendar date"). */
  message: string;
}

/** Largest salary amount accepted (exclusive): ten integer digits, like Django's `max_digits=12, decimal_places=2`. */
export const SALARY_LIMIT = 1e10;

const DATE_PARTS = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME_PARTS = /^(\d{2}):(\d{2}):(\d{2})\.\d{6}$/;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Whether `YYYY-MM-DD` names a real day (years 0001-9999, as Python's `date`; leap years counted). */
function isCalendarDate(s: string): boolean {
  const m = DATE_PARTS.exec(s);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/**
 * A real calendar date written `YYYY-MM-DD`.
 *
 * @example
 * ```ts
 * calendarDate.test("2024-02-29"); // true
 * calendarDate.test("2024-02-30"); // false
 * ```
 */
export const calendarDate: ValueRule<string> = {
  test: isCalendarDate,
  message: "not a real calendar date (YYYY-MM-DD, month 01-12, day within the month)",
};

/**
 * A local timestamp `YYYY-MM-DDTHH:MM:SS.ffffff` as the API prints it: a real
 * date, hours 00-23, minutes and seconds 00-59, exactly six fraction digits.
 *
 * @example
 * ```ts
 * timestamp.test("2024-02-29T23:59:59.999999"); // true
 * timestamp.test("9999-99-99T99:99:99.999999"); // false
 * ```
 */
export const timestamp: ValueRule<string> = {
  test: (s) => {
    const t = s.indexOf("T");
    if (t < 0 || !isCalendarDate(s.slice(0, t))) return false;
    const m = TIME_PARTS.exec(s.slice(t + 1));
    return m !== null && Number(m[1]) <= 23 && Number(m[2]) <= 59 && Number(m[3]) <= 59;
  },
  message: "not a real date and time (YYYY-MM-DDTHH:MM:SS.ffffff, hours 00-23, minutes 00-59)",
};

/**
 * A latitude in decimal degrees, -90 to 90.
 *
 * @example
 * ```ts
 * latitude.test(90); // true
 * ```
 */
export const latitude: ValueRule<number> = {
  test: (n) => Number.isFinite(n) && n >= -90 && n <= 90,
  message: "latitude must be between -90 and 90 degrees",
};

/**
 * A longitude in decimal degrees, -180 to 180.
 *
 * @example
 * ```ts
 * longitude.test(-180); // true
 * ```
 */
export const longitude: ValueRule<number> = {
  test: (n) => Number.isFinite(n) && n >= -180 && n <= 180,
  message: "longitude must be between -180 and 180 degrees",
};

/**
 * A salary amount: not negative, below {@linkcode SALARY_LIMIT}, at most two
 * fraction digits (the API prints exactly two).
 *
 * @example
 * ```ts
 * salaryAmount.test("0.00"); // true
 * salaryAmount.test("-1.00"); // false
 * ```
 */
export const salaryAmount: ValueRule<string> = {
  test: (s) => {
    const m = /^\+?(?=\.?\d)(\d*)(?:\.\d{0,2})?$/.exec(s.trim());
    return m !== null && Number(m[1]) < SALARY_LIMIT;
  },
  message: "a salary must be a non-negative amount below 10000000000 with at most 2 decimals",
};

/**
 * A decimal-degrees string of a record's coordinate field: empty (no
 * location), or a number within `rule`'s range.
 */
export function coordinateText(rule: ValueRule<number>): ValueRule<string> {
  return { test: (s) => s === "" || rule.test(Number(s)), message: rule.message };
}
