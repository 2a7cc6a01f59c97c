/**
 * Cross-checks the GeoPackage writer against GDAL: MapServer's map2img
 * (mapserver-bin, reading through OGR) draws a fixture we wrote, and the
 * pixels show the polygon with its hole where they belong.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { Buffer } from "node:buffer";
import { PNG } from "pngjs";
import { writeGeoPackageLayer } from "./geopackage_writer.ts";

function hasMap2img(): boolean {
  try {
    return new Deno.Command("map2img", { args: ["-v"], stdout: "null", stderr: "null" })
      .outputSync().success;
  } catch {
    return false;
  }
}

Deno.test({
  name: "GDAL (map2img through OGR) reads our GeoPackage polygons and holes",
  ignore: !hasMap2img(),
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
