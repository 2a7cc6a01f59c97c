/**
 * ESRI Shapefiles (`.shp` geometry, `.shx` record index, `.dbf`
 * attributes, `.prj` spatial reference, `.cpg` text encoding) as
 * in-memory layer sources.
 *
 * A reader of our own rather than an npm package: the format is small
 * (fixed binary records), and the sources need what the packages leave
 * out or get differently: typed fields with DBF NULLs (blank or `*`
 * numerics, `?` logicals, empty dates), the encoding rules GDAL follows
 * (`.cpg`, then the DBF language driver id), M/Z variants read as 2-D,
 * and synchronous reads (FeatureSource is synchronous).
 *
 * Object ids are record numbers (1, 2, …) in a field named FID, as ArcGIS
 * gives them (OBJECTID when the DBF has a FID column already); deleted
 * DBF records are left out, keeping the numbers of the others. Polygon
 * rings are grouped into polygons by orientation (outer rings clockwise,
 * holes counter-clockwise, each hole belonging to the outer ring it lies
 * in). The envelope index is the in-memory grid of MemoryFeatureSource,
 * built on load.
 *
 * @module
 */
import type { AttributeValue, Feature, FieldInfo, LayerGeometryType, Position } from "../types.ts";
import type { FeatureSource } from "./source.ts";
import { MemoryFeatureSource } from "./_memory_source.ts";
import { partsToGeometry, type WkbParts } from "./_wkb.ts";
import { isClockwise } from "../geo/rings.ts";
import { wktSpatialReference } from "../geo/projection.ts";

/** Options of the shapefile source. */
export interface ShapefileOptions {
  /** DBF text encoding (a TextDecoder label or a code page: "CP1251", "1251", "UTF-8"…); overrides `.cpg`. */
  encoding?: string;
  /** Spatial reference of the coordinates; overrides `.prj`. */
  wkid?: number;
}

/** A shapefile that cannot be read: the message names the file. */
export class ShapefileError extends Error {
  /** Builds "<file>: <problem>". */
  constructor(readonly file: string, problem: string) {
    super(`${file}: ${problem}`);
    this.name = "ShapefileError";
  }
}

/** A DBF field as declared. */
export interface DbfField {
  name: string;
  /** dBase type letter: C, N, F, L, D, I, M… */
  kind: string;
  length: number;
  decimals: number;
}

/** A decoded DBF table. */
export interface DbfTable {
  fields: DbfField[];
  /** One row per record; null for deleted records. */
  rows: (Record<string, AttributeValue> | null)[];
  /** The TextDecoder label used for text. */
  encoding: string;
}

/** Language driver ids (DBF byte 29) → TextDecoder labels, as GDAL reads them. */
const LDID: Record<number, string> = {
  0x01: "ibm866", // cp437 has no TextDecoder; 866 shares its ASCII half
  0x02: "windows-1252",
  0x03: "windows-1252",
  0x26: "ibm866",
  0x57: "windows-1252",
  0x58: "windows-1252",
  0x59: "windows-1252",
  0x64: "ibm852",
  0x65: "ibm866",
  0x66: "ibm865",
  0x78: "big5",
  0x7a: "gbk",
  0x7b: "shift_jis",
  0x7c: "windows-874",
  0x7d: "windows-1255",
  0x7e: "windows-1256",
  0xc8: "windows-1250",
  0xc9: "windows-1251",
  0xca: "windows-1254",
  0xcb: "windows-1253",
  0xcc: "windows-1257",
};

/**
 * The TextDecoder label of a code page as `.cpg` files and the `encoding`
 * member write it ("UTF-8", "CP1251", "1251", "ANSI 1251", "866"…), or
 * null when unknown.
 *
 * @example
 * ```ts
 * encodingLabel("ANSI 1251"); // "windows-1251"
 * ```
 */
export function encodingLabel(name: string): string | null {
  const t = name.trim().toLowerCase().replace(/^(ansi|cp|windows|win|oem|ibm)[\s_-]*/, "");
  const label = /^\d+$/.test(t)
    ? (/^125\d$/.test(t) || t === "874" ? `windows-${t}` : `ibm${t}`)
    : /^8859[\s_-]*(\d+)$/.test(t)
    ? `iso-8859-${/(\d+)$/.exec(t)![1]}`
    : name.trim().toLowerCase();
  try {
    new TextDecoder(label);
    return label;
  } catch {
    return null;
  }
}

function u16(b: Uint8Array, at: number): number {
  return b[at] | (b[at + 1] << 8);
}

function ascii(b: Uint8Array): string {
  let s = "";
  for (const c of b) {
    if (c === 0) break;
    s += String.fromCharCode(c);
  }
  return s;
}

function dbfValue(raw: Uint8Array, f: DbfField, decoder: TextDecoder): AttributeValue {
  switch (f.kind) {
    case "N":
    case "F": {
      const s = ascii(raw).trim();
      if (s === "" || /^\*+$/.test(s)) return null;
      const n = Number(s);
      return Number.isFinite(n) ? n : null;
    }
    case "L": {
      const c = String.fromCharCode(raw[0]).toUpperCase();
      return "YT".includes(c) ? 1 : "NF".includes(c) ? 0 : null;
    }
    case "D": {
      const m = /^(\d{4})(\d{2})(\d{2})$/.exec(ascii(raw).trim());
      // "00000000" is shapelib's NULL date; years below 100 are not shifted to 19xx.
      if (!m || m[0] === "00000000") return null;
      const d = new Date(0);
      d.setUTCFullYear(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
      return d.getTime();
    }
    case "I":
      return new DataView(raw.buffer, raw.byteOffset, 4).getInt32(0, true);
    case "O":
      return new DataView(raw.buffer, raw.byteOffset, 8).getFloat64(0, true);
    default: {
      const s = decoder.decode(raw).replace(/[\0 ]+$/, "");
      return s === "" ? null : s; // shapelib: an empty text value is NULL
    }
  }
}

/**
 * Decodes a DBF file. `encoding` (a TextDecoder label) wins over the
 * language driver id; without either text is read as GDAL does (ISO-8859-1).
 *
 * @example
 * ```ts
 * const table = readDbf(Deno.readFileSync("cities.dbf"), "windows-1251", "cities.dbf");
 * ```
 */
export function readDbf(bytes: Uint8Array, encoding: string | null, file: string): DbfTable {
  if (bytes.length < 32) throw new ShapefileError(file, "is truncated (no DBF header)");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = view.getUint32(4, true);
  const headerLength = u16(bytes, 8);
  const recordLength = u16(bytes, 10);
  const label = encoding ?? LDID[bytes[29]] ?? "windows-1252";
  const decoder = new TextDecoder(label);
  const fields: DbfField[] = [];
  for (let at = 32; at + 32 <= headerLength && bytes[at] !== 0x0d; at += 32) {
    fields.push({
      name: decoder.decode(bytes.subarray(at, at + 11)).replace(/\0.*$/s, "").trim(),
      kind: String.fromCharCode(bytes[at + 11]).toUpperCase(),
      length: bytes[at + 16],
      decimals: bytes[at + 17],
    });
  }
  const width = 1 + fields.reduce((s, f) => s + f.length, 0);
  if (recordLength < width) {
    throw new ShapefileError(
      file,
      `record length ${recordLength} is less than its fields' ${width}`,
    );
  }
  if (headerLength + count * recordLength > bytes.length) {
    throw new ShapefileError(
      file,
      `is truncated: ${count} records need ${
        headerLength + count * recordLength
      } bytes, the file has ${bytes.length}`,
    );
  }
  const rows: DbfTable["rows"] = [];
  for (let i = 0; i < count; i++) {
    let at = headerLength + i * recordLength;
    if (bytes[at] === 0x2a) {
      rows.push(null);
      continue;
    }
    at++;
    const row: Record<string, AttributeValue> = {};
    for (const f of fields) {
      row[f.name] = dbfValue(bytes.subarray(at, at + f.length), f, decoder);
      at += f.length;
    }
    rows.push(row);
  }
  return { fields, rows, encoding: label };
}

/** The field of a DBF column as OGR reads it (N without decimals: Integer when it fits). */
function fieldInfo(f: DbfField): FieldInfo {
  const base = { name: f.name, alias: f.name, length: 0, nullable: true };
  switch (f.kind) {
    case "N":
    case "F":
      return { ...base, type: f.decimals === 0 && f.length < 10 ? "Integer" : "Double" };
    case "I":
      return { ...base, type: "Integer" };
    case "O":
      return { ...base, type: "Double" };
    case "L":
      return { ...base, type: "SmallInteger" };
    case "D":
      return { ...base, type: "Date" };
    default:
      return { ...base, type: "String", length: f.length };
  }
}

const SHAPE_KIND: Record<number, LayerGeometryType | "Null"> = {
  0: "Null",
  1: "Point",
  11: "Point",
  21: "Point",
  3: "Polyline",
  13: "Polyline",
  23: "Polyline",
  5: "Polygon",
  15: "Polygon",
  25: "Polygon",
  8: "Multipoint",
  18: "Multipoint",
  28: "Multipoint",
};

/** Groups shapefile rings into [outer, ...holes] polygons: holes join the outer ring holding them. */
function groupRings(rings: Position[][]): Position[][][] {
  const polygons: Position[][][] = [];
  const holes: Position[][] = [];
  for (const r of rings) {
    if (r.length < 4) continue;
    if (isClockwise(r)) polygons.push([r]);
    else holes.push(r);
  }
  for (const h of holes) {
    const owner = polygons.find((p) => inside(h[0], p[0])) ?? null;
    if (owner) owner.push(h);
    else polygons.push([h]); // a lone counter-clockwise ring is an outer ring written backwards
  }
  return polygons;
}

function inside(pt: Position, ring: Position[]): boolean {
  let c = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i], [xj, yj] = ring[j];
    if ((yi > pt[1]) !== (yj > pt[1]) && pt[0] < ((xj - xi) * (pt[1] - yi)) / (yj - yi) + xi) {
      c = !c;
    }
  }
  return c;
}

/** Decoded parts of one .shp record's content, or null for a null shape. */
function readShape(view: DataView, at: number, length: number, file: string): WkbParts | null {
  const end = at + length;
  const need = (n: number) => {
    if (at + n > end || at + n > view.byteLength) {
      throw new ShapefileError(file, `is truncated (a record at byte ${at} needs ${n} bytes more)`);
    }
  };
  need(4);
  const kind = SHAPE_KIND[view.getInt32(at, true)];
  if (kind === undefined) {
    throw new ShapefileError(file, `has an unsupported shape type ${view.getInt32(at, true)}`);
  }
  at += 4;
  const out: WkbParts = { points: [], paths: [], polygons: [] };
  const pt = (): Position => {
    need(16);
    const p: Position = [view.getFloat64(at, true), view.getFloat64(at + 8, true)];
    at += 16;
    return p;
  };
  switch (kind) {
    case "Null":
      return null;
    case "Point":
      out.points.push(pt());
      return out;
    case "Multipoint": {
      need(36);
      const n = view.getInt32(at + 32, true);
      at += 36;
      for (let i = 0; i < n; i++) out.points.push(pt());
      return out;
    }
    default: {
      need(40);
      const parts = view.getInt32(at + 32, true), points = view.getInt32(at + 36, true);
      at += 40;
      need(parts * 4);
      const starts: number[] = [];
      for (let i = 0; i < parts; i++) starts.push(view.getInt32(at + i * 4, true));
      at += parts * 4;
      const all: Position[] = [];
      for (let i = 0; i < points; i++) all.push(pt());
      const lines = starts.map((s, i) => all.slice(s, i + 1 < parts ? starts[i + 1] : points));
      if (kind === "Polyline") out.paths.push(...lines);
      else out.polygons.push(...groupRings(lines));
      return out;
    }
  }
}

/** Decoded geometry records of a .shp/.shx pair, by record index (0-based). */
export interface ShpContent {
  geometryType: LayerGeometryType;
  shapes: (WkbParts | null)[];
}

/**
 * Reads the geometries of a `.shp` through its `.shx` index.
 *
 * @example
 * ```ts
 * const { shapes } = readShp(Deno.readFileSync("a.shp"), Deno.readFileSync("a.shx"), "a.shp");
 * ```
 */
export function readShp(shp: Uint8Array, shx: Uint8Array, file: string): ShpContent {
  const shxFile = file.replace(/\.shp$/i, ".shx");
  if (shp.length < 100) throw new ShapefileError(file, "is truncated (no 100-byte header)");
  if (shx.length < 100) throw new ShapefileError(shxFile, "is truncated (no 100-byte header)");
  const view = new DataView(shp.buffer, shp.byteOffset, shp.byteLength);
  const index = new DataView(shx.buffer, shx.byteOffset, shx.byteLength);
  if (view.getInt32(0, false) !== 9994) throw new ShapefileError(file, "is not a shapefile");
  const declared = view.getInt32(24, false) * 2;
  if (declared > shp.length) {
    throw new ShapefileError(
      file,
      `is truncated: its header says ${declared} bytes, the file has ${shp.length}`,
    );
  }
  const kind = SHAPE_KIND[view.getInt32(32, true)];
  if (kind === undefined || kind === "Null") {
    throw new ShapefileError(file, `has an unsupported shape type ${view.getInt32(32, true)}`);
  }
  const n = Math.floor((shx.length - 100) / 8);
  const shapes: (WkbParts | null)[] = [];
  for (let i = 0; i < n; i++) {
    const offset = index.getInt32(100 + i * 8, false) * 2;
    const length = index.getInt32(104 + i * 8, false) * 2;
    if (offset + 8 + length > shp.length) {
      throw new ShapefileError(file, `is truncated at record ${i + 1}`);
    }
    shapes.push(readShape(view, offset + 8, length, file));
  }
  return { geometryType: kind, shapes };
}

function readOptional(path: string): Uint8Array | null {
  try {
    return Deno.readFileSync(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return null;
    throw e;
  }
}

function sibling(path: string, ext: string): string {
  const base = path.replace(/\.shp$/i, "");
  for (const e of [ext, ext.toUpperCase()]) {
    const p = base + e;
    try {
      Deno.statSync(p);
      return p;
    } catch { /* try the next spelling */ }
  }
  return base + ext;
}

/**
 * Opens a shapefile (the `.shp` path; `.shx` and `.dbf` beside it are
 * required, `.prj` and `.cpg` optional) as an in-memory source. Errors
 * are ShapefileErrors naming the file at fault.
 *
 * @example
 * ```ts
 * const roads = openShapefile("maps/roads.shp", { encoding: "CP1251" });
 * ```
 */
export function openShapefile(path: string, opts: ShapefileOptions = {}): FeatureSource {
  const need = (p: string): Uint8Array => {
    const b = readOptional(p);
    if (!b) {
      throw new ShapefileError(p, "does not exist (a shapefile needs its .shp, .shx and .dbf)");
    }
    return b;
  };
  const shp = need(path);
  const shxPath = sibling(path, ".shx"), dbfPath = sibling(path, ".dbf");
  const shx = need(shxPath);
  const dbf = need(dbfPath);
  let encoding: string | null = null;
  if (opts.encoding !== undefined) {
    encoding = encodingLabel(opts.encoding);
    if (!encoding) throw new ShapefileError(path, `unknown encoding "${opts.encoding}"`);
  } else {
    const cpgPath = sibling(path, ".cpg");
    const cpg = readOptional(cpgPath);
    if (cpg) {
      const name = new TextDecoder().decode(cpg).trim();
      encoding = encodingLabel(name);
      if (!encoding) {
        throw new ShapefileError(cpgPath, `names an unknown encoding "${name}"; set "encoding"`);
      }
    }
  }
  let wkid = opts.wkid;
  if (wkid === undefined) {
    const prjPath = sibling(path, ".prj");
    const prj = readOptional(prjPath);
    if (!prj) wkid = 0;
    else {
      const wkt = new TextDecoder().decode(prj);
      try {
        const sr = wktSpatialReference(wkt);
        if (sr.xShift !== 0) throw new Error("a shifted central meridian");
        wkid = sr.wkid;
      } catch {
        throw new ShapefileError(
          prjPath,
          `holds a spatial reference this server cannot identify (${
            wkt.slice(0, 60).trim()
          }…); set "wkid"`,
        );
      }
    }
  }
  const { geometryType, shapes } = readShp(shp, shx, path);
  const table = readDbf(dbf, encoding, dbfPath);
  if (table.rows.length !== shapes.length) {
    throw new ShapefileError(
      dbfPath,
      `has ${table.rows.length} records but ${shxPath} indexes ${shapes.length} shapes`,
    );
  }
  const fields = table.fields.filter((f) => f.kind !== "M").map(fieldInfo);
  const idName = ["FID", "OBJECTID", "OBJECTID_1", "OBJECTID_2"].find((n) =>
    !fields.some((f) => f.name.toLowerCase() === n.toLowerCase())
  )!;
  const features: Feature[] = [];
  table.rows.forEach((row, i) => {
    if (!row) return;
    const attributes: Record<string, AttributeValue> = {};
    for (const f of fields) attributes[f.name] = row[f.name] ?? null;
    const parts = shapes[i];
    features.push({
      id: i + 1,
      attributes,
      geometry: parts ? partsToGeometry(parts, geometryType) : null,
    });
  });
  const mtime = Deno.statSync(path).mtime?.getTime() ?? 0;
  return new MemoryFeatureSource({
    features,
    fields: [
      { name: idName, type: "OID", alias: idName, length: 4, nullable: false },
      { name: "Shape", type: "Geometry", alias: "Shape", length: 0, nullable: true },
      ...fields,
    ],
    idField: idName,
    wkid,
    geometryType,
    revision: String(mtime),
  });
}
