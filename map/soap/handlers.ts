/**
 * The MapServer operations as SOAP handlers: each typed operation of
 * map/ops behind the reader of its request (see `_requests.ts`), its result
 * written as the response's `Result` element.
 *
 * @module
 */
import type { Operation } from "../ops/types.ts";
import { DRAW_OPERATIONS, METADATA_OPERATIONS, QUERY_OPERATIONS } from "../ops/mod.ts";
import type { OperationHandler, OperationTable } from "./operation.ts";
import { METADATA_REQUESTS, type RequestReader } from "./_requests.ts";

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
): OperationHandler {
  return async (raw, ctx) => ({ Result: await op(read(raw), ctx) });
}

function typedHandlers<T extends object>(
  ops: T,
  readers: { [K in keyof T]: RequestReader<unknown> },
): OperationTable {
  const out: Record<string, OperationHandler> = {};
  for (const name of Object.keys(ops) as (keyof T & string)[]) {
    out[name] = soapHandler(ops[name] as Operation<unknown, unknown>, readers[name]);
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
  ...QUERY_OPERATIONS,
  ...DRAW_OPERATIONS,
});
