/**
 * The default connection cap, derived from the process's open-file limit so
 * that connections can never use up the descriptors SQLite, the render
 * workers and the exported images need.
 *
 * @module
 */

/** Cap used when the open-file limit cannot be read (non-Linux systems). */
export const FALLBACK_MAX_CONNECTIONS = 1000;
/** Upper bound of the derived cap, however high the open-file limit. */
export const MAX_DERIVED_CONNECTIONS = 10_000;

/**
 * The soft "Max open files" limit from the text of `/proc/self/limits`, or
 * undefined when it is absent or unlimited.
 *
 * @example
 * ```ts
 * openFileLimit("Max open files            1024                 4096                 files"); // 1024
 * ```
 */
export function openFileLimit(limitsText: string): number | undefined {
  const m = /^Max open files\s+(\d+|unlimited)\s/m.exec(limitsText);
  if (!m || m[1] === "unlimited") return undefined;
  return Number(m[1]);
}

/**
 * Connections allowed for an open-file soft limit: the limit minus a
 * reserve (a quarter of it, at most 256 descriptors) for the database,
 * workers, tiles and output files, between 16 and {@link MAX_DERIVED_CONNECTIONS}.
 *
 * @example
 * ```ts
 * maxConnectionsFor(1024); // 768
 * maxConnectionsFor(256); // 192
 * ```
 */
export function maxConnectionsFor(fileLimit: number | undefined): number {
  if (fileLimit === undefined) return FALLBACK_MAX_CONNECTIONS;
  const reserve = Math.min(256, Math.floor(fileLimit / 4));
  return Math.max(16, Math.min(MAX_DERIVED_CONNECTIONS, fileLimit - reserve));
}

/**
 * The default cap of this process: from `/proc/self/limits` on Linux,
 * {@link FALLBACK_MAX_CONNECTIONS} elsewhere.
 *
 * @example
 * ```ts
 * const cap = defaultMaxConnections();
 * ```
 */
export function defaultMaxConnections(): number {
  if (Deno.build.os !== "linux") return FALLBACK_MAX_CONNECTIONS;
  try {
    return maxConnectionsFor(openFileLimit(Deno.readTextFileSync("/proc/self/limits")));
  } catch {
    return FALLBACK_MAX_CONNECTIONS;
  }
}
