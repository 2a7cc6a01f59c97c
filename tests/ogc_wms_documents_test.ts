/**
 * The WMS of map documents: the World example (Web Mercator, a tile cache,
 * a layer hidden by default with a scale range) and a document of two maps,
 * of which WMS serves the default one (`defaultMap`), as ArcGIS Server
 * publishes one data frame.
 */
import assert from "node:assert/strict";
import { startTestServer } from "./_api_helpers.ts";
import { assertSamePixels, decode } from "./_render_helpers.ts";
import { withXml, wms, xpathCount, xpathText } from "./_wms_helpers.ts";

const WORLD = new URL("../map/document/examples/world.json", import.meta.url).pathname;

Deno.test({
  name: "WMS of map documents: a cached Web Mercator map, and the default of two maps",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const maps = await Deno.makeTempDir({ prefix: "wms-docs-" });
    const world = JSON.parse(Deno.readTextFileSync(WORLD));
    Deno.writeTextFileSync(`${maps}/world.json`, JSON.stringify(world));
    // Two maps: the second is the default, and has only the countries.
    const second = { ...world.maps[0], name: "Countries only", layers: [world.maps[0].layers[0]] };
    Deno.writeTextFileSync(
      `${maps}/two.json`,
      JSON.stringify({
        ...world,
        name: "Two",
        maps: [world.maps[0], second],
        defaultMap: second.name,
      }),
    );
    const s = await startTestServer({ mapsDir: maps });
    try {
      const caps = await wms(s.url, { SERVICE: "WMS", REQUEST: "GetCapabilities" }, "World");
      withXml(caps.text, (doc) => {
        const top = "/w:WMS_Capabilities/w:Capability/w:Layer";
        assert.equal(xpathText(doc, `${top}/w:Title`), "World");
        assert.equal(xpathCount(doc, `${top}/w:CRS[.='EPSG:3857']`), 1);
        assert.equal(xpathCount(doc, `${top}/w:Layer`), 2);
        // Land draws only zoomed out beyond 1:200,000,000 (at 96 DPI): its WMS denominator.
        const land = `${top}/w:Layer[w:Name='1']`;
        assert.equal(xpathText(doc, `${land}/w:Title`), "Land");
        const max = Number(xpathText(doc, `${land}/w:MaxScaleDenominator`));
        assert.ok(Math.abs(max - 200_000_000 * (0.0254 / 96) / 0.00028) < 1, String(max));
      });
      // The cached map draws through WMS as the REST export draws it.
      const box = [-2e7, -1e7, 2e7, 1e7];
      const map = await wms(s.url, {
        SERVICE: "WMS",
        VERSION: "1.3.0",
        REQUEST: "GetMap",
        LAYERS: "0",
        STYLES: "",
        CRS: "EPSG:3857",
        BBOX: box.join(","),
        WIDTH: "512",
        HEIGHT: "256",
        FORMAT: "image/png",
      }, "World");
      assert.equal(map.contentType, "image/png", map.text.slice(0, 300));
      const res = await fetch(
        `${s.url}/arcgis/rest/services/World/MapServer/export?${new URLSearchParams({
          bbox: box.join(","),
          bboxSR: "3857",
          size: "512,256",
          format: "png32",
          layers: "show:0",
          f: "image",
        })}`,
      );
      assertSamePixels(decode(map.bytes), decode(new Uint8Array(await res.arrayBuffer())), "World");
      // In WGS 84 too (drawn reprojected), latitude first.
      const geo = await wms(s.url, {
        SERVICE: "WMS",
        VERSION: "1.3.0",
        REQUEST: "GetMap",
        LAYERS: "0",
        STYLES: "",
        CRS: "EPSG:4326",
        BBOX: "-60,-180,80,180",
        WIDTH: "360",
        HEIGHT: "140",
        FORMAT: "image/jpeg",
      }, "World");
      assert.equal(geo.contentType, "image/jpeg");
      assert.equal(decode(geo.bytes).width, 360);

      // Several maps: the default one is the WMS.
      const two = await wms(s.url, { SERVICE: "WMS", REQUEST: "GetCapabilities" }, "Two");
      withXml(two.text, (doc) => {
        const top = "/w:WMS_Capabilities/w:Capability/w:Layer";
        assert.equal(xpathText(doc, `${top}/w:Title`), "Countries only");
        assert.equal(xpathCount(doc, `${top}/w:Layer`), 1);
      });
    } finally {
      await s.close();
      await Deno.remove(maps, { recursive: true });
    }
  },
});
