/**
 * The KMZ result format of QueryFeatureData2 (§5.6: zipped KML, WGS 84),
 * returned as MIME data or written to the output directory and returned as
 * a URL; its Esri JSON form is `_query_feature_json.ts`'s.
 *
 * @module
 */
import type { Feature, Geometry, Position } from "../types.ts";
import type { MapLayer } from "./types.ts";
import { projectGeometry, WGS84 } from "../geo/projection.ts";
import { type ColumnSelection, formatValue } from "./_query_records.ts";
import { envelopePolygon, signedArea } from "./_query_feature_json.ts";

function xml(text: string): string {
  return text.replace(
    /[<>&"']/g,
    (c) =>
      c === "<"
        ? "&lt;"
        : c === ">"
        ? "&gt;"
        : c === "&"
        ? "&amp;"
        : c === '"'
        ? "&quot;"
        : "&apos;",
  );
}

function coords(points: Position[]): string {
  return points.map(([x, y]) => `${x},${y}`).join(" ");
}

function kmlGeometry(g: Geometry): string {
  switch (g.type) {
    case "Point":
      return `<Point><coordinates>${g.x},${g.y}</coordinates></Point>`;
    case "Multipoint":
      return `<MultiGeometry>${
        g.points.map((p) => `<Point><coordinates>${p[0]},${p[1]}</coordinates></Point>`).join("")
      }</MultiGeometry>`;
    case "Polyline": {
      const lines = g.paths.map((p) =>
        `<LineString><coordinates>${coords(p)}</coordinates></LineString>`
      );
      return lines.length === 1 ? lines[0] : `<MultiGeometry>${lines.join("")}</MultiGeometry>`;
    }
    case "Envelope":
      return kmlGeometry(envelopePolygon(g));
    case "Polygon": {
      // ArcGIS rings: clockwise outer rings, counter-clockwise holes following their outer ring.
      const polys: string[][] = [];
      for (const ring of g.rings) {
        const boundary = `<LinearRing><coordinates>${coords(ring)}</coordinates></LinearRing>`;
        if (signedArea(ring) <= 0 || polys.length === 0) {
          polys.push([`<outerBoundaryIs>${boundary}</outerBoundaryIs>`]);
        } else polys[polys.length - 1].push(`<innerBoundaryIs>${boundary}</innerBoundaryIs>`);
      }
      const out = polys.map((p) => `<Polygon>${p.join("")}</Polygon>`);
      return out.length === 1 ? out[0] : `<MultiGeometry>${out.join("")}</MultiGeometry>`;
    }
  }
}

/**
 * KML document of `features` (geometry in `fromWkid`, written in WGS 84):
 * one Placemark per feature named by the display field, attributes as
 * ExtendedData.
 */
export function featuresKml(
  layer: MapLayer,
  features: readonly Feature[],
  selection: ColumnSelection,
  fromWkid: number,
): string {
  const attrs = selection.columns.filter((c) => c.type !== "Geometry");
  const display = layer.fields.find((f) => f.name === layer.displayField);
  const marks = features.map((f) => {
    const name = display
      ? (display.type === "OID"
        ? String(f.id)
        : formatValue(f.attributes[display.name] ?? null, display.type))
      : String(f.id);
    const data = attrs.map((c) =>
      `<Data name="${xml(c.name)}"><displayName>${xml(c.alias || c.name)}</displayName><value>${
        xml(c.type === "OID" ? String(f.id) : formatValue(f.attributes[c.name] ?? null, c.type))
      }</value></Data>`
    ).join("");
    const geom = selection.geometry && f.geometry
      ? kmlGeometry(projectGeometry(f.geometry, fromWkid, WGS84))
      : "";
    return `<Placemark id="${xml(`${layer.id}_${f.id}`)}"><name>${xml(name)}</name>` +
      `<ExtendedData>${data}</ExtendedData>${geom}</Placemark>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>` +
    `<kml xmlns="http://www.opengis.net/kml/2.2"><Document><name>${xml(layer.name)}</name>` +
    `${marks.join("")}</Document></kml>`;
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** CRC-32 (ZIP polynomial) of `data`. */
export function crc32(data: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < data.length; i++) c = CRC_TABLE[(c ^ data[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

async function deflateRaw(data: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([data as BlobPart]).stream().pipeThrough(
    new CompressionStream("deflate-raw"),
  );
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/**
 * A ZIP archive holding one deflated file (what a KMZ is: `doc.kml` inside).
 *
 * @example
 * const kmz = await zipSingleFile("doc.kml", new TextEncoder().encode(kml));
 */
export async function zipSingleFile(name: string, content: Uint8Array): Promise<Uint8Array> {
  const nameBytes = new TextEncoder().encode(name);
  const packed = await deflateRaw(content);
  const crc = crc32(content);
  const now = new Date();
  const dosTime = (now.getUTCHours() << 11) | (now.getUTCMinutes() << 5) |
    (now.getUTCSeconds() >> 1);
  const dosDate = ((now.getUTCFullYear() - 1980) << 9) | ((now.getUTCMonth() + 1) << 5) |
    now.getUTCDate();
  const local = new Uint8Array(30 + nameBytes.length);
  const lv = new DataView(local.buffer);
  lv.setUint32(0, 0x04034b50, true);
  lv.setUint16(4, 20, true);
  lv.setUint16(6, 0x0800, true); // UTF-8 file name
  lv.setUint16(8, 8, true);
  lv.setUint16(10, dosTime, true);
  lv.setUint16(12, dosDate, true);
  lv.setUint32(14, crc, true);
  lv.setUint32(18, packed.length, true);
  lv.setUint32(22, content.length, true);
  lv.setUint16(26, nameBytes.length, true);
  local.set(nameBytes, 30);
  const central = new Uint8Array(46 + nameBytes.length);
  const cv = new DataView(central.buffer);
  cv.setUint32(0, 0x02014b50, true);
  cv.setUint16(4, 20, true);
  cv.setUint16(6, 20, true);
  cv.setUint16(8, 0x0800, true);
  cv.setUint16(10, 8, true);
  cv.setUint16(12, dosTime, true);
  cv.setUint16(14, dosDate, true);
  cv.setUint32(16, crc, true);
  cv.setUint32(20, packed.length, true);
  cv.setUint32(24, content.length, true);
  cv.setUint16(28, nameBytes.length, true);
  cv.setUint32(42, 0, true); // offset of the local header
  central.set(nameBytes, 46);
  const end = new Uint8Array(22);
  const ev = new DataView(end.buffer);
  ev.setUint32(0, 0x06054b50, true);
  ev.setUint16(8, 1, true);
  ev.setUint16(10, 1, true);
  ev.setUint32(12, central.length, true);
  ev.setUint32(16, local.length + packed.length, true);
  const out = new Uint8Array(local.length + packed.length + central.length + end.length);
  out.set(local, 0);
  out.set(packed, local.length);
  out.set(central, local.length + packed.length);
  out.set(end, local.length + packed.length + central.length);
  return out;
}
