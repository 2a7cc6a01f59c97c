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
 * `If-None-Match` with 304. Paths match case-insensitively, as ArcGIS's do.
 *
 * @module
 */
import { join } from "node:path";
import type { MapServer } from "../map/mod.ts";
import { tileMapOf, TileNotFoundError } from "../map/tiles/mod.ts";
import { etagMatches } from "./_conditional.ts";
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

/** One route entry, in the shape the application router walks. */
export interface ArcgisFileRoute {
  pattern: URLPattern;
  method: string;
  handler: (req: Request, match: URLPatternResult) => Response | Promise<Response>;
}

// Images take their type from the table their writer names them by.
const MIME: Record<string, string> = {
  json: "application/json",
  kmz: "application/vnd.google-earth.kmz",
};

function errorJson(status: number, message: string): Response {
  // ArcGIS REST's error body.
  return new Response(JSON.stringify({ error: { code: status, message, details: [] } }), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
  });
}

const BAD_ESCAPE =
  "The request path contains an invalid percent-escape: escapes must encode UTF-8 (e.g. %C3%A9, not %FF).";

/** Decodes path parts; undefined when one holds an escape that is not UTF-8 (`%FF`). */
function decodeParts(...parts: string[]): string[] | undefined {
  try {
    return parts.map((p) => decodeURIComponent(p));
  } catch {
    return undefined;
  }
}

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
export function arcgisFileRoutes(ctx: ArcgisFilesContext): ArcgisFileRoute[] {
  const opts = { ignoreCase: true };
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
      const headers = {
        "etag": t.etag,
        "cache-control": `public, max-age=${maxAge}`,
        "content-type": t.mime,
      };
      if (etagMatches(req.headers.get("if-none-match"), t.etag)) {
        return new Response(null, { status: 304, headers });
      }
      return new Response(req.method === "HEAD" ? null : t.data as Uint8Array<ArrayBuffer>, {
        status: 200,
        headers,
      });
    } catch (e) {
      if (e instanceof TileNotFoundError) return errorJson(404, e.message);
      throw e;
    }
  }

  const rest = new URLPattern({
    pathname: "/arcgis/rest/services/:service/MapServer/tile/:level(\\d+)/:row(\\d+)/:col(\\d+)",
  }, opts);
  const virtual = new URLPattern({
    pathname: "/arcgis/rest/services/:service/MapServer/tile/:map/_alllayers/:level/:row/:col",
  }, opts);
  const output = new URLPattern(
    { pathname: "/arcgis/rest/directories/arcgisoutput/:dir/:file" },
    opts,
  );

  const routes: ArcgisFileRoute[] = [];
  for (const method of ["GET", "HEAD"]) {
    routes.push(
      {
        pattern: rest,
        method,
        handler: (req, m) => {
          const g = m.pathname.groups;
          const names = decodeParts(g.service!);
          if (!names) return errorJson(400, BAD_ESCAPE);
          return serveTile(req, names[0], null, [g.level!, g.row!, g.col!]);
        },
      },
      {
        pattern: virtual,
        method,
        handler: (req, m) => {
          const g = m.pathname.groups;
          const names = decodeParts(g.service!, g.map!);
          if (!names) return errorJson(400, BAD_ESCAPE);
          return serveTile(req, names[0], names[1], [g.level!, g.row!, g.col!]);
        },
      },
      {
        pattern: output,
        method,
        handler: async (req, m) => {
          const names = decodeParts(m.pathname.groups.dir!, m.pathname.groups.file!);
          if (!names) return errorJson(400, BAD_ESCAPE);
          const [dir, file] = names;
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
        },
      },
    );
  }
  return routes;
}
