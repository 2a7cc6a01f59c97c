/**
 * XML Schema validation in process, with libxml2 compiled to WebAssembly
 * (`libxml2-wasm`), against the `xs:schema` our own WSDL carries (generated
 * by `map/soap/wsdl.ts` from the type table; `tests/soap_wsdl_test.ts`
 * proves it equal to Esri's reference schema where Esri's files exist).
 *
 * Chosen over `xmllint-wasm` by measurement: libxml2-wasm compiles the
 * MapServer schema once (about 140 ms) and validates a GetServerInfo
 * response in about 3 ms; xmllint-wasm starts a fresh module and recompiles
 * the schema for every call (about 430 ms each). Both report libxml2's own
 * messages; libxml2-wasm adds the element's XPath.
 *
 * @module
 */
import { XmlDocument, XmlLibError, XsdValidator } from "libxml2-wasm";
import { MAPSERVER_SCHEMA } from "../map/soap/types.ts";
import { CATALOG_SCHEMA } from "../map/soap/catalog.ts";
import { generateWsdl } from "../map/soap/wsdl.ts";

/** The services whose WSDL carries a schema. */
export type SchemaName = "MapServer" | "Catalog";

/** Result of a schema validation; `errors` is empty when `ok`. */
export interface Validation {
  ok: boolean;
  /** One line per problem: `line L, /xpath: message`. */
  errors: string;
}

/**
 * The standalone XSD of our `service` WSDL in namespace `ns`: the inline
 * `xs:schema` with the prefixes the WSDL declares on `definitions` copied
 * onto it.
 *
 * @example
 * ```ts
 * const xsd = ourSchema("MapServer", "http://www.esri.com/schemas/ArcGIS/10.3");
 * ```
 */
export function ourSchema(service: SchemaName, ns: string): string {
  const wsdl = service === "MapServer"
    ? generateWsdl(MAPSERVER_SCHEMA, {
      endpoint: "http://localhost/arcgis/services/Schema/MapServer",
      namespace: ns,
      serviceName: "Schema_MapServer",
      portType: "MapServerPort",
      binding: "MapServerBinding",
    })
    : generateWsdl(CATALOG_SCHEMA, {
      endpoint: "http://localhost/arcgis/services",
      namespace: ns,
      serviceName: "Catalog",
      portType: "ServiceCatalogPort",
      binding: "ServiceCatalogBinding",
    });
  const start = wsdl.indexOf("<xs:schema");
  const endTag = "</xs:schema>";
  const end = wsdl.indexOf(endTag);
  if (start < 0 || end < start) throw new Error(`our ${service} WSDL has no xs:schema`);
  const schema = wsdl.slice(start, end + endTag.length).replace(
    "<xs:schema",
    `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:e="${ns}"`,
  );
  return `<?xml version="1.0" encoding="utf-8"?>\n${schema}`;
}

const validators = new Map<string, XsdValidator>();

function validator(service: SchemaName, ns: string): XsdValidator {
  const key = `${service}|${ns}`;
  let v = validators.get(key);
  if (!v) {
    // The schema document stays alive with its validator for the whole process.
    const doc = XmlDocument.fromString(ourSchema(service, ns), { url: `${service}.xsd` });
    v = XsdValidator.fromDoc(doc);
    validators.set(key, v);
  }
  return v;
}

function describe(e: unknown): string {
  if (e instanceof XmlLibError && e.details.length > 0) {
    return e.details.map((d) =>
      `line ${d.line}${d.xpath ? `, ${d.xpath}` : ""}: ${d.message.trim()}`
    ).join("\n");
  }
  return e instanceof Error ? e.message : String(e);
}

/**
 * Validates the XML document `xml` against our `service` schema in `ns`.
 * Malformed XML is reported the same way as invalid XML.
 *
 * @example
 * ```ts
 * const v = validateXml("<x/>", "MapServer", "http://www.esri.com/schemas/ArcGIS/10.3");
 * v.ok; // false: "line 1, /x: Element 'x': No matching global declaration available ..."
 * ```
 */
export function validateXml(xml: string, service: SchemaName, ns: string): Validation {
  const v = validator(service, ns);
  let doc: XmlDocument | undefined;
  try {
    doc = XmlDocument.fromString(xml, { url: "response.xml" });
    v.validate(doc);
    return { ok: true, errors: "" };
  } catch (e) {
    return { ok: false, errors: describe(e) };
  } finally {
    doc?.dispose();
  }
}
