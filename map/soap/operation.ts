/**
 * The contract between the SOAP layer and its handlers: a handler gets the
 * decoded request element (plain objects) and returns the children of the
 * response element in the same convention. The operations themselves take
 * typed requests (map/ops/types.ts); `handlers.ts` adapts them.
 *
 * @module
 */
import type { MapFrame, MapLayer, MapService, OperationContext } from "../ops/types.ts";

export type { MapFrame, MapLayer, MapService, OperationContext };

/**
 * One SOAP operation.
 *
 * @example
 * ```ts
 * const getMapCount: OperationHandler = (_req, ctx) => ({ Result: ctx.service.maps.length });
 * ```
 */
export type OperationHandler = (
  req: Record<string, unknown>,
  ctx: OperationContext,
) => Record<string, unknown> | Promise<Record<string, unknown>>;

/** Operation name (request element local name) -> handler. */
export type OperationTable = Readonly<Record<string, OperationHandler>>;
