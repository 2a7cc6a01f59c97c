/**
 * Seeded pseudo-random numbers for tests over random input, so a failure
 * repeats with the same data.
 *
 * @module
 */

/**
 * Numbers in [0, 1) from a 32-bit seed (a linear congruential generator:
 * fast and repeatable; the tests need no statistical quality).
 *
 * @example
 * ```ts
 * import { seededRandom } from "./_random.ts";
 * const r = seededRandom(7);
 * r() === seededRandom(7)(); // true
 * ```
 */
export function seededRandom(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
