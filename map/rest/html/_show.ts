/**
 * Pieces the directory pages share when they show a JSON answer: values
 * (NULLs, dates), spatial references as ArcGIS prints them (`102100
 * (3857)`), extents, geometries in brief, and property lists.
 *
 * @module
 */
import { type Html, type HtmlValue, markup } from "../../markup.ts";

/** A JSON object as the pages read it. */
export type Json = Record<string, unknown>;

/** `v` as an object (empty when it is not one). */
export function obj(v: unknown): Json {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? v as Json : {};
}

/** `v` as an array (empty when it is not one). */
export function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/** A JSON value as text: `Null` for null (as ArcGIS prints it), arrays as `[a, b]`. */
export function text(v: unknown): string {
  if (v === null || v === undefined) return "Null";
  if (Array.isArray(v)) return `[${v.map(text).join(", ")}]`;
  if (typeof v === "object") return JSON.stringify(v);
  return String(v);
}

/** A spatial reference as ArcGIS prints it: `wkid  (latestWkid)`. */
export function spatialReferenceText(sr: unknown): string {
  const s = obj(sr);
  if (s.wkid === undefined) return s.wkt !== undefined ? String(s.wkt) : "Null";
  return s.latestWkid !== undefined ? `${s.wkid}  (${s.latestWkid})` : String(s.wkid);
}

/** Name: value lines (a value that is markup stays markup). */
export function properties(rows: readonly (readonly [string, HtmlValue])[]): Html {
  return markup`${rows.map(([k, v]) => markup`<b>${k}:</b> ${v}<br>\n`)}`;
}

/** An extent's XMin..YMax and spatial reference, indented under its name. */
export function extentBlock(name: string, extent: unknown): Html {
  const e = obj(extent);
  return markup`<b>${name}:</b>
<div class="indent">${
    properties([
      ["XMin", text(e.xmin)],
      ["YMin", text(e.ymin)],
      ["XMax", text(e.xmax)],
      ["YMax", text(e.ymax)],
      ["Spatial Reference", spatialReferenceText(e.spatialReference)],
    ])
  }</div>\n`;
}

function vertexCount(parts: unknown): number {
  return arr(parts).reduce((n: number, p) => n + arr(p).length, 0);
}

/**
 * A geometry in brief: a point's coordinates, the parts and vertices of
 * anything else.
 *
 * @example
 * ```ts
 * import { geometryText } from "./_show.ts";
 * geometryText({ x: 37.6, y: 55.75 }); // "Point (37.6, 55.75)"
 * ```
 */
export function geometryText(g: unknown): string {
  const o = obj(g);
  if (o.x !== undefined) return `Point (${text(o.x)}, ${text(o.y)})`;
  if (o.points !== undefined) return `Multipoint (${arr(o.points).length} points)`;
  if (o.paths !== undefined) {
    return `Polyline (${arr(o.paths).length} paths, ${vertexCount(o.paths)} vertices)`;
  }
  if (o.rings !== undefined) {
    return `Polygon (${arr(o.rings).length} rings, ${vertexCount(o.rings)} vertices)`;
  }
  if (o.xmin !== undefined) {
    return `Envelope (${text(o.xmin)}, ${text(o.ymin)}, ${text(o.xmax)}, ${text(o.ymax)})`;
  }
  return "Null";
}

/** A field value for a table cell: dates (epoch milliseconds) as ISO text, NULLs marked. */
export function cell(value: unknown, type?: unknown): Html {
  if (value === null || value === undefined) return markup`<span class="null">Null</span>`;
  if (type === "esriFieldTypeDate" && typeof value === "number") {
    const d = new Date(value);
    if (!Number.isNaN(d.getTime())) return markup`${d.toISOString().replace(".000Z", "Z")}`;
  }
  return markup`${text(value)}`;
}
