/**
 * What the web map reads from the server, without the DOM or OpenLayers:
 * the shapes of the ArcGIS REST answers it uses (service JSON, legend,
 * identify; ArcGIS Server 10.3), the parameters of its requests, and the
 * competitions of a JSON API search page. Pure functions, so they are tested
 * in Deno (`_arcgis_test.ts`) and bundled for the browser alike.
 *
 * @module
 */

/** The page's configuration, written by the server into the page as JSON. */
export interface WebMapConfig {
  /** Map service shown (`/arcgis/rest/services/{service}/MapServer`). */
  service: string;
  /**
   * The service's maps (data frames), its default map first. The page asks
   * each for its service JSON (`mapName=`) and draws the first whose JSON
   * offers a Web Mercator tile cache from tiles, else the default map by
   * `export`.
   */
  maps: string[];
}

/** An ArcGIS REST error body (sent with HTTP 200). */
export interface RestErrorBody {
  error: { code: number; message: string; details?: string[] };
}

/** A layer entry of the service JSON (`/MapServer?f=json`). */
export interface ServiceLayer {
  id: number;
  name: string;
  defaultVisibility?: boolean;
  parentLayerId?: number;
  subLayerIds?: number[] | null;
}

/** The parts of the service JSON the map uses. */
export interface ServiceInfo {
  mapName?: string;
  layers?: ServiceLayer[];
  spatialReference?: SpatialReference;
  initialExtent?: Envelope;
  fullExtent?: Envelope;
  singleFusedMapCache?: boolean;
  tileInfo?: TileInfo;
}

/** The `tileInfo` of a cached map's service JSON. */
export interface TileInfo {
  rows?: number;
  cols?: number;
  origin?: { x: number; y: number };
  spatialReference?: SpatialReference;
  lods?: { level: number; resolution: number; scale: number }[];
}

/** An ArcGIS spatial reference. */
export interface SpatialReference {
  wkid?: number;
  latestWkid?: number;
}

/** An ArcGIS envelope with its spatial reference. */
export interface Envelope {
  xmin: number;
  ymin: number;
  xmax: number;
  ymax: number;
  spatialReference?: SpatialReference;
}

/** One legend swatch of `/legend?f=json`. */
export interface LegendEntry {
  label: string;
  imageData?: string;
  contentType?: string;
  url?: string;
  width?: number;
  height?: number;
}

/** The answer of `/legend?f=json`. */
export interface LegendInfo {
  layers: { layerId: number; layerName: string; legend: LegendEntry[] }[];
}

/** One result of `/identify?f=json`. */
export interface IdentifyResult {
  layerId: number;
  layerName: string;
  value?: string;
  displayFieldName?: string;
  attributes: Record<string, unknown>;
}

/** A layer's field as `/MapServer/{id}?f=json` or `/layers` describe it. */
export interface LayerField {
  name: string;
  alias?: string;
  type?: string;
}

/** The fields of a competition the popup shows, and where the JSON API serves it. */
export interface CompetitionSummary {
  id: number;
  title: string;
  agency: string;
  deadline: string;
  href: string;
}

/** A competition found by search: its id, title and reception point (WGS 84). */
export interface CompetitionPoint {
  id: number;
  title: string;
  lon: number;
  lat: number;
}

/** The Web Mercator wkids ArcGIS uses (3857 and its older names). */
const WEB_MERCATOR = new Set([3857, 102100, 102113, 900913]);

/**
 * The EPSG code OpenLayers knows for a spatial reference (`EPSG:4326` or
 * `EPSG:3857`), or `null` for one the map cannot place.
 *
 * @example
 * ```ts
 * epsgOf({ wkid: 102100 }); // "EPSG:3857"
 * ```
 */
export function epsgOf(sr: SpatialReference | undefined): string | null {
  const wkid = sr?.latestWkid ?? sr?.wkid;
  if (wkid === 4326) return "EPSG:4326";
  if (wkid !== undefined && WEB_MERCATOR.has(wkid)) return "EPSG:3857";
  return null;
}

/** Web Mercator's half width in metres: the origin of the standard (XYZ) tile grid is (-it, it). */
const MERCATOR_EDGE = 20037508.342787;

/**
 * The deepest level when the service JSON offers a fused tile cache on the
 * standard Web Mercator grid (256-pixel tiles from the usual origin, levels
 * from 0), which an XYZ tile source can show; null otherwise (draw by `export`).
 *
 * @example
 * ```ts
 * const lods = [0, 1, 2].map((level) => ({ level, resolution: 1, scale: 1 }));
 * webMercatorCache({ singleFusedMapCache: true, tileInfo: { rows: 256, cols: 256,
 *   origin: { x: -20037508.342787, y: 20037508.342787 }, spatialReference: { wkid: 102100 }, lods } }); // 2
 * ```
 */
export function webMercatorCache(info: ServiceInfo): number | null {
  const t = info.tileInfo;
  if (info.singleFusedMapCache !== true || !t?.lods?.length) return null;
  if (epsgOf(t.spatialReference ?? info.spatialReference) !== "EPSG:3857") return null;
  if ((t.rows ?? 256) !== 256 || (t.cols ?? 256) !== 256) return null;
  const near = (a: number | undefined, b: number) => a !== undefined && Math.abs(a - b) < 1e-3;
  if (!near(t.origin?.x, -MERCATOR_EDGE) || !near(t.origin?.y, MERCATOR_EDGE)) return null;
  const levels = t.lods.map((l) => l.level);
  if (levels.some((l, i) => l !== i)) return null;
  return levels.length - 1;
}

/**
 * The error of an ArcGIS REST answer as one sentence, or `null` when the
 * body is not an error.
 *
 * @example
 * ```ts
 * restError({ error: { code: 400, message: "Invalid bbox", details: [] } }); // "Invalid bbox (code 400)"
 * ```
 */
export function restError(body: unknown): string | null {
  if (typeof body !== "object" || body === null || !("error" in body)) return null;
  const e = (body as RestErrorBody).error;
  const details = Array.isArray(e?.details) && e.details.length > 0
    ? `: ${e.details.join("; ")}`
    : "";
  return `${e?.message ?? "error"}${details} (code ${e?.code ?? "?"})`;
}

/**
 * The `layers` parameter of `/export` for the checked layer ids
 * (`show:0,1`); `null` when none is checked (nothing to draw).
 *
 * @example
 * ```ts
 * exportLayers([1, 0]); // "show:0,1"
 * ```
 */
export function exportLayers(checked: Iterable<number>): string | null {
  const ids = [...new Set(checked)].sort((a, b) => a - b);
  return ids.length === 0 ? null : `show:${ids.join(",")}`;
}

/** What an identify request needs of the map on screen. */
export interface IdentifyView {
  /** Clicked point in the view's projection. */
  x: number;
  y: number;
  /** Extent of the view, `[xmin, ymin, xmax, ymax]`. */
  extent: readonly number[];
  widthPx: number;
  heightPx: number;
  /** wkid of the view's projection. */
  wkid: number;
  /** Layers to search; none means every layer (`all`). */
  layerIds: readonly number[];
  /** Search radius in screen pixels. */
  tolerancePx: number;
}

/**
 * Query parameters of `/identify?f=json` for a click (ArcGIS 10.3 names).
 *
 * @example
 * ```ts
 * const q = identifyParams({
 *   x: 0, y: 0, extent: [-10, -10, 10, 10], widthPx: 100, heightPx: 100, wkid: 3857,
 *   layerIds: [0], tolerancePx: 6,
 * });
 * q.get("layers"); // "all:0"
 * ```
 */
export function identifyParams(v: IdentifyView): URLSearchParams {
  return new URLSearchParams({
    f: "json",
    geometry: JSON.stringify({ x: v.x, y: v.y }),
    geometryType: "esriGeometryPoint",
    sr: String(v.wkid),
    layers: v.layerIds.length > 0 ? `all:${v.layerIds.join(",")}` : "all",
    tolerance: String(Math.round(v.tolerancePx)),
    mapExtent: v.extent.join(","),
    imageDisplay: `${Math.round(v.widthPx)},${Math.round(v.heightPx)},96`,
    returnGeometry: "false",
  });
}

/**
 * The value of field `name` in identify attributes, which ArcGIS keys by
 * field alias (`fields` gives the aliases); the name itself is tried too.
 *
 * @example
 * ```ts
 * attribute({ "Ведомство": "Росстат" }, "agency", [{ name: "agency", alias: "Ведомство" }]);
 * ```
 */
export function attribute(
  attributes: Record<string, unknown>,
  name: string,
  fields: readonly LayerField[] = [],
): unknown {
  if (name in attributes) return attributes[name];
  const alias = fields.find((f) => f.name === name)?.alias;
  return alias !== undefined && alias in attributes ? attributes[alias] : undefined;
}

/** The field names of the competitions layer that the popup reads. */
export const COMPETITION_FIELDS = ["id", "title", "agency", "deadline"] as const;

/**
 * A competition's popup text from an identify result, or `null` when the
 * result is not a competition (no integer id or no title).
 *
 * @example
 * ```ts
 * competitionOf({ layerId: 0, layerName: "", attributes: { id: "7", title: "T", agency: "A", deadline: "2024-01-31" } });
 * // { id: 7, title: "T", agency: "A", deadline: "2024-01-31", href: "/api/v1/competitions/7/" }
 * ```
 */
export function competitionOf(
  result: IdentifyResult,
  fields: readonly LayerField[] = [],
): CompetitionSummary | null {
  const get = (name: string) => attribute(result.attributes, name, fields);
  const id = Number(get("id"));
  const title = get("title");
  if (!Number.isSafeInteger(id) || id <= 0 || typeof title !== "string") return null;
  const text = (v: unknown) => (v === null || v === undefined || v === "Null" ? "" : String(v));
  return {
    id,
    title,
    agency: text(get("agency")),
    deadline: dateText(get("deadline")),
    href: `/api/v1/competitions/${id}/`,
  };
}

/** A date attribute as `YYYY-MM-DD`: ArcGIS JSON sends epoch milliseconds, identify text. */
function dateText(v: unknown): string {
  if (typeof v === "number" && Number.isFinite(v)) return new Date(v).toISOString().slice(0, 10);
  if (typeof v !== "string" || v === "Null") return "";
  return /^\d+$/.test(v) ? new Date(Number(v)).toISOString().slice(0, 10) : v;
}

/**
 * The reception points of the competitions of a JSON API page
 * (`/api/v1/competitions/?search=...`); records without coordinates are left out.
 *
 * @example
 * ```ts
 * competitionPoints({ results: [{ id: 1, title: "T",
 *   document_reception_map_latitude: "55.75", document_reception_map_longitude: "37.62" }] });
 * // [{ id: 1, title: "T", lon: 37.62, lat: 55.75 }]
 * ```
 */
export function competitionPoints(page: unknown): CompetitionPoint[] {
  const results = (page as { results?: unknown })?.results;
  if (!Array.isArray(results)) return [];
  const out: CompetitionPoint[] = [];
  for (const r of results as Record<string, unknown>[]) {
    const lat = coordinate(r.document_reception_map_latitude);
    const lon = coordinate(r.document_reception_map_longitude);
    if (lat === null || lon === null || Math.abs(lat) > 90 || Math.abs(lon) > 180) continue;
    out.push({ id: Number(r.id), title: String(r.title ?? ""), lon, lat });
  }
  return out;
}

function coordinate(v: unknown): number | null {
  if (typeof v === "number") return Number.isFinite(v) ? v : null;
  if (typeof v !== "string" || v.trim() === "") return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
}
