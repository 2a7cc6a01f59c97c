/**
 * The contract between the SOAP layer and the operations: a handler gets
 * the decoded request (plain objects, see the team-brief convention) and
 * returns the children of the response element in the same convention.
 *
 * @module
 */
import type { MapFrame, MapLayer, MapService } from "../document/mod.ts";
import type { Renderer } from "../render/pool.ts";
import type { OutputFolder } from "../render/output.ts";
import type { TileCaches } from "../tiles/mod.ts";

export type { MapFrame, MapLayer, MapService };

/** What every operation may use besides its request. */
export interface OperationContext {
  /** The map service the request was sent to. */
  service: MapService;
  /** Absolute endpoint URL of the service (`.../arcgis/services/<Name>/MapServer`). */
  serviceUrl: string;
  /** Namespace of the request; responses are written in it. */
  namespace: string;
  /** Public base URL of the output directory (images returned by URL). */
  outputUrl: string;
  /** File-system directory behind `outputUrl`. */
  outputDir: string;
  /** Draws maps, scale bars and legend swatches. */
  renderer: Renderer;
  /** The server's tile caches. */
  tiles: TileCaches;
  /** Writes (and expires) images returned by URL. */
  output: OutputFolder;
}

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
