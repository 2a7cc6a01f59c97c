/**
 * The shapefile reader on files this test writes byte by byte (no GDAL
 * needed): typed DBF fields and their NULLs, encodings, Z shapes,
 * multipart polygons with holes, deleted records, and the errors a map
 * document gets for broken files.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { encodingLabel, openShapefile } from "./shapefile.ts";
import { loadMapDocument, MapDocumentError } from "../document/mod.ts";
import { spatialReferenceWkt } from "../geo/projection.ts";
import type { Position } from "../types.ts";

interface DbfCol {
  name: string;
  kind: string;
  length: number;
  decimals?: number;
}

/** A DBF with raw (already encoded) cell bytes; a row starting with "*" is deleted. */
function dbf(cols: DbfCol[], rows: (Uint8Array[] | "deleted")[], ldid: number): Uint8Array {
  const headerLength = 32 + cols.length * 32 + 1;
  const recordLength = 1 + cols.reduce((s, c) => s + c.length, 0);
  const out = new Uint8Array(headerLength + rows.length * recordLength + 1);
  const v = new DataView(out.buffer);
  out[0] = 3;
  v.setUint32(4, rows.length, true);
  v.setUint16(8, headerLength, true);
  v.setUint16(10, recordLength, true);
  out[29] = ldid;
  cols.forEach((c, i) => {
    const at = 32 + i * 32;
    out.set(new TextEncoder().encode(c.name), at);
    out[at + 11] = c.kind.charCodeAt(0);
    out[at + 16] = c.length;
    out[at + 17] = c.decimals ?? 0;
  });
  out[headerLength - 1] = 0x0d;
  rows.forEach((r, i) => {
    let at = headerLength + i * recordLength;
    out.fill(0x20, at, at + recordLength);
    if (r === "deleted") {
      out[at] = 0x2a;
      return;
    }
    at++;
    r.forEach((cell, j) => {
      out.set(cell.subarray(0, cols[j].length), at);
      at += cols[j].length;
    });
  });
  out[out.length - 1] = 0x1a;
  return out;
}

const ascii = (s: string) => new TextEncoder().encode(s);

/** PolygonZ (15) records: each a list of rings; returns [.shp, .shx]. */
function polygonZ(records: (Position[][] | null)[]): [Uint8Array, Uint8Array] {
  const contents = records.map((rings) => {
    if (!rings) {
      const b = new Uint8Array(4);
      return b; // shape type 0
    }
    const n = rings.reduce((s, r) => s + r.length, 0);
    const size = 44 + rings.length * 4 + n * 16 + 16 + n * 8;
    const b = new Uint8Array(size);
    const v = new DataView(b.buffer);
    v.setInt32(0, 15, true);
    v.setInt32(36, rings.length, true);
    v.setInt32(40, n, true);
    let start = 0, at = 44 + rings.length * 4;
    rings.forEach((r, i) => {
      v.setInt32(44 + i * 4, start, true);
      start += r.length;
      for (const [x, y] of r) {
        v.setFloat64(at, x, true);
        v.setFloat64(at + 8, y, true);
        at += 16;
      }
    });
    for (let i = 0; i < n; i++) v.setFloat64(at + 16 + i * 8, 100 + i, true); // Z values
    return b;
  });
  const total = 100 + contents.reduce((s, c) => s + 8 + c.length, 0);
  const shp = new Uint8Array(total), shx = new Uint8Array(100 + records.length * 8);
  for (const [b, len] of [[shp, total], [shx, shx.length]] as const) {
    const v = new DataView(b.buffer);
    v.setInt32(0, 9994, false);
    v.setInt32(24, len / 2, false);
    v.setInt32(28, 1000, true);
    v.setInt32(32, 15, true);
  }
  const sv = new DataView(shp.buffer), xv = new DataView(shx.buffer);
  let at = 100;
  contents.forEach((c, i) => {
    sv.setInt32(at, i + 1, false);
    sv.setInt32(at + 4, c.length / 2, false);
    shp.set(c, at + 8);
    xv.setInt32(100 + i * 8, at / 2, false);
    xv.setInt32(104 + i * 8, c.length / 2, false);
    at += 8 + c.length;
  });
  return [shp, shx];
}

const square = (x: number, y: number, s: number, clockwise: boolean): Position[] => {
  const r: Position[] = [[x, y], [x, y + s], [x + s, y + s], [x + s, y], [x, y]];
  return clockwise ? r : r.reverse();
};

async function writeFixture(dir: string, opts: { cpg?: string; prj?: string } = {}) {
  const [shp, shx] = polygonZ([
    [square(0, 0, 10, true), square(2, 2, 3, false), square(20, 0, 5, true)],
    null,
    [square(50, 50, 1, true)],
    [square(60, 60, 1, true)],
  ]);
  await Deno.writeFile(join(dir, "zones.shp"), shp);
  await Deno.writeFile(join(dir, "zones.shx"), shx);
  const cp1251 = (s: string) => {
    // Cyrillic А..я are 0xC0..0xFF in CP1251.
    return Uint8Array.from([...s].map((c) => {
      const code = c.codePointAt(0)!;
      return code >= 0x410 && code <= 0x44f ? code - 0x410 + 0xc0 : code;
    }));
  };
  await Deno.writeFile(
    join(dir, "zones.dbf"),
    dbf(
      [
        { name: "NAME", kind: "C", length: 20 },
        { name: "POP", kind: "N", length: 9 },
        { name: "AREA", kind: "N", length: 12, decimals: 3 },
        { name: "OK", kind: "L", length: 1 },
        { name: "SINCE", kind: "D", length: 8 },
      ],
      [
        [cp1251("Тверь"), ascii("   123456"), ascii("      12.500"), ascii("T"), ascii("20200131")],
        [ascii(""), ascii("*********"), ascii(""), ascii("?"), ascii("        ")],
        "deleted",
        [cp1251("Омск"), ascii("       -1"), ascii("***********"), ascii("f"), ascii("00000000")],
      ],
      0xc9,
    ),
  );
  if (opts.cpg) await Deno.writeTextFile(join(dir, "zones.cpg"), opts.cpg);
  if (opts.prj) await Deno.writeTextFile(join(dir, "zones.prj"), opts.prj);
}

Deno.test("shapefile reader: typed DBF values and NULLs, CP1251 from the language driver id, holes, Z", async () => {
  const dir = await Deno.makeTempDir({ prefix: "shp_" });
  try {
    await writeFixture(dir, { prj: spatialReferenceWkt(3857) });
    const src = openShapefile(join(dir, "zones.shp"));
    assert.equal(src.wkid, 3857);
    assert.equal(src.geometryType, "Polygon");
    assert.equal(src.idField, "FID");
    assert.deepEqual(
      src.fields().map((f) => [f.name, f.type]),
      [
        ["FID", "OID"],
        ["Shape", "Geometry"],
        ["NAME", "String"],
        ["POP", "Integer"],
        ["AREA", "Double"],
        ["OK", "SmallInteger"],
        ["SINCE", "Date"],
      ],
    );
    const fs = src.query({});
    assert.deepEqual(
      fs.map((f) => f.id),
      [1, 2, 4],
      "record numbers; the deleted record 3 is gone",
    );
    assert.deepEqual(fs[0].attributes, {
      NAME: "Тверь",
      POP: 123456,
      AREA: 12.5,
      OK: 1,
      SINCE: Date.UTC(2020, 0, 31),
    });
    assert.deepEqual(fs[1].attributes, {
      NAME: null,
      POP: null,
      AREA: null,
      OK: null,
      SINCE: null,
    });
    assert.deepEqual(fs[2].attributes, { NAME: "Омск", POP: -1, AREA: null, OK: 0, SINCE: null });
    assert.equal(fs[1].geometry, null);
    assert.deepEqual(fs[0].geometry, {
      type: "Polygon",
      rings: [square(0, 0, 10, true), square(2, 2, 3, false), square(20, 0, 5, true)],
    });
    assert.equal(src.count({ bbox: { xmin: 59, ymin: 59, xmax: 70, ymax: 70 } }), 1);
    assert.equal(src.get(4)?.attributes.NAME, "Омск");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("shapefile encodings: .cpg and the encoding option win over the header", async () => {
  assert.equal(encodingLabel("ANSI 1251"), "windows-1251");
  assert.equal(encodingLabel("CP1251"), "windows-1251");
  assert.equal(encodingLabel("1251"), "windows-1251");
  assert.equal(encodingLabel("UTF-8"), "utf-8");
  assert.equal(encodingLabel("866"), "ibm866");
  assert.equal(encodingLabel("KOI8-R"), "koi8-r");
  assert.equal(encodingLabel("no-such"), null);
  const dir = await Deno.makeTempDir({ prefix: "shp_" });
  try {
    await writeFixture(dir, { cpg: "ISO-8859-5" });
    const latin = openShapefile(join(dir, "zones.shp"));
    assert.notEqual(latin.get(1)?.attributes.NAME, "Тверь");
    const forced = openShapefile(join(dir, "zones.shp"), { encoding: "ANSI 1251" });
    assert.equal(forced.get(1)?.attributes.NAME, "Тверь");
    assert.equal(forced.wkid, 0, "no .prj: unknown spatial reference");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("broken shapefiles are one MapDocumentError naming the document, the layer and the file", async () => {
  const dir = await Deno.makeTempDir({ prefix: "shp_" });
  const doc = join(dir, "zones.json");
  const load = async (source: Record<string, unknown>) => {
    await Deno.writeTextFile(
      doc,
      JSON.stringify({
        name: "Zones",
        maps: [{
          name: "Layers",
          wkid: 3857,
          layers: [{ name: "Zones", source: { type: "shapefile", path: "zones.shp", ...source } }],
        }],
      }),
    );
    return await loadMapDocument(doc);
  };
  const fails = async (source: Record<string, unknown>, file: string, why: RegExp) => {
    const e = await load(source).then(() => null, (e) => e);
    assert.ok(e instanceof MapDocumentError, String(e));
    assert.equal(e.file, doc);
    assert.equal(e.path, "maps[0].layers[0].source");
    assert.ok(e.problem.includes(join(dir, file)), e.message);
    assert.match(e.problem, why);
  };
  try {
    await writeFixture(dir, { prj: spatialReferenceWkt(3857) });
    const ok = await load({});
    assert.equal(ok.maps[0].layers[0].source.count({}), 3);
    await fails({ encoding: "martian" }, "zones.shp", /unknown encoding "martian"/);
    await Deno.writeTextFile(join(dir, "zones.cpg"), "EBCDIC-999");
    await fails({}, "zones.cpg", /unknown encoding/);
    await Deno.remove(join(dir, "zones.cpg"));
    await Deno.writeTextFile(
      join(dir, "zones.prj"),
      'PROJCS["Mars_Stereo",GEOGCS["Mars",DATUM["D_Mars",SPHEROID["Mars",3396190,169.9]],' +
        'PRIMEM["Greenwich",0],UNIT["Degree",0.0174532925199433]],PROJECTION["Stereographic"],' +
        'PARAMETER["Central_Meridian",0],PARAMETER["Scale_Factor",1],PARAMETER["Latitude_Of_Origin",90],UNIT["Meter",1]]',
    );
    await fails({}, "zones.prj", /cannot identify.*"wkid"/);
    assert.equal((await load({ wkid: 3857 })).maps[0].layers[0].source.wkid, 3857);
    const shp = await Deno.readFile(join(dir, "zones.shp"));
    await Deno.writeFile(join(dir, "zones.shp"), shp.subarray(0, shp.length - 20));
    await fails({ wkid: 3857 }, "zones.shp", /truncated/);
    await Deno.writeFile(join(dir, "zones.shp"), shp);
    const dbfBytes = await Deno.readFile(join(dir, "zones.dbf"));
    await Deno.writeFile(join(dir, "zones.dbf"), dbfBytes.subarray(0, 200));
    await fails({ wkid: 3857 }, "zones.dbf", /truncated/);
    await Deno.remove(join(dir, "zones.dbf"));
    await fails({ wkid: 3857 }, "zones.dbf", /does not exist/);
    await Deno.remove(join(dir, "zones.shx"));
    await fails({ wkid: 3857 }, "zones.shx", /does not exist/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
