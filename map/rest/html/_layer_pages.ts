/**
 * The layer pages of the HTML Services Directory: one layer
 * (`.../MapServer/{id}`: name, display field, geometry type, extent,
 * drawing info in brief, fields with types and aliases, the query link)
 * and all layers (`.../MapServer/layers`), written from the layer JSON.
 *
 * @module
 */
import type { RestCall } from "../endpoint.ts";
import { serviceOf } from "../endpoint.ts";
import { type Html, markup } from "../../markup.ts";
import { directoryPage, type Links, servicePath } from "./page.ts";
import { arr, extentBlock, type Json, obj, properties, text } from "./_show.ts";
import { linksOf } from "./_service_pages.ts";

/** A colour `[r, g, b, a]` as text after a swatch of it. */
function colorText(c: unknown): Html {
  const [r, g, b, a] = arr(c).map(Number);
  if (![r, g, b, a].every(Number.isFinite)) return markup`${text(c)}`;
  const style = `display:inline-block;width:10px;height:10px;border:1px solid #000;` +
    `background:rgba(${r},${g},${b},${a / 255})`;
  return markup`<span style="${style}"></span> ${text(c)}`;
}

/** A symbol in brief, as ArcGIS's layer page lists it (`Style: ..., Color: ..., Size: ...`). */
function symbolText(symbol: unknown): Html {
  const s = obj(symbol);
  if (Object.keys(s).length === 0) return markup`Null`;
  const parts: Html[] = [];
  const add = (label: string, v: unknown) => {
    if (v !== undefined) parts.push(markup`${label}: ${text(v)}`);
  };
  add("Style", s.style);
  if (s.color !== undefined) parts.push(markup`Color: ${colorText(s.color)}`);
  add("Size", s.size);
  add("Width", s.width);
  add("Angle", s.angle);
  add("XOffset", s.xoffset);
  add("YOffset", s.yoffset);
  if (s.font !== undefined) {
    const f = obj(s.font);
    parts.push(markup`Font: ${text(f.family)}, ${text(f.size)} pt`);
  }
  if (s.haloColor) parts.push(markup`Halo: ${colorText(s.haloColor)}, ${text(s.haloSize)}`);
  const outline = s.outline ? markup`<br>Outline: ${symbolText(s.outline)}` : "";
  return markup`${parts.map((p, i) => markup`${i > 0 ? ", " : ""}${p}`)}${outline}`;
}

/** The classes of a unique-value or class-breaks renderer. */
function classes(rows: readonly Json[], first: string, valueOf: (r: Json) => string): Html {
  const items = rows.map((r) => {
    const rows = properties([
      ["Label", text(r.label)],
      ["Description", text(r.description)],
      ["Symbol", symbolText(r.symbol)],
    ]);
    return markup`<li>${first}: ${valueOf(r)}<div class="indent">${rows}</div></li>\n`;
  });
  return markup`<ul>${items}</ul>`;
}

function rendererBlock(renderer: unknown): Html {
  const r = obj(renderer);
  switch (r.type) {
    case "simple": {
      const rows = properties([
        ["Symbol", symbolText(r.symbol)],
        ["Label", text(r.label)],
        ["Description", text(r.description)],
      ]);
      return markup`<b>Simple Renderer:</b><div class="indent">${rows}</div>`;
    }
    case "uniqueValue": {
      const rows = properties([
        ["Field 1", text(r.field1)],
        ["Field 2", text(r.field2)],
        ["Field 3", text(r.field3)],
        ["Field Delimiter", text(r.fieldDelimiter)],
        ["Default Symbol", symbolText(r.defaultSymbol)],
        ["Default Label", text(r.defaultLabel)],
      ]);
      const infos = classes(arr(r.uniqueValueInfos).map(obj), "Value", (v) => text(v.value));
      return markup`<b>Unique Value Renderer:</b><div class="indent">${rows}<b>UniqueValueInfos:</b>${infos}</div>`;
    }
    case "classBreaks": {
      const rows = properties([
        ["Field", text(r.field)],
        ["Min. Value", text(r.minValue)],
        ["Default Symbol", symbolText(r.defaultSymbol)],
        ["Default Label", text(r.defaultLabel)],
      ]);
      const infos = classes(
        arr(r.classBreakInfos).map(obj),
        "Class Range",
        (b) => `${text(b.classMinValue)} – ${text(b.classMaxValue)}`,
      );
      return markup`<b>Class Breaks Renderer:</b><div class="indent">${rows}<b>ClassBreakInfos:</b>${infos}</div>`;
    }
    default:
      return markup`${text(r.type)}`;
  }
}

function drawingInfoBlock(drawingInfo: unknown): Html {
  const d = obj(drawingInfo);
  const labels = arr(d.labelingInfo).map((l) => {
    const o = obj(l);
    const rows = properties([
      ["Label Placement", text(o.labelPlacement)],
      ["Label Expression", text(o.labelExpression)],
      ["Use Coded Values", text(o.useCodedValues)],
      ["Symbol", symbolText(o.symbol)],
      ["Min. Scale", text(o.minScale)],
      ["Max. Scale", text(o.maxScale)],
    ]);
    return markup`<div class="indent">${rows}</div>`;
  });
  const transparency = properties([["Transparency", text(d.transparency)]]);
  return markup`<b>Drawing Info:</b>
<div class="indent"><b>Renderer:</b><div class="indent">${
    rendererBlock(d.renderer)
  }</div>${transparency}<b>Labeling Info:</b>${
    labels.length > 0 ? labels : markup` Null<br>`
  }</div>\n`;
}

function fieldsBlock(fields: unknown): Html {
  const rows = arr(fields).map(obj).map((f) => {
    const length = f.length !== undefined ? markup`, length: ${text(f.length)}` : "";
    return markup`<li>${text(f.name)} <i>(type: ${text(f.type)}, alias: ${
      text(f.alias)
    }${length})</i></li>\n`;
  });
  return markup`<b>Fields:</b>\n<ul>${rows}</ul>\n`;
}

/** One layer's description, as the layer page and the all-layers page show it. */
function layerBody(value: Json, links: Links, base: string): Html {
  const head = properties([
    ["Name", text(value.name)],
    ["Display Field", text(value.displayField)],
    ["Type", text(value.type)],
    ["Geometry Type", text(value.geometryType)],
    ["Description", text(value.description)],
    ["Copyright Text", text(value.copyrightText)],
    ["Default Visibility", text(value.defaultVisibility)],
    ["MaxRecordCount", text(value.maxRecordCount)],
    ["Supported Query Formats", text(value.supportedQueryFormats)],
    ["Min Scale", text(value.minScale)],
    ["Max Scale", text(value.maxScale)],
    ["Has Labels", text(value.hasLabels)],
  ]);
  const advanced = properties(
    Object.entries(obj(value.advancedQueryCapabilities))
      .map(([k, v]) => [k.replace(/^supports/, "Supports "), text(v)] as const),
  );
  const tail = properties([
    ["Has Attachments", text(value.hasAttachments)],
    ["HTML Popup Type", text(value.htmlPopupType)],
    ["Type ID Field", text(value.typeIdField)],
  ]);
  const query = links.href(`${base}/${value.id}/query`);
  return markup`${head}${extentBlock("Extent", value.extent)}${
    drawingInfoBlock(value.drawingInfo)
  }<b>Advanced Query Capabilities:</b>
<div class="indent">${advanced}</div>${tail}${fieldsBlock(value.fields)}
<p><b>Supported Operations:</b> &nbsp;&nbsp;<a href="${query}">Query</a></p>\n`;
}

/**
 * The page of one layer.
 *
 * @example
 * ```ts ignore
 * layerPage(call, layerJson(service, frame, info));
 * ```
 */
export function layerPage(call: RestCall, value: Json): string {
  const service = serviceOf(call);
  const links = linksOf(call);
  const base = servicePath(service.name);
  return directoryPage({
    title: `Layer: ${text(value.name)} (ID: ${text(value.id)})`,
    crumbs: [...links.crumbs(service.name), { label: text(value.name) }],
    jsonHref: links.href(`${base}/${value.id}`, { f: "pjson" }),
    body: layerBody(value, links, base),
  });
}

/**
 * The page of every layer of a map (`.../MapServer/layers`).
 *
 * @example
 * ```ts ignore
 * allLayersPage(call, { layers: [...], tables: [] });
 * ```
 */
export function allLayersPage(call: RestCall, value: Json): string {
  const service = serviceOf(call);
  const links = linksOf(call);
  const base = servicePath(service.name);
  const layers = arr(value.layers).map(obj).map((l) => {
    const href = links.href(`${base}/${l.id}`);
    return markup`<h3><a href="${href}">Layer: ${text(l.name)} (ID: ${text(l.id)})</a></h3>
${layerBody(l, links, base)}`;
  });
  return directoryPage({
    title: "All Layers and Tables",
    crumbs: [...links.crumbs(service.name), { label: "layers" }],
    jsonHref: links.href(`${base}/layers`, { f: "pjson" }),
    body: markup`${layers}`,
  });
}
