/**
 * The MapServer operations as SOAP handlers: each typed operation of
 * map/ops behind the reader of its request (`_requests.ts`) and the writer
 * of its result (`_write_*.ts`), which gives the response element's children
 * (most have one, `Result`).
 *
 * @module
 */
import type { Operation } from "../ops/types.ts";
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
import { imageToSoap, legendInfosToSoap, mapImageToSoap } from "./_write_images.ts";
import { propertySetToSoap } from "./_write_fields.ts";
import {
  cacheControlInfoToSoap,
  serverInfoToSoap,
  sqlSyntaxToSoap,
  tileCacheInfoToSoap,
  tileImageInfoToSoap,
} from "./_write_metadata.ts";
import {
  fidSetToSoap,
  findResultsToSoap,
  hyperlinksToSoap,
  identifyResultsToSoap,
  mapPointsToSoap,
  queryResultToSoap,
  recordSetToSoap,
} from "./_write_query.ts";

/** Writes a typed result as the children of the response element. */
export type ResultWriter<Res> = (result: Res) => Record<string, unknown>;

/** Most responses carry one child, `Result`; simple values (numbers, text, bytes) go in as they are. */
const asResult: ResultWriter<unknown> = (result) => ({ Result: result });

/** A writer of the `Result` element from a typed result. */
function result<Res>(write: (r: Res) => unknown): ResultWriter<Res> {
  return (r) => ({ Result: write(r) });
}

/** The result type of an operation. */
type ResultOf<O> = O extends Operation<never, infer Res> ? Res : never;

/** Writers of the operations whose results are not simple values, by operation name. */
type Writers<T> = { [K in keyof T]?: ResultWriter<ResultOf<T[K]>> };

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
  writers: Writers<T> = {},
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
  ...typedHandlers(METADATA_OPERATIONS, METADATA_REQUESTS, {
    GetDocumentInfo: result(propertySetToSoap),
    GetServerInfo: result(serverInfoToSoap),
    GetSQLSyntaxInfo: result(sqlSyntaxToSoap),
    GetServiceConfigurationInfo: result(propertySetToSoap),
  }),
  ...typedHandlers(LAYER_QUERY_OPERATIONS, LAYER_QUERY_REQUESTS, {
    QueryFeatureIDs: result(fidSetToSoap),
    QueryFeatureData: result(recordSetToSoap),
    QueryFeatureIDs2: result(fidSetToSoap),
    QueryFeatureData2: result(queryResultToSoap),
  }),
  ...typedHandlers(SEARCH_OPERATIONS, SEARCH_REQUESTS, {
    Find: result(findResultsToSoap),
    Identify: result(identifyResultsToSoap),
    QueryHyperlinks: result(hyperlinksToSoap),
  }),
  ...typedHandlers(COORDINATE_OPERATIONS, COORDINATE_REQUESTS, {
    ToMapPoints: result(mapPointsToSoap),
    // FromMapPoints answers with two elements of its own, not one Result.
    FromMapPoints: (pixels) => ({
      ScreenXValues: pixels.map((p) => p[0]),
      ScreenYValues: pixels.map((p) => p[1]),
    }),
  }),
  ...typedHandlers(DRAW_OPERATIONS, DRAW_REQUESTS, {
    ExportMapImage: result(mapImageToSoap),
    ExportScaleBar: result(imageToSoap),
    GetLegendInfo: result(legendInfosToSoap),
    GetLegendInfo2: result(legendInfosToSoap),
  }),
  ...typedHandlers(TILE_OPERATIONS, TILE_REQUESTS, {
    GetTileCacheInfo: result(tileCacheInfoToSoap),
    GetTileImageInfo: result(tileImageInfoToSoap),
    GetCacheControlInfo: result(cacheControlInfoToSoap),
  }),
});
