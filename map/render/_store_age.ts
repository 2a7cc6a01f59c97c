/**
 * Which of two geometry stores of the same data is current, when stores
 * built by different workers reach a thread in any order.
 *
 * A store's revision is the source's opaque revision text, which has no
 * order. What orders them is when their builds began: every worker reads
 * the same files, and a change committed before a build began is seen by
 * it, so a build that began later read the same or newer data.
 *
 * @module
 */

/** What the order needs of a store. */
export interface StoreAge {
  revision: string;
  /** When its build began: ms since the epoch, sub-millisecond (see {@link buildStart}). */
  startedAt: number;
}

/**
 * The time a build begins, comparable across the threads of a process.
 *
 * @example
 * ```ts
 * import { buildStart } from "./_store_age.ts";
 * const store = { revision: "7", startedAt: buildStart() };
 * ```
 */
export function buildStart(): number {
  return performance.timeOrigin + performance.now();
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
