/**
 * GML geometry writing, for any face that answers in GML (WFS GetFeature,
 * WMS GetFeatureInfo): a GeoJSON-shaped geometry (rings already oriented,
 * positions already in the answer's CRS and axis order) as GML 3.2 or
 * GML 3.1.1. Lines and polygons may be written as their multi-geometries
 * always, so that every feature of a layer matches one schema type.
 *
 * @module
 */
import type { Position } from "../types.ts";
import type { GeoJsonGeometry } from "./_query_feature_json.ts";
import { escapeAttr } from "../xml_text.ts";

/** How {@link gmlGeometry} writes. */
export interface GmlOptions {
  /** "3.2" (namespace `http://www.opengis.net/gml/3.2`, gml:id required) or "3.1.1". */
  version: "3.2" | "3.1.1";
  /** The `srsName` of the geometry. */
  srsName: string;
  /** The geometry's gml:id (required in 3.2; its members get `{id}.{n}`). */
  id: string;
  /** Write Point, LineString and Polygon as MultiPoint, MultiCurve and MultiSurface. */
  multi?: boolean;
}

function posList(ps: Position[]): string {
  return ps.map((p) => `${p[0]} ${p[1]}`).join(" ");
}

function polygon(rings: Position[][], id: string): string {
  const [outer, ...holes] = rings;
  return `<gml:Polygon${id}><gml:exterior><gml:LinearRing><gml:posList srsDimension="2">${
    posList(outer)
  }</gml:posList></gml:LinearRing></gml:exterior>${
    holes.map((h) =>
      `<gml:interior><gml:LinearRing><gml:posList srsDimension="2">${
        posList(h)
      }</gml:posList></gml:LinearRing></gml:interior>`
    ).join("")
  }</gml:Polygon>`;
}

/**
 * A geometry as a GML element (prefix `gml`, bound by the caller).
 *
 * @example
 * ```ts
 * gmlGeometry({ type: "Point", coordinates: [55.7, 37.6] },
 *   { version: "3.2", srsName: "urn:ogc:def:crs:EPSG::4326", id: "p.1" });
 * // '<gml:Point gml:id="p.1" srsName="urn:ogc:def:crs:EPSG::4326"><gml:pos>55.7 37.6</gml:pos></gml:Point>'
 * ```
 */
export function gmlGeometry(g: GeoJsonGeometry, opts: GmlOptions): string {
  const v32 = opts.version === "3.2";
  const idOf = (n?: number) =>
    v32 ? ` gml:id="${escapeAttr(n === undefined ? opts.id : `${opts.id}.${n}`)}"` : "";
  const top = `${idOf()} srsName="${escapeAttr(opts.srsName)}"`;
  const multi = opts.multi ?? false;
  switch (g.type) {
    case "Point":
      if (multi) return gmlGeometry({ type: "MultiPoint", coordinates: [g.coordinates] }, opts);
      return `<gml:Point${top}><gml:pos>${posList([g.coordinates])}</gml:pos></gml:Point>`;
    case "MultiPoint":
      return `<gml:MultiPoint${top}>${
        g.coordinates.map((p, i) =>
          `<gml:pointMember><gml:Point${idOf(i)}><gml:pos>${
            posList([p])
          }</gml:pos></gml:Point></gml:pointMember>`
        ).join("")
      }</gml:MultiPoint>`;
    case "LineString":
      if (multi) {
        return gmlGeometry({ type: "MultiLineString", coordinates: [g.coordinates] }, opts);
      }
      return `<gml:LineString${top}><gml:posList srsDimension="2">${
        posList(g.coordinates)
      }</gml:posList></gml:LineString>`;
    case "MultiLineString":
      return `<gml:MultiCurve${top}>${
        g.coordinates.map((l, i) =>
          `<gml:curveMember><gml:LineString${idOf(i)}><gml:posList srsDimension="2">${
            posList(l)
          }</gml:posList></gml:LineString></gml:curveMember>`
        ).join("")
      }</gml:MultiCurve>`;
    case "Polygon":
      if (multi) return gmlGeometry({ type: "MultiPolygon", coordinates: [g.coordinates] }, opts);
      return polygon(g.coordinates, top);
    case "MultiPolygon":
      return `<gml:MultiSurface${top}>${
        g.coordinates.map((rings, i) =>
          `<gml:surfaceMember>${polygon(rings, idOf(i))}</gml:surfaceMember>`
        ).join("")
      }</gml:MultiSurface>`;
  }
}
