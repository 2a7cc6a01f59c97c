/**
 * Query operations as other SOAP stacks write them, by hand: .NET proxies
 * (default namespace on the operation, `xmlns=""` on children, `q1:`
 * prefixes for xsi:type, elements left out), an older namespace answered in
 * kind, and sloppy clients (no optional members at all). Every answer is
 * validated against our WSDL's schema.
 */
import assert from "node:assert/strict";
import { assertSchemaValid, postSoap } from "./_soap_helpers.ts";
import { withFixture } from "./_soap_query_fixtures.ts";

const NS103 = "http://www.esri.com/schemas/ArcGIS/10.3";

function soap(body: string): string {
  return `<?xml version="1.0" encoding="utf-8"?>` +
    `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" ` +
    `xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">` +
    `<soap:Body>${body}</soap:Body></soap:Envelope>`;
}

Deno.test('.NET-style SpatialFilter request: default namespace, xmlns="", q1 prefixes, omitted members', async () => {
  await withFixture(async (s) => {
    const body = soap(
      `<QueryFeatureIDs xmlns="${NS103}">` +
        `<MapName xmlns="">Layers</MapName><LayerID xmlns="">0</LayerID>` +
        `<QueryFilter xmlns:q1="${NS103}" xsi:type="q1:SpatialFilter" xmlns="">` +
        `<WhereClause>POP &gt; 1000000</WhereClause>` +
        `<SpatialRel>esriSpatialRelIntersects</SpatialRel>` +
        `<FilterGeometry xsi:type="q1:EnvelopeN"><XMin>29</XMin><YMin>54</YMin><XMax>41</XMax><YMax>61</YMax>` +
        `<SpatialReference xsi:type="q1:GeographicCoordinateSystem"><WKID>4326</WKID></SpatialReference>` +
        `</FilterGeometry></QueryFilter></QueryFeatureIDs>`,
    );
    const reply = await postSoap(s.serviceUrl("Fixture"), body, '""');
    assert.equal(reply.status, 200, reply.text);
    await assertSchemaValid(reply.text);
    assert.match(reply.text, /<tns:QueryFeatureIDsResponse>/);
    assert.deepEqual([...reply.text.matchAll(/<Int>(\d+)<\/Int>/g)].map((m) => Number(m[1])), [
      1,
      3,
    ]);
  });
});

Deno.test("a 10.1 request is answered in the 10.1 namespace", async () => {
  await withFixture(async (s) => {
    const ns = "http://www.esri.com/schemas/ArcGIS/10.1";
    const body = soap(
      `<ns:QueryFeatureCount xmlns:ns="${ns}"><MapName>Layers</MapName><LayerID>1</LayerID>` +
        `<QueryFilter xsi:type="ns:SpatialFilter"><SpatialRel>esriSpatialRelIntersects</SpatialRel>` +
        `<FilterGeometry xsi:type="ns:PointN"><X>40</X><Y>55</Y></FilterGeometry></QueryFilter>` +
        `</ns:QueryFeatureCount>`,
    );
    const reply = await postSoap(s.serviceUrl("Fixture"), body);
    assert.equal(reply.status, 200, reply.text);
    assert.match(reply.text, new RegExp(`xmlns:tns="${ns.replaceAll(".", "\\.")}"`));
    assert.match(reply.text, /<Result>2<\/Result>/);
    await assertSchemaValid(reply.text, { ns });
  });
});

Deno.test("minimal requests: every optional and most 'required' members left out", async () => {
  await withFixture(async (s) => {
    const url = s.serviceUrl("Fixture");
    const post = async (body: string) => {
      const reply = await postSoap(url, soap(body));
      assert.equal(reply.status, 200, reply.text);
      await assertSchemaValid(reply.text);
      return reply.text;
    };
    // No QueryFilter at all: everything, all columns.
    const data = await post(
      `<e:QueryFeatureData xmlns:e="${NS103}"><MapName>Layers</MapName><LayerID>2</LayerID></e:QueryFeatureData>`,
    );
    assert.equal((data.match(/<Record xsi:type="tns:Record">/g) ?? []).length, 2);
    assert.match(data, /<Value xsi:type="tns:PolylineN">/);
    // No MapName: the default map.
    const count = await post(
      `<e:QueryFeatureCount xmlns:e="${NS103}"><LayerID>1</LayerID></e:QueryFeatureCount>`,
    );
    assert.match(count, /<Result>3<\/Result>/);
    // Identify without IdentifyOption (topmost) or LayerIDs, MapDescription without MapArea
    // (the map's initial extent 20..140 x 40..70 on 600 x 150 px: 0.2°/px).
    const identify = await post(
      `<e:Identify xmlns:e="${NS103}"><MapDescription><Name>Layers</Name></MapDescription>` +
        `<MapImageDisplay><ImageHeight>150</ImageHeight><ImageWidth>600</ImageWidth></MapImageDisplay>` +
        `<SearchShape xsi:type="e:PointN"><X>49.3</X><Y>55.9</Y></SearchShape><Tolerance>2</Tolerance></e:Identify>`,
    );
    assert.match(identify, /<Name>Kazan<\/Name>/);
    assert.equal((identify.match(/<MapServerIdentifyResult /g) ?? []).length, 1);
    // Find with only a search string.
    const find = await post(
      `<e:Find xmlns:e="${NS103}"><SearchString>Samara</SearchString><Contains>true</Contains></e:Find>`,
    );
    assert.match(
      find,
      /<Value>Samara<\/Value><LayerID>0<\/LayerID><FeatureID>7<\/FeatureID><FieldName>NAME<\/FieldName>/,
    );
  });
});
