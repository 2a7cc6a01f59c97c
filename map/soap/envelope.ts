/**
 * SOAP 1.1 envelopes: finding the operation element of a request and
 * writing response and Fault envelopes.
 *
 * @module
 */
import { SoapFault, type SoapFaultDetail } from "./fault.ts";
import { escapeText } from "./_xml_text.ts";
import { isEsriNamespace } from "./decode.ts";
import { attribute, type XmlElement } from "./xml.ts";

/** SOAP 1.1 envelope namespace. */
export const SOAP11_NS = "http://schemas.xmlsoap.org/soap/envelope/";
/** SOAP 1.2 envelope namespace (recognised only to answer VersionMismatch). */
export const SOAP12_NS = "http://www.w3.org/2003/05/soap-envelope";
/** The namespace we answer in when the request names none (ArcGIS 10.3). */
export const DEFAULT_NAMESPACE = "http://www.esri.com/schemas/ArcGIS/10.3";

/** The operation element of a request and the namespace to answer in. */
export interface SoapRequest {
  operation: XmlElement;
  namespace: string;
}

/**
 * Locates `soap:Body`'s first child in a parsed envelope, checking the SOAP
 * version and `mustUnderstand` headers. Throws SoapFault on anything else.
 *
 * @example
 * ```ts
 * import { parseXml } from "./xml.ts";
 * declare const body: string;
 * const { operation, namespace } = openEnvelope(parseXml(body));
 * ```
 */
export function openEnvelope(root: XmlElement): SoapRequest {
  if (root.local !== "Envelope" || root.ns !== SOAP11_NS) {
    if (root.local === "Envelope" && root.ns === SOAP12_NS) {
      throw new SoapFault(
        "VersionMismatch",
        "This service speaks SOAP 1.1; send the envelope in the namespace " + SOAP11_NS + ".",
      );
    }
    if (root.local === "Envelope") {
      throw new SoapFault(
        "VersionMismatch",
        `Unknown SOAP envelope namespace "${root.ns}"; use ${SOAP11_NS}.`,
      );
    }
    throw new SoapFault(
      "Client",
      `The request must be a SOAP 1.1 Envelope, not <${root.local}>.`,
    );
  }
  const header = root.children.find((c) => c.local === "Header" && c.ns === SOAP11_NS);
  for (const h of header?.children ?? []) {
    const mu = attribute(h, SOAP11_NS, "mustUnderstand")?.trim();
    const actor = attribute(h, SOAP11_NS, "actor");
    const forUs = actor === undefined || actor === "http://schemas.xmlsoap.org/soap/actor/next";
    if ((mu === "1" || mu === "true") && forUs) {
      throw new SoapFault(
        "MustUnderstand",
        `The header element {${h.ns}}${h.local} is marked mustUnderstand, but this service does not process it.`,
      );
    }
  }
  const body = root.children.find((c) => c.local === "Body" && c.ns === SOAP11_NS);
  if (!body) throw new SoapFault("Client", "The SOAP Envelope has no Body element.");
  const operation = body.children[0];
  if (!operation) {
    throw new SoapFault("Client", "The SOAP Body is empty; it must contain the operation element.");
  }
  if (operation.ns !== "" && !isEsriNamespace(operation.ns)) {
    throw new SoapFault(
      "Client",
      `The operation element <${operation.local}> is in the namespace "${operation.ns}"; ` +
        `use an ArcGIS namespace such as ${DEFAULT_NAMESPACE}.`,
      { Operation: operation.local },
    );
  }
  return { operation, namespace: operation.ns || DEFAULT_NAMESPACE };
}

const ENVELOPE_OPEN = `<?xml version="1.0" encoding="utf-8"?>` +
  `<soap:Envelope xmlns:soap="${SOAP11_NS}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ` +
  `xmlns:xsd="http://www.w3.org/2001/XMLSchema"`;

/** A response envelope: `<tns:{element}>{inner}</tns:{element}>` in `namespace`. */
export function responseEnvelope(namespace: string, element: string, inner: string): string {
  return `${ENVELOPE_OPEN} xmlns:tns="${escapeText(namespace)}"><soap:Body>` +
    `<tns:${element}>${inner}</tns:${element}></soap:Body></soap:Envelope>`;
}

/**
 * A SOAP 1.1 Fault envelope. `detail` is written for every fault except
 * MustUnderstand (SOAP 1.1 §4.4: header faults carry no detail).
 */
export function faultEnvelope(
  namespace: string,
  fault: SoapFault,
  extra: SoapFaultDetail = {},
): string {
  let detail = "";
  if (fault.code !== "MustUnderstand") {
    const facts: SoapFaultDetail = { ...extra, ...fault.detail };
    const items = Object.entries(facts)
      .filter(([k]) => /^[A-Za-z_][\w.-]*$/.test(k))
      .map(([k, v]) => `<e:${k}>${escapeText(String(v))}</e:${k}>`).join("");
    detail = `<detail><e:FaultDetail xmlns:e="${escapeText(namespace)}">` +
      `<e:Message>${escapeText(fault.message)}</e:Message>${items}</e:FaultDetail></detail>`;
  }
  return `${ENVELOPE_OPEN}><soap:Body><soap:Fault><faultcode>soap:${fault.code}</faultcode>` +
    `<faultstring>${escapeText(fault.message)}</faultstring>${detail}</soap:Fault>` +
    `</soap:Body></soap:Envelope>`;
}
