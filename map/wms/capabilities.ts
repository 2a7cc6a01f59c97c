/**
 * GetCapabilities: the WMS 1.3.0 `WMS_Capabilities` document (default) or
 * the 1.1.1 `WMT_MS_Capabilities` one. The map WMS serves is one root
 * Layer (no Name, as ArcGIS writes it: it is not drawn as one) whose
 * children are the map's layers, top first, each named by its id (`0`,
 * `1`, ... as ArcGIS names them) and titled by its name, with its
 * description as Abstract, its extent as bounding boxes in every offered
 * CRS, queryable (every layer is a feature layer), its scale range, and a
 * `default` style whose LegendURL is this service's GetLegendGraphic.
 *
 * @module
 */
import type { MapFrame, MapLayer } from "../ops/mod.ts";
import { layerExtent, serviceLimits } from "../ops/mod.ts";
import type { Extent } from "../types.ts";
import { projectExtent } from "../geo/projection.ts";
import { escapeAttr, escapeText } from "../xml_text.ts";
import { bboxNumbers, offeredCrs, parseCrs } from "./_crs.ts";
import type { WmsVersion } from "./_kvp.ts";
import { DEFAULT_STYLE, WMS_DPI, type WmsCall } from "./_map_request.ts";
import { MAP_FORMATS } from "./get_map.ts";
import { INFO_FORMATS } from "./feature_info.ts";
import { legendSize } from "./legend_graphic.ts";
import type { WmsReply } from "./reply.ts";

/** Scale denominators WMS states for a pixel of 0.28 mm; ArcGIS's scales are at 96 DPI. */
const WMS_SCALE_PER_ARCGIS = (0.0254 / WMS_DPI) / 0.00028;

const t = escapeText;
const a = escapeAttr;

/** An extent in WGS 84, clamped to the world. */
function geographic(e: Extent, wkid: number): Extent {
  const g = projectExtent(e, wkid, 4326);
  return {
    xmin: Math.max(-180, g.xmin),
    ymin: Math.max(-90, g.ymin),
    xmax: Math.min(180, g.xmax),
    ymax: Math.min(90, g.ymax),
  };
}

function onlineResource(href: string, version: WmsVersion): string {
  const ns = version === "1.1.1" ? ` xmlns:xlink="http://www.w3.org/1999/xlink"` : "";
  return `<OnlineResource${ns} xlink:type="simple" xlink:href="${a(href)}"/>`;
}

function dcp(href: string, version: WmsVersion): string {
  return `<DCPType><HTTP><Get>${onlineResource(href, version)}</Get><Post>${
    onlineResource(href, version)
  }</Post></HTTP></DCPType>`;
}

function operation(name: string, formats: readonly string[], href: string, v: WmsVersion) {
  return `<${name}>${formats.map((f) => `<Format>${t(f)}</Format>`).join("")}${
    dcp(href, v)
  }</${name}>`;
}

/** The bounding-box elements of an extent (in the map's `wkid`) in every offered CRS. */
function boxes(frame: MapFrame, e: Extent, v: WmsVersion): string[] {
  const out: string[] = [];
  const g = geographic(e, frame.wkid);
  if (v === "1.3.0") {
    out.push(
      `<EX_GeographicBoundingBox><westBoundLongitude>${g.xmin}</westBoundLongitude>` +
        `<eastBoundLongitude>${g.xmax}</eastBoundLongitude><southBoundLatitude>${g.ymin}` +
        `</southBoundLatitude><northBoundLatitude>${g.ymax}</northBoundLatitude></EX_GeographicBoundingBox>`,
    );
  } else {
    out.push(
      `<LatLonBoundingBox minx="${g.xmin}" miny="${g.ymin}" maxx="${g.xmax}" maxy="${g.ymax}"/>`,
    );
  }
  const attr = v === "1.3.0" ? "CRS" : "SRS";
  for (const code of offeredCrs(frame)) {
    if (v === "1.1.1" && code === "CRS:84") continue;
    const crs = parseCrs(code, v, frame);
    // A world extent in Web Mercator stops at its latitude limit (projectExtent clamps).
    const src = crs.wkid === 4326 ? g : e;
    const [minx, miny, maxx, maxy] = bboxNumbers(src, crs.wkid === 4326 ? 4326 : frame.wkid, crs);
    out.push(
      `<BoundingBox ${attr}="${
        a(code)
      }" minx="${minx}" miny="${miny}" maxx="${maxx}" maxy="${maxy}"/>`,
    );
  }
  return out;
}

function legendUrl(call: WmsCall, layer: MapLayer, v: WmsVersion): string {
  const { w, h } = legendSize(layer);
  const q = new URLSearchParams({
    request: "GetLegendGraphic",
    version: v,
    format: "image/png",
    layer: String(layer.id),
  });
  return `<LegendURL width="${w}" height="${h}"><Format>image/png</Format>${
    onlineResource(`${call.endpoint}?${q}`, v)
  }</LegendURL>`;
}

function layerXml(call: WmsCall, layer: MapLayer, v: WmsVersion): string {
  const frame = call.frame;
  const parts = [
    `<Layer queryable="1">`,
    `<Name>${layer.id}</Name>`,
    `<Title>${t(layer.name)}</Title>`,
    `<Abstract>${t(layer.description)}</Abstract>`,
    ...boxes(frame, layerExtent(layer, frame) ?? frame.fullExtent, v),
    `<Style><Name>${DEFAULT_STYLE}</Name><Title>${DEFAULT_STYLE}</Title>${
      legendUrl(call, layer, v)
    }</Style>`,
  ];
  // ArcGIS's minScale is the zoomed-out limit (WMS's max denominator), maxScale the zoomed-in one.
  const min = layer.maxScale * WMS_SCALE_PER_ARCGIS, max = layer.minScale * WMS_SCALE_PER_ARCGIS;
  if (v === "1.3.0") {
    if (min > 0) parts.push(`<MinScaleDenominator>${min}</MinScaleDenominator>`);
    if (max > 0) parts.push(`<MaxScaleDenominator>${max}</MaxScaleDenominator>`);
  }
  parts.push(`</Layer>`);
  return parts.join("\n");
}

/**
 * Answers GetCapabilities in `call.version`.
 *
 * @example
 * ```ts ignore
 * const reply = getCapabilities(call); // text/xml, a WMS_Capabilities document
 * ```
 */
export function getCapabilities(call: WmsCall): WmsReply {
  const v = call.version;
  const { service, frame } = call;
  const limits = serviceLimits(service);
  const href = `${call.endpoint}?`;
  const mapFormats = Object.keys(MAP_FORMATS);
  const root = [
    `<Layer>`,
    `<Title>${t(frame.name)}</Title>`,
    `<Abstract>${t(frame.description)}</Abstract>`,
    ...offeredCrs(frame).filter((c) => v === "1.3.0" || c !== "CRS:84").map((c) =>
      v === "1.3.0" ? `<CRS>${c}</CRS>` : `<SRS>${c}</SRS>`
    ),
    ...boxes(frame, frame.fullExtent, v),
    ...frame.layers.map((l) => layerXml(call, l, v)),
    `</Layer>`,
  ].join("\n");
  const service13 = v === "1.3.0"
    ? `<MaxWidth>${limits.maxImageWidth}</MaxWidth><MaxHeight>${limits.maxImageHeight}</MaxHeight>`
    : "";
  const serviceXml = [
    `<Service>`,
    `<Name>${v === "1.3.0" ? "WMS" : "OGC:WMS"}</Name>`,
    `<Title>${t(service.name)}</Title>`,
    `<Abstract>${t(service.description)}</Abstract>`,
    onlineResource(call.endpoint, v),
    `<Fees>none</Fees>`,
    `<AccessConstraints>${t(service.copyrightText || "none")}</AccessConstraints>`,
    service13,
    `</Service>`,
  ].join("\n");
  const capsFormat = v === "1.3.0" ? "text/xml" : "application/vnd.ogc.wms_xml";
  const legendTag = v === "1.3.0" ? "sld:GetLegendGraphic" : "GetLegendGraphic";
  const request = [
    `<Request>`,
    operation("GetCapabilities", [capsFormat], href, v),
    operation("GetMap", mapFormats, href, v),
    operation("GetFeatureInfo", INFO_FORMATS, href, v),
    operation(legendTag, mapFormats, href, v),
    `</Request>`,
  ].join("\n");
  const exceptions = v === "1.3.0" ? ["XML", "INIMAGE", "BLANK"] : [
    "application/vnd.ogc.se_xml",
    "application/vnd.ogc.se_inimage",
    "application/vnd.ogc.se_blank",
  ];
  const capability = `<Capability>\n${request}\n<Exception>${
    exceptions.map((f) => `<Format>${f}</Format>`).join("")
  }</Exception>\n${root}\n</Capability>`;
  if (v === "1.1.1") {
    return {
      status: 200,
      contentType: "application/vnd.ogc.wms_xml; charset=utf-8",
      body: `<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n` +
        `<!DOCTYPE WMT_MS_Capabilities SYSTEM "http://schemas.opengis.net/wms/1.1.1/WMS_MS_Capabilities.dtd">\n` +
        `<WMT_MS_Capabilities version="1.1.1">\n${serviceXml}\n${capability}\n</WMT_MS_Capabilities>\n`,
    };
  }
  return {
    status: 200,
    contentType: "text/xml; charset=utf-8",
    body: `<?xml version="1.0" encoding="UTF-8"?>\n` +
      `<WMS_Capabilities version="1.3.0" xmlns="http://www.opengis.net/wms" ` +
      `xmlns:sld="http://www.opengis.net/sld" xmlns:xlink="http://www.w3.org/1999/xlink" ` +
      `xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ` +
      `xsi:schemaLocation="http://www.opengis.net/wms http://schemas.opengis.net/wms/1.3.0/capabilities_1_3_0.xsd ` +
      `http://www.opengis.net/sld http://schemas.opengis.net/sld/1.1.0/sld_capabilities.xsd">\n` +
      `${serviceXml}\n${capability}\n</WMS_Capabilities>\n`,
  };
}
