/**
 * Map documents: the JSON format (schema.ts), the embedded default service
 * (default.ts), loading documents into MapService objects with open
 * sources (load.ts), and the symbology schemas (renderer.ts).
 *
 * @module
 */
export * from "./schema.ts";
export type { MapFrame, MapLayer, MapService, ServiceLimitsSpec } from "./types.ts";
export { DEFAULT_DOCUMENT } from "./default.ts";
export {
  loadMapDocument,
  loadMapDocumentValue,
  type LoadOptions,
  loadServices,
  type LoadServicesOptions,
  MapDocumentError,
  validateMapDocument,
} from "./load.ts";
