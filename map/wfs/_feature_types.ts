/**
 * The feature types of a service's WFS: one per layer of its default map,
 * named as ArcGIS Server names them, `{prefix}:{layer}`, the prefix the
 * service name and the layer name made an XML name (characters other than
 * letters, digits, `_`, `-` and `.` become `_`; a leading digit gets a `_`
 * before it). The namespace URI is the service's WFSServer URL. Field
 * names become XML names by the same rule.
 *
 * @module
 */
import type { FieldInfo } from "../types.ts";
import type { MapFrame, MapLayer, MapService, OperationContext } from "../ops/mod.ts";
import { layerColumns } from "../ops/mod.ts";
import { WfsError } from "./_exception.ts";

/** One feature type: its layer, names and columns. */
export interface FeatureType {
  layer: MapLayer;
  /** The local name (`competitions`). */
  local: string;
  /** The qualified name (`Recruitment:competitions`). */
  name: string;
  /** Attribute columns (not the shape) with their XML names. */
  fields: { field: FieldInfo; xml: string }[];
  /** The shape column's XML name. */
  geometryName: string;
  oid: FieldInfo;
}

/** What every WFS operation of one request needs. */
export interface WfsScope {
  service: MapService;
  frame: MapFrame;
  ctx: OperationContext;
  /** The WFSServer URL (also the namespace URI). */
  endpoint: string;
  /** The namespace prefix. */
  prefix: string;
  types: FeatureType[];
}

/**
 * `s` as an XML name (NCName).
 *
 * @example
 * ```ts
 * xmlName("Job offers 2024"); // "Job_offers_2024"
 * xmlName("2024"); // "_2024"
 * ```
 */
export function xmlName(s: string): string {
  const n = s.replace(/[^\p{L}\p{N}_.-]/gu, "_");
  return /^[\p{L}_]/u.test(n) ? n : `_${n}`;
}

/**
 * The feature types of `frame`, named under `prefix`.
 *
 * @example
 * ```ts ignore
 * featureTypes(frame, "Recruitment").map((t) => t.name); // ["Recruitment:competitions", ...]
 * ```
 */
export function featureTypes(frame: MapFrame, prefix: string): FeatureType[] {
  const seen = new Set<string>();
  return frame.layers.map((layer) => {
    let local = xmlName(layer.name);
    // Two layers of one name stay apart by their id.
    if (seen.has(local.toLowerCase())) local = `${local}_${layer.id}`;
    seen.add(local.toLowerCase());
    const cols = layerColumns(layer);
    return {
      layer,
      local,
      name: `${prefix}:${local}`,
      fields: cols.all.filter((f) => f.type !== "Geometry").map((f) => ({
        field: f,
        xml: xmlName(f.name),
      })),
      geometryName: xmlName(cols.shape.name),
      oid: cols.oid,
    };
  });
}

/**
 * The feature type a client names (`prefix:local`, any prefix bound to our
 * namespace, or the local name alone; case-insensitive), or a WfsError.
 *
 * @example
 * ```ts ignore
 * findType(scope, "Recruitment:competitions", "TYPENAMES").layer.id; // 0
 * ```
 */
export function findType(scope: WfsScope, name: string, locator: string): FeatureType {
  const local = name.trim().replace(/^\{[^}]*\}/, "").replace(/^[^:]*:/, "").toLowerCase();
  const t = scope.types.find((t) => t.local.toLowerCase() === local);
  if (!t) {
    throw new WfsError(
      "InvalidParameterValue",
      `Feature type "${name}" does not exist; feature types: ${
        scope.types.map((t) => t.name).join(", ")
      }.`,
      locator,
    );
  }
  return t;
}

/**
 * The field a property name (`NAME`, `prefix:NAME`, `NAME` with a `./` or
 * type step) names in `type`, "geometry" for the shape, or a WfsError.
 *
 * @example
 * ```ts ignore
 * findProperty(type, "Recruitment:title", "PROPERTYNAME"); // { name: "title", ... }
 * ```
 */
export function findProperty(
  type: FeatureType,
  name: string,
  locator: string,
): FieldInfo | "geometry" {
  const steps = name.trim().replace(/^\.\//, "").split("/").map((s) =>
    s.replace(/^[^:]*:/, "").toLowerCase()
  );
  if (steps.length === 2 && steps[0] === type.local.toLowerCase()) steps.shift();
  const key = steps.length === 1 ? steps[0] : "";
  if (key === type.geometryName.toLowerCase()) return "geometry";
  const f = type.fields.find((f) =>
    f.xml.toLowerCase() === key || f.field.name.toLowerCase() === key
  );
  if (!f) {
    throw new WfsError(
      "InvalidParameterValue",
      `Property "${name}" is not one of ${type.name}'s: ${
        [...type.fields.map((f) => f.xml), type.geometryName].join(", ")
      }.`,
      locator,
    );
  }
  return f.field;
}

/**
 * The WFS of `service`: its default map's layers as feature types.
 *
 * @example
 * ```ts ignore
 * const scope = wfsScope(service, ctx, "http://localhost/arcgis/services/Recruitment/MapServer/WFSServer");
 * ```
 */
export function wfsScope(service: MapService, ctx: OperationContext, endpoint: string): WfsScope {
  const frame = service.maps.find((m) => m.name === service.defaultMapName) ?? service.maps[0];
  const prefix = xmlName(service.name);
  return { service, frame, ctx, endpoint, prefix, types: featureTypes(frame, prefix) };
}
