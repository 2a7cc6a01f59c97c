/**
 * Which of two geometry stores of the same data is current, when stores
 * built by different workers reach a thread in any order.
 *
 * A store's revision is the source's opaque revision text, which has no
 * order. What orders them is when their builds began: every worker reads
 * the same files, and a change committed before a build began is seen by
 * it, so a build that began later read the same or newer data. "When" is a
 * ticket from a counter the pool shares with its workers (not a clock, which
 * differs per thread and may step back).
 *
 * @module
 */

let shared: Int32Array | null = null;
let local = 0;

/**
 * Takes build tickets from a counter shared by all threads of a pool (a
 * 4-byte `SharedArrayBuffer` the pool hands each worker); without one, from
 * this thread's own counter.
 *
 * @example
 * ```ts
 * import { useBuildCounter } from "./_store_age.ts";
 * useBuildCounter(new SharedArrayBuffer(4));
 * ```
 */
export function useBuildCounter(buffer: SharedArrayBuffer): void {
  shared = new Int32Array(buffer, 0, 1);
}

/** What the order needs of a store. */
export interface StoreAge {
  revision: string;
  /** When its build began: a ticket from {@link buildStart}. */
  startedAt: number;
}

/**
 * A ticket for a build that begins now: larger than every ticket taken
 * before it by any thread sharing the counter.
 *
 * @example
 * ```ts
 * import { buildStart } from "./_store_age.ts";
 * const store = { revision: "7", startedAt: buildStart() };
 * ```
 */
export function buildStart(): number {
  return shared ? Atomics.add(shared, 0, 1) + 1 : ++local;
}

/**
 * Whether `incoming` may replace `held`, a store of the same data: the same
 * revision, or a build that began no earlier (so it is not older data
 * arriving late).
 *
 * @example
 * ```ts
 * import { supersedes } from "./_store_age.ts";
 * supersedes({ revision: "8", startedAt: 2 }, { revision: "7", startedAt: 1 }); // true
 * supersedes({ revision: "7", startedAt: 1 }, { revision: "8", startedAt: 2 }); // false
 * ```
 */
export function supersedes(incoming: StoreAge, held: StoreAge): boolean {
  return incoming.revision === held.revision || incoming.startedAt >= held.startedAt;
}
