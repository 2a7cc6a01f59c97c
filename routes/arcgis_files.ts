/**
 * HTTP files of the map server:
 *
 * - `GET /arcgis/rest/services/{Service}/MapServer/tile/{level}/{row}/{col}`:
 *   tiles of the service's cached map (its default map when that is
 *   cached, else the first cached one), ArcGIS REST style;
 * - `GET /arcgis/rest/services/{Service}/MapServer/tile/{Map}/_alllayers/...`:
 *   the virtual cache directory GetVirtualCacheDirectory returns, with
 *   exploded-cache names (`L03/R00000002/C00000005.png`) or `3/2/5`;
 * - `GET /arcgis/rest/directories/arcgisoutput/{Service}_MapServer/{file}`:
 *   images ExportMapImage, ExportScaleBar and the legends returned by URL.
 *
 * Tiles carry a strong ETag (content hash) and Cache-Control, and answer
 * `If-None-Match` with 304 (the router's). Paths match case-insensitively,
 * as ArcGIS's do. Other methods on these paths are the REST routes' to answer.
 *
 * @module
 */
import { join } from "node:path";
import type { MapServer } from "../map/mod.ts";
import { tileMapOf, TileNotFoundError } from "../map/tiles/mod.ts";
import { type Face, type Route, route, type RouteHandler } from "./router.ts";
import { ARCGIS_REST_FACE, restError } from "./arcgis_rest.ts";
import { mimeOfExtension } from "../map/render/mod.ts";

/** What the file routes need from the application. */
export interface ArcgisFilesContext {
  maps: MapServer;
  /** The map server's output directory (images returned by URL). */
  outputDir: string;
  /**
   * Cache-Control max-age of tiles in seconds (default 300: tiles show live competitions,
   * and the strong ETag makes revalidation after that a cheap 304).
   */
  tileMaxAge?: number;
}

// Images take their type from the table their writer names them by.
const MIME: Record<string, string> = {
  json: "application/json",
  kmz: "application/vnd.google-earth.kmz",
};

/** ArcGIS REST's error, never cached. */
function errorJson(status: number, message: string): Response {
  const res = restError(status, message);
  res.headers.set("cache-control", "no-store");
  return res;
}

/**
 * The REST tree's refusals (these routes lie over it), with a malformed
 * path answered like the files' other errors.
 */
const FILES_FACE: Face = {
  ...ARCGIS_REST_FACE,
  badPath: (_req, _url, message) => errorJson(400, message),
};

/** Reads `3` or `L03` (decimal), `2` or `R00000002` / `C0000000a` (hex) path parts. */
function tileIndex(part: string, prefix: "L" | "R" | "C"): number | null {
  const p = part.replace(/\.[a-z0-9]+$/i, "");
  if (/^\d{1,9}$/.test(p)) return Number(p);
  const m = new RegExp(`^${prefix}([0-9a-f]{1,8})$`, "i").exec(p);
  if (!m) return null;
  return prefix === "L" ? Number.parseInt(m[1], 10) : Number.parseInt(m[1], 16);
}

/**
 * The file routes of the map server.
 *
 * @example
 * ```ts
 * import type { MapServer } from "../map/mod.ts";
 * import { arcgisRoutes, type ArcgisRoutesContext } from "./arcgis.ts";
 * declare const maps: MapServer, ctx: ArcgisRoutesContext;
 * const routes = [...arcgisRoutes(ctx), ...arcgisFileRoutes({ maps, outputDir: "var/output" })];
 * ```
 */
export function arcgisFileRoutes(ctx: ArcgisFilesContext): Route[] {
  const maxAge = ctx.tileMaxAge ?? 300;

  async function serveTile(
    req: Request,
    serviceName: string,
    mapName: string | null,
    parts: [string, string, string],
  ): Promise<Response> {
    const service = ctx.maps.service(serviceName);
    if (!service) return errorJson(404, `Service "${serviceName}" does not exist.`);
    const frames = service.maps;
    const frame = mapName !== null
      ? frames.find((m) => m.name.toLowerCase() === mapName.toLowerCase())
      : tileMapOf(service);
    if (!frame) {
      return errorJson(
        404,
        mapName !== null
          ? `Map "${mapName}" does not exist.`
          : `Service "${service.name}" has no tile cache.`,
      );
    }
    const cache = ctx.maps.tiles.cacheFor(
      service,
      frame,
    );
    if (!cache) return errorJson(404, `Map "${frame.name}" has no tile cache.`);
    const level = tileIndex(parts[0], "L"),
      row = tileIndex(parts[1], "R"),
      col = tileIndex(parts[2], "C");
    if (level === null || row === null || col === null) {
      return errorJson(
        400,
        "Tile addresses are /{level}/{row}/{col} (or L{nn}/R{8 hex}/C{8 hex}.png).",
      );
    }
    try {
      cache.check(level, row, col);
      // A stored tile answers a conditional request without reading its bytes twice.
      const t = cache.lookup(level, row, col) ?? await cache.tile(level, row, col);
      return new Response(req.method === "HEAD" ? null : t.data as Uint8Array<ArrayBuffer>, {
        status: 200,
        headers: {
          "etag": t.etag,
          "cache-control": `public, max-age=${maxAge}`,
          "content-type": t.mime,
        },
      });
    } catch (e) {
      if (e instanceof TileNotFoundError) return errorJson(404, e.message);
      throw e;
    }
  }

  const tile: RouteHandler = (req, m) => {
    const g = m.pathname.groups;
    return serveTile(req, g.service!, g.map ?? null, [g.level!, g.row!, g.col!]);
  };
  const file: RouteHandler = async (req, m) => {
    const { dir, file } = m.pathname.groups as { dir: string; file: string };
    // Only names this server writes: no separators, no dot segments.
    if (!/^[\w.-]+_MapServer$/.test(dir) || !/^_ags_[\w]+\.[a-z0-9]+$/i.test(file)) {
      return errorJson(404, "No such output file.");
    }
    try {
      const data = await Deno.readFile(join(ctx.outputDir, dir, file));
      const ext = file.slice(file.lastIndexOf(".") + 1).toLowerCase();
      return new Response(req.method === "HEAD" ? null : data, {
        headers: {
          "content-type": mimeOfExtension(ext) ?? MIME[ext] ?? "application/octet-stream",
          "cache-control": "private, max-age=600",
        },
      });
    } catch (e) {
      if (e instanceof Deno.errors.NotFound) {
        return errorJson(404, "The output file has expired or never existed.");
      }
      throw e;
    }
  };
  // GET and HEAD only; other methods go on to the REST routes below, which own the tree.
  const common = { ignoreCase: true, face: FILES_FACE, overlay: true } as const;
  return [
    route({
      ...common,
      path: "/arcgis/rest/services/:service/MapServer/tile/:level(\\d+)/:row(\\d+)/:col(\\d+)",
      decode: ["service"],
      conditional: true,
      methods: { GET: tile, HEAD: tile },
    }),
    route({
      ...common,
      path: "/arcgis/rest/services/:service/MapServer/tile/:map/_alllayers/:level/:row/:col",
      decode: ["service", "map"],
      conditional: true,
      methods: { GET: tile, HEAD: tile },
    }),
    route({
      ...common,
      path: "/arcgis/rest/directories/arcgisoutput/:dir/:file",
      decode: ["dir", "file"],
      methods: { GET: file, HEAD: file },
    }),
  ];
}
