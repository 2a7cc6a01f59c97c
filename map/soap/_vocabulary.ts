/**
 * The SOAP face's words for the request members domain errors name: the
 * element paths of the ArcGIS SOAP types (`QueryFilter/WhereClause`).
 *
 * @module
 */
import type { MemberRef, RequestMember } from "../errors.ts";

const SOAP_WORDS: Readonly<Record<RequestMember, string>> = {
  mapSpatialReference: "MapDescription/SpatialReference",
  outputSpatialReference: "QueryFilter/OutputSpatialReference",
  whereClause: "QueryFilter/WhereClause",
  orderBy: "QueryFilter/PostfixClause",
  distinct: "QueryFilter/PrefixClause",
  outFields: "SubFields",
  layerDefinition: "LayerDescription/DefinitionExpression",
  relationDescription: "SpatialRelDescription",
  searchText: "SearchString",
  searchFields: "SearchFields",
  layerIds: "LayerIDs",
  tolerance: "Tolerance",
  exportImage: "ImageDescription/ImageDisplay",
  mapImage: "MapImageDisplay",
  mapDisplay: "MapDisplay",
  mapArea: "MapArea",
  imageSize: "ImageWidth and ImageHeight",
  imageDpi: "ImageDPI",
  dpi: "DPI",
};

/**
 * A request member as a SOAP client names it.
 *
 * @example
 * ```ts
 * import { soapWord } from "./_vocabulary.ts";
 * soapWord({ member: "imageDpi", within: "exportImage" }); // "ImageDescription/ImageDisplay/ImageDPI"
 * ```
 */
export function soapWord(ref: MemberRef): string {
  const word = SOAP_WORDS[ref.member];
  return ref.within ? `${SOAP_WORDS[ref.within]}/${word}` : word;
}
