/**
 * Coordinate reference systems as WMS names them: `CRS:84` (longitude,
 * latitude), `EPSG:4326` (latitude first in 1.3.0, as EPSG defines it;
 * longitude first in 1.1.1), `EPSG:3857` (and its ArcGIS and legacy aliases
 * 102100, 102113, 900913) and the map's own `EPSG:<wkid>`, plus any other
 * EPSG code the projection module can reach. A BBOX is read and written in
 * each version's axis order here, and nowhere else.
 *
 * @module
 */
import type { Extent } from "../types.ts";
import type { MapFrame } from "../ops/mod.ts";
import { canProject, isGeographic, normalizeWkid, projectExtent } from "../geo/projection.ts";
import { WmsError } from "./_exception.ts";
import type { WmsVersion } from "./_kvp.ts";

/** A CRS of a request, resolved. */
export interface WmsCrs {
  /** The name as the capabilities list it (`CRS:84`, `EPSG:4326`, ...). */
  code: string;
  /** The WKID drawn in (normalised: 102100 is 3857). */
  wkid: number;
  /** Whether a 1.3.0 BBOX in it lists latitude (northing) first. */
  latFirst: boolean;
}

/**
 * The CRS names the capabilities offer for `frame`: CRS:84, EPSG:4326,
 * EPSG:3857 and the map's own when it is another.
 *
 * @example
 * ```ts ignore
 * offeredCrs(frame); // ["CRS:84", "EPSG:4326", "EPSG:3857"]
 * ```
 */
export function offeredCrs(frame: MapFrame): string[] {
  const out = ["CRS:84", "EPSG:4326", "EPSG:3857"];
  const own = `EPSG:${normalizeWkid(frame.wkid)}`;
  if (!out.includes(own)) out.push(own);
  return out;
}

/** `EPSG:n`, `ESRI:n`, `urn:ogc:def:crs:EPSG::n` and `http://www.opengis.net/def/crs/EPSG/0/n`. */
const EPSG_FORMS = [
  /^(?:EPSG|ESRI):(\d+)$/i,
  /^urn:ogc:def:crs:EPSG:[^:]*:(\d+)$/i,
  /^https?:\/\/www\.opengis\.net\/def\/crs\/EPSG\/0\/(\d+)$/i,
];

/**
 * The CRS named by `text` (the CRS of 1.3.0, SRS of 1.1.1), as `frame` can
 * be drawn in it; InvalidCRS (InvalidSRS in 1.1.1) otherwise.
 *
 * @example
 * ```ts ignore
 * parseCrs("EPSG:4326", "1.3.0", frame); // { code: "EPSG:4326", wkid: 4326, latFirst: true }
 * ```
 */
export function parseCrs(text: string, version: WmsVersion, frame: MapFrame): WmsCrs {
  const t = text.trim();
  const name = version === "1.1.1" ? "SRS" : "CRS";
  if (/^CRS:84$/i.test(t) || /^urn:ogc:def:crs:OGC:[^:]*:CRS84$/i.test(t)) {
    return { code: "CRS:84", wkid: 4326, latFirst: false };
  }
  const m = EPSG_FORMS.map((r) => r.exec(t)).find((x) => x !== null);
  const wkid = m ? normalizeWkid(Number(m[1])) : NaN;
  if (!m || !canProject(frame.wkid, wkid)) {
    throw new WmsError(
      "InvalidCRS",
      `${name} "${t}" is not offered; use one of ${offeredCrs(frame).join(", ")}.`,
      name,
    );
  }
  return { code: `EPSG:${wkid}`, wkid, latFirst: version === "1.3.0" && isGeographic(wkid) };
}

/**
 * The extent of a BBOX in `crs`, read in the version's axis order;
 * InvalidParameterValue unless it is four finite numbers with min < max.
 *
 * @example
 * ```ts ignore
 * bboxExtent("40,19,78,180", { code: "EPSG:4326", wkid: 4326, latFirst: true }); // xmin 19, ymin 40, ...
 * ```
 */
export function bboxExtent(text: string, crs: WmsCrs): Extent {
  const parts = text.split(",").map((s) => s.trim());
  const n = parts.map((s) => (s === "" ? NaN : Number(s)));
  if (n.length !== 4 || !n.every(Number.isFinite) || n.some((v) => Math.abs(v) > 1e15)) {
    throw new WmsError(
      "InvalidParameterValue",
      `BBOX must be four numbers minx,miny,maxx,maxy${
        crs.latFirst ? ` (in ${crs.code} for WMS 1.3.0: minlat,minlon,maxlat,maxlon)` : ""
      }, not "${text}".`,
      "BBOX",
    );
  }
  const [a, b, c, d] = n;
  const e = crs.latFirst
    ? { xmin: b, ymin: a, xmax: d, ymax: c }
    : { xmin: a, ymin: b, xmax: c, ymax: d };
  if (!(e.xmin < e.xmax && e.ymin < e.ymax)) {
    throw new WmsError(
      "InvalidParameterValue",
      `BBOX "${text}" must have its minimum below its maximum on both axes.`,
      "BBOX",
    );
  }
  return e;
}

/**
 * `e` (in `fromWkid`) in `crs`, as the four numbers of a BoundingBox in the
 * version's axis order (minx, miny, maxx, maxy).
 *
 * @example
 * ```ts ignore
 * bboxNumbers(frame.fullExtent, 4326, parseCrs("EPSG:4326", "1.3.0", frame)); // [-90, -180, 90, 180]
 * ```
 */
export function bboxNumbers(e: Extent, fromWkid: number, crs: WmsCrs): number[] {
  const p = projectExtent(e, fromWkid, crs.wkid);
  return crs.latFirst ? [p.ymin, p.xmin, p.ymax, p.xmax] : [p.xmin, p.ymin, p.xmax, p.ymax];
}
