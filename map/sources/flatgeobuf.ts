/**
 * FlatGeobuf files (`.fgb`) as layer sources: the header (columns, CRS,
 * geometry type), the features, and the packed Hilbert R-tree that
 * answers envelope prefilters when the file has one.
 *
 * A reader of our own over the format's FlatBuffers tables (see
 * `_flatbuffer.ts`) rather than the `flatgeobuf` npm package: that
 * package reads asynchronously (streams, HTTP ranges), while a
 * FeatureSource is synchronous, and the sources need typed fields with
 * NULLs and ArcGIS geometries, which the package leaves to its callers.
 *
 * Object ids are the features' positions in the file (1, 2, …) in a field
 * named FID (OBJECTID when a column is called FID), as the shapefile
 * source numbers records. A file written with a spatial index stores its
 * features in Hilbert order, so its ids follow that order, as GDAL's own
 * FIDs for the file do.
 *
 * @module
 */
import type { AttributeValue, Extent, Feature, FieldInfo, LayerGeometryType } from "../types.ts";
import type { FeatureSource } from "./source.ts";
import { MemoryFeatureSource } from "./_memory_source.ts";
import { layerTypeOfParts, partsToGeometry, type WkbParts } from "./_wkb.ts";
import { FlatTable, rootTable } from "./_flatbuffer.ts";
import { wktSpatialReference } from "../geo/projection.ts";
import { parseDateLiteral } from "../query/_values.ts";

/** Options of the FlatGeobuf source. */
export interface FlatGeobufOptions {
  /** Spatial reference of the coordinates; overrides the file's CRS. */
  wkid?: number;
}

/** A FlatGeobuf file that cannot be read: the message names the file. */
export class FlatGeobufError extends Error {
  /** Builds "<file>: <problem>". */
  constructor(readonly file: string, problem: string) {
    super(`${file}: ${problem}`);
    this.name = "FlatGeobufError";
  }
}

/** The 8 magic bytes: "fgb", major version 3, "fgb", patch. */
const MAGIC = [0x66, 0x67, 0x62, 0x03, 0x66, 0x67, 0x62];

/** FlatGeobuf geometry type codes (header and geometry tables). */
const enum GeometryCode {
  Unknown = 0,
  Point = 1,
  LineString = 2,
  Polygon = 3,
  MultiPoint = 4,
  MultiLineString = 5,
  MultiPolygon = 6,
  GeometryCollection = 7,
}

/** Layer types of the header's geometry type (Unknown: decided by the features). */
const LAYER_TYPE: Record<number, LayerGeometryType> = {
  [GeometryCode.Point]: "Point",
  [GeometryCode.MultiPoint]: "Multipoint",
  [GeometryCode.LineString]: "Polyline",
  [GeometryCode.MultiLineString]: "Polyline",
  [GeometryCode.Polygon]: "Polygon",
  [GeometryCode.MultiPolygon]: "Polygon",
};

/** Column types, in the schema's order. */
const COLUMN_TYPES = [
  "Byte",
  "UByte",
  "Bool",
  "Short",
  "UShort",
  "Int",
  "UInt",
  "Long",
  "ULong",
  "Float",
  "Double",
  "String",
  "Json",
  "DateTime",
  "Binary",
] as const;
type ColumnType = typeof COLUMN_TYPES[number];

/** A column as the header declares it. */
interface Column {
  name: string;
  type: ColumnType;
  width: number;
  nullable: boolean;
}

/** What the header says. */
interface Header {
  geometryType: number;
  columns: Column[];
  featuresCount: number;
  indexNodeSize: number;
  crsCode: number;
  crsOrg: string | null;
  crsWkt: string | null;
}

function readHeader(t: FlatTable): Header {
  const columns = t.tables(7).map((c): Column => {
    const code = c.u8(1, 0);
    const type = COLUMN_TYPES[code];
    if (type === undefined) throw new Error(`column type ${code} is not a FlatGeobuf type`);
    return {
      name: c.string(0) ?? "",
      type,
      width: c.i32(4, -1),
      nullable: c.bool(7, true),
    };
  });
  const crs = t.table(10);
  return {
    geometryType: t.u8(2, 0),
    columns,
    featuresCount: Number(t.u64(8, 0n)),
    indexNodeSize: t.u16(9, 16),
    crsCode: crs?.i32(1, 0) ?? 0,
    crsOrg: crs?.string(0) ?? null,
    crsWkt: crs?.string(4) ?? null,
  };
}

/** Bytes of one R-tree node: four float64 bounds and a uint64 offset. */
const NODE_BYTES = 40;

/** Node ranges [start, end) of each tree level, leaves first, as the format lays them out. */
function levelBounds(numItems: number, nodeSize: number): [number, number][] {
  let n = numItems;
  let numNodes = n;
  const counts = [n];
  do {
    n = Math.ceil(n / nodeSize);
    numNodes += n;
    counts.push(n);
  } while (n !== 1);
  const bounds: [number, number][] = [];
  let end = numNodes;
  for (const c of counts) {
    bounds.push([end - c, end]);
    end -= c;
  }
  return bounds;
}

/** The packed Hilbert R-tree of a file: feature byte offsets whose boxes meet a box. */
class PackedRTree {
  readonly byteLength: number;
  readonly #view: DataView;
  readonly #bounds: [number, number][];
  readonly #numNodes: number;
  readonly #numItems: number;

  constructor(bytes: Uint8Array, at: number, numItems: number, readonly nodeSize: number) {
    this.#bounds = levelBounds(numItems, nodeSize);
    this.#numNodes = this.#bounds[0][1];
    this.#numItems = numItems;
    this.byteLength = this.#numNodes * NODE_BYTES;
    if (at + this.byteLength > bytes.length) throw new Error("the spatial index is truncated");
    this.#view = new DataView(bytes.buffer, bytes.byteOffset + at, this.byteLength);
  }

  /** Byte offsets (from the first feature) of the features whose boxes meet `box`. */
  search(box: Extent): number[] {
    const v = this.#view;
    const found: number[] = [];
    const leaves = this.#numNodes - this.#numItems;
    // [node index, level]; the root is the only node of the top level.
    const stack: [number, number][] = [[0, this.#bounds.length - 1]];
    while (stack.length > 0) {
      const [start, level] = stack.pop()!;
      const end = Math.min(start + this.nodeSize, this.#bounds[level][1]);
      for (let i = start; i < end; i++) {
        const p = i * NODE_BYTES;
        if (
          v.getFloat64(p, true) > box.xmax || v.getFloat64(p + 8, true) > box.ymax ||
          v.getFloat64(p + 16, true) < box.xmin || v.getFloat64(p + 24, true) < box.ymin
        ) continue;
        const offset = Number(v.getBigUint64(p + 32, true));
        if (i >= leaves) found.push(offset);
        else stack.push([offset, level - 1]);
      }
    }
    return found;
  }
}

/** Appends a FlatGeobuf geometry table's parts (coordinates beyond x and y are left out). */
function readGeometry(g: FlatTable, type: number, out: WkbParts, depth = 0): void {
  if (depth > 32) throw new Error("geometry collections are nested too deeply");
  const own = g.u8(6, 0);
  const code = own !== GeometryCode.Unknown ? own : type;
  if (code === GeometryCode.MultiPolygon || code === GeometryCode.GeometryCollection) {
    for (const part of g.tables(7)) {
      readGeometry(
        part,
        code === GeometryCode.MultiPolygon ? GeometryCode.Polygon : GeometryCode.Unknown,
        out,
        depth + 1,
      );
    }
    return;
  }
  const xy = g.f64s(1);
  const points: [number, number][] = [];
  for (let i = 0; i + 1 < xy.length; i += 2) points.push([xy[i], xy[i + 1]]);
  const ends = g.u32s(0);
  const slices = (): [number, number][][] => {
    if (ends.length === 0) return [points];
    let from = 0;
    return Array.from(ends, (end) => points.slice(from, from = end));
  };
  switch (code) {
    case GeometryCode.Point:
    case GeometryCode.MultiPoint:
      out.points.push(...points);
      break;
    case GeometryCode.LineString:
    case GeometryCode.MultiLineString:
      out.paths.push(...slices());
      break;
    case GeometryCode.Polygon:
      if (points.length > 0) out.polygons.push(slices());
      break;
    default:
      throw new Error(`geometry type ${code} is not supported (curves, TIN, …)`);
  }
}

function fieldInfo(c: Column): FieldInfo | null {
  const base = { name: c.name, alias: c.name, length: 0, nullable: c.nullable };
  switch (c.type) {
    case "Byte":
    case "UByte":
    case "Bool":
    case "Short":
      return { ...base, type: "SmallInteger" };
    case "UShort":
    case "Int":
      return { ...base, type: "Integer" };
    case "UInt":
    case "Long":
    case "ULong":
      return { ...base, type: "Integer" }; // widened below when a value does not fit
    case "Float":
      return { ...base, type: "Single" };
    case "Double":
      return { ...base, type: "Double" };
    case "String":
    case "Json":
      return { ...base, type: "String", length: Math.max(0, c.width) };
    case "DateTime":
      return { ...base, type: "Date" };
    case "Binary":
      return null;
  }
}

const textDecoder = new TextDecoder("utf-8", { fatal: false });

/** Decodes a feature's properties buffer: (uint16 column index, value) pairs. */
function readProperties(
  bytes: Uint8Array,
  columns: Column[],
  into: Record<string, AttributeValue>,
): void {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let p = 0;
  const need = (n: number) => {
    if (p + n > bytes.length) throw new Error("a feature's properties are truncated");
  };
  while (p < bytes.length) {
    need(2);
    const i = v.getUint16(p, true);
    p += 2;
    const c = columns[i];
    if (!c) throw new Error(`a feature names column ${i}, but the header has ${columns.length}`);
    let value: AttributeValue;
    switch (c.type) {
      case "Byte":
        need(1), value = v.getInt8(p), p += 1;
        break;
      case "UByte":
        need(1), value = v.getUint8(p), p += 1;
        break;
      case "Bool":
        need(1), value = v.getUint8(p) ? 1 : 0, p += 1;
        break;
      case "Short":
        need(2), value = v.getInt16(p, true), p += 2;
        break;
      case "UShort":
        need(2), value = v.getUint16(p, true), p += 2;
        break;
      case "Int":
        need(4), value = v.getInt32(p, true), p += 4;
        break;
      case "UInt":
        need(4), value = v.getUint32(p, true), p += 4;
        break;
      case "Long":
        need(8), value = Number(v.getBigInt64(p, true)), p += 8;
        break;
      case "ULong":
        need(8), value = Number(v.getBigUint64(p, true)), p += 8;
        break;
      case "Float":
        need(4), value = v.getFloat32(p, true), p += 4;
        break;
      case "Double":
        need(8), value = v.getFloat64(p, true), p += 8;
        break;
      default: {
        need(4);
        const n = v.getUint32(p, true);
        p += 4;
        need(n);
        const raw = bytes.subarray(p, p + n);
        p += n;
        if (c.type === "Binary") continue;
        const text = textDecoder.decode(raw);
        value = c.type === "DateTime"
          ? parseDateLiteral(text) ?? (Number.isNaN(Date.parse(text)) ? null : Date.parse(text))
          : text;
      }
    }
    into[c.name] = value;
  }
}

/** The layer's spatial reference from the header (EPSG code, else its WKT). */
function headerWkid(h: Header, file: string): number {
  if (h.crsCode > 0 && (h.crsOrg === null || /^(EPSG|ESRI)$/i.test(h.crsOrg))) return h.crsCode;
  if (h.crsWkt) {
    try {
      const sr = wktSpatialReference(h.crsWkt);
      if (sr.xShift === 0) return sr.wkid;
    } catch { /* reported below */ }
    throw new FlatGeobufError(
      file,
      `holds a spatial reference this server cannot identify (${
        h.crsWkt.slice(0, 60).trim()
      }…); set "wkid"`,
    );
  }
  return 0;
}

/**
 * Reads FlatGeobuf bytes into a source. `file` names the data in errors.
 *
 * @example
 * ```ts
 * const source = readFlatGeobuf(Deno.readFileSync("maps/roads.fgb"), "roads.fgb");
 * source.count({});
 * ```
 */
export function readFlatGeobuf(
  bytes: Uint8Array,
  file: string,
  opts: FlatGeobufOptions & { revision?: string } = {},
): FeatureSource {
  if (bytes.length < 12 || MAGIC.some((b, i) => bytes[i] !== b)) {
    throw new FlatGeobufError(file, "is not a FlatGeobuf file (version 3)");
  }
  try {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const headerSize = view.getUint32(8, true);
    if (12 + headerSize > bytes.length) throw new Error("the header is truncated");
    const header = readHeader(rootTable(bytes.subarray(12, 12 + headerSize)));
    let at = 12 + headerSize;
    let tree: PackedRTree | null = null;
    if (header.indexNodeSize > 0 && header.featuresCount > 0) {
      if (header.indexNodeSize < 2) throw new Error("the index node size is below 2");
      tree = new PackedRTree(bytes, at, header.featuresCount, header.indexNodeSize);
      at += tree.byteLength;
    }
    const featuresStart = at;
    const fields = header.columns.map(fieldInfo).filter((f): f is FieldInfo => f !== null);
    const idName = ["FID", "OBJECTID", "OBJECTID_1", "OBJECTID_2"].find((n) =>
      !fields.some((f) => f.name.toLowerCase() === n.toLowerCase())
    )!;
    const features: Feature[] = [];
    const parts: (WkbParts | null)[] = [];
    const indexOfOffset = new Map<number, number>();
    while (at < bytes.length) {
      if (at + 4 > bytes.length) throw new Error("a feature's size is truncated");
      const size = view.getUint32(at, true);
      if (at + 4 + size > bytes.length) throw new Error("a feature is truncated");
      indexOfOffset.set(at - featuresStart, features.length);
      const f = rootTable(bytes.subarray(at + 4, at + 4 + size));
      const attributes: Record<string, AttributeValue> = {};
      for (const c of fields) attributes[c.name] = null;
      const props = f.bytes(1);
      if (props) readProperties(props, header.columns, attributes);
      const g = f.table(0);
      let p: WkbParts | null = null;
      if (g) {
        p = { points: [], paths: [], polygons: [] };
        readGeometry(g, header.geometryType, p);
      }
      parts.push(p);
      features.push({ id: features.length + 1, attributes, geometry: null });
      at += 4 + size;
    }
    if (tree && features.length !== header.featuresCount) {
      throw new Error(
        `the header counts ${header.featuresCount} features, the file holds ${features.length}`,
      );
    }
    const geometryType = LAYER_TYPE[header.geometryType] ??
      parts.map((p) => p && layerTypeOfParts(p)).find((t) => t) ?? "Point";
    features.forEach((f, i) => {
      const p = parts[i];
      f.geometry = p ? partsToGeometry(p, geometryType) : null;
    });
    widenIntegers(fields, features);
    return new MemoryFeatureSource({
      features,
      fields: [
        { name: idName, type: "OID", alias: idName, length: 4, nullable: false },
        { name: "Shape", type: "Geometry", alias: "Shape", length: 0, nullable: true },
        ...fields,
      ],
      idField: idName,
      wkid: opts.wkid ?? headerWkid(header, file),
      geometryType,
      revision: opts.revision ?? String(bytes.length),
      index: tree
        ? (box) =>
          tree.search(box).map((o) => indexOfOffset.get(o)).filter((i): i is number =>
            i !== undefined
          )
        : undefined,
    });
  } catch (e) {
    if (e instanceof FlatGeobufError) throw e;
    throw new FlatGeobufError(file, e instanceof Error ? e.message : String(e));
  }
}

/** Integer fields holding a value beyond 32 bits become Double, as the GeoPackage source does. */
function widenIntegers(fields: FieldInfo[], features: Feature[]): void {
  for (const f of fields) {
    if (f.type !== "Integer") continue;
    const fits = features.every((x) => {
      const v = x.attributes[f.name];
      return typeof v !== "number" || (Number.isInteger(v) && Math.abs(v) <= 2147483647);
    });
    if (!fits) f.type = "Double";
  }
}

/**
 * Opens a FlatGeobuf file as an in-memory source; boxes are answered from
 * the file's packed R-tree when it has one. Errors are FlatGeobufErrors
 * naming the file.
 *
 * @example
 * ```ts
 * const rivers = openFlatGeobuf("maps/rivers.fgb");
 * ```
 */
export function openFlatGeobuf(path: string, opts: FlatGeobufOptions = {}): FeatureSource {
  let bytes: Uint8Array;
  try {
    bytes = Deno.readFileSync(path);
  } catch (e) {
    throw new FlatGeobufError(
      path,
      e instanceof Deno.errors.NotFound ? "does not exist" : `cannot be read (${e})`,
    );
  }
  const mtime = Deno.statSync(path).mtime?.getTime() ?? 0;
  return readFlatGeobuf(bytes, path, { ...opts, revision: `${mtime}:${bytes.length}` });
}
