/**
 * WSDL 1.1 generation from the type table: an inline `xs:schema` without
 * elementFormDefault (child elements unqualified), messages `<Op>In` and
 * `<Op>Out`, a document/literal binding with `soapAction=""`, and a
 * service whose address is absolute with the port written out, as ArcGIS
 * serves it.
 *
 * @module
 */
import { escapeAttr } from "./_xml_text.ts";
import { type ElementDef, isXsdType, type Schema, type TypeDef } from "./schema.ts";
import { DEFAULT_NAMESPACE } from "./envelope.ts";

/** Names of the WSDL parts of one service. */
export interface WsdlOptions {
  /** Absolute endpoint URL (the port is made explicit). */
  endpoint: string;
  /** Target namespace (default ArcGIS 10.3). */
  namespace?: string;
  /** `service` name, e.g. `World_MapServer`. */
  serviceName: string;
  /** portType and port name, e.g. `MapServerPort`. */
  portType: string;
  /** binding name, e.g. `MapServerBinding`. */
  binding: string;
}

/**
 * The endpoint URL with its port written out (`https://h/x` -> `https://h:443/x`).
 *
 * @example
 * ```ts
 * explicitPort("http://localhost/arcgis/services/World/MapServer"); // "http://localhost:80/arcgis/..."
 * ```
 */
export function explicitPort(url: string): string {
  const u = new URL(url);
  const port = u.port || (u.protocol === "https:" ? "443" : "80");
  return `${u.protocol}//${u.hostname}:${port}${u.pathname}${u.search}`;
}

function typeRef(type: string): string {
  return isXsdType(type) ? `xs:${type}` : `e:${type}`;
}

function elementXml(e: ElementDef, indent: string): string {
  let a = "";
  if (e.optional) a += ` minOccurs="0"`;
  a += ` name="${e.name}"`;
  if (e.nillable) a += ` nillable="true"`;
  if (e.default !== undefined) a += ` default="${escapeAttr(e.default)}"`;
  return `${indent}<xs:element${a} type="${typeRef(e.type)}" />\n`;
}

function sequenceXml(elements: readonly ElementDef[], indent: string): string {
  if (elements.length === 0) return `${indent}<xs:sequence />\n`;
  return `${indent}<xs:sequence>\n${elements.map((e) => elementXml(e, indent + "  ")).join("")}` +
    `${indent}</xs:sequence>\n`;
}

function typeXml(t: TypeDef): string {
  const i = "      ";
  if (t.kind === "enum") {
    return `${i}<xs:simpleType name="${t.name}">\n${i}  <xs:restriction base="xs:string">\n` +
      t.values.map((v) => `${i}    <xs:enumeration value="${escapeAttr(v)}" />\n`).join("") +
      `${i}  </xs:restriction>\n${i}</xs:simpleType>\n`;
  }
  if (t.kind === "array") {
    const nil = t.itemNillable ? ` nillable="true"` : "";
    return `${i}<xs:complexType name="${t.name}">\n${i}  <xs:sequence>\n` +
      `${i}    <xs:element minOccurs="0" maxOccurs="unbounded" name="${t.itemName}"${nil} ` +
      `type="${typeRef(t.itemType)}" />\n${i}  </xs:sequence>\n${i}</xs:complexType>\n`;
  }
  const abs = t.abstract ? ` abstract="true"` : "";
  if (!t.base) {
    return `${i}<xs:complexType name="${t.name}"${abs}>\n${sequenceXml(t.elements, i + "  ")}` +
      `${i}</xs:complexType>\n`;
  }
  return `${i}<xs:complexType name="${t.name}"${abs}>\n${i}  <xs:complexContent mixed="false">\n` +
    `${i}    <xs:extension base="e:${t.base}">\n${sequenceXml(t.elements, i + "      ")}` +
    `${i}    </xs:extension>\n${i}  </xs:complexContent>\n${i}</xs:complexType>\n`;
}

function operationElementXml(name: string, elements: readonly ElementDef[]): string {
  const i = "      ";
  if (elements.length === 0) {
    return `${i}<xs:element name="${name}">\n${i}  <xs:complexType />\n${i}</xs:element>\n`;
  }
  return `${i}<xs:element name="${name}">\n${i}  <xs:complexType>\n` +
    sequenceXml(elements, i + "    ") + `${i}  </xs:complexType>\n${i}</xs:element>\n`;
}

/**
 * The complete WSDL 1.1 document for `schema`.
 *
 * @example
 * ```ts
 * import { MAPSERVER_SCHEMA } from "./types.ts";
 * generateWsdl(MAPSERVER_SCHEMA, {
 *   endpoint: "http://localhost:8000/arcgis/services/World/MapServer",
 *   serviceName: "World_MapServer", portType: "MapServerPort", binding: "MapServerBinding",
 * });
 * ```
 */
export function generateWsdl(schema: Schema, opts: WsdlOptions): string {
  const ns = escapeAttr(opts.namespace ?? DEFAULT_NAMESPACE);
  const out: string[] = [];
  out.push(
    `<?xml version="1.0" encoding="utf-8"?>\n`,
    `<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" ` +
      `xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" ` +
      `xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:e="${ns}" targetNamespace="${ns}">\n`,
    `  <types>\n    <xs:schema targetNamespace="${ns}" xmlns="${ns}">\n`,
  );
  for (const op of schema.operations) {
    out.push(operationElementXml(op.name, op.request));
    out.push(operationElementXml(`${op.name}Response`, op.response));
  }
  for (const t of schema.types) out.push(typeXml(t));
  out.push(`    </xs:schema>\n  </types>\n`);
  for (const op of schema.operations) {
    out.push(
      `  <message name="${op.name}In">\n    <part name="parameters" element="e:${op.name}" />\n  </message>\n`,
      `  <message name="${op.name}Out">\n    <part name="parameters" element="e:${op.name}Response" />\n  </message>\n`,
    );
  }
  out.push(`  <portType name="${opts.portType}">\n`);
  for (const op of schema.operations) {
    out.push(
      `    <operation name="${op.name}">\n      <input message="e:${op.name}In" />\n` +
        `      <output message="e:${op.name}Out" />\n    </operation>\n`,
    );
  }
  out.push(
    `  </portType>\n  <binding name="${opts.binding}" type="e:${opts.portType}">\n`,
    `    <soap:binding transport="http://schemas.xmlsoap.org/soap/http" />\n`,
  );
  for (const op of schema.operations) {
    out.push(
      `    <operation name="${op.name}">\n      <soap:operation soapAction="" style="document" />\n` +
        `      <input>\n        <soap:body use="literal" />\n      </input>\n` +
        `      <output>\n        <soap:body use="literal" />\n      </output>\n    </operation>\n`,
    );
  }
  out.push(
    `  </binding>\n  <service name="${escapeAttr(opts.serviceName)}">\n`,
    `    <port name="${opts.portType}" binding="e:${opts.binding}">\n`,
    `      <soap:address location="${escapeAttr(explicitPort(opts.endpoint))}" />\n`,
    `    </port>\n  </service>\n</definitions>\n`,
  );
  return out.join("");
}
