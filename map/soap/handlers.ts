/**
 * The MapServer operations as SOAP handlers: each typed operation of
 * map/ops behind the reader of its request (see `_requests.ts`), its result
 * written as the response's `Result` element.
 *
 * @module
 */
import type { Operation, ScreenPoints } from "../ops/types.ts";
import {
  COORDINATE_OPERATIONS,
  DRAW_OPERATIONS,
  LAYER_QUERY_OPERATIONS,
  METADATA_OPERATIONS,
  SEARCH_OPERATIONS,
  TILE_OPERATIONS,
} from "../ops/mod.ts";
import type { OperationHandler, OperationTable } from "./operation.ts";
import {
  COORDINATE_REQUESTS,
  DRAW_REQUESTS,
  LAYER_QUERY_REQUESTS,
  METADATA_REQUESTS,
  type RequestReader,
  SEARCH_REQUESTS,
  TILE_REQUESTS,
} from "./_requests.ts";

/** Writes a typed result as the children of the response element. */
export type ResultWriter<Res> = (result: Res) => Record<string, unknown>;

/** Most responses carry one child, `Result`. */
const asResult: ResultWriter<unknown> = (result) => ({ Result: result });

/**
 * A SOAP handler for a typed operation.
 *
 * @example
 * ```ts
 * import { METADATA_OPERATIONS } from "../ops/mod.ts";
 * const handler = soapHandler(METADATA_OPERATIONS.GetMapCount, () => ({}));
 * ```
 */
export function soapHandler<Req, Res>(
  op: Operation<Req, Res>,
  read: RequestReader<Req>,
  write: ResultWriter<Res> = asResult,
): OperationHandler {
  return async (raw, ctx) => write(await op(read(raw), ctx));
}

function typedHandlers<T extends object>(
  ops: T,
  readers: { [K in keyof T]: RequestReader<unknown> },
  writers: { [K in keyof T]?: ResultWriter<never> } = {},
): OperationTable {
  const out: Record<string, OperationHandler> = {};
  for (const name of Object.keys(ops) as (keyof T & string)[]) {
    const write = (writers[name] ?? asResult) as ResultWriter<unknown>;
    out[name] = soapHandler(ops[name] as Operation<unknown, unknown>, readers[name], write);
  }
  return out;
}

/**
 * Every implemented MapServer operation's SOAP handler, by operation name.
 *
 * @example
 * ```ts
 * const handler = MAPSERVER_HANDLERS["GetMapCount"];
 * ```
 */
export const MAPSERVER_HANDLERS: OperationTable = Object.freeze({
  ...typedHandlers(METADATA_OPERATIONS, METADATA_REQUESTS),
  ...typedHandlers(LAYER_QUERY_OPERATIONS, LAYER_QUERY_REQUESTS),
  ...typedHandlers(SEARCH_OPERATIONS, SEARCH_REQUESTS),
  // FromMapPoints answers with two elements of its own, not one Result.
  ...typedHandlers(COORDINATE_OPERATIONS, COORDINATE_REQUESTS, {
    FromMapPoints: (points: ScreenPoints) => ({ ...points }),
  }),
  ...typedHandlers(DRAW_OPERATIONS, DRAW_REQUESTS),
  ...typedHandlers(TILE_OPERATIONS, TILE_REQUESTS),
});
