/**
 * Coordinate reference systems of OGC API – Features Part 2 as URIs, and
 * what they mean for the engine: a WKID and the axis order. CRS84 is
 * longitude, latitude (the default of every request and answer);
 * `EPSG/0/4326` is the same datum with latitude first, as EPSG defines it;
 * `EPSG/0/3857` is Web Mercator (x, y). A layer also offers the CRS it is
 * stored in when the engine can project to it.
 *
 * @module
 */
import type { Position } from "../types.ts";
import { canProject, normalizeWkid } from "../geo/projection.ts";

/** One CRS a collection offers. */
export interface Crs {
  uri: string;
  wkid: number;
  /** Latitude (northing) first. */
  latFirst: boolean;
}

/** The default CRS of every request and answer. */
export const CRS84: Crs = {
  uri: "http://www.opengis.net/def/crs/OGC/1.3/CRS84",
  wkid: 4326,
  latFirst: false,
};

const EPSG = "http://www.opengis.net/def/crs/EPSG/0/";

/** Geographic EPSG codes whose EPSG axis order is latitude first. */
const LAT_FIRST = new Set([4326, 4258, 4269, 4267, 4283, 4322, 4612, 4674]);

/**
 * The CRS a layer stored in `wkid` is published in: CRS84 for WGS 84
 * (its stored order is longitude first), else `EPSG/0/{wkid}`.
 *
 * @example
 * ```ts
 * storageCrs(102100).uri; // "http://www.opengis.net/def/crs/EPSG/0/3857"
 * ```
 */
export function storageCrs(wkid: number): Crs {
  const w = normalizeWkid(wkid);
  return w === 4326 ? CRS84 : { uri: `${EPSG}${w}`, wkid: w, latFirst: LAT_FIRST.has(w) };
}

/**
 * The CRSs a layer stored in `wkid` offers: CRS84, EPSG:4326, EPSG:3857
 * and its storage CRS (when the engine projects it).
 *
 * @example
 * ```ts
 * layerCrsList(4326).map((c) => c.uri.split("/").pop()); // ["CRS84", "4326", "3857"]
 * ```
 */
export function layerCrsList(wkid: number): Crs[] {
  const list: Crs[] = [
    CRS84,
    { uri: `${EPSG}4326`, wkid: 4326, latFirst: true },
    { uri: `${EPSG}3857`, wkid: 3857, latFirst: false },
  ];
  const stored = storageCrs(wkid);
  if (!list.some((c) => c.uri === stored.uri) && canProject(stored.wkid, 4326)) list.push(stored);
  return list;
}

/**
 * The CRS of `uri` among those offered (also written as a safe CURIE `[EPSG:3857]`, as
 * `EPSG:3857` or `urn:ogc:def:crs:EPSG::3857`, and `https` for `http`), or
 * undefined.
 *
 * @example
 * ```ts
 * findCrs(layerCrsList(4326), "EPSG:3857")?.wkid; // 3857
 * ```
 */
export function findCrs(offered: readonly Crs[], uri: string): Crs | undefined {
  const key = canonicalUri(uri.trim());
  return offered.find((c) => c.uri === key);
}

function canonicalUri(uri: string): string {
  const u = uri.replace(/^\[(.*)\]$/, "$1").replace(/^https:/i, "http:");
  let m = /^EPSG:(\d+)$/i.exec(u) ?? /^urn:ogc:def:crs:EPSG:[^:]*:(\d+)$/i.exec(u);
  if (m) return `${EPSG}${normalizeWkid(Number(m[1]))}`;
  if (/^(urn:ogc:def:crs:OGC:1\.3:CRS84|CRS:?84)$/i.test(u)) return CRS84.uri;
  m = /^http:\/\/www\.opengis\.net\/def\/crs\/EPSG\/0\/(\d+)$/i.exec(u);
  if (m) return `${EPSG}${normalizeWkid(Number(m[1]))}`;
  return u.replace(/^http:\/\/www\.opengis\.net\/def\/crs\/OGC\/1\.3\/CRS84$/i, CRS84.uri);
}

/**
 * A position written in `crs`'s axis order from (x, y) = (east, north).
 *
 * @example
 * ```ts
 * axisOrder(layerCrsList(4326)[1], [37.6, 55.7]); // [55.7, 37.6]
 * ```
 */
export function axisOrder(crs: Crs, p: Position): Position {
  return crs.latFirst ? [p[1], p[0]] : p;
}
