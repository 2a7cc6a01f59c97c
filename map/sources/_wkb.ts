/**
 * Well-known binary (ISO and EWKB flavours, both byte orders) and the
 * GeoPackage geometry blob around it (spec §2.1.3: "GP" magic, version,
 * flags, srs_id, optional envelope, WKB).
 *
 * Decoding yields the parts by family (points, paths, polygons); the
 * source then shapes them into the layer's ArcGIS geometry type, so a
 * GEOMETRYCOLLECTION of simple parts still reads sensibly.
 *
 * @module
 */
import { bboxOfParts } from "../geo/relate.ts";
import type { Extent, Geometry, LayerGeometryType, Position } from "../types.ts";
import { toArcgisRings } from "../geo/rings.ts";

/** Parts of a decoded geometry, grouped by family. */
export interface WkbParts {
  points: Position[];
  paths: Position[][];
  /** Each polygon as [outer, ...holes]. */
  polygons: Position[][][];
}

/** A decoded GeoPackage blob. */
export interface GpkgGeometry {
  srsId: number;
  envelope: Extent | null;
  empty: boolean;
  parts: WkbParts;
}

class Reader {
  pos = 0;
  little = true;
  constructor(readonly view: DataView) {}
  need(n: number): void {
    if (this.pos + n > this.view.byteLength) {
      throw new Error(`Truncated geometry blob (needs ${n} bytes at offset ${this.pos}).`);
    }
  }
  u8(): number {
    this.need(1);
    return this.view.getUint8(this.pos++);
  }
  u32(): number {
    this.need(4);
    const v = this.view.getUint32(this.pos, this.little);
    this.pos += 4;
    return v;
  }
  f64(): number {
    this.need(8);
    const v = this.view.getFloat64(this.pos, this.little);
    this.pos += 8;
    return v;
  }
}

function readGeometry(r: Reader, out: WkbParts, depth: number): void {
  if (depth > 32) throw new Error("Geometry collections are nested too deeply.");
  r.little = r.u8() === 1;
  let type = r.u32();
  // EWKB flags (PostGIS writers): Z, M and an embedded SRID.
  let dims = 2;
  if (type & 0x20000000) r.u32();
  if (type & 0x80000000) dims++;
  if (type & 0x40000000) dims++;
  type &= 0x0fffffff;
  const iso = Math.floor(type / 1000);
  if (iso === 1 || iso === 2) dims = 3;
  if (iso === 3) dims = 4;
  const base = type % 1000;
  const point = (): Position => {
    const x = r.f64();
    const y = r.f64();
    for (let i = 2; i < dims; i++) r.f64();
    return [x, y];
  };
  const points = (): Position[] => {
    const n = r.u32();
    if (n > (r.view.byteLength - r.pos) / 16) throw new Error("Corrupt point count in WKB.");
    const list: Position[] = new Array(n);
    for (let i = 0; i < n; i++) list[i] = point();
    return list;
  };
  switch (base) {
    case 1: {
      const p = point();
      if (!Number.isNaN(p[0]) && !Number.isNaN(p[1])) out.points.push(p);
      return;
    }
    case 2:
      out.paths.push(points());
      return;
    case 3: {
      const n = r.u32();
      const rings: Position[][] = [];
      for (let i = 0; i < n; i++) rings.push(points());
      if (rings.length > 0) out.polygons.push(rings);
      return;
    }
    case 4:
    case 5:
    case 6:
    case 7: {
      const n = r.u32();
      for (let i = 0; i < n; i++) {
        const keep = r.little;
        readGeometry(r, out, depth + 1);
        r.little = keep;
      }
      return;
    }
    default:
      throw new Error(
        `Unsupported WKB geometry type ${type} (curves, surfaces and TINs are not supported).`,
      );
  }
}

/**
 * Decodes WKB bytes into parts.
 *
 * @example
 * ```ts
 * const bytes = Uint8Array.of(1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 240, 63, 0, 0, 0, 0, 0, 0, 0, 64);
 * decodeWkb(bytes).points; // [[x, y]] for a point
 * ```
 */
export function decodeWkb(bytes: Uint8Array): WkbParts {
  const out: WkbParts = { points: [], paths: [], polygons: [] };
  readGeometry(new Reader(new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)), out, 0);
  return out;
}

const ENVELOPE_DOUBLES = [0, 4, 6, 6, 8];

/**
 * Decodes a GeoPackage geometry blob. Throws an Error on anything
 * that is not one.
 */
export function decodeGpkgBlob(bytes: Uint8Array): GpkgGeometry {
  if (bytes.length < 8 || bytes[0] !== 0x47 || bytes[1] !== 0x50) {
    throw new Error("Not a GeoPackage geometry blob (missing the GP magic).");
  }
  const flags = bytes[3];
  const little = (flags & 1) === 1;
  const envKind = (flags >> 1) & 7;
  if (envKind > 4) throw new Error(`Invalid GeoPackage envelope indicator ${envKind}.`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const srsId = view.getInt32(4, little);
  const n = ENVELOPE_DOUBLES[envKind];
  if (bytes.length < 8 + n * 8) throw new Error("Truncated GeoPackage geometry header.");
  let envelope: Extent | null = null;
  if (n > 0) {
    const e = (i: number) => view.getFloat64(8 + i * 8, little);
    envelope = { xmin: e(0), xmax: e(1), ymin: e(2), ymax: e(3) };
  }
  const empty = (flags & 0x10) !== 0;
  const parts = empty
    ? { points: [], paths: [], polygons: [] }
    : decodeWkb(bytes.subarray(8 + n * 8));
  return { srsId, envelope, empty, parts };
}

/**
 * Shapes decoded parts into the ArcGIS geometry of a layer type (polygon
 * rings re-oriented: outer clockwise, holes counter-clockwise). Parts of
 * other families are left out; null when nothing remains.
 */
export function partsToGeometry(parts: WkbParts, type: LayerGeometryType): Geometry | null {
  switch (type) {
    case "Point":
      if (parts.points.length === 0) return null;
      return parts.points.length === 1
        ? { type: "Point", x: parts.points[0][0], y: parts.points[0][1] }
        : { type: "Multipoint", points: parts.points };
    case "Multipoint":
      return parts.points.length === 0 ? null : { type: "Multipoint", points: parts.points };
    case "Polyline": {
      const paths = parts.paths.filter((p) => p.length >= 2);
      return paths.length === 0 ? null : { type: "Polyline", paths };
    }
    case "Polygon": {
      const rings = toArcgisRings(parts.polygons);
      return rings.length === 0 ? null : { type: "Polygon", rings };
    }
  }
}

/** The layer type that fits decoded parts best (for GEOMETRY columns). */
export function layerTypeOfParts(parts: WkbParts): LayerGeometryType | null {
  if (parts.polygons.length > 0) return "Polygon";
  if (parts.paths.length > 0) return "Polyline";
  if (parts.points.length > 1) return "Multipoint";
  if (parts.points.length === 1) return "Point";
  return null;
}

class Writer {
  private buf = new Uint8Array(256);
  private view = new DataView(this.buf.buffer);
  length = 0;
  private grow(n: number): void {
    if (this.length + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.length + n));
    next.set(this.buf);
    this.buf = next;
    this.view = new DataView(next.buffer);
  }
  u8(v: number): void {
    this.grow(1);
    this.view.setUint8(this.length++, v);
  }
  u32(v: number): void {
    this.grow(4);
    this.view.setUint32(this.length, v, true);
    this.length += 4;
  }
  i32(v: number): void {
    this.grow(4);
    this.view.setInt32(this.length, v, true);
    this.length += 4;
  }
  f64(v: number): void {
    this.grow(8);
    this.view.setFloat64(this.length, v, true);
    this.length += 8;
  }
  bytes(): Uint8Array {
    return this.buf.slice(0, this.length);
  }
}

function writeRing(w: Writer, ring: Position[]): void {
  w.u32(ring.length);
  for (const [x, y] of ring) {
    w.f64(x);
    w.f64(y);
  }
}

/**
 * Encodes one of our geometries as a little-endian GeoPackage blob with
 * an XY envelope (Point: no envelope, as the spec recommends). ArcGIS
 * polygon rings are written as one WKB Polygon per outer ring with the
 * holes that follow it; Envelopes become Polygons.
 */
export function encodeGpkgBlob(g: Geometry, srsId: number): Uint8Array {
  const w = new Writer();
  w.u8(0x47);
  w.u8(0x50);
  w.u8(0);
  const isPoint = g.type === "Point";
  w.u8(isPoint ? 0x01 : 0x03);
  w.i32(srsId);
  if (g.type === "Envelope") {
    const { xmin, ymin, xmax, ymax } = g;
    return encodeGpkgBlob({
      type: "Polygon",
      rings: [[[xmin, ymin], [xmin, ymax], [xmax, ymax], [xmax, ymin], [xmin, ymin]]],
    }, srsId);
  }
  const parts = g.type === "Point"
    ? [[[g.x, g.y] as Position]]
    : g.type === "Multipoint"
    ? [g.points]
    : g.type === "Polyline"
    ? g.paths
    : g.rings;
  if (!isPoint) {
    const e = bboxOfParts(parts) ??
      { xmin: Infinity, ymin: Infinity, xmax: -Infinity, ymax: -Infinity };
    w.f64(e.xmin);
    w.f64(e.xmax);
    w.f64(e.ymin);
    w.f64(e.ymax);
  }
  w.u8(1);
  switch (g.type) {
    case "Point":
      w.u32(1);
      w.f64(g.x);
      w.f64(g.y);
      break;
    case "Multipoint":
      w.u32(4);
      w.u32(g.points.length);
      for (const [x, y] of g.points) {
        w.u8(1);
        w.u32(1);
        w.f64(x);
        w.f64(y);
      }
      break;
    case "Polyline":
      w.u32(5);
      w.u32(g.paths.length);
      for (const path of g.paths) {
        w.u8(1);
        w.u32(2);
        writeRing(w, path);
      }
      break;
    case "Polygon": {
      // Group each clockwise (outer) ring with the counter-clockwise rings after it.
      const polys: Position[][][] = [];
      for (const ring of g.rings) {
        let area = 0;
        for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
          area += (ring[j][0] - ring[i][0]) * (ring[j][1] + ring[i][1]);
        }
        if (area <= 0 || polys.length === 0) polys.push([ring]);
        else polys[polys.length - 1].push(ring);
      }
      w.u32(6);
      w.u32(polys.length);
      for (const poly of polys) {
        w.u8(1);
        w.u32(3);
        w.u32(poly.length);
        for (const ring of poly) writeRing(w, ring);
      }
      break;
    }
  }
  return w.bytes();
}
