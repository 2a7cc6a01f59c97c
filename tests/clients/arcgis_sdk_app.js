// The page of tests/rest_arcgis_sdk_test.ts: the ArcGIS Maps SDK for JavaScript
// (@arcgis/core 5.1, bundled) on the MapServer named by ?service=, in Web Mercator,
// with no basemap and no portal. With ?tiled=true the service is a cached map shown
// as a TileLayer alone (its tiles come from another origin: CORS on every tile). Results go to window.results; body[data-ready]
// says the view has drawn and every query has answered.
import esriConfig from "@arcgis/core/config.js";
import EsriMap from "@arcgis/core/Map.js";
import MapView from "@arcgis/core/views/MapView.js";
import MapImageLayer from "@arcgis/core/layers/MapImageLayer.js";
import FeatureLayer from "@arcgis/core/layers/FeatureLayer.js";
import TileLayer from "@arcgis/core/layers/TileLayer.js";
import Point from "@arcgis/core/geometry/Point.js";
import Extent from "@arcgis/core/geometry/Extent.js";
import * as identify from "@arcgis/core/rest/identify.js";
import IdentifyParameters from "@arcgis/core/rest/support/IdentifyParameters.js";
import * as reactiveUtils from "@arcgis/core/core/reactiveUtils.js";
import * as webMercatorUtils from "@arcgis/core/geometry/support/webMercatorUtils.js";

esriConfig.assetsPath = `${location.origin}/assets`;
esriConfig.request.useIdentity = false;
const params = new URL(location.href).searchParams;
const service = params.get("service");
const results = { errors: [] };
globalThis.results = results;

const tiled = params.get("tiled") === "true";
const image = tiled ? new TileLayer({ url: service }) : new MapImageLayer({ url: service });
const cities = new FeatureLayer({
  url: `${service}/0`,
  renderer: {
    type: "simple",
    symbol: { type: "simple-marker", color: [255, 0, 0], size: 10, outline: null },
  },
});
const mercator = { wkid: 3857 };
const view = new MapView({
  container: "map",
  map: new EsriMap({ layers: tiled ? [image] : [image, cities] }),
  spatialReference: mercator,
  extent: {
    xmin: 2200000,
    ymin: 5000000,
    xmax: 7500000,
    ymax: 8500000,
    spatialReference: mercator,
  },
  ui: { components: [] },
});
globalThis.toScreen = (lon, lat) => {
  const p = view.toScreen(new Point({ longitude: lon, latitude: lat }));
  return { x: p.x, y: p.y };
};
/** Moves the view to `extent` (Web Mercator) and waits until it has drawn. */
globalThis.goTo = async (extent) => {
  await view.goTo(new Extent({ ...extent, spatialReference: mercator }), { animate: false });
  await reactiveUtils.whenOnce(() => !view.updating);
  return { center: view.center.longitude };
};

/** Hides the FeatureLayer, so only the MapImageLayer's own drawing shows. */
globalThis.hideCities = async () => {
  cities.visible = false;
  await reactiveUtils.whenOnce(() => !view.updating);
};

view.when(async () => {
  await reactiveUtils.whenOnce(() => !view.updating);
  if (tiled) {
    results.tileInfo = { lods: image.tileInfo.lods.length, wkid: image.spatialReference.wkid };
    document.body.dataset.ready = "true";
    return;
  }
  results.count = await cities.queryFeatureCount({ where: "POP > 1500000" });
  const found = await identify.identify(
    service,
    new IdentifyParameters({
      // In the view's Web Mercator, as a click on the map gives it.
      geometry: webMercatorUtils.geographicToWebMercator(
        new Point({ longitude: 37.6173, latitude: 55.7558 }),
      ),
      mapExtent: view.extent,
      width: view.width,
      height: view.height,
      tolerance: 3,
      layerIds: [0],
      layerOption: "all",
      returnGeometry: true,
    }),
  );
  results.identify = found.results.map((r) => r.feature.attributes);
  document.body.dataset.ready = "true";
}).catch((e) => {
  results.errors.push(String(e?.stack ?? e));
  document.body.dataset.ready = "true";
});
