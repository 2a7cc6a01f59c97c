/**
 * Helpers for SOAP tests, shared by every engineer's `tests/soap_*_test.ts`:
 *
 * - {@link validateSoapResponse} / {@link assertSchemaValid}: validate what
 *   the server wrote against the XML Schema our own WSDL carries, in process
 *   with libxml2 compiled to WebAssembly (`_xml_schema.ts`);
 * - {@link startSoapServer}: a real server on 127.0.0.1 with the ArcGIS
 *   routes; {@link soapClient}: a node-soap client built from our WSDL URL;
 * - {@link postSoap} / {@link envelope}: raw XML requests;
 * - test services (re-exported from `_soap_services.ts`): `memoryService`,
 *   `loadTestService`.
 *
 * @module
 */
import assert from "node:assert/strict";
import * as soap from "soap";
import type { MapService } from "../map/soap/operation.ts";
import { createMapServer, type MapServer } from "../map/mod.ts";
import { arcgisRoutes, type BodyBudget } from "../routes/arcgis.ts";
import { arcgisRestRoutes } from "../routes/arcgis_rest.ts";
import { createRouter, type Route, withCommonHeaders } from "../routes/mod.ts";
import { type SchemaName, validateXml, type Validation } from "./_xml_schema.ts";

export { loadTestService, MemoryPointSource, memoryService } from "./_soap_services.ts";

/** The namespace our server speaks by default. */
export const NS = "http://www.esri.com/schemas/ArcGIS/10.3";
/**
 * The first element inside `soap:Body` of a SOAP message, as a standalone
 * document: the namespace declarations of the enclosing Envelope and Body
 * tags are copied onto it so QName values like `xsi:type="tns:PointN"` stay
 * resolvable.
 */
export function bodyContent(xml: string): string {
  const env = /<([\w.-]+:)?Envelope\b[^>]*>/.exec(xml);
  const body = /<([\w.-]+:)?Body\b[^>]*>/.exec(xml);
  assert.ok(env && body, "not a SOAP envelope");
  const bodyEnd = xml.lastIndexOf(`</${body[1] ?? ""}Body>`);
  const inner = xml.slice(body.index + body[0].length, bodyEnd).trim();
  const decls = new Map<string, string>();
  for (const tag of [env[0], body[0]]) {
    for (const m of tag.matchAll(/\s(xmlns(?::[\w.-]+)?)\s*=\s*("[^"]*"|'[^']*')/g)) {
      decls.set(m[1], m[2]);
    }
  }
  const first = /^<[\w.:-]+/.exec(inner);
  assert.ok(first, "empty SOAP Body");
  const firstTag = inner.slice(0, inner.indexOf(">") + 1);
  const extra = [...decls].filter(([k]) => !new RegExp(`\\s${k}\\s*=`).test(firstTag))
    .map(([k, v]) => ` ${k}=${v}`).join("");
  return first[0] + extra + inner.slice(first[0].length);
}

export type { SchemaName, Validation };

/** Options of {@link validateSoapResponse}. */
export interface ValidateOptions {
  /** Whose schema: our MapServer WSDL (default) or our Catalog WSDL. */
  service?: SchemaName;
  /** Namespace of the response (default ArcGIS 10.3). */
  ns?: string;
  /** Validate `xml` as it is instead of the first element of its `soap:Body`. */
  wholeDocument?: boolean;
}

/**
 * Validates the Body content of a SOAP response (or any XML document when
 * `wholeDocument`) against the schema of our own WSDL.
 *
 * @example
 * ```ts
 * declare const xml: string;
 * const v = await validateSoapResponse(xml, { service: "Catalog" });
 * ```
 */
export function validateSoapResponse(xml: string, opts: ValidateOptions = {}): Promise<Validation> {
  const doc = opts.wholeDocument ? xml : bodyContent(xml);
  return Promise.resolve(validateXml(doc, opts.service ?? "MapServer", opts.ns ?? NS));
}

/** Asserts that a SOAP response validates against our WSDL's schema. */
export async function assertSchemaValid(xml: string, opts: ValidateOptions = {}): Promise<void> {
  const v = await validateSoapResponse(xml, opts);
  assert.ok(
    v.ok,
    `response does not validate against the ${opts.service ?? "MapServer"} schema:\n${v.errors}\n` +
      xml.slice(0, 2000),
  );
}

/**
 * A SOAP 1.1 request envelope around `inner` (the operation element). By
 * default the operation is written with a prefix in `ns` and unqualified children.
 *
 * @example
 * ```ts
 * envelope(`<e:GetMapName xmlns:e="${NS}"><Index>0</Index></e:GetMapName>`);
 * ```
 */
export function envelope(inner: string): string {
  return `<?xml version="1.0" encoding="utf-8"?>` +
    `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" ` +
    `xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">` +
    `<soap:Body>${inner}</soap:Body></soap:Envelope>`;
}

/** Builds `<e:Op xmlns:e=NS>children</e:Op>` wrapped in an envelope. */
export function operationEnvelope(op: string, children = "", ns = NS): string {
  return envelope(`<e:${op} xmlns:e="${ns}">${children}</e:${op}>`);
}

/** A raw HTTP answer. */
export interface RawReply {
  status: number;
  contentType: string;
  text: string;
}

/** POSTs a raw SOAP body; `soapAction` undefined sends no SOAPAction header. */
export async function postSoap(url: string, body: string, soapAction?: string): Promise<RawReply> {
  const headers: Record<string, string> = { "content-type": "text/xml; charset=utf-8" };
  if (soapAction !== undefined) headers["soapaction"] = soapAction;
  const res = await fetch(url, { method: "POST", headers, body });
  return {
    status: res.status,
    contentType: res.headers.get("content-type") ?? "",
    text: await res.text(),
  };
}

/** The `faultcode` and `faultstring` of a Fault response, or undefined. */
export function faultOf(xml: string): { code: string; message: string } | undefined {
  const code = /<faultcode>([^<]*)<\/faultcode>/.exec(xml);
  const msg = /<faultstring>([^<]*)<\/faultstring>/.exec(xml);
  if (!code) return undefined;
  return { code: code[1], message: msg ? msg[1] : "" };
}

/** A server started for a test. */
export interface TestServer {
  /** `http://127.0.0.1:<port>` */
  baseUrl: string;
  /** Endpoint URL of a map service. */
  serviceUrl(name: string): string;
  close(): Promise<void>;
}

/**
 * Starts `Deno.serve` on 127.0.0.1 (random port) with the given request
 * handler; close it in the test's `finally`.
 */
export function startSoapServer(
  handler: (req: Request) => Response | Promise<Response>,
): TestServer {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, handler);
  const addr = server.addr as Deno.NetAddr;
  const baseUrl = `http://127.0.0.1:${addr.port}`;
  return {
    baseUrl,
    serviceUrl: (name) => `${baseUrl}/arcgis/services/${name}/MapServer`,
    close: () => server.shutdown(),
  };
}

/**
 * A test server answering `routes` through the application's router (a
 * plain-text 404 for paths none knows), with the headers the application
 * adds around every answer (CORS among them).
 */
export function startRoutesServer(routes: Route[]): TestServer {
  const route = createRouter(routes, () => new Response("not found", { status: 404 }));
  return startSoapServer(async (req) => withCommonHeaders(req, await route(req)));
}

/** A node-soap client (methods `<Op>Async(args)` resolve to `[result, rawResponse, ...]`). */
export type SoapClient = soap.Client;

/**
 * Builds a node-soap client from the WSDL at `wsdlUrl` (fetched over HTTP,
 * so the test also covers WSDL serving).
 */
export function soapClient(wsdlUrl: string): Promise<SoapClient> {
  return soap.createClientAsync(wsdlUrl, { disableCache: true });
}

/** A test server publishing `services` through the ArcGIS routes (SOAP, and REST beside it). */
export function startMapServices(
  services: MapService[],
  opts: { outputDir?: string; maxBodyBytes?: number; bodyBudget?: BodyBudget } = {},
): TestServer & { maps: MapServer } {
  const maps = createMapServer({ services, outputDir: opts.outputDir ?? Deno.makeTempDirSync() });
  const routes = [
    ...arcgisRoutes({
      maps,
      baseUrl: (req) => new URL(req.url).origin,
      maxBodyBytes: opts.maxBodyBytes,
      bodyBudget: opts.bodyBudget,
    }),
    // The REST face beside it, sharing the body budget as in the server.
    ...arcgisRestRoutes({
      maps,
      baseUrl: (req) => new URL(req.url).origin,
      maxBodyBytes: opts.maxBodyBytes,
      bodyBudget: opts.bodyBudget,
    }),
  ];
  return { ...startRoutesServer(routes), maps };
}
