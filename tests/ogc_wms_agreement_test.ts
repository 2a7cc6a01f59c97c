/**
 * The WMS face agrees with the REST face on the demo server: a GetMap is
 * pixel for pixel the REST export of the same box, size and layers (boxes
 * of the image's aspect, in WGS 84 and Web Mercator, one layer or both),
 * and a GetFeatureInfo finds what REST identify finds at the same point
 * with the same tolerance.
 */
import assert from "node:assert/strict";
import { startTestServer } from "./_api_helpers.ts";
import { assertSamePixels, decode } from "./_render_helpers.ts";
import { rest } from "./_rest_helpers.ts";
import { MAP13, sameBytes, wms } from "./_wms_helpers.ts";

/**
 * Boxes as xmin,ymin,xmax,ymax with their CRS, image sizes of the same aspect, and the layers:
 * WMS lists them bottom first, so `1,0` is the map's own order (0, the competitions, on top).
 */
const VIEWS = [
  { crs: "EPSG:4326", box: [20, 40, 60, 70], size: [400, 300], layers: "1,0" },
  { crs: "EPSG:4326", box: [-180, -90, 180, 90], size: [512, 256], layers: "1" },
  { crs: "EPSG:3857", box: [2e6, 5e6, 6e6, 8e6], size: [600, 450], layers: "0" },
  { crs: "EPSG:3857", box: [-2e7, -1e7, 2e7, 1e7], size: [256, 128], layers: "1,0" },
];

Deno.test({
  name: "WMS GetMap equals REST export; GetFeatureInfo equals REST identify",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const s = await startTestServer();
    try {
      await t.step("GetMap image/png is the REST export (png32) of the same view", async () => {
        for (const v of VIEWS) {
          const [xmin, ymin, xmax, ymax] = v.box;
          // WMS 1.3.0 EPSG:4326 is latitude first.
          const bbox = v.crs === "EPSG:4326" ? [ymin, xmin, ymax, xmax].join(",") : v.box.join(",");
          const map = await wms(s.url, {
            ...MAP13,
            LAYERS: v.layers,
            CRS: v.crs,
            BBOX: bbox,
            WIDTH: String(v.size[0]),
            HEIGHT: String(v.size[1]),
          });
          assert.equal(map.contentType, "image/png", map.text.slice(0, 300));
          const wkid = v.crs.split(":")[1];
          const res = await fetch(
            `${s.url}/arcgis/rest/services/Recruitment/MapServer/export?${new URLSearchParams({
              bbox: v.box.join(","),
              bboxSR: wkid,
              imageSR: wkid,
              size: v.size.join(","),
              format: "png32",
              layers: `show:${v.layers}`,
              f: "image",
            })}`,
          );
          assert.equal(res.headers.get("content-type"), "image/png");
          const exported = decode(new Uint8Array(await res.arrayBuffer()));
          assertSamePixels(decode(map.bytes), exported, `${v.crs} ${v.box} layers ${v.layers}`);
        }
        // LAYERS=0,1 puts the countries over the competitions: not the export's picture.
        const reordered = await wms(s.url, { ...MAP13, LAYERS: "0,1" });
        const inOrder = await wms(s.url, MAP13);
        assert.ok(!sameBytes(decode(reordered.bytes).data, decode(inOrder.bytes).data));
      });

      await t.step("GetFeatureInfo finds what identify finds at the pixel's centre", async () => {
        // Pixels over Russia, Ukraine, the sea and a busy city, on 400 x 300 of 20..60 E, 40..70 N.
        const pixels = [[300, 100], [80, 200], [10, 290], [176, 148], [177, 147], [200, 150]];
        let found = 0;
        for (const [i, j] of pixels) {
          const gfi = await wms(s.url, {
            ...MAP13,
            REQUEST: "GetFeatureInfo",
            QUERY_LAYERS: "0,1",
            I: String(i),
            J: String(j),
            INFO_FORMAT: "application/json",
            FEATURE_COUNT: "1000",
          });
          const fc = JSON.parse(gfi.text);
          const x = 20 + (i + 0.5) * 0.1, y = 70 - (j + 0.5) * 0.1;
          const { body } = await rest(s.url, "/services/Recruitment/MapServer/identify", {
            geometry: `${x},${y}`,
            geometryType: "esriGeometryPoint",
            sr: "4326",
            mapExtent: "20,40,60,70",
            imageDisplay: "400,300,96",
            tolerance: "3",
            layers: "visible:0,1",
            returnFieldName: "true",
            f: "json",
          });
          const restFeatures = body.results.map((r: Record<string, unknown>) => {
            const { Shape: _shape, ...attributes } = r.attributes as Record<string, unknown>;
            return { layerId: r.layerId, attributes };
          });
          const wmsFeatures = fc.features.map((f: Record<string, unknown>) => ({
            layerId: f.layerId,
            attributes: f.properties,
          }));
          // WMS lists QUERY_LAYERS in order; identify walks the map top first: the same order here.
          assert.deepEqual(wmsFeatures, restFeatures, `pixel ${i},${j}`);
          found += wmsFeatures.length;
        }
        assert.ok(found >= 3, `${found} features found at the pixels`);
      });
    } finally {
      await s.close();
    }
  },
});
