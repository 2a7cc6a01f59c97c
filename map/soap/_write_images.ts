/**
 * SOAP result writers of the drawing operations: typed results
 * (map/ops/results.ts) as the plain objects of the type table's MapImage,
 * ImageResult and MapServerLegendInfo.
 *
 * @module
 */
import type { ImageResult, LegendInfo, MapImageResult } from "../ops/mod.ts";
import { envelopeToSoap, type SoapObject } from "./_write_geometry.ts";

/**
 * An `ImageResult`: ImageData when the image travels as data, else its ImageURL.
 *
 * @example
 * ```ts
 * import { imageToSoap } from "./_write_images.ts";
 * imageToSoap({ url: "http://x/a.png", widthPx: 4, heightPx: 3, dpi: 96, mime: "image/png" }).ImageURL;
 * ```
 */
export function imageToSoap(image: ImageResult): SoapObject {
  return {
    ...(image.data ? { ImageData: image.data } : {}),
    ImageURL: image.url,
    ImageHeight: image.heightPx,
    ImageWidth: image.widthPx,
    ImageDPI: image.dpi,
    ImageType: image.mime,
  };
}

/** A `MapImage`: the image, the extent drawn (with its SpatialReference), visible layers and scale. */
export function mapImageToSoap(image: MapImageResult): SoapObject {
  return {
    ...imageToSoap(image),
    Extent: envelopeToSoap(image.extent, image.wkid),
    VisibleLayerIDs: image.visibleLayerIds,
    MapScale: image.scale,
  };
}

/** `MapServerLegendInfo`s. */
export function legendInfosToSoap(infos: LegendInfo[]): SoapObject[] {
  return infos.map((info) => ({
    LayerID: info.layerId,
    Name: info.name,
    LegendGroups: info.groups.map((g) => ({
      Heading: g.heading,
      LegendClasses: g.classes.map((c) => ({
        Label: c.label,
        Description: c.description,
        SymbolImage: imageToSoap(c.image),
      })),
    })),
  }));
}
