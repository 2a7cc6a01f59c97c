/**
 * GetFeatureInfo: the features at a pixel of a GetMap image, found by the
 * same Identify operation REST identify and SOAP call, on the same view
 * (the box stretched over the image), within {@link FEATURE_INFO_TOLERANCE_PX}
 * pixels of the pixel's centre, in the QUERY_LAYERS that are drawn at the
 * view's scale; FEATURE_COUNT features a layer at most (default 1).
 *
 * INFO_FORMAT: `text/html` (a table a layer), `text/plain`,
 * `application/json` (GeoJSON, WGS 84 longitude/latitude, with `layerId`
 * and `layerName` on each feature) and `application/vnd.ogc.gml` (GML
 * 3.1.1 features in a `wfs:FeatureCollection`, coordinates in the
 * request's CRS in the version's axis order). Attribute values are text,
 * formatted as identify formats them, keyed by field name.
 *
 * @module
 */
import type { IdentifyRequest, IdentifyResult, MapFrame } from "../ops/mod.ts";
import { geoJsonGeometry, SEARCH_OPERATIONS } from "../ops/mod.ts";
import type { Geometry, Position } from "../types.ts";
import { projectGeometry } from "../geo/projection.ts";
import { createDisplay, toMap } from "../geo/display.ts";
import { escapeAttr, escapeText } from "../xml_text.ts";
import { WmsError } from "./_exception.ts";
import {
  imageDisplay,
  layerIds,
  mapDescription,
  type MapView,
  mapView,
  WMS_DPI,
  type WmsCall,
} from "./_map_request.ts";
import type { WmsCrs } from "./_crs.ts";
import type { WmsReply } from "./reply.ts";
import type { GeoJsonGeometry } from "../ops/mod.ts";

/** How far from the pixel's centre a feature is found, in pixels (ArcGIS clients' identify default). */
export const FEATURE_INFO_TOLERANCE_PX = 3;

/** The INFO_FORMAT values offered, first the default. */
export const INFO_FORMATS = [
  "text/html",
  "text/plain",
  "application/json",
  "application/vnd.ogc.gml",
] as const;

type InfoFormat = typeof INFO_FORMATS[number];

const INFO_ALIASES: Readonly<Record<string, InfoFormat>> = {
  "application/geo+json": "application/json",
  "application/geojson": "application/json",
  "application/vnd.ogc.gml/3.1.1": "application/vnd.ogc.gml",
  "text/xml": "application/vnd.ogc.gml",
  "application/gml+xml": "application/vnd.ogc.gml",
};

function infoFormat(text: string | undefined): InfoFormat {
  if (text === undefined || text.trim() === "") return INFO_FORMATS[0];
  const t = text.trim().toLowerCase().replace(/\s+/g, "");
  const f = (INFO_FORMATS as readonly string[]).includes(t) ? t as InfoFormat : INFO_ALIASES[t];
  if (!f) {
    throw new WmsError(
      "InvalidFormat",
      `INFO_FORMAT "${text}" is not offered; use one of ${INFO_FORMATS.join(", ")}.`,
      "INFO_FORMAT",
    );
  }
  return f;
}

/** The pixel of I/J (1.3.0) or X/Y (1.1.1), either name read; InvalidPoint off the image. */
function pixel(call: WmsCall, view: MapView): Position {
  const p = call.params;
  const [xName, yName, altX, altY] = call.version === "1.1.1"
    ? ["X", "Y", "I", "J"]
    : ["I", "J", "X", "Y"];
  const read = (name: string, alt: string, size: number): number => {
    const text = p.get(name) ?? p.get(alt);
    if (text === undefined || text.trim() === "") {
      throw new WmsError(
        "MissingParameterValue",
        `Parameter ${name} is required: the pixel column (${xName}) and row (${yName}) to query.`,
        name,
      );
    }
    const n = /^\s*\d+\s*$/.test(text) ? Number(text) : NaN;
    if (!(n >= 0 && n < size)) {
      throw new WmsError(
        "InvalidPoint",
        `${name}=${text} is not a pixel of the ${view.width} x ${view.height} image (0 to ${
          size - 1
        }).`,
        name,
      );
    }
    return n;
  };
  return [read(xName, altX, view.width), read(yName, altY, view.height)];
}

function featureCount(text: string | undefined): number {
  if (text === undefined || text.trim() === "") return 1;
  const n = /^\s*\d+\s*$/.test(text) ? Number(text) : NaN;
  if (!(n >= 1)) {
    throw new WmsError(
      "InvalidParameterValue",
      `FEATURE_COUNT must be a whole number of at least 1, not "${text}".`,
      "FEATURE_COUNT",
    );
  }
  return n;
}

/**
 * The Identify request of a GetFeatureInfo call and the map point it looks
 * at (the centre of pixel I, J on the stretched view).
 *
 * @example
 * ```ts ignore
 * const { request } = featureInfoRequest(call);
 * ```
 */
export function featureInfoRequest(call: WmsCall): {
  request: IdentifyRequest;
  view: MapView;
  queryIds: number[];
} {
  const view = mapView(call);
  const queryIds = layerIds(
    call.frame,
    call.params.required("QUERY_LAYERS", "the layer ids to query (e.g. 0)"),
    "QUERY_LAYERS",
  );
  const [i, j] = pixel(call, view);
  const display = createDisplay(view.extent, {
    widthPx: view.width,
    heightPx: view.height,
    dpi: WMS_DPI,
    wkid: view.crs.wkid,
    stretch: true,
  });
  const [x, y] = toMap(display, [i + 0.5, j + 0.5]);
  const md = mapDescription(call.frame, view, queryIds);
  return {
    view,
    queryIds,
    request: {
      MapDescription: {
        ...md,
        LayerDescriptions: md.LayerDescriptions!.map((d) => ({
          ...d,
          LayerResultOptions: { IncludeGeometry: true, ReturnFieldNamesInResults: true },
        })),
      },
      MapImageDisplay: imageDisplay(view),
      SearchShape: { geometry: { type: "Point", x, y }, wkid: view.crs.wkid },
      Tolerance: FEATURE_INFO_TOLERANCE_PX,
      IdentifyOption: "esriIdentifyVisibleLayers",
      LayerIDs: queryIds,
    },
  };
}

/**
 * Answers GetFeatureInfo.
 *
 * @example
 * ```ts ignore
 * const reply = await getFeatureInfo(call); // INFO_FORMAT=application/json: GeoJSON
 * ```
 */
export async function getFeatureInfo(call: WmsCall): Promise<WmsReply> {
  const format = infoFormat(call.params.get("INFO_FORMAT"));
  const count = featureCount(call.params.get("FEATURE_COUNT"));
  const { request, view, queryIds } = featureInfoRequest(call);
  const results = await SEARCH_OPERATIONS.Identify(request, call.ctx);
  // QUERY_LAYERS order, FEATURE_COUNT a layer.
  const groups = queryIds.map((id) => ({
    layer: call.frame.layers.find((l) => l.id === id)!,
    results: results.filter((r) => r.layerId === id).slice(0, count),
  }));
  switch (format) {
    case "text/plain":
      return { status: 200, contentType: "text/plain; charset=utf-8", body: plainText(groups) };
    case "text/html":
      return { status: 200, contentType: "text/html; charset=utf-8", body: html(groups) };
    case "application/json":
      return {
        status: 200,
        contentType: "application/json; charset=utf-8",
        body: JSON.stringify(geoJson(groups, view.crs.wkid)),
      };
    case "application/vnd.ogc.gml":
      return {
        status: 200,
        contentType: "application/vnd.ogc.gml; charset=utf-8",
        body: gml(groups, view.crs, call.endpoint),
      };
  }
}

/** Coordinates kept as they are. */
const asIs = (p: Position): Position => p;

interface LayerResults {
  layer: MapFrame["layers"][number];
  results: IdentifyResult[];
}

/** The attributes of a result without the shape field's geometry-type text. */
function attributes(layer: LayerResults["layer"], r: IdentifyResult): [string, string][] {
  const shapeField = layer.fields.find((f) => f.type === "Geometry")?.name;
  return r.properties.filter((p) => p.key !== shapeField).map((p) => [p.key, p.value]);
}

function plainText(groups: LayerResults[]): string {
  const lines: string[] = [];
  for (const { layer, results } of groups) {
    lines.push(`Layer '${layer.id}' (${layer.name}): ${results.length} feature(s)`);
    for (const r of results) {
      lines.push(`  Feature ${r.featureId}:`);
      for (const [k, v] of attributes(layer, r)) lines.push(`    ${k} = ${v}`);
    }
  }
  return lines.join("\n") + "\n";
}

function html(groups: LayerResults[]): string {
  const parts = [
    `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>GetFeatureInfo</title></head><body>`,
  ];
  for (const { layer, results } of groups) {
    parts.push(`<h3>${escapeText(layer.name)} (${layer.id})</h3>`);
    if (results.length === 0) {
      parts.push("<p>No features.</p>");
      continue;
    }
    const keys = attributes(layer, results[0]).map(([k]) => k);
    parts.push(
      `<table border="1"><tr>${keys.map((k) => `<th>${escapeText(k)}</th>`).join("")}</tr>`,
    );
    for (const r of results) {
      parts.push(
        `<tr>${attributes(layer, r).map(([, v]) => `<td>${escapeText(v)}</td>`).join("")}</tr>`,
      );
    }
    parts.push("</table>");
  }
  parts.push("</body></html>\n");
  return parts.join("\n");
}

function geoJson(groups: LayerResults[], wkid: number) {
  return {
    type: "FeatureCollection",
    features: groups.flatMap(({ layer, results }) =>
      results.map((r) => ({
        type: "Feature",
        id: r.featureId,
        layerId: layer.id,
        layerName: layer.name,
        geometry: r.shape ? geoJsonGeometry(projectGeometry(r.shape, wkid, 4326), asIs) : null,
        properties: Object.fromEntries(attributes(layer, r)),
      }))
    ),
  };
}

/** A name XML accepts as an element name (field names may hold spaces or start with a digit). */
function xmlName(name: string): string {
  const n = name.replace(/[^\p{L}\p{N}_.-]/gu, "_");
  return /^[\p{L}_]/u.test(n) ? n : `_${n}`;
}

function posList(points: readonly Position[], latFirst: boolean): string {
  return points.map(([x, y]) => latFirst ? `${y} ${x}` : `${x} ${y}`).join(" ");
}

function gmlGeometry(g: GeoJsonGeometry, srs: string, latFirst: boolean): string {
  const ring = (r: Position[]) =>
    `<gml:LinearRing><gml:posList>${posList(r, latFirst)}</gml:posList></gml:LinearRing>`;
  const polygon = (rings: Position[][]) =>
    `<gml:Polygon><gml:exterior>${ring(rings[0])}</gml:exterior>${
      rings.slice(1).map((r) => `<gml:interior>${ring(r)}</gml:interior>`).join("")
    }</gml:Polygon>`;
  const line = (ps: Position[]) =>
    `<gml:LineString><gml:posList>${posList(ps, latFirst)}</gml:posList></gml:LineString>`;
  const point = (p: Position) =>
    `<gml:Point><gml:pos>${posList([p], latFirst)}</gml:pos></gml:Point>`;
  const at = ` srsName="${escapeAttr(srs)}"`;
  switch (g.type) {
    case "Point":
      return point(g.coordinates).replace("<gml:Point>", `<gml:Point${at}>`);
    case "MultiPoint":
      return `<gml:MultiPoint${at}>${
        g.coordinates.map((p) => `<gml:pointMember>${point(p)}</gml:pointMember>`).join("")
      }</gml:MultiPoint>`;
    case "LineString":
      return line(g.coordinates).replace("<gml:LineString>", `<gml:LineString${at}>`);
    case "MultiLineString":
      return `<gml:MultiCurve${at}>${
        g.coordinates.map((l) => `<gml:curveMember>${line(l)}</gml:curveMember>`).join("")
      }</gml:MultiCurve>`;
    case "Polygon":
      return polygon(g.coordinates).replace("<gml:Polygon>", `<gml:Polygon${at}>`);
    case "MultiPolygon":
      return `<gml:MultiSurface${at}>${
        g.coordinates.map((p) => `<gml:surfaceMember>${polygon(p)}</gml:surfaceMember>`).join("")
      }</gml:MultiSurface>`;
  }
}

function gml(groups: LayerResults[], crs: WmsCrs, endpoint: string): string {
  const out = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<wfs:FeatureCollection xmlns:wfs="http://www.opengis.net/wfs" xmlns:gml="http://www.opengis.net/gml" xmlns:wms="${
      escapeAttr(endpoint)
    }">`,
  ];
  for (const { layer, results } of groups) {
    for (const r of results) {
      const el = `wms:layer_${layer.id}`;
      out.push(`<gml:featureMember><${el} gml:id="layer_${layer.id}.${r.featureId}">`);
      for (const [k, v] of attributes(layer, r)) {
        const name = `wms:${xmlName(k)}`;
        out.push(`<${name}>${escapeText(v)}</${name}>`);
      }
      if (r.shape) {
        const g = geoJsonGeometry(r.shape as Geometry, asIs);
        out.push(`<wms:geometry>${gmlGeometry(g, crs.code, crs.latFirst)}</wms:geometry>`);
      }
      out.push(`</${el}></gml:featureMember>`);
    }
  }
  out.push(`</wfs:FeatureCollection>`);
  return out.join("\n") + "\n";
}
