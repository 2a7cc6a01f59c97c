/**
 * Tiny numeric assertion shared by the geo tests.
 *
 * @module
 */
import { AssertionError } from "node:assert/strict";

/**
 * Fails unless |actual − expected| ≤ tolerance.
 *
 * @example
 * ```ts
 * assertAlmostEquals(0.1 + 0.2, 0.3, 1e-12);
 * ```
 */
export function assertAlmostEquals(actual: number, expected: number, tolerance: number): void {
  if (!(Math.abs(actual - expected) <= tolerance)) {
    throw new AssertionError({
      message: `Expected ${actual} to be within ${tolerance} of ${expected} (off by ${
        Math.abs(actual - expected)
      }).`,
      actual,
      expected,
    });
  }
}
