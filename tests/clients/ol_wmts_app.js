// The page of tests/ogc_wmts_test.ts: OpenLayers' WMTS source built from our capabilities
// (optionsFromCapabilities, GoogleMapsCompatible) of the service named by ?service=, a view of
// 600 x 400 pixels centred on (0, 0) at level 2's resolution. Results go to window.results;
// body[data-ready] says the tiles are drawn.
import Map from "ol/Map.js";
import View from "ol/View.js";
import TileLayer from "ol/layer/Tile.js";
import WMTS, { optionsFromCapabilities } from "ol/source/WMTS.js";
import WMTSCapabilities from "ol/format/WMTSCapabilities.js";

const service = new URL(location.href).searchParams.get("service");
const results = { errors: [], loaded: 0, urls: [] };
globalThis.results = results;
try {
  const text = await (await fetch(`${service}/1.0.0/WMTSCapabilities.xml`)).text();
  const caps = new WMTSCapabilities().read(text);
  results.layers = caps.Contents.Layer.map((l) => l.Identifier);
  const options = optionsFromCapabilities(caps, {
    layer: "Recruitment",
    matrixSet: "GoogleMapsCompatible",
  });
  results.requestEncoding = options.requestEncoding;
  const source = new WMTS({ ...options, transition: 0 });
  source.on("tileloadend", (e) => {
    results.loaded++;
    results.urls.push(e.tile.src_ ?? e.tile.getImage?.().src ?? "");
  });
  source.on("tileloaderror", () => results.errors.push("tile failed"));
  const view = new View({ center: [0, 0], resolution: 39135.75848200009 });
  const map = new Map({ target: "map", layers: [new TileLayer({ source })], view, controls: [] });
  map.once("rendercomplete", () => {
    document.body.dataset.ready = "true";
  });
} catch (e) {
  results.errors.push(String(e?.message ?? e));
  document.body.dataset.ready = "true";
}
