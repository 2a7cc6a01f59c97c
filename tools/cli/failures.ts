/**
 * The failures a user can fix, as one line on stderr instead of a stack
 * trace: a database that cannot be opened, a bad map document, a port in
 * use or not allowed.
 *
 * @module
 */
import { CatalogOpenError } from "../../data/mod.ts";
import { MapDocumentError } from "../../map/document/mod.ts";

/**
 * The one line saying why a command could not start (`Cannot start: ...`),
 * or undefined when `err` is not such a failure (a bug: let it show its stack).
 *
 * @example
 * ```ts
 * startFailure(new Deno.errors.AddrInUse("Address already in use")); // "Cannot start: ..."
 * ```
 */
export function startFailure(err: unknown): string | undefined {
  if (err instanceof CatalogOpenError || err instanceof MapDocumentError) {
    return `Cannot start: ${err.message}`;
  }
  if (err instanceof Deno.errors.AddrInUse || err instanceof Deno.errors.AddrNotAvailable) {
    return `Cannot start: ${err.message}; another process holds that address, choose another --port or --host.`;
  }
  if (err instanceof Deno.errors.PermissionDenied) {
    // A file names its path ("open '...'"); a port refused does not.
    return err.message.includes("'")
      ? `Cannot start: ${err.message}`
      : `Cannot start: ${err.message} (ports below 1024 need privileges; choose --port 1024 or above).`;
  }
  if (isSqliteError(err)) return `Cannot start: ${(err as Error).message}.`;
  // A file or folder that cannot be made or read (node:fs: "EEXIST: file already exists, mkdir 'x'").
  if (err instanceof Error && "syscall" in err && /^E[A-Z]+$/.test(String(_code(err)))) {
    return `Cannot start: ${err.message}`;
  }
  return undefined;
}

/**
 * Errors of SQLite itself (full disk, I/O, read-only file, not a database).
 *
 * @example
 * ```ts
 * isSqliteError(new Error("x")); // false
 * ```
 */
export function isSqliteError(err: unknown): boolean {
  return _code(err) === "ERR_SQLITE_ERROR";
}

function _code(err: unknown): unknown {
  return (err as { code?: unknown })?.code;
}
