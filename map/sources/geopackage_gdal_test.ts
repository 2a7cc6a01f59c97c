/**
 * Cross-checks with GDAL, the reference GeoPackage implementation:
 * - MapServer's map2img (mapserver-bin, reading through OGR) draws a
 *   fixture our writer made, and the pixels show the polygon with its hole;
 * - libgdal (called through FFI) writes GeoPackages the way real users'
 *   files look (its own blob flags, R*Tree triggers, DATETIME text, UTM
 *   WKT), and our reader reads them.
 */
import assert from "node:assert/strict";
import { GDAL_SONAMES, gdalReference, MAP2IMG, optionalTest } from "../../tests/_optional.ts";
import { join } from "node:path";
import { Buffer } from "node:buffer";
import { PNG } from "pngjs";
import { writeGeoPackageLayer } from "./geopackage_writer.ts";
import { listGeoPackageLayers, openGeoPackage } from "./geopackage.ts";
import { parseWhere } from "../query/mod.ts";
import { isClockwise } from "../geo/rings.ts";
import { projectPoint } from "../geo/projection.ts";

optionalTest(MAP2IMG, {
  name: "GDAL (map2img through OGR) reads our GeoPackage polygons and holes",
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "gpkg_gdal_" });
    try {
      const gpkg = join(dir, "zones.gpkg");
      writeGeoPackageLayer(gpkg, {
        table: "zones",
        geometryType: "Polygon",
        fields: [{ name: "label", type: "String" }],
      }, [{
        attributes: { label: "donut" },
        geometry: {
          type: "Polygon",
          rings: [
            [[0, 0], [0, 10], [10, 10], [10, 0], [0, 0]],
            [[2, 2], [8, 2], [8, 8], [2, 8], [2, 2]],
          ],
        },
      }, {
        attributes: { label: "outside" },
        geometry: { type: "Polygon", rings: [[[20, 20], [20, 21], [21, 21], [21, 20], [20, 20]]] },
      }]);
      const mapfile = join(dir, "zones.map");
      await Deno.writeTextFile(
        mapfile,
        `MAP
  SIZE 100 100
  EXTENT 0 0 10 10
  IMAGETYPE png
  IMAGECOLOR 255 255 255
  LAYER
    NAME "zones"
    TYPE POLYGON
    STATUS DEFAULT
    CONNECTIONTYPE OGR
    CONNECTION "${gpkg}"
    DATA "zones"
    FILTER ("[label]" = "donut")
    CLASS
      STYLE COLOR 255 0 0 END
    END
  END
END
`,
      );
      const out = join(dir, "out.png");
      const run = await new Deno.Command("map2img", { args: ["-m", mapfile, "-o", out] }).output();
      assert.ok(run.success, new TextDecoder().decode(run.stderr));
      const png = PNG.sync.read(Buffer.from(await Deno.readFile(out)));
      const rgb = (
        x: number,
        y: number,
      ) => [...png.data.subarray((y * 100 + x) * 4, (y * 100 + x) * 4 + 3)];
      assert.deepEqual(rgb(5, 50), [255, 0, 0]); // ring between outer edge and hole
      assert.deepEqual(rgb(50, 50), [255, 255, 255]); // inside the hole
      assert.deepEqual(rgb(50, 95), [255, 0, 0]);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

const GDAL_SYMBOLS = {
  GDALAllRegister: { parameters: [], result: "void" },
  GDALGetDriverByName: { parameters: ["buffer"], result: "pointer" },
  GDALCreate: {
    parameters: ["pointer", "buffer", "i32", "i32", "i32", "i32", "pointer"],
    result: "pointer",
  },
  GDALClose: { parameters: ["pointer"], result: "void" },
  OSRNewSpatialReference: { parameters: ["pointer"], result: "pointer" },
  OSRImportFromEPSG: { parameters: ["pointer", "i32"], result: "i32" },
  GDALDatasetCreateLayer: {
    parameters: ["pointer", "buffer", "pointer", "i32", "pointer"],
    result: "pointer",
  },
  OGR_Fld_Create: { parameters: ["buffer", "i32"], result: "pointer" },
  OGR_L_CreateField: { parameters: ["pointer", "pointer", "i32"], result: "i32" },
  OGR_L_GetLayerDefn: { parameters: ["pointer"], result: "pointer" },
  OGR_F_Create: { parameters: ["pointer"], result: "pointer" },
  OGR_F_SetFieldString: { parameters: ["pointer", "i32", "buffer"], result: "void" },
  OGR_F_SetFieldInteger: { parameters: ["pointer", "i32", "i32"], result: "void" },
  OGR_F_SetFieldDateTime: {
    parameters: ["pointer", "i32", "i32", "i32", "i32", "i32", "i32", "i32", "i32"],
    result: "void",
  },
  OGR_G_CreateFromWkt: { parameters: ["pointer", "pointer", "pointer"], result: "i32" },
  OGR_F_SetGeometryDirectly: { parameters: ["pointer", "pointer"], result: "i32" },
  OGR_L_CreateFeature: { parameters: ["pointer", "pointer"], result: "i32" },
  OGR_F_Destroy: { parameters: ["pointer"], result: "void" },
} as const;

function openGdal(): Deno.DynamicLibrary<typeof GDAL_SYMBOLS> | null {
  for (const name of GDAL_SONAMES) {
    try {
      return Deno.dlopen(name, GDAL_SYMBOLS);
    } catch {
      // try the next soname
    }
  }
  return null;
}

const gdal = openGdal();
const GDAL = gdalReference("GDAL", () => gdal);
const cstr = (s: string) => new TextEncoder().encode(`${s}\0`);

type Value = string | number | [number, number, number, number, number, number];

/** Writes one GeoPackage layer with GDAL's own driver. Field kinds: 0 int, 4 text, 11 datetime. */
function gdalLayer(
  path: string,
  table: string,
  epsg: number,
  geometryType: number,
  fields: [string, number][],
  rows: { values: Value[]; wkt: string }[],
): void {
  const g = gdal!.symbols;
  g.GDALAllRegister();
  const driver = g.GDALGetDriverByName(cstr("GPKG"));
  const ds = g.GDALCreate(driver, cstr(path), 0, 0, 0, 0, null);
  assert.ok(ds, "GDAL could not create the GeoPackage");
  const srs = g.OSRNewSpatialReference(null);
  g.OSRImportFromEPSG(srs, epsg);
  const layer = g.GDALDatasetCreateLayer(ds, cstr(table), srs, geometryType, null);
  for (const [name, kind] of fields) {
    g.OGR_L_CreateField(layer, g.OGR_Fld_Create(cstr(name), kind), 1);
  }
  const defn = g.OGR_L_GetLayerDefn(layer);
  for (const row of rows) {
    const f = g.OGR_F_Create(defn);
    row.values.forEach((v, i) => {
      if (typeof v === "string") g.OGR_F_SetFieldString(f, i, cstr(v));
      else if (typeof v === "number") g.OGR_F_SetFieldInteger(f, i, v);
      else g.OGR_F_SetFieldDateTime(f, i, ...v, 100);
    });
    const text = cstr(row.wkt);
    const textPtr = new BigUint64Array([
      BigInt(Deno.UnsafePointer.value(Deno.UnsafePointer.of(text))),
    ]);
    const out = new BigUint64Array(1);
    const err = g.OGR_G_CreateFromWkt(
      Deno.UnsafePointer.of(textPtr),
      null,
      Deno.UnsafePointer.of(out),
    );
    assert.equal(err, 0, `GDAL rejected ${row.wkt}`);
    g.OGR_F_SetGeometryDirectly(f, Deno.UnsafePointer.create(out[0]));
    assert.equal(g.OGR_L_CreateFeature(layer, f), 0);
    g.OGR_F_Destroy(f);
  }
  g.GDALClose(ds);
}

optionalTest(GDAL, {
  name: "GeoPackages written by GDAL read correctly (polygons, 3857 points, UTM, dates)",
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "gpkg_gdal_read_" });
    try {
      const zones = join(dir, "zones.gpkg");
      gdalLayer(zones, "zones", 4326, 6, /* wkbMultiPolygon */ [["name", 4], ["rank", 0]], [
        {
          values: ["donut", 1],
          wkt: "MULTIPOLYGON (((0 0,10 0,10 10,0 10,0 0),(2 2,2 8,8 8,8 2,2 2)))",
        },
        { values: ["far", 2], wkt: "MULTIPOLYGON (((50 50,51 50,51 51,50 51,50 50)))" },
      ]);
      const [info] = listGeoPackageLayers(zones);
      assert.deepEqual([info.table, info.wkid, info.hasSpatialIndex], ["zones", 4326, true]);
      const src = openGeoPackage(zones);
      assert.equal(src.geometryType, "Polygon");
      assert.deepEqual(src.fields().map((f) => [f.name, f.type]), [
        ["fid", "OID"],
        ["geom", "Geometry"],
        ["name", "String"],
        ["rank", "Integer"],
      ]);
      const donut = src.get(1)!.geometry as { rings: [number, number][][] };
      assert.equal(donut.rings.length, 2);
      assert.ok(isClockwise(donut.rings[0]) && !isClockwise(donut.rings[1]));
      assert.deepEqual(
        src.query({ bbox: { xmin: 49, ymin: 49, xmax: 52, ymax: 52 } }).map((f) => f.id),
        [2],
      );
      assert.deepEqual(src.extent(), { xmin: 0, ymin: 0, xmax: 51, ymax: 51 });
      assert.equal(
        src.count({ where: parseWhere("rank = 2 AND name LIKE 'f%'", src.fields()) }),
        1,
      );
      src.close?.();

      const towns = join(dir, "towns.gpkg");
      const moscow = projectPoint([37.6173, 55.7558], 4326, 3857);
      gdalLayer(towns, "towns", 3857, 1, /* wkbPoint */ [["name", 4], ["since", 11]], [
        { values: ["Moscow", [1147, 4, 4, 12, 30, 0]], wkt: `POINT (${moscow[0]} ${moscow[1]})` },
        { values: ["Null Island", [2000, 1, 1, 0, 0, 0]], wkt: "POINT (0 0)" },
      ]);
      const t = openGeoPackage(towns);
      assert.equal(t.wkid, 3857);
      const m = t.get(1)!;
      assert.deepEqual(m.geometry, { type: "Point", x: moscow[0], y: moscow[1] });
      assert.equal(m.attributes.since, Date.UTC(1147, 3, 4, 12, 30, 0));
      const fields = t.fields();
      assert.equal(fields.find((f) => f.name === "since")!.type, "Date");
      assert.equal(t.count({ where: parseWhere("since < date '1900-01-01'", fields) }), 1);
      t.close?.();

      const utm = join(dir, "utm.gpkg");
      gdalLayer(utm, "sites", 32637, 1, [["name", 4]], [
        { values: ["Moscow"], wkt: "POINT (413224.1376592744 6179766.953877236)" },
      ]);
      const u = openGeoPackage(utm);
      assert.equal(u.wkid, 32637);
      const p = u.get(1)!.geometry as { x: number; y: number };
      const [lon, lat] = projectPoint([p.x, p.y], u.wkid, 4326);
      assert.ok(Math.abs(lon - 37.6173) < 1e-6 && Math.abs(lat - 55.7558) < 1e-6);
      u.close?.();
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

globalThis.addEventListener("unload", () => gdal?.close());
