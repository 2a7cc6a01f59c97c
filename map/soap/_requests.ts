/**
 * The SOAP face's one check of request shapes: decoded request values (the
 * type table has already typed each element) become the typed requests of
 * map/ops, with a Client fault for a missing required element.
 *
 * @module
 */
import { InvalidRequestError } from "../errors.ts";
import type { MetadataOperations } from "../ops/metadata.ts";
import type { EmptyRequest, MapLayerRequest, MapNameRequest } from "../ops/types.ts";

/** A decoded request element's children, by local name. */
export type DecodedRequest = Record<string, unknown>;

/** Reads one operation's typed request from its decoded element. */
export type RequestReader<Req> = (raw: DecodedRequest) => Req;

function optionalString(raw: DecodedRequest, name: string): string | undefined {
  const v = raw[name];
  return typeof v === "string" ? v : undefined;
}

function requiredInt(raw: DecodedRequest, name: string, what: string): number {
  const v = raw[name];
  if (typeof v !== "number" || !Number.isInteger(v)) {
    throw new InvalidRequestError(`${name} is required: ${what}.`);
  }
  return v;
}

const empty: RequestReader<EmptyRequest> = () => ({});

function mapName(raw: DecodedRequest): MapNameRequest {
  return { MapName: optionalString(raw, "MapName") };
}

function mapLayer(raw: DecodedRequest): MapLayerRequest {
  return {
    MapName: optionalString(raw, "MapName"),
    LayerID: requiredInt(raw, "LayerID", "the integer id of a layer of the map"),
  };
}

/** Request readers of the metadata operations. */
export const METADATA_REQUESTS: {
  [K in keyof MetadataOperations]: RequestReader<Parameters<MetadataOperations[K]>[0]>;
} = {
  GetDocumentInfo: empty,
  GetMapCount: empty,
  GetMapName: (raw) => ({
    Index: requiredInt(raw, "Index", "a map index from 0 to GetMapCount minus 1"),
  }),
  GetDefaultMapName: empty,
  GetServerInfo: mapName,
  GetSupportedImageReturnTypes: empty,
  IsFixedScaleMap: mapName,
  GetSQLSyntaxInfo: mapLayer,
  GetServiceConfigurationInfo: empty,
};
