/**
 * The operation pages of the HTML Services Directory, with the forms
 * ArcGIS Server 10.3 has: Export Map (the image and its extent below the
 * form), Query on a layer (the features as a table, or the count, or the
 * object ids), Identify and Find (the results as a table).
 *
 * @module
 */
import type { RestCall, RestEndpoint } from "../endpoint.ts";
import { frameOf, layerOf, serviceOf } from "../endpoint.ts";
import { SPATIAL_RELATIONS } from "../../geo/relate.ts";
import { EXPORT_FORMATS } from "../_export.ts";
import { type Html, markup } from "../../markup.ts";
import { servicePath } from "./page.ts";
import { type FormField, type OperationPage, operationPage } from "./_operation_page.ts";
import { arr, cell, extentBlock, geometryText, type Json, obj, properties, text } from "./_show.ts";
import { linksOf } from "./_service_pages.ts";

const GEOMETRY_TYPES = [
  "",
  "esriGeometryEnvelope",
  "esriGeometryPoint",
  "esriGeometryMultipoint",
  "esriGeometryPolyline",
  "esriGeometryPolygon",
];

/** The spatial relations, the default (intersects) first. */
const RELATIONS = [
  "esriSpatialRelIntersects",
  ...SPATIAL_RELATIONS.filter((r) => r !== "esriSpatialRelIntersects"),
];

const GEOMETRY_HINT = "JSON, or x,y / xmin,ymin,xmax,ymax";
const SR_HINT = 'WKID or {"wkid": ...}';
const NO_TIME = "no layer is time-aware";

/** The export form, as ArcGIS Server's. */
export const EXPORT_FIELDS: readonly FormField[] = [
  { name: "bbox", label: "Bounding Box", hint: "xmin, ymin, xmax, ymax" },
  { name: "bboxSR", label: "Bounding Box Spatial Reference", hint: SR_HINT },
  { name: "layers", label: "Layers", hint: "show: | hide: | include: | exclude: ids" },
  { name: "layerDefs", label: "Layer Definitions", kind: "textarea", hint: '{"0":"POP > 10"}' },
  { name: "size", label: "Image Size", hint: "width,height (400,400)" },
  { name: "dpi", label: "DPI", hint: "96" },
  { name: "imageSR", label: "Image Spatial Reference", hint: SR_HINT },
  { name: "format", label: "Image Format", kind: "select", options: Object.keys(EXPORT_FORMATS) },
  { name: "transparent", label: "Background Transparent", kind: "boolean", default: false },
  { name: "time", label: "Time", hint: NO_TIME },
  { name: "rotation", label: "Rotation", hint: "degrees" },
];

/** The layer query form, as ArcGIS Server's. */
export const QUERY_FIELDS: readonly FormField[] = [
  { name: "where", label: "Where" },
  { name: "text", label: "Text" },
  { name: "objectIds", label: "Object IDs" },
  { name: "time", label: "Time", hint: NO_TIME },
  { name: "geometry", label: "Input Geometry", kind: "textarea", hint: GEOMETRY_HINT },
  { name: "geometryType", label: "Geometry Type", kind: "select", options: GEOMETRY_TYPES },
  { name: "inSR", label: "Input Spatial Reference", hint: SR_HINT },
  { name: "spatialRel", label: "Spatial Relationship", kind: "select", options: RELATIONS },
  { name: "relationParam", label: "Relation" },
  { name: "outFields", label: "Out Fields", hint: "* or field names" },
  { name: "returnGeometry", label: "Return Geometry", kind: "boolean", default: true },
  { name: "maxAllowableOffset", label: "Max Allowable Offset" },
  { name: "geometryPrecision", label: "Geometry Precision" },
  { name: "outSR", label: "Output Spatial Reference", hint: SR_HINT },
  { name: "returnIdsOnly", label: "Return IDs Only", kind: "boolean" },
  { name: "returnCountOnly", label: "Return Count Only", kind: "boolean" },
  { name: "orderByFields", label: "Order By Fields", hint: "field [ASC|DESC], ..." },
  { name: "groupByFieldsForStatistics", label: "Group By Fields (ForStatistics)" },
  {
    name: "outStatistics",
    label: "Output Statistics",
    kind: "textarea",
    hint: '[{"statisticType":"count","onStatisticField":"OBJECTID"}]',
  },
  { name: "returnZ", label: "Return Z", kind: "boolean" },
  { name: "returnM", label: "Return M", kind: "boolean" },
  { name: "returnDistinctValues", label: "Return Distinct Values", kind: "boolean" },
  { name: "resultOffset", label: "Result Offset" },
  { name: "resultRecordCount", label: "Result Record Count" },
];

const RESULT_FIELDS: readonly FormField[] = [
  { name: "returnGeometry", label: "Return Geometry", kind: "boolean", default: true },
  { name: "maxAllowableOffset", label: "Max Allowable Offset" },
  { name: "returnZ", label: "Return Z", kind: "boolean" },
  { name: "returnM", label: "Return M", kind: "boolean" },
  { name: "returnFieldName", label: "Return Field Name", kind: "boolean" },
];

/** The identify form, as ArcGIS Server's. */
export const IDENTIFY_FIELDS: readonly FormField[] = [
  { name: "geometry", label: "Geometry", kind: "textarea", hint: GEOMETRY_HINT },
  { name: "geometryType", label: "Geometry Type", kind: "select", options: GEOMETRY_TYPES },
  { name: "sr", label: "Spatial Reference", hint: SR_HINT },
  { name: "layers", label: "Layers", hint: "top | visible | all [:ids]" },
  { name: "layerDefs", label: "Layer Definitions", kind: "textarea" },
  { name: "time", label: "Time", hint: NO_TIME },
  { name: "tolerance", label: "Tolerance", hint: "pixels" },
  { name: "mapExtent", label: "Map Extent", hint: "xmin, ymin, xmax, ymax" },
  { name: "imageDisplay", label: "Image Display", hint: "width, height, dpi" },
  ...RESULT_FIELDS,
];

/** The find form, as ArcGIS Server's. */
export const FIND_FIELDS: readonly FormField[] = [
  { name: "searchText", label: "Search Text" },
  { name: "contains", label: "Contains", kind: "boolean", default: true },
  { name: "searchFields", label: "Search Fields" },
  { name: "sr", label: "Spatial Reference", hint: SR_HINT },
  { name: "layers", label: "Layers", hint: "ids" },
  { name: "layerDefs", label: "Layer Definitions", kind: "textarea" },
  ...RESULT_FIELDS,
];

function exportResults(value: unknown): Html {
  const v = obj(value);
  const href = text(v.href), width = text(v.width), height = text(v.height);
  return markup`<p><img src="${href}" width="${width}" height="${height}" alt="Exported map"></p>
${properties([["Width", width], ["Height", height]])}${extentBlock("Extent", v.extent)}${
    properties([["Scale", text(v.scale)], ["Image", markup`<a href="${href}">${href}</a>`]])
  }`;
}

/** The features of a query answer as a table: one row per feature, one column per field. */
function featureTable(v: Json): Html {
  const features = arr(v.features).map(obj);
  const fields = arr(v.fields).map(obj);
  const names = fields.length > 0
    ? fields.map((f) => String(f.name))
    : Object.keys(obj(features[0]?.attributes));
  const types = new Map(fields.map((f) => [String(f.name), f.type]));
  const aliases = obj(v.fieldAliases);
  const withGeometry = features.some((f) => f.geometry !== undefined);
  const head = names.map((n) => {
    const alias = aliases[n] !== undefined && aliases[n] !== n
      ? markup`<br><i>${text(aliases[n])}</i>`
      : "";
    return markup`<th scope="col">${n}${alias}</th>`;
  });
  const rows = features.map((f) => {
    const a = obj(f.attributes);
    const cells = names.map((n) => markup`<td>${cell(a[n], types.get(n))}</td>`);
    const shape = withGeometry ? markup`<td>${geometryText(f.geometry)}</td>` : "";
    return markup`<tr>${cells}${shape}</tr>\n`;
  });
  const summary = properties([
    ["Records", String(features.length)],
    ...(v.exceededTransferLimit
      ? [["Exceeded Transfer Limit", "true: ask for the next window with Result Offset"] as const]
      : []),
  ]);
  const shapeHead = withGeometry ? markup`<th scope="col">Geometry</th>` : "";
  return markup`${summary}<table class="results"><thead><tr>${head}${shapeHead}</tr></thead><tbody>
${rows}</tbody></table>`;
}

function queryResults(value: unknown, idHref: (id: number) => string): Html {
  const v = obj(value);
  if (v.count !== undefined && v.features === undefined) {
    return properties([["Count", text(v.count)]]);
  }
  if (v.objectIds !== undefined) {
    const ids = arr(v.objectIds);
    const summary = properties([
      ["Object ID Field", text(v.objectIdFieldName)],
      ["Count", String(ids.length)],
    ]);
    const list = ids.map((id, i) =>
      markup`${i > 0 ? ", " : ""}<a href="${idHref(Number(id))}">${text(id)}</a>`
    );
    return markup`${summary}<p>${list}</p>`;
  }
  return featureTable(v);
}

/** The results of identify or find as a table. */
function searchResults(value: unknown, find: boolean): Html {
  const results = arr(obj(value).results).map(obj);
  const rows = results.map((r) => {
    const attrs = Object.entries(obj(r.attributes))
      .map(([k, v]) => markup`<b>${k}:</b> ${cell(v)}<br>`);
    const found = find ? markup`<td>${text(r.foundFieldName)}</td>` : "";
    return markup`<tr><td>${text(r.layerName)} (${text(r.layerId)})</td>${found}<td>${
      text(r.value)
    }</td><td>${attrs}</td><td>${geometryText(r.geometry)}</td></tr>\n`;
  });
  const foundHead = find ? markup`<th scope="col">Found Field</th>` : "";
  return markup`${properties([["Results", String(results.length)]])}<table class="results">
<thead><tr><th scope="col">Layer</th>${foundHead}<th scope="col">Value</th><th scope="col">Attributes</th><th scope="col">Geometry</th></tr></thead>
<tbody>
${rows}</tbody></table>`;
}

/** The form and results of each service operation. */
const MAP_OPERATIONS: Readonly<
  Record<
    "export" | "identify" | "find",
    Pick<OperationPage, "action" | "fields" | "results"> & {
      name: string;
    }
  >
> = {
  export: {
    name: "Export Map",
    action: "Export Map Image",
    fields: EXPORT_FIELDS,
    results: exportResults,
  },
  identify: {
    name: "Identify",
    action: "Identify",
    fields: IDENTIFY_FIELDS,
    results: (v) => searchResults(v, false),
  },
  find: {
    name: "Find",
    action: "Find",
    fields: FIND_FIELDS,
    results: (v) => searchResults(v, true),
  },
};

/**
 * The page of a service operation (`export`, `identify`, `find`).
 *
 * @example
 * ```ts ignore
 * await mapOperationPage(call, FIND_ENDPOINT, "find");
 * ```
 */
export function mapOperationPage(
  call: RestCall,
  endpoint: RestEndpoint,
  operation: "export" | "identify" | "find",
): Promise<string> {
  const service = serviceOf(call);
  frameOf(call, service);
  const links = linksOf(call);
  const path = `${servicePath(service.name)}/${operation}`;
  const form = MAP_OPERATIONS[operation];
  return operationPage(call, endpoint, links, {
    ...form,
    title: `${form.name}: ${service.name}`,
    crumbs: [...links.crumbs(service.name), { label: operation }],
    path,
  });
}

/**
 * The query page of a layer.
 *
 * @example
 * ```ts ignore
 * await queryPage(call, QUERY_ENDPOINT);
 * ```
 */
export function queryPage(call: RestCall, endpoint: RestEndpoint): Promise<string> {
  const service = serviceOf(call);
  const layer = layerOf(call, frameOf(call, service));
  const links = linksOf(call);
  const base = servicePath(service.name);
  const path = `${base}/${layer.id}/query`;
  return operationPage(call, endpoint, links, {
    title: `Query: ${layer.name} (ID: ${layer.id})`,
    crumbs: [
      ...links.crumbs(service.name),
      { label: layer.name, href: links.href(`${base}/${layer.id}`) },
      { label: "query" },
    ],
    path,
    action: "Query",
    fields: QUERY_FIELDS,
    results: (v) =>
      queryResults(v, (id) => links.href(path, { objectIds: String(id), outFields: "*" })),
  });
}
