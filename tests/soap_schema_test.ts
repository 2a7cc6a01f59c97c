/**
 * The schema check every SOAP test relies on (`assertSchemaValid`, libxml2
 * in WebAssembly against our own WSDL's schema) must reject what ArcGIS
 * clients would reject, and say where: a misspelt element, a wrong order, a
 * bad enumeration value, a wrong `xsi:type`, malformed XML.
 */
import assert from "node:assert/strict";
import {
  bodyContent,
  memoryService,
  operationEnvelope,
  postSoap,
  startMapServices,
  validateSoapResponse,
} from "./_soap_helpers.ts";

async function serverInfo(): Promise<string> {
  const server = startMapServices([memoryService("Test")]);
  try {
    const r = await postSoap(
      server.serviceUrl("Test"),
      operationEnvelope("GetServerInfo", "<MapName>Mercator</MapName>"),
    );
    assert.equal(r.status, 200, r.text);
    return r.text;
  } finally {
    await server.close();
  }
}

Deno.test("schema check: a real GetServerInfo response is valid", async () => {
  const v = await validateSoapResponse(await serverInfo());
  assert.equal(v.errors, "");
  assert.ok(v.ok);
});

Deno.test("schema check: invalid responses are rejected with the element and its path", async () => {
  const xml = await serverInfo();
  assert.match(xml, /<Name>Mercator<\/Name>/);
  const cases: [string, string, RegExp][] = [
    [
      "misspelt element",
      xml.replace("<Name>Mercator</Name>", "<Nmae>Mercator</Nmae>"),
      /line 1, \/tns:GetServerInfoResponse\/Result\/Nmae: Element 'Nmae': This element is not expected\. Expected is \( Name \)/,
    ],
    [
      "members out of order",
      xml.replace(/(<Name>Mercator<\/Name>)(<Description>[^<]*<\/Description>)/, "$2$1"),
      /\/tns:GetServerInfoResponse\/Result\/Description: Element 'Description': This element is not expected\. Expected is \( Name \)/,
    ],
    [
      "unknown enumeration value",
      xml.replace(/<Units>esri\w+<\/Units>/, "<Units>esriParsecs</Units>"),
      /Units: .*'esriParsecs' is not an element of the set/,
    ],
    [
      "abstract xsi:type",
      xml.replace(/xsi:type="tns:EnvelopeN"/, 'xsi:type="tns:Envelope"'),
      /abstract/,
    ],
  ];
  for (const [what, bad, expected] of cases) {
    assert.notEqual(bad, xml, `${what}: the fixture did not change`);
    const v = await validateSoapResponse(bad);
    assert.equal(v.ok, false, `${what} was accepted`);
    assert.match(v.errors, expected, what);
  }
  const malformed = await validateSoapResponse(bodyContent(xml).replace("</Result>", ""), {
    wholeDocument: true,
  });
  assert.equal(malformed.ok, false);
  assert.match(malformed.errors, /line 1: .*(mismatch|end tag|Premature)/i);
});
