/**
 * The MapServer operation table: every implemented operation's handler by
 * name, merged from the metadata, query and drawing modules.
 *
 * @module
 */
import type { OperationTable } from "../soap/operation.ts";
import { METADATA_OPERATIONS } from "./metadata.ts";
import { queryOperations } from "./query.ts";
import { DRAW_OPERATIONS } from "./draw.ts";

export { DEFAULT_LIMITS, type ServiceLimits, serviceLimits } from "./metadata.ts";

/**
 * All MapServer operation handlers.
 *
 * @example
 * ```ts
 * const handler = MAPSERVER_OPERATIONS["GetMapCount"];
 * ```
 */
export const MAPSERVER_OPERATIONS: OperationTable = Object.freeze({
  ...METADATA_OPERATIONS,
  ...queryOperations,
  ...DRAW_OPERATIONS,
});
