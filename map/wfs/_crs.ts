/**
 * Coordinate reference systems of the WFS face: the names a client may
 * give (`EPSG:4326`, `urn:ogc:def:crs:EPSG::4326`,
 * `http://www.opengis.net/def/crs/EPSG/0/4326`, CRS84) with the axis order
 * each implies. As GeoServer and GDAL read them, the short `EPSG:4326`
 * form is longitude first (x, y); the URN and URI forms follow EPSG's
 * order, latitude first for geographic CRSs. Answers name CRSs in the URN
 * form.
 *
 * @module
 */
import type { Position } from "../types.ts";
import { canProject, normalizeWkid } from "../geo/projection.ts";
import { WfsError } from "./_exception.ts";

/** A CRS as the face uses it. */
export interface WfsCrs {
  wkid: number;
  /** Positions are written latitude (northing) first. */
  latFirst: boolean;
  /** The name answers give it (`urn:ogc:def:crs:EPSG::4326`). */
  urn: string;
}

/** Geographic EPSG codes whose EPSG axis order is latitude first. */
const LAT_FIRST = new Set([4326, 4258, 4269, 4267, 4283, 4322, 4612, 4674]);

/**
 * The CRS of EPSG code `wkid` in its URN form (EPSG axis order).
 *
 * @example
 * ```ts
 * urnCrs(102100).urn; // "urn:ogc:def:crs:EPSG::3857"
 * ```
 */
export function urnCrs(wkid: number): WfsCrs {
  const w = normalizeWkid(wkid);
  return { wkid: w, latFirst: LAT_FIRST.has(w), urn: `urn:ogc:def:crs:EPSG::${w}` };
}

/**
 * The CRS a client names, or a WfsError (InvalidParameterValue at
 * `locator`) when it is not one the engine projects to.
 *
 * @example
 * ```ts
 * parseCrs("EPSG:4326", "SRSNAME").latFirst; // false
 * parseCrs("urn:ogc:def:crs:EPSG::4326", "SRSNAME").latFirst; // true
 * ```
 */
export function parseCrs(name: string, locator: string): WfsCrs {
  const s = name.trim();
  let m = /^EPSG:(\d{1,9})$/i.exec(s);
  if (m) return checked({ ...urnCrs(Number(m[1])), latFirst: false }, name, locator);
  m = /^urn:(?:ogc|x-ogc):def:crs:EPSG:[^:]*:(\d{1,9})$/i.exec(s) ??
    /^https?:\/\/www\.opengis\.net\/def\/crs\/EPSG\/0\/(\d{1,9})$/i.exec(s) ??
    /^https?:\/\/www\.opengis\.net\/gml\/srs\/epsg\.xml#(\d{1,9})$/i.exec(s);
  if (m) {
    const crs = urnCrs(Number(m[1]));
    // The old gml/srs/epsg.xml# form is x, y whatever the CRS.
    if (/epsg\.xml#/i.test(s)) crs.latFirst = false;
    return checked(crs, name, locator);
  }
  if (
    /^(urn:ogc:def:crs:OGC:1\.3:CRS84|CRS:?84|https?:\/\/www\.opengis\.net\/def\/crs\/OGC\/1\.3\/CRS84)$/i
      .test(s)
  ) {
    return { ...urnCrs(4326), latFirst: false };
  }
  throw new WfsError(
    "InvalidParameterValue",
    `The CRS "${name}" is not known; use an EPSG code (EPSG:4326, urn:ogc:def:crs:EPSG::3857).`,
    locator,
  );
}

function checked(crs: WfsCrs, name: string, locator: string): WfsCrs {
  if (crs.wkid !== 4326 && !canProject(4326, crs.wkid)) {
    throw new WfsError(
      "InvalidParameterValue",
      `The CRS "${name}" is not one this server projects to.`,
      locator,
    );
  }
  return crs;
}

/**
 * A position between (x, y) = (east, north) and `crs`'s axis order (the swap is its own inverse).
 *
 * @example
 * ```ts
 * axes(urnCrs(4326), [37.6, 55.7]); // [55.7, 37.6]
 * ```
 */
export function axes(crs: WfsCrs, p: Position): Position {
  return crs.latFirst ? [p[1], p[0]] : p;
}
