/**
 * The WMTS 1.0.0 ServiceMetadata document (GetCapabilities) of a service:
 * one layer per cached map, its style `default`, its format, the tile
 * matrix sets and the RESTful resource URL template ArcGIS Server writes.
 *
 * @module
 */
import { markup } from "../markup.ts";
import { projectExtent } from "../geo/projection.ts";
import type { Extent } from "../types.ts";
import type { TileMatrixSet } from "./_matrix.ts";

/** What the capabilities say of one layer (a cached map). */
export interface WmtsLayer {
  identifier: string;
  title: string;
  abstract: string;
  /** The map's full extent and its WKID. */
  extent: Extent;
  wkid: number;
  /** `image/png` or `image/jpeg`. */
  format: string;
  sets: TileMatrixSet[];
}

/** What the document says of the service. */
export interface WmtsService {
  title: string;
  abstract: string;
  /** `<base>/arcgis/rest/services/<Service>/MapServer/WMTS`. */
  url: string;
  layers: WmtsLayer[];
}

const EXTENSION: Record<string, string> = { "image/png": "png", "image/jpeg": "jpg" };

/** A number as the document writes it (no exponent for the usual magnitudes). */
function num(n: number): string {
  return Number.isInteger(n) ? String(n) : String(Number(n.toPrecision(17)));
}

function wgs84Box(layer: WmtsLayer): [number, number, number, number] {
  const e = layer.wkid === 4326 ? layer.extent : projectExtent(layer.extent, layer.wkid, 4326);
  const clamp = (v: number, lim: number) => Math.max(-lim, Math.min(lim, v));
  return [clamp(e.xmin, 180), clamp(e.ymin, 90), clamp(e.xmax, 180), clamp(e.ymax, 90)];
}

/** The RESTful tile URL template of a layer. */
export function tileTemplate(url: string, layer: WmtsLayer): string {
  return `${url}/tile/1.0.0/${encodeURIComponent(layer.identifier)}` +
    `/{Style}/{TileMatrixSet}/{TileMatrix}/{TileRow}/{TileCol}.${EXTENSION[layer.format] ?? "png"}`;
}

function operation(name: string, url: string) {
  return markup`<ows:Operation name="${name}"><ows:DCP><ows:HTTP>
<ows:Get xlink:href="${url}/1.0.0/WMTSCapabilities.xml"><ows:Constraint name="GetEncoding"><ows:AllowedValues><ows:Value>RESTful</ows:Value></ows:AllowedValues></ows:Constraint></ows:Get>
<ows:Get xlink:href="${url}?"><ows:Constraint name="GetEncoding"><ows:AllowedValues><ows:Value>KVP</ows:Value></ows:AllowedValues></ows:Constraint></ows:Get>
</ows:HTTP></ows:DCP></ows:Operation>`;
}

/**
 * The capabilities document.
 *
 * @example
 * ```ts ignore
 * const xml = capabilitiesXml({ title: "World", abstract: "", url, layers });
 * ```
 */
export function capabilitiesXml(s: WmtsService): string {
  const sets = new Map<string, TileMatrixSet>();
  for (const l of s.layers) for (const set of l.sets) sets.set(set.identifier, set);
  const layers = s.layers.map((l) => {
    const [w, so, e, n] = wgs84Box(l);
    return markup`<Layer>
<ows:Title>${l.title}</ows:Title><ows:Abstract>${l.abstract}</ows:Abstract>
<ows:WGS84BoundingBox crs="urn:ogc:def:crs:OGC:2:84"><ows:LowerCorner>${num(w)} ${
      num(so)
    }</ows:LowerCorner><ows:UpperCorner>${num(e)} ${num(n)}</ows:UpperCorner></ows:WGS84BoundingBox>
<ows:Identifier>${l.identifier}</ows:Identifier>
<Style isDefault="true"><ows:Title>Default Style</ows:Title><ows:Identifier>default</ows:Identifier></Style>
<Format>${l.format}</Format>
${
      l.sets.map((set) =>
        markup`<TileMatrixSetLink><TileMatrixSet>${set.identifier}</TileMatrixSet></TileMatrixSetLink>
`
      )
    }<ResourceURL format="${l.format}" resourceType="tile" template="${tileTemplate(s.url, l)}"/>
</Layer>
`;
  });
  const matrixSets = [...sets.values()].map((set) =>
    markup`<TileMatrixSet>
<ows:Title>${set.identifier}</ows:Title><ows:Identifier>${set.identifier}</ows:Identifier>
<ows:SupportedCRS>${set.crs}</ows:SupportedCRS>
${
      set.wellKnownScaleSet
        ? markup`<WellKnownScaleSet>${set.wellKnownScaleSet}</WellKnownScaleSet>
`
        : ""
    }${
      set.matrices.map((m) =>
        markup`<TileMatrix><ows:Identifier>${m.identifier}</ows:Identifier><ScaleDenominator>${
          num(m.scaleDenominator)
        }</ScaleDenominator><TopLeftCorner>${num(m.topLeft[0])} ${
          num(m.topLeft[1])
        }</TopLeftCorner><TileWidth>${m.tileSize}</TileWidth><TileHeight>${m.tileSize}</TileHeight><MatrixWidth>${m.matrixWidth}</MatrixWidth><MatrixHeight>${m.matrixHeight}</MatrixHeight></TileMatrix>
`
      )
    }</TileMatrixSet>
`
  );
  return `<?xml version="1.0" encoding="UTF-8"?>
${markup`<Capabilities xmlns="http://www.opengis.net/wmts/1.0" xmlns:ows="http://www.opengis.net/ows/1.1" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:gml="http://www.opengis.net/gml" xsi:schemaLocation="http://www.opengis.net/wmts/1.0 http://schemas.opengis.net/wmts/1.0/wmtsGetCapabilities_response.xsd" version="1.0.0">
<ows:ServiceIdentification><ows:Title>${s.title}</ows:Title><ows:Abstract>${s.abstract}</ows:Abstract><ows:ServiceType>OGC WMTS</ows:ServiceType><ows:ServiceTypeVersion>1.0.0</ows:ServiceTypeVersion></ows:ServiceIdentification>
<ows:OperationsMetadata>
${operation("GetCapabilities", s.url)}
${operation("GetTile", s.url)}
</ows:OperationsMetadata>
<Contents>
${layers}${matrixSets}</Contents>
<ServiceMetadataURL xlink:href="${s.url}/1.0.0/WMTSCapabilities.xml"/>
</Capabilities>
`}`;
}
