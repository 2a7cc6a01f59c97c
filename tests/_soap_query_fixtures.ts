/**
 * Fixtures of the query-operation tests (`tests/soap_query_*_test.ts`): a
 * loopback server publishing given services with every MapServer
 * operation plus the query operations, a node-soap caller that validates
 * each raw response against Esri's schema, and raw-envelope helpers.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { MapService } from "../map/soap/operation.ts";
import { createMapServer } from "../map/mod.ts";
import { MAPSERVER_OPERATIONS } from "../map/ops/mod.ts";
import { queryOperations } from "../map/ops/query.ts";
import { arcgisRoutes } from "../routes/arcgis.ts";
import {
  assertSchemaValid,
  faultOf,
  NS,
  operationEnvelope,
  postSoap,
  type SoapClient,
  soapClient,
  startSoapServer,
  type TestServer,
} from "./_soap_helpers.ts";

// deno-lint-ignore no-explicit-any
export type Any = any;

/** A started query test server with a node-soap client per service. */
export interface QueryServer extends TestServer {
  /** node-soap client of a service (built from our WSDL URL). */
  client(service: string): Promise<SoapClient>;
  /** Directory exported files are written to. */
  outputDir: string;
}

/** Starts a loopback server publishing `services` with all operations (query ones included). */
export async function startQueryServer(services: MapService[]): Promise<QueryServer> {
  const outputDir = await Deno.makeTempDir({ prefix: "soap-query-out-" });
  const maps = createMapServer({
    services,
    outputDir,
    operations: { ...MAPSERVER_OPERATIONS, ...queryOperations },
  });
  const routes = arcgisRoutes({ maps, baseUrl: (req) => new URL(req.url).origin });
  const server = startSoapServer(async (req) => {
    for (const r of routes) {
      if (r.method !== req.method) continue;
      const m = r.pattern.exec(req.url);
      if (m) return await r.handler(req, m);
    }
    return new Response("not found", { status: 404 });
  });
  const clients = new Map<string, Promise<SoapClient>>();
  return {
    ...server,
    outputDir,
    client(name) {
      let c = clients.get(name);
      if (!c) clients.set(name, c = soapClient(`${server.serviceUrl(name)}?wsdl`));
      return c;
    },
    async close() {
      await server.close();
      await Deno.remove(outputDir, { recursive: true }).catch(() => {});
    },
  };
}

/** Calls `op` with node-soap, validates the raw response, returns the parsed response object. */
export async function call(
  client: SoapClient,
  op: string,
  args: Record<string, unknown>,
): Promise<Any> {
  const [result, raw] = await (client as Any)[`${op}Async`](args);
  await assertSchemaValid(raw);
  return result;
}

/** Posts a raw operation envelope; asserts a Client fault and returns its message. */
export async function expectClientFault(
  url: string,
  op: string,
  children: string,
): Promise<string> {
  const reply = await postSoap(url, operationEnvelope(op, children));
  const fault = faultOf(reply.text);
  assert.ok(fault, `expected a fault from ${op}, got:\n${reply.text.slice(0, 1500)}`);
  assert.equal(reply.status, 500);
  assert.match(fault.code, /Client$/, `fault code of ${op}: ${fault.code} ${fault.message}`);
  return fault.message;
}

/** Posts a raw operation envelope, asserts success and schema validity, returns the XML. */
export async function rawCall(url: string, op: string, children: string): Promise<string> {
  const reply = await postSoap(url, operationEnvelope(op, children));
  assert.equal(reply.status, 200, reply.text.slice(0, 1500));
  await assertSchemaValid(reply.text);
  return reply.text;
}

/** node-soap gives one item or an array for repeated elements: always an array. */
export function items<T = Any>(v: T | T[] | undefined | null): T[] {
  if (v === undefined || v === null) return [];
  return Array.isArray(v) ? v : [v];
}

/** Asserts |actual - expected| <= tol. */
export function near(actual: number, expected: number, tol: number, what = "value"): void {
  assert.ok(
    Math.abs(Number(actual) - expected) <= tol,
    `${what}: expected ${expected} ± ${tol}, got ${actual}`,
  );
}

/** A node-soap argument object carrying `xsi:type="<ns>:<type>"` (polymorphic parameters). */
export function typed(type: string, members: Record<string, unknown>): Record<string, unknown> {
  return { attributes: { xsi_type: { type, xmlns: NS } }, ...members };
}

/** A `SpatialReference` argument with a WKID. */
export function srArg(wkid: number): Record<string, unknown> {
  const geographic = wkid === 4326;
  return typed(geographic ? "GeographicCoordinateSystem" : "ProjectedCoordinateSystem", {
    WKID: wkid,
  });
}

/** An `EnvelopeN` argument. */
export function envelopeArg(
  xmin: number,
  ymin: number,
  xmax: number,
  ymax: number,
  wkid?: number,
): Record<string, unknown> {
  return typed("EnvelopeN", {
    XMin: xmin,
    YMin: ymin,
    XMax: xmax,
    YMax: ymax,
    ...(wkid ? { SpatialReference: srArg(wkid) } : {}),
  });
}

/** A `PointN` argument. */
export function pointArg(x: number, y: number, wkid?: number): Record<string, unknown> {
  return typed("PointN", { X: x, Y: y, ...(wkid ? { SpatialReference: srArg(wkid) } : {}) });
}

/** A MapDescription with a MapExtent (and optional layer descriptions / SR). */
export function mapDescription(
  name: string,
  extent: [number, number, number, number],
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    Name: name,
    MapArea: typed("MapExtent", { Extent: envelopeArg(...extent) }),
    Rotation: 0,
    ...extra,
  };
}

/** An ImageDisplay argument. */
export function imageDisplay(width: number, height: number, dpi = 96): Record<string, unknown> {
  return { ImageHeight: height, ImageWidth: width, ImageDPI: dpi };
}

export { NS };
