/**
 * The catalog (`/services`) and service (`/services/{S}/MapServer`) pages
 * of the HTML Services Directory, written from the same JSON `f=json`
 * answers, in ArcGIS Server 10.3's order: layers with links, description,
 * spatial reference, tile info, extents, units, image formats, document
 * info, limits and the supported operations with links.
 *
 * @module
 */
import type { RestCall } from "../endpoint.ts";
import { serviceOf } from "../endpoint.ts";
import { type Html, markup } from "../../markup.ts";
import { directoryPage, Links, servicePath } from "./page.ts";
import {
  arr,
  extentBlock,
  type Json,
  obj,
  properties,
  spatialReferenceText,
  text,
} from "./_show.ts";

/** The links of a page about `call`, keeping its `mapName`. */
export function linksOf(call: RestCall): Links {
  return new Links(call.params.string("mapName"));
}

/**
 * The catalog page: the folder, the version and every service with its link.
 *
 * @example
 * ```ts ignore
 * servicesPage(call, { currentVersion: 10.3, folders: [], services: [{ name: "S", type: "MapServer" }] });
 * ```
 */
export function servicesPage(call: RestCall, value: Json): string {
  const links = linksOf(call);
  const services = arr(value.services).map((s) => {
    const name = String(obj(s).name);
    return markup`<li><a href="${links.href(servicePath(name))}">${name}</a> (MapServer)</li>\n`;
  });
  return directoryPage({
    title: "Folder: /",
    crumbs: [{ label: "Home", href: "/arcgis/rest/services" }, { label: "services" }],
    jsonHref: links.href("/services", { f: "pjson" }),
    body: markup`${properties([["Current Version", text(value.currentVersion)]])}
<b>Services:</b>
<ul>${services}</ul>
<p><a href="/arcgis/rest/info?f=pjson">Server Info</a> | <a href="/arcgis/services?wsdl">SOAP</a></p>`,
  });
}

function tileInfoBlock(tileInfo: unknown): Html {
  const t = obj(tileInfo);
  const lods = arr(t.lods).map((l) => {
    const o = obj(l);
    const rows = properties([["Resolution", text(o.resolution)], ["Scale", text(o.scale)]]);
    return markup`<li>Level ID: ${text(o.level)}<div class="indent">${rows}</div></li>\n`;
  });
  const origin = obj(t.origin);
  const head = properties([
    ["Height", text(t.rows)],
    ["Width", text(t.cols)],
    ["DPI", text(t.dpi)],
    ["Levels of Detail", String(arr(t.lods).length)],
  ]);
  const tail = properties([
    ["Format", text(t.format)],
    ["Compression Quality", text(t.compressionQuality)],
    ["Origin", `X: ${text(origin.x)}, Y: ${text(origin.y)}`],
    ["Spatial Reference", spatialReferenceText(t.spatialReference)],
  ]);
  return markup`<b>Tile Info:</b>
<div class="indent">${head}<ul>${lods}</ul>${tail}</div>\n`;
}

/**
 * The service page of one map of a service.
 *
 * @example
 * ```ts ignore
 * servicePage(call, await SERVICE_ENDPOINT.handle(call));
 * ```
 */
export function servicePage(call: RestCall, value: Json): string {
  const service = serviceOf(call);
  const links = linksOf(call);
  const base = servicePath(service.name);
  const layers = arr(value.layers).map((l) => {
    const o = obj(l);
    const href = links.href(`${base}/${o.id}`);
    return markup`<li><a href="${href}">${text(o.name)}</a> (${text(o.id)})</li>\n`;
  });
  const maps = service.maps.map((m, i) => {
    const isDefault = m.name === service.defaultMapName ? " (default)" : "";
    const href = new Links(m.name).href(base);
    return markup`${i > 0 ? ", " : ""}<a href="${href}">${m.name}</a>${isDefault}`;
  });
  // The web map at `/` shows the first service.
  const viewIn = call.maps.services[0]?.name === service.name
    ? markup`<p><b>View In:</b> <a href="/">Web map</a></p>`
    : "";
  const doc = Object.entries(obj(value.documentInfo)).map(([k, v]) => [k, text(v)] as const);
  const full = obj(value.fullExtent);
  const bbox = [full.xmin, full.ymin, full.xmax, full.ymax].map(text).join(",");
  const ops = [
    markup`<a href="${links.href(`${base}/export`, { bbox })}">Export Map</a>`,
    markup`<a href="${links.href(`${base}/identify`)}">Identify</a>`,
    markup`<a href="${links.href(`${base}/find`)}">Find</a>`,
  ];
  const crumbs = links.crumbs(service.name);
  crumbs[crumbs.length - 1] = { label: `${service.name} (MapServer)` };
  const head = properties([
    ["Service Description", text(value.serviceDescription)],
    ["Map Name", text(value.mapName)],
    ["Maps", maps],
  ]);
  const about = properties([
    ["Description", text(value.description)],
    ["Copyright Text", text(value.copyrightText)],
    ["Spatial Reference", spatialReferenceText(value.spatialReference)],
    ["Single Fused Map Cache", text(value.singleFusedMapCache)],
  ]);
  const formats = properties([
    ["Units", text(value.units)],
    ["Supported Image Format Types", text(value.supportedImageFormatTypes)],
  ]);
  const limits = properties([
    ["Supports Dynamic Layers", text(value.supportsDynamicLayers)],
    ["Capabilities", text(value.capabilities)],
    ["MaxRecordCount", text(value.maxRecordCount)],
    ["MaxImageHeight", text(value.maxImageHeight)],
    ["MaxImageWidth", text(value.maxImageWidth)],
    ["Supported Query Formats", text(value.supportedQueryFormats)],
  ]);
  const tables = arr(value.tables).map((t) => markup`<li>${text(obj(t).name)}</li>`);
  return directoryPage({
    title: `${service.name} (MapServer)`,
    crumbs,
    jsonHref: links.href(base, { f: "pjson" }),
    body: markup`${viewIn}
${head}
<p><a href="${links.href(`${base}/legend`)}">Legend</a> | <a href="${
      links.href(`${base}/layers`)
    }">All Layers and Tables</a></p>
<b>Layers:</b>
<ul>${layers}</ul>
<b>Tables:</b>
<ul>${tables}</ul>
${about}${value.tileInfo ? tileInfoBlock(value.tileInfo) : ""}${
      extentBlock("Initial Extent", value.initialExtent)
    }${extentBlock("Full Extent", value.fullExtent)}${formats}<b>Document Info:</b>
<div class="indent">${properties(doc)}</div>
${limits}
<p><b>Supported Operations:</b> ${ops.map((o) => markup`&nbsp;&nbsp;${o}`)}</p>`,
  });
}

/**
 * The legend page: each layer's swatches (served by the layer's `images`
 * resource, as the legend JSON names them) beside their labels.
 *
 * @example
 * ```ts ignore
 * legendPage(call, await legendJson(call, drawn));
 * ```
 */
export function legendPage(call: RestCall, value: Json): string {
  const service = serviceOf(call);
  const links = linksOf(call);
  const base = servicePath(service.name);
  const layers = arr(value.layers).map(obj).map((l) => {
    const rows = arr(l.legend).map(obj).map((e) => {
      const src = links.href(`${base}/${l.layerId}/images/${encodeURIComponent(text(e.url))}`);
      return markup`<tr><td><img src="${src}" width="${text(e.width)}" height="${
        text(e.height)
      }" alt=""></td><td>${text(e.label)}</td></tr>\n`;
    });
    const href = links.href(`${base}/${l.layerId}`);
    return markup`<h3><a href="${href}">${text(l.layerName)}</a> (${text(l.layerId)})</h3>
<table>${rows}</table>\n`;
  });
  return directoryPage({
    title: `Legend: ${service.name}`,
    crumbs: [...links.crumbs(service.name), { label: "legend" }],
    jsonHref: links.href(`${base}/legend`, { f: "pjson" }),
    body: markup`${layers}`,
  });
}
