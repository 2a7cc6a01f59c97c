/**
 * WMTS 1.0.0 for cached maps, at ArcGIS Server's URL
 * `/arcgis/rest/services/{Service}/MapServer/WMTS`: GetCapabilities and
 * GetTile in KVP (`?SERVICE=WMTS&REQUEST=GetTile&...`) and RESTful
 * (`/WMTS/1.0.0/WMTSCapabilities.xml`,
 * `/WMTS/tile/1.0.0/{Layer}/{Style}/{TileMatrixSet}/{TileMatrix}/{TileRow}/{TileCol}.png`)
 * encodings, answered from the same tile stores as the REST `/tile` URLs.
 * Failures are OWS 1.1 exception reports with the standard codes. A face
 * beside the others: it uses the neutral front and the tile caches only.
 *
 * @module
 */
import type { MapServer } from "../mod.ts";
import type { MapFrame, MapService } from "../ops/types.ts";
import { frameTiling, tileMapOf, TileNotFoundError } from "../tiles/mod.ts";
import { tileMime } from "../tiles/cache.ts";
import { markup } from "../markup.ts";
import { type TileMatrixSet, tileMatrixSets } from "./_matrix.ts";
import { capabilitiesXml, type WmtsLayer } from "./_capabilities.ts";

export { tileMatrixSets } from "./_matrix.ts";

/** A WMTS request as the route hands it over. */
export interface WmtsRequest {
  /** The service named in the path. */
  service: string;
  /** Path segments after `/WMTS` (decoded), e.g. `["1.0.0", "WMTSCapabilities.xml"]`. */
  path: string[];
  query: URLSearchParams;
  /** Public base URL of the request (`http://host:port`). */
  baseUrl: string;
}

/** What the face answers. */
export interface WmtsReply {
  status: number;
  contentType: string;
  body: string | Uint8Array;
  /** Set for tiles: their strong ETag. */
  etag?: string;
}

/** An OWS exception: its code, the parameter at fault and the HTTP status. */
export class WmtsException extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly locator?: string,
    readonly status = 400,
  ) {
    super(message);
    this.name = "WmtsException";
  }
}

const XML = "text/xml; charset=utf-8";

function exceptionReport(e: WmtsException): WmtsReply {
  const body = `<?xml version="1.0" encoding="UTF-8"?>
${markup`<ows:ExceptionReport xmlns:ows="http://www.opengis.net/ows/1.1" version="1.1.0" xml:lang="en"><ows:Exception exceptionCode="${e.code}"${
    e.locator ? markup` locator="${e.locator}"` : ""
  }><ows:ExceptionText>${e.message}</ows:ExceptionText></ows:Exception></ows:ExceptionReport>
`}`;
  return { status: e.status, contentType: XML, body };
}

/** One WMTS layer: a cached map with its tiling, matrix sets and tile type. */
interface CachedLayer {
  frame: MapFrame;
  identifier: string;
  tiling: NonNullable<ReturnType<typeof frameTiling>>;
  sets: TileMatrixSet[];
  mime: string;
}

/** The layers of a service: its cached maps, the tile URLs' map named after the service. */
function cachedLayers(service: MapService): CachedLayer[] {
  const main = tileMapOf(service);
  return service.maps.flatMap((frame) => {
    const tiling = frameTiling(frame);
    if (!tiling) return [];
    return [{
      frame,
      identifier: frame === main ? service.name : frame.name,
      tiling,
      sets: tileMatrixSets(tiling.scheme),
      mime: tileMime(tiling.format),
    }];
  });
}

/** Query parameters by lower-case name (WMTS KVP names are case-insensitive). */
function kvp(query: URLSearchParams): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of query) if (!out.has(k.toLowerCase())) out.set(k.toLowerCase(), v);
  return out;
}

function required(p: Map<string, string>, name: string): string {
  const v = p.get(name.toLowerCase());
  if (v === undefined || v === "") {
    throw new WmtsException("MissingParameterValue", `${name} is required.`, name);
  }
  return v;
}

function index(text: string, name: string): number {
  if (!/^\d{1,9}$/.test(text)) {
    throw new WmtsException(
      "InvalidParameterValue",
      `${name} must be a whole number, got "${text}".`,
      name,
    );
  }
  return Number(text);
}

/** The tile request's parts, from either encoding. */
interface TileAddress {
  layer: string;
  style: string;
  set: string;
  matrix: string;
  row: string;
  col: string;
  format?: string;
}

/**
 * Builds the WMTS face over a map server.
 *
 * @example
 * ```ts ignore
 * const wmts = createWmtsFace(maps);
 * const reply = await wmts.handle({ service: "World", path: ["1.0.0", "WMTSCapabilities.xml"], query, baseUrl });
 * ```
 */
export function createWmtsFace(maps: MapServer): { handle(r: WmtsRequest): Promise<WmtsReply> } {
  // A server's services and their maps are fixed: the layers are worked out once per service.
  const known = new WeakMap<MapService, CachedLayer[]>();
  function layersOf(service: MapService): CachedLayer[] {
    let layers = known.get(service);
    if (!layers) known.set(service, layers = cachedLayers(service));
    return layers;
  }

  function capabilities(service: MapService, url: string): WmtsReply {
    const layers: WmtsLayer[] = layersOf(service).map((l) => ({
      identifier: l.identifier,
      title: l.frame.name === l.identifier ? l.frame.name : `${service.name} (${l.frame.name})`,
      abstract: service.description ?? "",
      extent: l.frame.fullExtent,
      wkid: l.tiling.scheme.wkid,
      format: l.mime,
      sets: l.sets,
    }));
    return {
      status: 200,
      contentType: XML,
      body: capabilitiesXml({
        title: service.name,
        abstract: service.description ?? "",
        url,
        layers,
      }),
    };
  }

  async function tile(service: MapService, a: TileAddress): Promise<WmtsReply> {
    const layer = layersOf(service).find((l) => l.identifier === a.layer);
    if (!layer) {
      throw new WmtsException(
        "InvalidParameterValue",
        `Layer "${a.layer}" is not offered; the layers are: ${
          layersOf(service).map((l) => l.identifier).join(", ")
        }.`,
        "LAYER",
      );
    }
    if (a.style !== "" && a.style !== "default") {
      throw new WmtsException(
        "InvalidParameterValue",
        `Style "${a.style}" is not offered; the only style is "default".`,
        "STYLE",
      );
    }
    const { sets, mime } = layer;
    const set = sets.find((s) => s.identifier === a.set);
    if (!set) {
      throw new WmtsException(
        "InvalidParameterValue",
        `TileMatrixSet "${a.set}" is not offered; use ${
          sets.map((s) => s.identifier).join(" or ")
        }.`,
        "TILEMATRIXSET",
      );
    }
    if (a.format !== undefined && a.format !== mime) {
      throw new WmtsException(
        "InvalidParameterValue",
        `Format "${a.format}" is not offered; the tiles are ${mime}.`,
        "FORMAT",
      );
    }
    const matrix = set.matrices.find((m) => m.identifier === a.matrix);
    if (!matrix) {
      throw new WmtsException(
        "InvalidParameterValue",
        `TileMatrix "${a.matrix}" is not in ${set.identifier} (${set.matrices[0].identifier}-${
          set.matrices.at(-1)!.identifier
        }).`,
        "TILEMATRIX",
      );
    }
    const row = index(a.row, "TILEROW"), col = index(a.col, "TILECOL");
    if (row >= matrix.matrixHeight || col >= matrix.matrixWidth) {
      throw new WmtsException(
        "TileOutOfRange",
        `Tile row ${row}, column ${col} is outside TileMatrix ${matrix.identifier} (rows 0-${
          matrix.matrixHeight - 1
        }, columns 0-${matrix.matrixWidth - 1}).`,
        row >= matrix.matrixHeight ? "TILEROW" : "TILECOL",
      );
    }
    const cache = maps.tiles.cacheFor(service, layer.frame);
    if (!cache) throw new Error(`map ${layer.frame.name} lost its tile cache`);
    try {
      const t = cache.lookup(matrix.level, row, col) ??
        await cache.tile(matrix.level, row, col);
      return { status: 200, contentType: t.mime, body: t.data, etag: t.etag };
    } catch (e) {
      if (e instanceof TileNotFoundError) {
        throw new WmtsException("TileOutOfRange", e.message, "TILEROW");
      }
      throw e;
    }
  }

  async function handle(r: WmtsRequest): Promise<WmtsReply> {
    const service = maps.service(r.service);
    if (!service) {
      throw new WmtsException(
        "InvalidParameterValue",
        `Service "${r.service}" does not exist.`,
        undefined,
        404,
      );
    }
    if (layersOf(service).length === 0) {
      throw new WmtsException(
        "OperationNotSupported",
        `Service "${service.name}" has no tile cache; WMTS serves cached maps only (use the WMS or the REST export).`,
        undefined,
        404,
      );
    }
    const url = `${r.baseUrl}/arcgis/rest/services/${
      encodeURIComponent(service.name)
    }/MapServer/WMTS`;
    const path = r.path.filter((p) => p !== "");
    if (path.length === 2 && path[0] === "1.0.0" && path[1] === "WMTSCapabilities.xml") {
      return capabilities(service, url);
    }
    if (path.length === 8 && path[0] === "tile" && path[1] === "1.0.0") {
      const [, , layer, style, set, matrix, row, colFile] = path;
      const m = /^(\d+)(?:\.(png|jpg|jpeg))?$/i.exec(colFile);
      return await tile(service, { layer, style, set, matrix, row, col: m ? m[1] : colFile });
    }
    if (path.length > 0) {
      throw new WmtsException(
        "InvalidParameterValue",
        "Unknown WMTS resource; the RESTful ones are /1.0.0/WMTSCapabilities.xml and " +
          "/tile/1.0.0/{Layer}/{Style}/{TileMatrixSet}/{TileMatrix}/{TileRow}/{TileCol}.png.",
        undefined,
        404,
      );
    }
    const p = kvp(r.query);
    if (p.size === 0) return capabilities(service, url);
    const kind = p.get("service");
    if (kind !== undefined && kind.toUpperCase() !== "WMTS") {
      throw new WmtsException(
        "InvalidParameterValue",
        `SERVICE must be WMTS, got "${kind}".`,
        "SERVICE",
      );
    }
    const version = p.get("version") ?? p.get("acceptversions");
    if (version !== undefined && !version.split(",").includes("1.0.0")) {
      throw new WmtsException(
        "VersionNegotiationFailed",
        `Only WMTS 1.0.0 is offered, got "${version}".`,
        "VERSION",
      );
    }
    const request = required(p, "REQUEST");
    switch (request.toLowerCase()) {
      case "getcapabilities":
        return capabilities(service, url);
      case "gettile":
        return await tile(service, {
          layer: required(p, "LAYER"),
          style: p.get("style") ?? "",
          set: required(p, "TILEMATRIXSET"),
          matrix: required(p, "TILEMATRIX"),
          row: required(p, "TILEROW"),
          col: required(p, "TILECOL"),
          format: required(p, "FORMAT"),
        });
      default:
        throw new WmtsException(
          "OperationNotSupported",
          `REQUEST "${request}" is not offered; use GetCapabilities or GetTile.`,
          "REQUEST",
          501,
        );
    }
  }

  return {
    async handle(r) {
      try {
        return await handle(r);
      } catch (e) {
        if (e instanceof WmtsException) return exceptionReport(e);
        throw e;
      }
    },
  };
}
