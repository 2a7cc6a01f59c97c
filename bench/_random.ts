/**
 * A seeded random source for the benchmarks, so two runs send the same
 * requests and build the same data.
 *
 * @module
 */

/**
 * Deterministic PRNG (mulberry32): numbers in [0, 1) from a 32-bit seed.
 *
 * @example
 * ```ts
 * import { prng } from "./_random.ts";
 * const random = prng(42);
 * random(); // the same first number on every run
 * ```
 */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
