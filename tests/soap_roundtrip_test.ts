/**
 * Every concrete type of the table, filled with sample values for all its
 * members, is encoded (as an xsi:typed anyType value), validated against
 * our WSDL's schema and decoded back to the same plain object: the
 * table, the encoder and the decoder agree with each other and with the
 * WSDL (which soap_wsdl_test.ts compares with Esri's where Esri's files are).
 */
import assert from "node:assert/strict";
import { MAPSERVER_SCHEMA as S } from "../map/soap/types.ts";
import { encodeResponse } from "../map/soap/encode.ts";
import { decodeValue } from "../map/soap/decode.ts";
import { responseEnvelope } from "../map/soap/envelope.ts";
import { parseXml } from "../map/soap/xml.ts";
import { isXsdType } from "../map/soap/schema.ts";
import { assertSchemaValid, NS } from "./_soap_helpers.ts";

const SIMPLE: Record<string, unknown> = {
  string: "a<&>é",
  int: -7,
  short: 12,
  long: 1234567890123,
  double: 1.5e-3,
  float: 2.5,
  boolean: true,
  base64Binary: new Uint8Array([0, 1, 254, 255]),
  dateTime: new Date(Date.UTC(2021, 5, 30, 12, 0, 0)),
  unsignedByte: 200,
  anyType: "any",
};

function concrete(type: string): string {
  const t = S.type(type);
  if (t?.kind === "complex" && !t.abstract) return type;
  const sub = S.subtypesOf(type).find((s) => {
    const d = S.type(s);
    return d?.kind === "complex" && !d.abstract;
  });
  assert.ok(sub, `no concrete subtype of ${type}`);
  return sub;
}

/** A value of `type` with every member set; below `depth` 0 only required members. */
function sample(type: string, depth: number): unknown {
  if (isXsdType(type)) return SIMPLE[type];
  const t = S.type(type)!;
  if (t.kind === "enum") return t.values[t.values.length - 1];
  if (t.kind === "array") return depth > 0 ? [sample(t.itemType, depth - 1)] : [];
  const name = concrete(type);
  const obj: Record<string, unknown> = { $type: name };
  for (const m of S.elementsOf(name)) {
    if (m.optional && depth <= 0) continue;
    obj[m.name] = sample(m.type, depth - 1);
  }
  return obj;
}

const CONCRETE = S.types.filter((t) => t.kind === "complex" && !t.abstract).map((t) => t.name);

Deno.test(`all ${CONCRETE.length} concrete types round-trip through encoder, schema check and decoder`, async () => {
  const samples = CONCRETE.map((name) => ({ Key: name, Value: sample(name, 3) }));
  const xml = responseEnvelope(
    NS,
    "GetDocumentInfoResponse",
    encodeResponse(S, S.operation("GetDocumentInfo")!, { Result: { PropertyArray: samples } }),
  );
  await assertSchemaValid(xml);
  const root = parseXml(xml);
  const result = root.children[0].children[0].children[0];
  const decoded = decodeValue(S, result, "PropertySet", "Result") as {
    PropertyArray: { Key: string; Value: unknown }[];
  };
  assert.equal(decoded.PropertyArray.length, samples.length);
  for (const [i, p] of decoded.PropertyArray.entries()) {
    assert.equal(p.Key, samples[i].Key);
    assert.deepEqual(p.Value, samples[i].Value, `type ${p.Key}`);
  }
});
