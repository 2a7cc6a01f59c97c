/**
 * The web map at `/` (browser code, bundled with OpenLayers by
 * `bundle.ts`): the service's layers through the ArcGIS REST API (tiles
 * while every layer is on and a map's service JSON offers a Web Mercator
 * cache, `export` otherwise),
 * a layer list and legend, a scale bar, Identify on click with a popup that
 * links to the JSON API, and a search box over the JSON API's `search=`.
 *
 * A REST endpoint that fails is reported where its part of the page is
 * (e.g. "Legend unavailable: ..."), never replaced with made-up content.
 *
 * @module
 */
import Map from "ol/Map.js";
import View from "ol/View.js";
import Overlay from "ol/Overlay.js";
import Feature from "ol/Feature.js";
import Point from "ol/geom/Point.js";
import TileLayer from "ol/layer/Tile.js";
import ImageLayer from "ol/layer/Image.js";
import VectorLayer from "ol/layer/Vector.js";
import XYZ from "ol/source/XYZ.js";
import ImageArcGISRest from "ol/source/ImageArcGISRest.js";
import VectorSource from "ol/source/Vector.js";
import ScaleLine from "ol/control/ScaleLine.js";
import { defaults as defaultControls } from "ol/control/defaults.js";
import { boundingExtent } from "ol/extent.js";
import { fromLonLat, transformExtent } from "ol/proj.js";
import { Circle, Stroke, Style } from "ol/style.js";
import "ol/ol.css";
import {
  competitionOf,
  competitionPoints,
  epsgOf,
  exportLayers,
  identifyParams,
  type IdentifyResult,
  type LayerField,
  type LegendInfo,
  restError,
  type ServiceInfo,
  type ServiceLayer,
  type WebMapConfig,
  webMercatorCache,
} from "./_arcgis.ts";

/** Russia and its neighbours, when the service JSON gives no initial extent. */
const FALLBACK_EXTENT = transformExtent([19, 40, 180, 78], "EPSG:4326", "EPSG:3857");

function byId<T extends HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`The page has no #${id}.`);
  return el as T;
}

/** GET `url` as JSON; an ArcGIS error body or HTTP error becomes an Error with its message. */
async function getJson(url: string): Promise<unknown> {
  const res = await fetch(url, { headers: { accept: "application/json" } });
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`HTTP ${res.status}, not JSON`);
  }
  const err = restError(body);
  if (err) throw new Error(err);
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return body;
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

const config = JSON.parse(byId("webmap-config").textContent ?? "{}") as WebMapConfig;
const serviceUrl = `/arcgis/rest/services/${encodeURIComponent(config.service)}/MapServer`;
const status = byId("status");

function setStatus(text: string): void {
  status.textContent = text;
  status.hidden = text === "";
}

// Both stay hidden until a service JSON says which one draws the map (loadService).
const tiles = new TileLayer({ visible: false });
const exportSource = new ImageArcGISRest({
  url: serviceUrl,
  ratio: 1,
  params: { FORMAT: "png32", TRANSPARENT: false },
});
const exported = new ImageLayer({ visible: false, source: exportSource });
const found = new VectorSource();
const highlight = new VectorLayer({
  source: found,
  style: new Style({
    image: new Circle({
      // A ring only: the competition's own marker stays visible inside it.
      radius: 9,
      stroke: new Stroke({ color: "rgb(30, 110, 255)", width: 2.5 }),
    }),
  }),
});

exportSource.on("imageloaderror", () => setStatus("Map image (export) unavailable."));
exportSource.on("imageloadend", () => setStatus(""));

const popupEl = byId("popup");
const popup = new Overlay({
  element: popupEl,
  autoPan: { animation: { duration: 200 } },
  positioning: "bottom-center",
  offset: [0, -10],
});

const map = new Map({
  target: "map",
  layers: [tiles, exported, highlight],
  overlays: [popup],
  controls: defaultControls({ attribution: false }).extend([
    new ScaleLine({ units: "metric", bar: false }),
  ]),
  view: new View({ center: [0, 0], zoom: 2, maxZoom: 19 }),
});
map.updateSize();
map.getView().fit(FALLBACK_EXTENT);

/** Writes the view in longitude/latitude on #map, for whoever inspects the page (and the tests). */
function recordExtent(): void {
  const size = map.getSize();
  if (!size) return;
  const extent = transformExtent(map.getView().calculateExtent(size), "EPSG:3857", "EPSG:4326");
  byId("map").dataset.extent = extent.map((v) => v.toFixed(4)).join(",");
}

/** Layers of the service, checked ids, the fields of each layer (for alias lookup), and whether tiles draw it. */
const state = {
  tiled: false,
  layers: [] as ServiceLayer[],
  checked: new Set<number>(),
  defaults: new Set<number>(),
  fields: new globalThis.Map<number, LayerField[]>(),
};

/** Tiles show the cached map of every default layer; any other choice is drawn by export. */
function applyLayers(): void {
  const sameAsCache = state.checked.size === state.defaults.size &&
    [...state.defaults].every((id) => state.checked.has(id));
  const layers = exportLayers(state.checked);
  if (state.tiled && sameAsCache) {
    tiles.setVisible(true);
    exported.setVisible(false);
  } else {
    tiles.setVisible(false);
    exported.setVisible(layers !== null);
    if (layers !== null) exportSource.updateParams({ LAYERS: layers });
  }
  document.body.dataset.mapSource = tiles.getVisible()
    ? "tiles"
    : exported.getVisible()
    ? "export"
    : "none";
}

function renderLayerList(layers: ServiceLayer[]): void {
  const list = byId("layers");
  list.replaceChildren();
  for (const layer of layers) {
    const box = el("input", { type: "checkbox", checked: state.checked.has(layer.id) });
    box.dataset.layerId = String(layer.id);
    box.addEventListener("change", () => {
      if (box.checked) state.checked.add(layer.id);
      else state.checked.delete(layer.id);
      applyLayers();
    });
    list.append(el("li", {}, el("label", {}, box, ` ${layer.name}`)));
  }
}

/**
 * The service JSON of each map in turn (the default map first): the first
 * that offers a Web Mercator tile cache is drawn from its tiles, else the
 * default map is drawn by export.
 */
async function serviceInfo(): Promise<ServiceInfo> {
  let first: ServiceInfo | undefined;
  for (const name of config.maps ?? []) {
    const mapName = encodeURIComponent(name);
    const info = await getJson(`${serviceUrl}?f=json&mapName=${mapName}`) as ServiceInfo;
    first ??= info;
    const maxZoom = webMercatorCache(info);
    if (maxZoom !== null) {
      tiles.setSource(
        new XYZ({ url: `${serviceUrl}/tile/${mapName}/_alllayers/{z}/{y}/{x}`, maxZoom }),
      );
      state.tiled = true;
      return info;
    }
  }
  return first ?? await getJson(`${serviceUrl}?f=json`) as ServiceInfo;
}

async function loadService(): Promise<void> {
  try {
    const info = await serviceInfo();
    const layers = (info.layers ?? []).filter((l) => !l.subLayerIds?.length);
    state.layers = layers;
    for (const l of layers) {
      if (l.defaultVisibility !== false) state.defaults.add(l.id);
    }
    state.checked = new Set(state.defaults);
    renderLayerList(layers);
    const extent = info.initialExtent ?? info.fullExtent;
    const epsg = epsgOf(extent?.spatialReference ?? info.spatialReference);
    if (extent && epsg) {
      const box = [extent.xmin, extent.ymin, extent.xmax, extent.ymax];
      map.getView().fit(epsg === "EPSG:3857" ? box : transformExtent(box, epsg, "EPSG:3857"));
    }
    applyLayers();
    byId("map").dataset.layers = String(layers.length);
  } catch (e) {
    byId("layers").replaceChildren(
      el("li", { className: "unavailable" }, `Layer list unavailable: ${message(e)}`),
    );
    // Without a service JSON the map can still be drawn by export, with every default layer.
    exported.setVisible(true);
    document.body.dataset.mapSource = "export";
    return;
  }
  await loadFields();
}

async function loadFields(): Promise<void> {
  try {
    const body = await getJson(`${serviceUrl}/layers?f=json`) as {
      layers?: { id: number; fields?: LayerField[] }[];
    };
    for (const l of body.layers ?? []) state.fields.set(l.id, l.fields ?? []);
  } catch {
    // Identify results keyed by field name still work; aliases need these fields.
  }
}

async function loadLegend(): Promise<void> {
  const box = byId("legend");
  try {
    const legend = await getJson(`${serviceUrl}/legend?f=json`) as LegendInfo;
    box.replaceChildren();
    for (const layer of legend.layers ?? []) {
      const items = layer.legend.map((entry) => {
        const img = el("img", {
          alt: "",
          width: entry.width ?? 20,
          height: entry.height ?? 20,
          src: entry.imageData
            ? `data:${entry.contentType ?? "image/png"};base64,${entry.imageData}`
            : `${serviceUrl}/${layer.layerId}/images/${entry.url}`,
        });
        return el("li", {}, img, " ", entry.label || layer.layerName);
      });
      box.append(el("h3", {}, layer.layerName), el("ul", {}, ...items));
    }
    box.dataset.loaded = "true";
  } catch (e) {
    box.replaceChildren(el("p", { className: "unavailable" }, `Legend unavailable: ${message(e)}`));
  }
}

function showPopup(coordinate: number[], content: Node[]): void {
  byId("popup-content").replaceChildren(...content);
  popupEl.hidden = false;
  popup.setPosition(coordinate);
}

function hidePopup(): void {
  popup.setPosition(undefined);
  popupEl.hidden = true;
}

function popupContent(results: IdentifyResult[]): Node[] {
  const nodes: Node[] = [];
  for (const r of results) {
    const c = competitionOf(r, state.fields.get(r.layerId));
    if (c) {
      const link = el("a", { href: c.href, className: "title" }, c.title);
      nodes.push(
        el(
          "article",
          { className: "competition" },
          link,
          el("p", { className: "agency" }, c.agency),
          el("p", { className: "deadline" }, `Приём документов до ${c.deadline || "—"}`),
        ),
      );
    }
  }
  if (nodes.length > 0) return nodes.slice(0, 5);
  const other = results[0];
  return other
    ? [el("p", {}, `${other.layerName}: ${other.value ?? ""}`)]
    : [el("p", {}, "Nothing here.")];
}

let identifySeq = 0;
map.on("singleclick", async (event) => {
  const seq = ++identifySeq;
  const size = map.getSize();
  if (!size) return;
  const layerIds = [...state.checked].sort((a, b) => a - b);
  // Nothing drawn, nothing to identify (before the layer list loads, every layer is drawn).
  if (layerIds.length === 0 && state.layers.length > 0) return hidePopup();
  const coarse = matchMedia("(pointer: coarse)").matches;
  const params = identifyParams({
    x: event.coordinate[0],
    y: event.coordinate[1],
    extent: map.getView().calculateExtent(size),
    widthPx: size[0],
    heightPx: size[1],
    wkid: 3857,
    layerIds,
    tolerancePx: coarse ? 12 : 6,
  });
  try {
    const body = await getJson(`${serviceUrl}/identify?${params}`) as {
      results?: IdentifyResult[];
    };
    if (seq !== identifySeq) return;
    showPopup(event.coordinate, popupContent(body.results ?? []));
  } catch (e) {
    if (seq !== identifySeq) return;
    showPopup(event.coordinate, [
      el("p", { className: "unavailable" }, `Identify unavailable: ${message(e)}`),
    ]);
  }
});

byId("popup-close").addEventListener("click", hidePopup);

byId<HTMLFormElement>("search").addEventListener("submit", async (event) => {
  event.preventDefault();
  const input = byId<HTMLInputElement>("search-text");
  const text = input.value.trim();
  const out = byId("search-result");
  found.clear();
  if (text === "") {
    out.textContent = "";
    return;
  }
  out.textContent = "Searching…";
  delete out.dataset.found;
  try {
    const q = new URLSearchParams({ search: text, page_size: "100" });
    const page = await getJson(`/api/v1/competitions/?${q}`) as { count?: number };
    const points = competitionPoints(page);
    found.addFeatures(points.map((p) => {
      const f = new Feature(new Point(fromLonLat([p.lon, p.lat])));
      f.setId(p.id);
      return f;
    }));
    const count = page.count ?? points.length;
    out.textContent = count === 0
      ? "No competitions found."
      : `${count} found${points.length < count ? `, ${points.length} shown` : ""}.`;
    // `data-found` is set once the view has arrived and is drawn, for whoever waits on it.
    const done = () => {
      map.once("rendercomplete", () => {
        recordExtent();
        out.dataset.found = String(points.length);
      });
      map.render();
    };
    if (points.length === 0) done();
    else {
      const extent = boundingExtent(points.map((p) => fromLonLat([p.lon, p.lat])));
      map.getView().fit(extent, {
        padding: [60, 60, 60, 60],
        maxZoom: 11,
        duration: 300,
        callback: done,
      });
    }
  } catch (e) {
    out.textContent = `Search unavailable: ${message(e)}`;
  }
});

byId("panel-toggle").addEventListener("click", () => {
  const open = document.body.classList.toggle("panel-open");
  byId("panel-toggle").setAttribute("aria-expanded", String(open));
  setTimeout(() => map.updateSize(), 0);
});

map.on("moveend", recordExtent);

map.on("rendercomplete", () => {
  document.body.dataset.renders = String(Number(document.body.dataset.renders ?? 0) + 1);
});

await Promise.all([loadService(), loadLegend()]);
// Ready once the source the service JSON chose (tiles or export) has drawn; render again so
// the event comes even when that drawing finished while the legend was still loading.
map.once("rendercomplete", () => {
  document.body.dataset.ready = "true";
});
map.render();
