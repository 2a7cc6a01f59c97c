/**
 * Loaded map services: what the SOAP operations, the renderer and the
 * tile caches work with. Built from map documents by `load.ts`.
 *
 * @module
 */
import type { Extent, FieldInfo, LayerGeometryType } from "../types.ts";
import type { WhereNode } from "../query/ast.ts";
import type { FeatureSource } from "../sources/source.ts";
import type { EsriUnits } from "../geo/units.ts";
import type { LabelSpec, RendererSpec } from "./renderer.ts";
import type { SourceSpec, TilingSpec } from "./schema.ts";

/** One layer of a map, with its open source. */
export interface MapLayer {
  id: number;
  name: string;
  description: string;
  copyrightText: string;
  source: FeatureSource;
  /** The document's source description (type, resolved path, …). */
  sourceSpec: SourceSpec;
  geometryType: LayerGeometryType;
  /** The source's fields with the document's aliases (OID first, then the shape field). */
  fields: FieldInfo[];
  displayField: string;
  visible: boolean;
  minScale: number;
  maxScale: number;
  /** The layer's own filter ("" for none), always applied. */
  definitionExpression: string;
  /** `definitionExpression` parsed against `fields` (undefined for none), freshly on each read. */
  readonly definition?: WhereNode;
  hyperlinkField?: string;
  renderer: RendererSpec;
  labels?: LabelSpec;
}

/** One map (data frame). */
export interface MapFrame {
  name: string;
  description: string;
  copyrightText: string;
  /** Spatial reference of the map, normalised (102100 → 3857). */
  wkid: number;
  fullExtent: Extent;
  initialExtent: Extent;
  units: EsriUnits;
  backgroundColor: [number, number, number];
  /** Present when the map is served from a tile cache. */
  tiling?: TilingSpec;
  /** Top-most first. */
  layers: MapLayer[];
}

/** Service limits from the document (defaults apply to missing ones). */
export interface ServiceLimitsSpec {
  maxRecordCount?: number;
  maxBufferCount?: number;
  maxImageWidth?: number;
  maxImageHeight?: number;
}

/** A published map service. */
export interface MapService {
  name: string;
  description: string;
  copyrightText: string;
  maps: MapFrame[];
  defaultMapName: string;
  /** GetDocumentInfo properties. */
  documentInfo: Record<string, string>;
  limits?: ServiceLimitsSpec;
  /** The document file, or "(embedded …)" for the default service. */
  origin: string;
  /** Releases the sources this service opened (not a shared catalogue). */
  close(): void;
}
