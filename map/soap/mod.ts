/**
 * The ArcGIS SOAP layer: XML reading, the declarative type table, the
 * type-driven decoder/encoder, envelopes and Faults, dispatch, WSDL, and the
 * service catalog.
 *
 * @example
 * ```ts
 * import { dispatchSoap, MAPSERVER_SCHEMA } from "./mod.ts";
 * import type { Handler } from "./dispatch.ts";
 * declare const xml: string, handlers: Record<string, Handler<unknown>>, ctx: unknown;
 * const reply = await dispatchSoap(xml, { schema: MAPSERVER_SCHEMA, handlers, context: () => ctx });
 * ```
 *
 * @module
 */
export { isSoapFault, SoapFault, type SoapFaultCode, type SoapFaultDetail } from "./fault.ts";
export type {
  MapFrame,
  MapLayer,
  MapService,
  OperationContext,
  OperationHandler,
  OperationTable,
} from "./operation.ts";
export {
  parseXml,
  parseXmlChunks,
  type QName,
  type XmlElement,
  type XmlLimits,
  type XmlPacing,
} from "./xml.ts";
export { type ElementDef, type OperationDef, Schema, type TypeDef } from "./schema.ts";
export { MAPSERVER_OPERATION_NAMES, MAPSERVER_SCHEMA } from "./types.ts";
export { decodeRequest, decodeValue, isEsriNamespace } from "./decode.ts";
export { encodeResponse, encodeValue } from "./encode.ts";
export { DEFAULT_NAMESPACE, faultEnvelope, responseEnvelope } from "./envelope.ts";
export {
  type DispatchOptions,
  dispatchSoap,
  SOAP_CONTENT_TYPE,
  type SoapBody,
  type SoapReply,
} from "./dispatch.ts";
export { explicitPort, generateWsdl } from "./wsdl.ts";
export {
  CATALOG_HANDLERS,
  CATALOG_SCHEMA,
  type CatalogContext,
  type CatalogEntry,
} from "./catalog.ts";
