/**
 * The FlatGeobuf reader on files built here with the FlatBuffers project's
 * own JavaScript builder (`flatbuffers` from npm) after FlatGeobuf's
 * schema: every column type, NULLs and absent values, features without
 * geometry (which GDAL 3.6 cannot write), holes and multi-parts, and
 * damaged files. files_gdal_test.ts reads GDAL's files, with and without
 * the packed R-tree.
 */
import assert from "node:assert/strict";
import * as flatbuffers from "flatbuffers";
import { FlatGeobufError, openFlatGeobuf, readFlatGeobuf } from "./flatgeobuf.ts";

const MAGIC = [0x66, 0x67, 0x62, 0x03, 0x66, 0x67, 0x62, 0x00];

/** Column types by name, with their codes in the schema. */
const TYPE = {
  Byte: 0,
  UByte: 1,
  Bool: 2,
  Short: 3,
  UShort: 4,
  Int: 5,
  UInt: 6,
  Long: 7,
  ULong: 8,
  Float: 9,
  Double: 10,
  String: 11,
  Json: 12,
  DateTime: 13,
  Binary: 14,
} as const;
type ColumnType = keyof typeof TYPE;

interface TestGeometry {
  /** FlatGeobuf geometry type code. */
  type: number;
  xy?: number[];
  ends?: number[];
  parts?: TestGeometry[];
}

interface TestFeature {
  /** Column index → value (absent columns are left out of the buffer). */
  values: [number, number | bigint | string | Uint8Array][];
  geometry?: TestGeometry;
}

/** One value as FlatGeobuf's properties buffer holds it. */
function encodeValue(type: ColumnType, v: number | bigint | string | Uint8Array): Uint8Array {
  const sizes: Partial<Record<ColumnType, number>> = {
    Byte: 1,
    UByte: 1,
    Bool: 1,
    Short: 2,
    UShort: 2,
    Int: 4,
    UInt: 4,
    Long: 8,
    ULong: 8,
    Float: 4,
    Double: 8,
  };
  const size = sizes[type];
  if (size === undefined) {
    const bytes = typeof v === "string" ? new TextEncoder().encode(v) : v as Uint8Array;
    const out = new Uint8Array(4 + bytes.length);
    new DataView(out.buffer).setUint32(0, bytes.length, true);
    out.set(bytes, 4);
    return out;
  }
  const out = new Uint8Array(size);
  const d = new DataView(out.buffer);
  const n = v as number;
  ({
    Byte: () => d.setInt8(0, n),
    UByte: () => d.setUint8(0, n),
    Bool: () => d.setUint8(0, n),
    Short: () => d.setInt16(0, n, true),
    UShort: () => d.setUint16(0, n, true),
    Int: () => d.setInt32(0, n, true),
    UInt: () => d.setUint32(0, n, true),
    Long: () => d.setBigInt64(0, BigInt(v as number), true),
    ULong: () => d.setBigUint64(0, BigInt(v as number), true),
    Float: () => d.setFloat32(0, n, true),
    Double: () => d.setFloat64(0, n, true),
  } as Record<string, () => void>)[type]();
  return out;
}

function geometryTable(b: flatbuffers.Builder, g: TestGeometry): number {
  const parts = g.parts?.map((p) => geometryTable(b, p));
  let partsVec = 0, xyVec = 0, endsVec = 0;
  if (parts) {
    b.startVector(4, parts.length, 4);
    for (const p of [...parts].reverse()) b.addOffset(p);
    partsVec = b.endVector();
  }
  if (g.xy) {
    b.startVector(8, g.xy.length, 8);
    for (const v of [...g.xy].reverse()) b.addFloat64(v);
    xyVec = b.endVector();
  }
  if (g.ends) {
    b.startVector(4, g.ends.length, 4);
    for (const v of [...g.ends].reverse()) b.addInt32(v);
    endsVec = b.endVector();
  }
  b.startObject(8);
  if (endsVec) b.addFieldOffset(0, endsVec, 0);
  if (xyVec) b.addFieldOffset(1, xyVec, 0);
  b.addFieldInt8(6, g.type, 0);
  if (partsVec) b.addFieldOffset(7, partsVec, 0);
  return b.endObject();
}

/** A whole FlatGeobuf file without a spatial index. */
function writeFgb(opts: {
  geometryType: number;
  columns: [string, ColumnType][];
  features: TestFeature[];
  epsg?: number;
}): Uint8Array {
  const chunks: Uint8Array[] = [Uint8Array.from(MAGIC)];
  {
    const b = new flatbuffers.Builder(256);
    const cols = opts.columns.map(([name, type]) => {
      const n = b.createString(name);
      b.startObject(11);
      b.addFieldOffset(0, n, 0);
      b.addFieldInt8(1, TYPE[type], 0);
      return b.endObject();
    });
    b.startVector(4, cols.length, 4);
    for (const c of [...cols].reverse()) b.addOffset(c);
    const colsVec = b.endVector();
    let crs = 0;
    if (opts.epsg) {
      const org = b.createString("EPSG");
      b.startObject(6);
      b.addFieldOffset(0, org, 0);
      b.addFieldInt32(1, opts.epsg, 0);
      crs = b.endObject();
    }
    const name = b.createString("test");
    b.startObject(14);
    b.addFieldOffset(0, name, 0);
    b.addFieldInt8(2, opts.geometryType, 0);
    b.addFieldOffset(7, colsVec, 0);
    b.addFieldInt64(8, BigInt(opts.features.length), 0n);
    b.addFieldInt16(9, 0, 16); // no spatial index
    if (crs) b.addFieldOffset(10, crs, 0);
    b.finishSizePrefixed(b.endObject());
    chunks.push(b.asUint8Array());
  }
  for (const f of opts.features) {
    const b = new flatbuffers.Builder(256);
    const props = f.values.map(([i, v]) => {
      const head = new Uint8Array(2);
      new DataView(head.buffer).setUint16(0, i, true);
      return [head, encodeValue(opts.columns[i][1], v)];
    }).flat();
    const propBytes = new Uint8Array(props.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of props) propBytes.set(p, at), at += p.length;
    const propsVec = b.createByteVector(propBytes);
    const geom = f.geometry ? geometryTable(b, f.geometry) : 0;
    b.startObject(3);
    if (geom) b.addFieldOffset(0, geom, 0);
    b.addFieldOffset(1, propsVec, 0);
    b.finishSizePrefixed(b.endObject());
    chunks.push(b.asUint8Array());
  }
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) out.set(c, at), at += c.length;
  return out;
}

const ALL_TYPES: [string, ColumnType][] = [
  ["byte", "Byte"],
  ["ubyte", "UByte"],
  ["flag", "Bool"],
  ["short", "Short"],
  ["ushort", "UShort"],
  ["int", "Int"],
  ["uint", "UInt"],
  ["long", "Long"],
  ["ulong", "ULong"],
  ["float", "Float"],
  ["double", "Double"],
  ["name", "String"],
  ["json", "Json"],
  ["when", "DateTime"],
  ["blob", "Binary"],
];

Deno.test("FlatGeobuf: every column type, NULLs, absent values and features without geometry", () => {
  const bytes = writeFgb({
    geometryType: 1,
    epsg: 3857,
    columns: ALL_TYPES,
    features: [
      {
        values: [
          [0, -5],
          [1, 250],
          [2, 1],
          [3, -30000],
          [4, 60000],
          [5, -2000000000],
          [6, 4000000000],
          [7, 9007199254740991n],
          [8, 12n],
          [9, 1.5],
          [10, -0.125],
          [11, "Ёлки-палки «кавычки»"],
          [12, '{"a":1}'],
          [13, "2024-02-29T12:30:00Z"],
          [14, new Uint8Array([1, 2, 3])],
        ],
        geometry: { type: 1, xy: [4187000, 7507000] },
      },
      // Only the name: every other value is NULL; no geometry at all.
      { values: [[11, "без геометрии"]] },
    ],
  });
  const s = readFlatGeobuf(bytes, "all.fgb");
  assert.equal(s.wkid, 3857);
  assert.equal(s.geometryType, "Point");
  assert.equal(s.idField, "FID");
  assert.deepEqual(
    s.fields().map((f) => `${f.name}:${f.type}`),
    [
      "FID:OID",
      "Shape:Geometry",
      "byte:SmallInteger",
      "ubyte:SmallInteger",
      "flag:SmallInteger",
      "short:SmallInteger",
      "ushort:Integer",
      "int:Integer",
      // Values beyond 32 bits widen the field to Double, as the GeoPackage source does.
      "uint:Double",
      "long:Double",
      "ulong:Integer",
      "float:Single",
      "double:Double",
      "name:String",
      "json:String",
      "when:Date",
    ],
  );
  const [a, b] = s.query({});
  assert.deepEqual(a, {
    id: 1,
    attributes: {
      byte: -5,
      ubyte: 250,
      flag: 1,
      short: -30000,
      ushort: 60000,
      int: -2000000000,
      uint: 4000000000,
      long: 9007199254740991,
      ulong: 12,
      float: 1.5,
      double: -0.125,
      name: "Ёлки-палки «кавычки»",
      json: '{"a":1}',
      when: Date.UTC(2024, 1, 29, 12, 30),
    },
    geometry: { type: "Point", x: 4187000, y: 7507000 },
  });
  assert.equal(b.id, 2);
  assert.equal(b.geometry, null);
  assert.equal(b.attributes.name, "без геометрии");
  assert.equal(b.attributes.int, null);
  assert.equal(b.attributes.when, null);
  assert.deepEqual(s.extent(), { xmin: 4187000, ymin: 7507000, xmax: 4187000, ymax: 7507000 });
  assert.deepEqual(s.query({ bbox: { xmin: 0, ymin: 0, xmax: 5e6, ymax: 8e6 } }).map((f) => f.id), [
    1,
  ]);
});

Deno.test("FlatGeobuf: polygons with holes, multi-polygons and multi-part lines", () => {
  const ring = (x0: number, y0: number, x1: number, y1: number) => [
    x0,
    y0,
    x1,
    y0,
    x1,
    y1,
    x0,
    y1,
    x0,
    y0,
  ];
  const polygons = readFlatGeobuf(
    writeFgb({
      geometryType: 6,
      epsg: 4326,
      columns: [["name", "String"]],
      features: [
        {
          values: [[0, "с дыркой"]],
          geometry: { type: 3, xy: [...ring(0, 0, 10, 10), ...ring(2, 2, 8, 8)], ends: [5, 10] },
        },
        {
          values: [[0, "через 180°"]],
          geometry: {
            type: 6,
            parts: [
              { type: 3, xy: ring(170, 60, 180, 70) },
              { type: 3, xy: ring(-180, 60, -170, 70) },
            ],
          },
        },
      ],
    }),
    "polygons.fgb",
  );
  assert.equal(polygons.geometryType, "Polygon");
  const [holed, split] = polygons.query({});
  assert.equal(holed.geometry?.type, "Polygon");
  assert.equal(holed.geometry?.type === "Polygon" && holed.geometry.rings.length, 2);
  assert.equal(split.geometry?.type === "Polygon" && split.geometry.rings.length, 2);
  // A box on the far side of 180° finds the part there.
  assert.deepEqual(
    polygons.query({ bbox: { xmin: -179, ymin: 61, xmax: -178, ymax: 62 } }).map((f) => f.id),
    [2],
  );
  const lines = readFlatGeobuf(
    writeFgb({
      geometryType: 5,
      columns: [],
      features: [{
        values: [],
        geometry: { type: 5, xy: [0, 0, 1, 1, 5, 5, 6, 6, 7, 5], ends: [2, 5] },
      }],
    }),
    "lines.fgb",
  );
  assert.equal(lines.wkid, 0, "no CRS in the file");
  assert.deepEqual(lines.get(1)?.geometry, {
    type: "Polyline",
    paths: [[[0, 0], [1, 1]], [[5, 5], [6, 6], [7, 5]]],
  });
});

Deno.test("FlatGeobuf: damaged and missing files are errors naming the file", async () => {
  const good = writeFgb({
    geometryType: 1,
    columns: [["name", "String"]],
    features: [{ values: [[0, "x"]], geometry: { type: 1, xy: [1, 2] } }],
  });
  const cases: [Uint8Array, RegExp][] = [
    [new TextEncoder().encode("not a flatgeobuf file"), /not a FlatGeobuf file/],
    [good.slice(0, 20), /truncated/],
    [good.slice(0, good.length - 3), /truncated|outside/],
    [
      (() => {
        // The feature's property names column 7 of a one-column header.
        const bad = good.slice();
        const at = bad.lastIndexOf(0x78) - 6; // "x": value text; its uint16 column index before the length
        new DataView(bad.buffer).setUint16(at, 7, true);
        return bad;
      })(),
      /column 7/,
    ],
  ];
  for (const [bytes, message] of cases) {
    assert.throws(() => readFlatGeobuf(bytes, "bad.fgb"), (e: unknown) => {
      assert.ok(e instanceof FlatGeobufError, String(e));
      assert.match(e.message, /^bad\.fgb: /);
      assert.match(e.message, message);
      return true;
    });
  }
  const dir = await Deno.makeTempDir();
  try {
    assert.throws(() => openFlatGeobuf(`${dir}/none.fgb`), /none\.fgb: does not exist/);
    await Deno.writeFile(`${dir}/ok.fgb`, good);
    assert.equal(openFlatGeobuf(`${dir}/ok.fgb`).count({}), 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
