/**
 * Encoder/decoder round trips through the type table, with every encoded
 * response validated against our WSDL's schema.
 */
import assert from "node:assert/strict";
import { MAPSERVER_SCHEMA as S } from "../map/soap/types.ts";
import { encodeResponse } from "../map/soap/encode.ts";
import { decodeRequest } from "../map/soap/decode.ts";
import { responseEnvelope } from "../map/soap/envelope.ts";
import { parseXml } from "../map/soap/xml.ts";
import { SoapFault } from "../map/soap/fault.ts";
import { assertSchemaValid, NS } from "./_soap_helpers.ts";

function respond(op: string, result: Record<string, unknown>): string {
  return responseEnvelope(NS, `${op}Response`, encodeResponse(S, S.operation(op)!, result));
}

function decode(
  op: string,
  inner: string,
  prefixDecl = `xmlns:q="${NS}"`,
): Record<string, unknown> {
  const el = parseXml(
    `<e:${op} xmlns:e="${NS}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ${prefixDecl}>${inner}</e:${op}>`,
  );
  return decodeRequest(S, S.operation(op)!, el);
}

Deno.test("encoder writes schema order, xsi:type and defaults that validate", async () => {
  const xml = respond("GetServerInfo", {
    Result: {
      // Members deliberately out of order and mostly missing: defaults must fill them.
      Units: "esriDecimalDegrees",
      Name: "Layers",
      FullExtent: { $type: "EnvelopeN", XMin: -180, YMin: -90, XMax: 180, YMax: 90 },
      SpatialReference: { $type: "GeographicCoordinateSystem", WKID: 4326 },
      MapLayerInfos: [{ LayerID: 0, Name: "Countries", Fields: { FieldArray: [] } }],
      BackgroundColor: { $type: "RgbColor", Red: 255, Green: 255, Blue: 255 },
    },
  });
  assert.match(
    xml,
    /<Result xsi:type="tns:MapServerInfo"><Name>Layers<\/Name><Description><\/Description>/,
  );
  assert.match(xml, /<FullExtent xsi:type="tns:EnvelopeN"><XMin>-180<\/XMin>/);
  assert.match(xml, /<MapLayerInfo xsi:type="tns:MapLayerInfo"><LayerID>0<\/LayerID>/);
  assert.match(xml, /<SupportedImageReturnTypes>esriImageReturnURL<\/SupportedImageReturnTypes>/);
  await assertSchemaValid(xml);
});

Deno.test("encoder writes anyType values with xsd types and nil", async () => {
  const xml = respond("GetDocumentInfo", {
    Result: {
      PropertyArray: [
        { Key: "s", Value: "a<b&c" },
        { Key: "i", Value: 7 },
        { Key: "d", Value: 2.5 },
        { Key: "b", Value: true },
        { Key: "t", Value: new Date(Date.UTC(2024, 0, 2)) },
        { Key: "n", Value: null },
        { Key: "h", Value: { $xsd: "short", value: 3 } },
        { Key: "g", Value: { $type: "PointN", X: 1, Y: 2 } },
      ],
    },
  });
  assert.match(xml, /<Value xsi:type="xsd:string">a&lt;b&amp;c<\/Value>/);
  assert.match(xml, /<Value xsi:type="xsd:int">7<\/Value>/);
  assert.match(xml, /<Value xsi:type="xsd:double">2.5<\/Value>/);
  assert.match(xml, /<Value xsi:type="xsd:dateTime">2024-01-02T00:00:00.000Z<\/Value>/);
  assert.match(xml, /<Value xsi:nil="true"\/>/);
  assert.match(xml, /<Value xsi:type="xsd:short">3<\/Value>/);
  assert.match(xml, /<Value xsi:type="tns:PointN"><X>1<\/X><Y>2<\/Y><\/Value>/);
  await assertSchemaValid(xml);
});

Deno.test("encoder fills required complex members of abstract type with a concrete default", async () => {
  const xml = respond("QueryFeatureData", {
    Result: {
      Fields: {
        FieldArray: [
          { Name: "OBJECTID", Type: "esriFieldTypeOID", IsNullable: false, Length: 4 },
          {
            Name: "Shape",
            Type: "esriFieldTypeGeometry",
            GeometryDef: { GeometryType: "esriGeometryPoint" },
          },
        ],
      },
      Records: [{ Values: [1, { $type: "PointN", X: 1.5, Y: -2 }] }, { Values: [2, null] }],
    },
  });
  assert.match(xml, /<SpatialReference xsi:type="tns:UnknownCoordinateSystem"\/?>/);
  assert.match(
    xml,
    /<Values xsi:type="tns:ArrayOfValue"><Value xsi:type="xsd:int">2<\/Value><Value xsi:nil="true"\/>/,
  );
  await assertSchemaValid(xml);
});

Deno.test("encoder FromMapPoints writes two arrays and QueryResult an empty Object", async () => {
  await assertSchemaValid(respond("FromMapPoints", { ScreenXValues: [1, 2], ScreenYValues: [] }));
  const xml = respond("QueryFeatureData2", { Result: { MimeData: new Uint8Array([1, 2, 3]) } });
  assert.match(xml, /<MimeData>AQID<\/MimeData><URL><\/URL><Object\/>/);
  await assertSchemaValid(xml);
});

Deno.test("encoder refuses values of the wrong kind (server bugs surface, not bad XML)", () => {
  assert.throws(() => respond("GetMapCount", { Result: 1.5 }), /cannot write/);
  assert.throws(() => respond("GetSupportedImageReturnTypes", { Result: "nope" }), /not a value/);
  assert.throws(
    () => respond("GetServerInfo", { Result: { FullExtent: { $type: "PointN" } } }),
    /not a kind of Envelope/,
  );
});

Deno.test("encoder escapes control characters and lone surrogates into well-formed XML", () => {
  const xml = respond("GetMapName", { Result: "a\u0001b\ud800c\r" });
  assert.match(xml, /<Result>a\uFFFDb\uFFFDc&#13;<\/Result>/);
  parseXml(xml);
});

Deno.test("decoder converts simple types, arrays and polymorphic values", () => {
  const req = decode(
    "Identify",
    `<MapDescription><Name>Layers</Name>
       <MapArea xsi:type="q:MapExtent"><Extent xsi:type="q:EnvelopeN"><XMin>1</XMin><YMin>2</YMin><XMax>3</XMax><YMax>4.5e1</YMax></Extent></MapArea>
       <LayerDescriptions><LayerDescription><LayerID>0</LayerID><Visible>true</Visible></LayerDescription></LayerDescriptions>
       <Unknown>ignored</Unknown></MapDescription>
     <MapImageDisplay><ImageHeight> 400 </ImageHeight><ImageWidth>600</ImageWidth><ImageDPI>96</ImageDPI></MapImageDisplay>
     <SearchShape xsi:type="q:PointN"><X>1</X><Y>2</Y></SearchShape>
     <Tolerance>3</Tolerance><IdentifyOption>esriIdentifyAllLayers</IdentifyOption>
     <LayerIDs><Int>0</Int><Int>2</Int></LayerIDs>`,
  );
  assert.deepEqual(req.LayerIDs, [0, 2]);
  assert.equal(req.Tolerance, 3);
  assert.deepEqual(req.SearchShape, { $type: "PointN", X: 1, Y: 2 });
  const md = req.MapDescription as Record<string, unknown>;
  assert.deepEqual(md.MapArea, {
    $type: "MapExtent",
    Extent: { $type: "EnvelopeN", XMin: 1, YMin: 2, XMax: 3, YMax: 45 },
  });
  assert.equal(md.Rotation, undefined);
  assert.deepEqual(md.LayerDescriptions, [{
    $type: "LayerDescription",
    LayerID: 0,
    Visible: true,
  }]);
  assert.deepEqual(req.MapImageDisplay, {
    $type: "ImageDisplay",
    ImageHeight: 400,
    ImageWidth: 600,
    ImageDPI: 96,
  });
});

Deno.test("decoder infers the concrete type of abstract values without xsi:type", () => {
  const req = decode(
    "ComputeDistance",
    `<MapName>Layers</MapName><FromPoint><X>0</X><Y>0</Y></FromPoint><ToPoint><X>1</X><Y>1</Y></ToPoint><Units>esriMeters</Units>`,
  );
  assert.deepEqual(req.FromPoint, { $type: "PointN", X: 0, Y: 0 });
});

Deno.test("decoder reads anyType values by their xsd type", () => {
  const req = decode(
    "QueryFeatureData2",
    `<QueryResultOptions><Format>esriQueryResultRecordSetAsObject</Format><FormatProperties><PropertyArray>
       <PropertySetProperty><Key>a</Key><Value xsi:type="xs:int" xmlns:xs="http://www.w3.org/2001/XMLSchema">5</Value></PropertySetProperty>
       <PropertySetProperty><Key>b</Key><Value xsi:type="xsd:boolean" xmlns:xsd="http://www.w3.org/2001/XMLSchema">true</Value></PropertySetProperty>
       <PropertySetProperty><Key>c</Key><Value>plain</Value></PropertySetProperty>
       <PropertySetProperty><Key>d</Key><Value xsi:nil="true"/></PropertySetProperty>
     </PropertyArray></FormatProperties></QueryResultOptions>`,
  );
  const props = ((req.QueryResultOptions as Record<string, unknown>).FormatProperties as {
    PropertyArray: { Key: string; Value: unknown }[];
  }).PropertyArray;
  assert.deepEqual(props.map((p) => p.Value), [5, true, "plain", null]);
});

Deno.test("decoder faults on wrong simple types, bad enums and mismatched xsi:type", () => {
  const cases: [string, string, RegExp][] = [
    ["GetMapName", "<Index>abc</Index>", /GetMapName\/Index must be an integer/],
    ["GetMapName", "<Index>99999999999</Index>", /integer/],
    ["IsFixedScaleMap", "<MapName>x</MapName>", /^$/],
    ["Find", "<Contains>yes</Contains>", /true or false/],
    ["Find", "<FindOption>esriFindSome</FindOption>", /must be one of esriFindVisibleLayers/],
    ["Identify", `<SearchShape xsi:type="q:Nope"/>`, /unknown xsi:type "Nope"/],
    ["ComputeDistance", `<FromPoint xsi:type="q:EnvelopeN"/>`, /not a kind of Point/],
    [
      "ComputeDistance",
      `<FromPoint><Foo>1</Foo></FromPoint>`,
      /add xsi:type with one of PointN, PointB/,
    ],
  ];
  for (const [op, inner, re] of cases) {
    if (re.source === "^$") {
      decode(op, inner);
      continue;
    }
    assert.throws(() => decode(op, inner), (e: unknown) => {
      assert.ok(e instanceof SoapFault);
      assert.equal(e.code, "Client");
      assert.match(e.message, re);
      return true;
    });
  }
});
