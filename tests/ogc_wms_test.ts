/**
 * The WMS face over HTTP on the demo server (`Recruitment`: 0 competitions,
 * points; 1 countries, polygons; WGS 84): capabilities in both versions,
 * GetMap formats, axis order and stretching, GetFeatureInfo formats,
 * GetLegendGraphic, and every exception code a request can earn, each in
 * its version's report.
 */
import assert from "node:assert/strict";
import { startTestServer, type TestServer } from "./_api_helpers.ts";
import { assertSamePixels, decode, pixel } from "./_render_helpers.ts";
import { rest } from "./_rest_helpers.ts";
import {
  assertException,
  MAP13,
  sameBytes,
  withXml,
  wms,
  type WmsAnswer,
  wmsUrl,
  xpathCount,
  xpathText,
} from "./_wms_helpers.ts";

/** A point inside Russia (pixel 300, 100 of MAP13: 50 E, 60 N). */
const RUSSIA_13 = { I: "300", J: "100" };

function isPng(a: WmsAnswer) {
  assert.equal(a.status, 200, a.text.slice(0, 500));
  assert.equal(a.contentType, "image/png");
  return decode(a.bytes);
}

Deno.test({
  name: "WMS face: capabilities, GetMap, GetFeatureInfo, GetLegendGraphic and exceptions",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const s: TestServer = await startTestServer();
    try {
      const layers = await Promise.all(
        [0, 1].map(async (id) =>
          (await rest(s.url, `/services/Recruitment/MapServer/${id}`, { f: "json" })).body
        ),
      );

      await t.step("GetCapabilities 1.3.0 (the default)", async () => {
        const a = await wms(s.url, { SERVICE: "WMS", REQUEST: "GetCapabilities" });
        assert.equal(a.status, 200);
        assert.match(a.contentType, /^text\/xml/);
        withXml(a.text, (doc) => {
          const root = "/w:WMS_Capabilities";
          assert.equal(xpathText(doc, `${root}/@version`), "1.3.0");
          assert.equal(xpathText(doc, `${root}/w:Service/w:Name`), "WMS");
          assert.equal(xpathText(doc, `${root}/w:Service/w:Title`), "Recruitment");
          assert.equal(xpathText(doc, `${root}/w:Service/w:MaxWidth`), "4096");
          assert.equal(
            xpathText(doc, `${root}/w:Service/w:OnlineResource/@xlink:href`),
            wmsUrl(s.url),
          );
          for (const f of ["image/png", "image/png8", "image/jpeg", "image/gif"]) {
            assert.equal(xpathCount(doc, `//w:GetMap/w:Format[.='${f}']`), 1, f);
          }
          for (
            const f of ["text/html", "text/plain", "application/json", "application/vnd.ogc.gml"]
          ) {
            assert.equal(xpathCount(doc, `//w:GetFeatureInfo/w:Format[.='${f}']`), 1, f);
          }
          assert.equal(xpathCount(doc, "//sld:GetLegendGraphic"), 1);
          const top = `${root}/w:Capability/w:Layer`;
          // The root layer is the map, not requestable by name, as ArcGIS writes it.
          assert.equal(xpathCount(doc, `${top}/w:Name`), 0);
          assert.equal(xpathText(doc, `${top}/w:Title`), "Layers");
          for (const crs of ["CRS:84", "EPSG:4326", "EPSG:3857"]) {
            assert.equal(xpathCount(doc, `${top}/w:CRS[.='${crs}']`), 1, crs);
            assert.equal(xpathCount(doc, `${top}/w:BoundingBox[@CRS='${crs}']`), 1, crs);
          }
          // 1.3.0: EPSG:4326 is latitude first, CRS:84 longitude first.
          const box = (crs: string, k: string) =>
            Number(xpathText(doc, `${top}/w:BoundingBox[@CRS='${crs}']/@${k}`));
          assert.deepEqual(
            ["minx", "miny", "maxx", "maxy"].map((k) => box("EPSG:4326", k)),
            [-90, -180, 90, 180],
          );
          assert.deepEqual(
            ["minx", "miny", "maxx", "maxy"].map((k) => box("CRS:84", k)),
            [-180, -90, 180, 90],
          );
          assert.ok(Math.abs(box("EPSG:3857", "maxx") - 20037508.342789244) < 1e-3);
          assert.equal(
            xpathText(doc, `${top}/w:EX_GeographicBoundingBox/w:westBoundLongitude`),
            "-180",
          );
          // The layers: named by id, titled by name, described, queryable, with a legend.
          assert.equal(xpathCount(doc, `${top}/w:Layer`), 2);
          for (const [i, info] of layers.entries()) {
            const l = `${top}/w:Layer[${i + 1}]`;
            assert.equal(xpathText(doc, `${l}/w:Name`), String(info.id));
            assert.equal(xpathText(doc, `${l}/w:Title`), info.name);
            assert.equal(xpathText(doc, `${l}/w:Abstract`), info.description);
            assert.equal(xpathText(doc, `${l}/@queryable`), "1");
            assert.equal(xpathText(doc, `${l}/w:Style/w:Name`), "default");
            const href = xpathText(doc, `${l}/w:Style/w:LegendURL/w:OnlineResource/@xlink:href`);
            assert.match(href, /request=GetLegendGraphic/);
            assert.match(href, new RegExp(`layer=${info.id}(&|$)`));
            assert.equal(xpathCount(doc, `${l}/w:EX_GeographicBoundingBox`), 1);
            assert.equal(xpathCount(doc, `${l}/w:BoundingBox`), 3);
          }
        });
      });

      await t.step("GetCapabilities 1.1.1 and version negotiation", async () => {
        const a = await wms(s.url, {
          SERVICE: "WMS",
          REQUEST: "GetCapabilities",
          VERSION: "1.1.1",
        });
        assert.equal(a.contentType, "application/vnd.ogc.wms_xml; charset=utf-8");
        withXml(a.text, (doc) => {
          assert.equal(xpathText(doc, "/WMT_MS_Capabilities/@version"), "1.1.1");
          assert.equal(xpathText(doc, "/WMT_MS_Capabilities/Service/Name"), "OGC:WMS");
          const top = "/WMT_MS_Capabilities/Capability/Layer";
          assert.equal(xpathCount(doc, `${top}/SRS[.='EPSG:4326']`), 1);
          assert.equal(xpathCount(doc, `${top}/SRS[.='EPSG:3857']`), 1);
          // 1.1.1 is longitude first everywhere.
          assert.equal(xpathText(doc, `${top}/BoundingBox[@SRS='EPSG:4326']/@minx`), "-180");
          assert.equal(xpathText(doc, `${top}/LatLonBoundingBox/@miny`), "-90");
          assert.equal(xpathCount(doc, `${top}/Layer[@queryable='1']`), 2);
          assert.equal(
            xpathCount(doc, "//Exception/Format[.='application/vnd.ogc.se_inimage']"),
            1,
          );
        });
        for (
          const [asked, got] of [
            ["VERSION=1.2.0", "1.1.1"],
            ["VERSION=1.0.0", "1.1.1"],
            ["WMTVER=1.0.8", "1.1.1"],
            ["VERSION=2.0.0", "1.3.0"],
          ]
        ) {
          const [k, v] = asked.split("=");
          const r = await wms(s.url, { SERVICE: "WMS", REQUEST: "GetCapabilities", [k]: v });
          const version = /<(?:WMS_Capabilities|WMT_MS_Capabilities) version="([^"]+)"/.exec(
            r.text,
          )?.[1];
          assert.equal(version, got, asked);
        }
      });

      await t.step("GetMap: formats, transparency, background colour", async () => {
        const png = isPng(await wms(s.url, MAP13));
        assert.equal(png.width, 400);
        assert.equal(png.height, 300);
        assert.equal(pixel(png, 0, 0)[3], 255, "opaque unless TRANSPARENT=TRUE");
        const clear = isPng(await wms(s.url, { ...MAP13, LAYERS: "0", TRANSPARENT: "TRUE" }));
        let transparent = 0;
        for (let i = 3; i < clear.data.length; i += 4) if (clear.data[i] === 0) transparent++;
        assert.ok(transparent > 0.9 * 400 * 300, `${transparent} transparent pixels`);
        const red = isPng(await wms(s.url, { ...MAP13, LAYERS: "0", BGCOLOR: "0xFF0000" }));
        assert.deepEqual(pixel(red, 2, 2), [255, 0, 0, 255]);
        const png8 = await wms(s.url, { ...MAP13, FORMAT: "image/png8" });
        assert.equal(png8.contentType, "image/png");
        assert.equal(png8.bytes[25], 3, "PNG colour type 3: a palette image");
        assert.equal(decode(png8.bytes).width, 400);
        const jpeg = await wms(s.url, { ...MAP13, FORMAT: "image/jpeg" });
        assert.equal(jpeg.contentType, "image/jpeg");
        assert.equal(decode(jpeg.bytes).height, 300);
        const gif = await wms(s.url, { ...MAP13, FORMAT: "image/gif" });
        assert.equal(gif.contentType, "image/gif");
        assert.equal(new TextDecoder().decode(gif.bytes.slice(0, 6)), "GIF89a");
      });

      await t.step("GetMap: the 1.3.0 axis order (EPSG:4326 latitude first)", async () => {
        const v13 = await wms(s.url, MAP13);
        const v111 = await wms(s.url, {
          ...MAP13,
          VERSION: "1.1.1",
          CRS: "",
          SRS: "EPSG:4326",
          BBOX: "20,40,60,70",
        });
        const crs84 = await wms(s.url, { ...MAP13, CRS: "CRS:84", BBOX: "20,40,60,70" });
        assertSamePixels(decode(v111.bytes), decode(v13.bytes), "1.1.1 lon,lat");
        assertSamePixels(decode(crs84.bytes), decode(v13.bytes), "CRS:84");
        // Read the other way round, the same numbers are another place.
        const swapped = await wms(s.url, { ...MAP13, CRS: "CRS:84", BBOX: "40,20,70,60" });
        assert.ok(!sameBytes(decode(swapped.bytes).data, decode(v13.bytes).data));
      });

      await t.step("GetMap: the box is stretched over the image, not widened", async () => {
        // Pixels twice as tall as wide: each pair of rows shows one row of the square export.
        const tall = isPng(
          await wms(s.url, { ...MAP13, LAYERS: "1", WIDTH: "400", HEIGHT: "600" }),
        );
        const { body } = await rest(s.url, "/services/Recruitment/MapServer/export", {
          bbox: "20,40,60,70",
          bboxSR: "4326",
          size: "400,300",
          format: "png32",
          layers: "show:1",
          f: "json",
        });
        // The export of this aspect is the very box asked for.
        assert.deepEqual(
          [body.extent.xmin, body.extent.ymin, body.extent.xmax, body.extent.ymax],
          [20, 40, 60, 70],
        );
        const square = decode(
          new Uint8Array(await (await fetch(body.href)).arrayBuffer()),
        );
        let differ = 0;
        for (let y = 0; y < 300; y++) {
          for (let x = 0; x < 400; x++) {
            const a = pixel(tall, x, 2 * y + 1), b = pixel(square, x, y);
            if (a.some((v, i) => Math.abs(v - b[i]) > 40)) differ++;
          }
        }
        assert.ok(differ < 0.03 * 400 * 300, `${differ} pixels differ from the export`);
      });

      await t.step("GetFeatureInfo: every format, FEATURE_COUNT, I/J and X/Y", async () => {
        const gfi = { ...MAP13, REQUEST: "GetFeatureInfo", QUERY_LAYERS: "1", ...RUSSIA_13 };
        const json = await wms(s.url, { ...gfi, INFO_FORMAT: "application/json" });
        assert.equal(json.status, 200);
        assert.match(json.contentType, /^application\/json/);
        const fc = JSON.parse(json.text);
        assert.equal(fc.type, "FeatureCollection");
        assert.equal(fc.features.length, 1);
        assert.equal(fc.features[0].properties.name, "Russia");
        assert.equal(fc.features[0].layerId, 1);
        assert.match(fc.features[0].geometry.type, /Polygon/);
        const plain = await wms(s.url, { ...gfi, INFO_FORMAT: "text/plain" });
        assert.match(plain.contentType, /^text\/plain/);
        assert.match(plain.text, /name = Russia/);
        const html = await wms(s.url, { ...gfi, INFO_FORMAT: "text/html" });
        assert.match(html.contentType, /^text\/html/);
        assert.match(html.text, /<td>Russia<\/td>/);
        const gml = await wms(s.url, { ...gfi, INFO_FORMAT: "application/vnd.ogc.gml" });
        withXml(gml.text, (doc) => {
          assert.equal(xpathCount(doc, "/wfs:FeatureCollection/gml:featureMember"), 1);
          assert.equal(xpathText(doc, "//*[local-name()='name']"), "Russia");
          assert.ok(xpathCount(doc, "//gml:posList") > 0);
          // 1.3.0 EPSG:4326: latitude first in the coordinates too.
          const first = xpathText(doc, "(//gml:posList)[1]").split(" ").map(Number);
          assert.ok(first[0] > 40 && first[0] < 90, `latitude first: ${first.slice(0, 2)}`);
        });
        // 1.1.1 asks with X/Y.
        const old = await wms(s.url, {
          ...gfi,
          VERSION: "1.1.1",
          CRS: "",
          SRS: "EPSG:4326",
          BBOX: "20,40,60,70",
          I: "",
          J: "",
          X: "300",
          Y: "100",
          INFO_FORMAT: "application/json",
        });
        assert.equal(JSON.parse(old.text).features[0].properties.name, "Russia");
        // FEATURE_COUNT a layer: at the pixel of MAP13 with the most competitions within reach.
        const { body: points } = await rest(s.url, "/services/Recruitment/MapServer/0/query", {
          where: "1=1",
          geometry: "20,40,60,70",
          geometryType: "esriGeometryEnvelope",
          returnGeometry: "true",
          outFields: "",
          f: "json",
        });
        const counts = new Map<string, number>();
        for (const f of points.features) {
          const key = `${Math.floor((f.geometry.x - 20) * 10)},${
            Math.floor((70 - f.geometry.y) * 10)
          }`;
          counts.set(key, (counts.get(key) ?? 0) + 1);
        }
        const [busiest, n] = [...counts].sort((a, b) => b[1] - a[1])[0];
        assert.ok(n > 1, "some pixel holds several competitions");
        const [bi, bj] = busiest.split(",");
        const moscow = {
          ...MAP13,
          REQUEST: "GetFeatureInfo",
          QUERY_LAYERS: "0",
          I: bi,
          J: bj,
          INFO_FORMAT: "application/json",
        };
        const one = JSON.parse((await wms(s.url, moscow)).text);
        const many = JSON.parse((await wms(s.url, { ...moscow, FEATURE_COUNT: "5" })).text);
        assert.equal(one.features.length, 1);
        assert.ok(many.features.length > 1, `${many.features.length} features near Moscow`);
        assert.ok(many.features.length <= 5);
      });

      await t.step("GetLegendGraphic: the size its LegendURL states", async () => {
        const caps = await wms(s.url, { SERVICE: "WMS", REQUEST: "GetCapabilities" });
        for (const id of [0, 1]) {
          const [w, h, href] = withXml(caps.text, (doc) => {
            const l = `//w:Layer[w:Name='${id}']/w:Style/w:LegendURL`;
            return [
              Number(xpathText(doc, `${l}/@width`)),
              Number(xpathText(doc, `${l}/@height`)),
              xpathText(doc, `${l}/w:OnlineResource/@xlink:href`),
            ] as const;
          });
          const res = await fetch(href);
          assert.equal(res.headers.get("content-type"), "image/png");
          const img = decode(new Uint8Array(await res.arrayBuffer()));
          assert.deepEqual([img.width, img.height], [w, h]);
          let drawn = 0;
          for (let i = 3; i < img.data.length; i += 4) if (img.data[i] > 0) drawn++;
          assert.ok(drawn > 50, `legend of layer ${id} draws a swatch and a label`);
        }
        const big = decode(
          (await wms(s.url, {
            REQUEST: "GetLegendGraphic",
            LAYER: "1",
            FORMAT: "image/png",
            WIDTH: "40",
            HEIGHT: "30",
          })).bytes,
        );
        assert.ok(big.height >= 30);
      });

      await t.step("exceptions: every code, in each version's report", async () => {
        const cases: [Record<string, string>, string, string][] = [
          [{ FORMAT: "image/tiff" }, "InvalidFormat", "FORMAT"],
          [{ CRS: "EPSG:1234567" }, "InvalidCRS", "CRS"],
          [{ LAYERS: "0,7" }, "LayerNotDefined", "LAYERS"],
          [{ STYLES: "fancy,default" }, "StyleNotDefined", "STYLES"],
          [{ STYLES: "default" }, "StyleNotDefined", "STYLES"],
          [{ BBOX: "" }, "MissingParameterValue", "BBOX"],
          [{ BBOX: "1,2,3" }, "InvalidParameterValue", "BBOX"],
          [{ BBOX: "70,20,40,60" }, "InvalidParameterValue", "BBOX"],
          [{ WIDTH: "5000" }, "InvalidParameterValue", "WIDTH"],
          [{ HEIGHT: "0" }, "InvalidParameterValue", "HEIGHT"],
          [{ TRANSPARENT: "maybe" }, "InvalidParameterValue", "TRANSPARENT"],
          [{ BGCOLOR: "red" }, "InvalidParameterValue", "BGCOLOR"],
          [{ REQUEST: "GetStyles" }, "OperationNotSupported", "REQUEST"],
          [{ SERVICE: "WFS" }, "InvalidParameterValue", "SERVICE"],
          [{ REQUEST: "" }, "MissingParameterValue", "REQUEST"],
        ];
        for (const [change, code, locator] of cases) {
          const a = await wms(s.url, { ...MAP13, ...change });
          const message = assertException(a, "1.3.0", code);
          assert.ok(message.length > 10, message);
          assert.match(a.text, new RegExp(`locator="${locator}"`), JSON.stringify(change));
        }
        const gfi = { ...MAP13, REQUEST: "GetFeatureInfo", QUERY_LAYERS: "1", ...RUSSIA_13 };
        assertException(await wms(s.url, { ...gfi, I: "400" }), "1.3.0", "InvalidPoint");
        assertException(await wms(s.url, { ...gfi, J: "-1" }), "1.3.0", "InvalidPoint");
        assertException(await wms(s.url, { ...gfi, I: "" }), "1.3.0", "MissingParameterValue");
        assertException(
          await wms(s.url, { ...gfi, QUERY_LAYERS: "9" }),
          "1.3.0",
          "LayerNotDefined",
        );
        assertException(
          await wms(s.url, { ...gfi, INFO_FORMAT: "application/pdf" }),
          "1.3.0",
          "InvalidFormat",
        );
        assertException(
          await wms(s.url, { ...gfi, FEATURE_COUNT: "0" }),
          "1.3.0",
          "InvalidParameterValue",
        );
        assertException(
          await wms(s.url, { REQUEST: "GetLegendGraphic", LAYER: "5", FORMAT: "image/png" }),
          "1.3.0",
          "LayerNotDefined",
        );
        assertException(
          await wms(s.url, { REQUEST: "GetLegendGraphic", LAYER: "1,0", FORMAT: "image/png" }),
          "1.3.0",
          "InvalidParameterValue",
        );
        // 1.1.1: its content type, and InvalidSRS for the CRS code.
        const v111 = { ...MAP13, VERSION: "1.1.1", CRS: "", SRS: "EPSG:4326", BBOX: "20,40,60,70" };
        assertException(await wms(s.url, { ...v111, SRS: "EPSG:99999" }), "1.1.1", "InvalidSRS");
        assertException(await wms(s.url, { ...v111, LAYERS: "x" }), "1.1.1", "LayerNotDefined");
        assertException(
          await wms(s.url, {
            ...v111,
            REQUEST: "GetFeatureInfo",
            QUERY_LAYERS: "1",
            X: "999",
            Y: "1",
          }),
          "1.1.1",
          "InvalidPoint",
        );
        // Every reflected value is escaped: the report stays well-formed XML.
        const nasty = "<b>&\"'</b>]]>";
        const esc = await wms(s.url, { ...MAP13, LAYERS: nasty, REQUEST: "GetMap" });
        const message = assertException(esc, "1.3.0", "LayerNotDefined");
        assert.ok(message.includes(nasty), message);
        const escFormat = await wms(s.url, { ...MAP13, FORMAT: nasty });
        assert.ok(assertException(escFormat, "1.3.0", "InvalidFormat").includes(nasty));
        // A service that does not exist: 404, still a report.
        const missing = await wms(s.url, { SERVICE: "WMS", REQUEST: "GetCapabilities" }, "Nope");
        assert.equal(missing.status, 404);
        withXml(missing.text, (doc) => assert.equal(xpathCount(doc, "//ogc:ServiceException"), 1));
      });

      await t.step("exceptions INIMAGE and BLANK are images of the size asked", async () => {
        const bad = { ...MAP13, LAYERS: "7", WIDTH: "320", HEIGHT: "200" };
        const inimage = isPng(await wms(s.url, { ...bad, EXCEPTIONS: "INIMAGE" }));
        assert.deepEqual([inimage.width, inimage.height], [320, 200]);
        const blank = isPng(await wms(s.url, { ...bad, EXCEPTIONS: "BLANK" }));
        assert.deepEqual([blank.width, blank.height], [320, 200]);
        const first = pixel(blank, 0, 0);
        let other = 0, dark = 0;
        for (let y = 0; y < 200; y++) {
          for (let x = 0; x < 320; x++) {
            if (pixel(blank, x, y).some((v, i) => v !== first[i])) other++;
            if (pixel(inimage, x, y)[0] < 100) dark++;
          }
        }
        assert.equal(other, 0, "BLANK is one colour");
        assert.ok(dark > 100, `INIMAGE writes the message (${dark} dark pixels)`);
        // 1.1.1's names of the same modes.
        const old = await wms(s.url, {
          ...bad,
          VERSION: "1.1.1",
          CRS: "",
          SRS: "EPSG:4326",
          BBOX: "20,40,60,70",
          EXCEPTIONS: "application/vnd.ogc.se_inimage",
        });
        assert.equal(old.contentType, "image/png");
      });

      await t.step("POST form, HEAD and other methods", async () => {
        const form = new URLSearchParams(MAP13);
        const res = await fetch(wmsUrl(s.url), {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: form,
        });
        assert.equal(res.headers.get("content-type"), "image/png");
        assert.deepEqual(
          decode(new Uint8Array(await res.arrayBuffer())).data,
          decode((await wms(s.url, MAP13)).bytes).data,
        );
        const head = await fetch(`${wmsUrl(s.url)}?SERVICE=WMS&REQUEST=GetCapabilities`, {
          method: "HEAD",
        });
        assert.equal(head.status, 200);
        await head.body?.cancel();
        const put = await fetch(wmsUrl(s.url), { method: "PUT", body: "x" });
        assert.equal(put.status, 405);
        assert.match(await put.text(), /ServiceExceptionReport/);
        // Paths match in any case, as ArcGIS Server's do.
        const lower = await fetch(
          `${s.url}/arcgis/services/recruitment/mapserver/wmsserver?request=GetCapabilities&service=WMS`,
        );
        assert.match(await lower.text(), /<WMS_Capabilities/);
      });
    } finally {
      await s.close();
    }
  },
});
