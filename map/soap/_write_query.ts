/**
 * SOAP result writers of the query operations: typed results
 * (map/ops/results.ts) as the plain objects of the type table's FIDSet,
 * RecordSet (Fields and Records, each value with the xsi:type ArcGIS gives
 * it), QueryResult, the Find, Identify and hyperlink results, and the
 * Multipoint of ToMapPoints.
 *
 * @module
 */
import type {
  FindResult,
  HyperlinkResult,
  IdentifyResult,
  MapPoints,
  QueryResult,
  RecordSet,
} from "../ops/mod.ts";
import { geometryToSoap, pointToSoap, type SoapObject } from "./_write_geometry.ts";
import { fieldToSoap, propertySetToSoap, valueToSoap } from "./_write_fields.ts";

/** A `RecordSet` (Fields + Records); geometry values carry the `*N` type of the shape. */
export function recordSetToSoap(r: RecordSet): SoapObject {
  const fieldArray = r.fields.map((f) => fieldToSoap(f, r.geometryType, r.wkid));
  const records = r.features.map((feat) => ({
    Values: r.fields.map((f) => {
      if (f.type === "Geometry") return feat.geometry ? geometryToSoap(feat.geometry) : null;
      if (f.type === "OID") return valueToSoap(feat.id, "OID");
      return valueToSoap(feat.attributes[f.name] ?? null, f.type);
    }),
  }));
  return { $type: "RecordSet", Fields: { FieldArray: fieldArray }, Records: records };
}

/** A `FIDSet`. */
export function fidSetToSoap(ids: number[]): SoapObject {
  return { $type: "FIDSet", FIDArray: ids };
}

/** A `QueryResult`: the RecordSet as its Object, or the encoded rows as MimeData or a URL. */
export function queryResultToSoap(r: QueryResult): SoapObject {
  switch (r.kind) {
    case "recordSet":
      return { $type: "QueryResult", URL: "", Object: recordSetToSoap(r.recordSet) };
    case "data":
      return { $type: "QueryResult", MimeData: r.bytes, URL: "", Object: null };
    case "url":
      return { $type: "QueryResult", URL: r.url, Object: null };
  }
}

/** `MapServerFindResult`s. */
export function findResultsToSoap(results: FindResult[]): SoapObject[] {
  return results.map((r) => ({
    Value: r.value,
    LayerID: r.layerId,
    FeatureID: r.featureId,
    FieldName: r.fieldName,
    Shape: r.shape ? geometryToSoap(r.shape) : undefined,
    Properties: propertySetToSoap(r.properties),
  }));
}

/** `MapServerIdentifyResult`s. */
export function identifyResultsToSoap(results: IdentifyResult[]): SoapObject[] {
  return results.map((r) => ({
    LayerID: r.layerId,
    Name: r.name,
    Properties: propertySetToSoap(r.properties),
    Shape: r.shape ? geometryToSoap(r.shape) : undefined,
    HTMLPopup: r.htmlPopup,
    FeatureID: r.featureId,
  }));
}

/** `MapServerHyperlink`s. */
export function hyperlinksToSoap(results: HyperlinkResult[]): SoapObject[] {
  return results.map((r) => ({ Location: pointToSoap(r.location), URL: r.url }));
}

/** ToMapPoints' `MultipointN` with its SpatialReference. */
export function mapPointsToSoap(p: MapPoints): SoapObject {
  return geometryToSoap(p.geometry, p.wkid);
}
