// The page of tests/rest_esri_leaflet_test.ts: esri-leaflet 3.1 on Leaflet 1.9,
// bundled, against the MapServer named by ?service=. Results go to window.results;
// body[data-ready] says every request has answered.
import L from "leaflet";
import * as esri from "esri-leaflet";

const service = new URL(location.href).searchParams.get("service");
const map = L.map("map", { zoomControl: false, attributionControl: false, fadeAnimation: false })
  .setView([55, 40], 4);
const results = { errors: [] };
globalThis.results = results;
globalThis.toPixel = (lat, lon) => map.latLngToContainerPoint([lat, lon]);
let pending = 5;
const done = () => {
  if (--pending === 0) document.body.dataset.ready = "true";
};
const fail = (what) => (e) => {
  results.errors.push(`${what}: ${e?.message ?? JSON.stringify(e)}`);
  done();
};

esri.dynamicMapLayer({ url: service, layers: [1, 2] }).on("load", done).on(
  "requesterror",
  fail("dynamicMapLayer"),
).addTo(map);
const features = esri.featureLayer({
  url: `${service}/0`,
  pointToLayer: (_, latlng) =>
    L.circleMarker(latlng, { radius: 6, color: "#ff0000", fillColor: "#ff0000", fillOpacity: 1 }),
}).addTo(map);
features.once("load", () => {
  results.features = [];
  features.eachFeature((f) => results.features.push(f.feature.properties));
  results.view = map.getBounds().toBBoxString();
  done();
});
features.on("requesterror", fail("featureLayer"));

const query = esri.query({ url: `${service}/0` }).where("POP > 1500000");
query.count((error, count) => {
  if (error) return fail("count")(error);
  results.count = count;
  done();
});
esri.query({ url: `${service}/0` }).where("1=1").bounds((error, bounds) => {
  if (error) return fail("bounds")(error);
  results.bounds = bounds.toBBoxString();
  done();
});
esri.identifyFeatures({ url: service }).on(map).at([55.7558, 37.6173]).layers("all:0")
  .tolerance(3).run((error, collection) => {
    if (error) return fail("identify")(error);
    results.identify = collection.features.map((f) => f.properties);
    done();
  });
