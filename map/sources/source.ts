/**
 * The feature-source plug-in interface. GeoPackage, GeoJSON and the
 * recruitment database are peers behind it; adding a source touches one
 * file and one line of the map-document schema.
 *
 * @module
 */
import type { Extent, Feature, FieldInfo, LayerGeometryType } from "../types.ts";
import type { WhereNode } from "../query/ast.ts";

/** What to fetch. Every member is optional; an empty query means "all". */
export interface FeatureQuery {
  /** Parsed and field-checked filter. */
  where?: WhereNode;
  /** Only these object ids. */
  objectIds?: number[];
  /** Envelope prefilter in the source's spatial reference, answered from a spatial index. */
  bbox?: Extent;
  /** Attribute names to return (canonical names); undefined means all. */
  fields?: string[];
  /** Whether to read geometry (default true). */
  returnGeometry?: boolean;
  limit?: number;
  offset?: number;
}

/** A layer's data. All methods are synchronous (node:sqlite is). */
export interface FeatureSource {
  /** EPSG/ESRI well-known id of the stored coordinates. */
  readonly wkid: number;
  readonly geometryType: LayerGeometryType;
  /** Name of the object-id field. */
  readonly idField: string;
  /** Attribute fields, object-id field first. */
  fields(): FieldInfo[];
  /** Extent of all features, or null when empty. */
  extent(): Extent | null;
  /** Features matching the query, ordered by object id. */
  query(q: FeatureQuery): Feature[];
  /** Number of features matching the query (limit/offset ignored). */
  count(q: FeatureQuery): number;
  /** One feature by object id, or null. */
  get(id: number): Feature | null;
  /** Opaque token that changes whenever the data changes (tile and ETag invalidation). */
  revision(): string;
  /**
   * Names the stored data the same way in every thread that opens it (e.g.
   * a GeoPackage's path and table), so a geometry store prepared by one
   * render worker can be shared with the others. Absent: nothing is shared.
   */
  readonly storeKey?: string;
  /** Release files. */
  close?(): void;
}
