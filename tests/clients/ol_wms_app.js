// The page of tests/ogc_wms_clients_test.ts: OpenLayers' ImageWMS (WMS 1.3.0, EPSG:4326)
// against the WMSServer named by ?service=, 600 x 400 pixels of 0.1 degree. Results go to
// window.results; body[data-ready] says the image is drawn and GetFeatureInfo answered.
import Map from "ol/Map.js";
import View from "ol/View.js";
import ImageLayer from "ol/layer/Image.js";
import ImageWMS from "ol/source/ImageWMS.js";

const service = new URL(location.href).searchParams.get("service");
const results = { errors: [], loaded: 0 };
globalThis.results = results;
const source = new ImageWMS({ url: service, params: { LAYERS: "1,0" }, ratio: 1 });
source.on("imageloadend", () => results.loaded++);
source.on("imageloaderror", () => results.errors.push("GetMap failed"));
const view = new View({ projection: "EPSG:4326", center: [40, 55], resolution: 0.1 });
const map = new Map({ target: "map", layers: [new ImageLayer({ source })], view, controls: [] });
map.once("rendercomplete", async () => {
  try {
    results.extent = view.calculateExtent(map.getSize());
    results.getMap = document.querySelector("canvas") ? "canvas" : "none";
    const url = source.getFeatureInfoUrl([50.05, 59.95], 0.1, "EPSG:4326", {
      INFO_FORMAT: "application/json",
      QUERY_LAYERS: "1",
    });
    results.infoUrl = url;
    results.info = await (await fetch(url)).json();
    const legend = await fetch(source.getLegendUrl(0.1, { LAYER: "1" }));
    results.legendType = legend.headers.get("content-type");
  } catch (e) {
    results.errors.push(String(e?.message ?? e));
  }
  document.body.dataset.ready = "true";
});
