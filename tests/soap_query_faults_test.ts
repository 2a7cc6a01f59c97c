/**
 * Bad input to the query operations: every case answers a SOAP Client
 * Fault with a message a user can act on, and the data is untouched
 * (SQL injection attempts included). Raw envelopes, so the requests are
 * exactly what a careless or hostile client sends.
 */
import assert from "node:assert/strict";
import {
  CITIES,
  createFixture,
  expectClientFault,
  rawCall,
  startQueryServer,
} from "./_soap_query_fixtures.ts";

const MD =
  `<MapDescription><Name>Layers</Name><MapArea xsi:type="e:MapExtent"><Extent xsi:type="e:EnvelopeN">` +
  `<XMin>30</XMin><YMin>50</YMin><XMax>50</XMax><YMax>60</YMax></Extent></MapArea><Rotation>0</Rotation></MapDescription>`;
const DISPLAY = `<MapImageDisplay><ImageHeight>200</ImageHeight><ImageWidth>400</ImageWidth>` +
  `<ImageDPI>96</ImageDPI></MapImageDisplay>`;

function countReq(where: string, layer = 0): string {
  return `<MapName>Layers</MapName><LayerID>${layer}</LayerID><QueryFilter><WhereClause>${where}</WhereClause></QueryFilter>`;
}

Deno.test("query faults: where clauses, fields, layers, maps, filters, formats", async () => {
  const fixture = await createFixture();
  const server = await startQueryServer(fixture.services);
  const url = server.serviceUrl("Fixture");
  const fault = (op: string, body: string) => expectClientFault(url, op, body);
  try {
    // Where clauses: syntax, unknown fields, wrong operand types.
    assert.match(
      await fault("QueryFeatureCount", countReq("POP &gt;")),
      /Invalid QueryFilter\/WhereClause for layer 0/,
    );
    assert.match(await fault("QueryFeatureCount", countReq("FOO = 1")), /FOO/);
    assert.match(await fault("QueryFeatureIDs", countReq("NAME = 'a' AND")), /WhereClause/);
    assert.match(await fault("QueryFeatureData", countReq("geom = 1")), /geom/);
    // Injection attempts are refused by the parser, never reach SQLite.
    for (
      const attack of [
        "1=1; DROP TABLE Cities",
        "NAME = 'a' UNION SELECT * FROM gpkg_contents",
        "POP = (SELECT 1)",
        "1=1 --",
        "NAME = 'a'/*",
        "OBJECTID = 1; DELETE FROM Cities",
      ]
    ) {
      await fault("QueryFeatureCount", countReq(attack));
    }
    const stillThere = await rawCall(url, "QueryFeatureCount", countReq(""));
    assert.match(stillThere, new RegExp(`<Result>${CITIES.length}</Result>`));

    // Unknown map, layer, fields.
    assert.match(
      await fault("QueryFeatureCount", `<MapName>Nope</MapName><LayerID>0</LayerID>`),
      /Map "Nope" does not exist/,
    );
    assert.match(
      await fault("QueryFeatureCount", `<MapName>Layers</MapName><LayerID>99</LayerID>`),
      /Layer 99 does not exist in map Layers/,
    );
    assert.match(
      await fault(
        "QueryFeatureData",
        `<MapName>Layers</MapName><LayerID>0</LayerID><QueryFilter><WhereClause/><SubFields>NAME,NOPE</SubFields></QueryFilter>`,
      ),
      /SubFields: layer 0 \(Cities\) has no field "NOPE"/,
    );
    assert.match(
      await fault(
        "QueryFeatureData",
        `<MapName>Layers</MapName><LayerID>0</LayerID><QueryFilter><WhereClause/><PostfixClause>ORDER BY NOPE</PostfixClause></QueryFilter>`,
      ),
      /NOPE/,
    );
    assert.match(
      await fault(
        "QueryFeatureData",
        `<MapName>Layers</MapName><LayerID>0</LayerID><QueryFilter><WhereClause/><PostfixClause>GROUP BY NAME</PostfixClause></QueryFilter>`,
      ),
      /ORDER BY/,
    );
    // Wrong simple types are caught by the decoder.
    assert.match(
      await fault("QueryFeatureCount", `<MapName>Layers</MapName><LayerID>abc</LayerID>`),
      /LayerID/,
    );
    // Spatial filters: unknown relation, relation without pattern, missing geometry, binary geometry, bad SR.
    const sf = (inner: string) =>
      `<MapName>Layers</MapName><LayerID>1</LayerID><QueryFilter xsi:type="e:SpatialFilter"><WhereClause/>${inner}</QueryFilter>`;
    const env =
      `<FilterGeometry xsi:type="e:EnvelopeN"><XMin>0</XMin><YMin>0</YMin><XMax>1</XMax><YMax>1</YMax></FilterGeometry>`;
    assert.match(
      await fault("QueryFeatureCount", sf(`<SpatialRel>esriSpatialRelNear</SpatialRel>${env}`)),
      /SpatialRel/,
    );
    assert.match(
      await fault("QueryFeatureCount", sf(`<SpatialRel>esriSpatialRelRelation</SpatialRel>${env}`)),
      /SpatialRelDescription/,
    );
    assert.match(
      await fault(
        "QueryFeatureCount",
        sf(
          `<SpatialRel>esriSpatialRelRelation</SpatialRel><SpatialRelDescription>XYZ</SpatialRelDescription>${env}`,
        ),
      ),
      /pattern|DE-9IM|T, F/i,
    );
    assert.match(
      await fault("QueryFeatureCount", sf(`<SpatialRel>esriSpatialRelIntersects</SpatialRel>`)),
      /FilterGeometry is required/,
    );
    assert.match(
      await fault(
        "QueryFeatureCount",
        sf(`<FilterGeometry xsi:type="e:PointB"><Bytes>AAAA</Bytes></FilterGeometry>`),
      ),
      /PointB/,
    );
    assert.match(
      await fault(
        "QueryFeatureCount",
        sf(
          `<FilterGeometry xsi:type="e:EnvelopeN"><XMin>0</XMin><YMin>0</YMin><XMax>1</XMax><YMax>1</YMax>` +
            `<SpatialReference xsi:type="e:ProjectedCoordinateSystem"><WKID>999999</WKID></SpatialReference></FilterGeometry>`,
        ),
      ),
      /999999/,
    );
    assert.match(
      await fault(
        "QueryFeatureData",
        `<MapName>Layers</MapName><LayerID>0</LayerID><QueryFilter><WhereClause/><OutputSpatialReference ` +
          `xsi:type="e:ProjectedCoordinateSystem"><WKID>999999</WKID></OutputSpatialReference></QueryFilter>`,
      ),
      /OutputSpatialReference 999999/,
    );
    // *2: bad definition expressions, missing LayerDescription, unsupported formats.
    assert.match(
      await fault(
        "QueryFeatureCount2",
        `<MapName>Layers</MapName><LayerDescription><LayerID>0</LayerID><DefinitionExpression>POP &gt;&gt; 3</DefinitionExpression>` +
          `</LayerDescription><QueryFilter><WhereClause/></QueryFilter>`,
      ),
      /LayerDescription\/DefinitionExpression/,
    );
    assert.match(
      await fault("QueryFeatureIDs2", `<MapName>Layers</MapName>`),
      /LayerDescription is required/,
    );
    assert.match(
      await fault(
        "QueryFeatureData2",
        `<MapName>Layers</MapName><LayerDescription><LayerID>0</LayerID></LayerDescription><QueryFilter><WhereClause/>` +
          `</QueryFilter><QueryResultOptions><Format>esriQueryResultAmfAsURL</Format></QueryResultOptions>`,
      ),
      /esriQueryResultAmfAsURL is not supported/,
    );
    // Find / Identify / Hyperlinks.
    assert.match(
      await fault("Find", `${MD}${DISPLAY}<SearchString></SearchString>`),
      /SearchString is required/,
    );
    assert.match(
      await fault(
        "Find",
        `${MD}${DISPLAY}<SearchString>a</SearchString><SearchFields>NOPE</SearchFields>`,
      ),
      /SearchFields: no searched layer has a field "NOPE"/,
    );
    assert.match(
      await fault(
        "Find",
        `${MD}${DISPLAY}<SearchString>a</SearchString><LayerIDs><Int>42</Int></LayerIDs>`,
      ),
      /layer 42 does not exist/,
    );
    assert.match(
      await fault("Identify", `${MD}${DISPLAY}<Tolerance>3</Tolerance>`),
      /SearchShape is required/,
    );
    // A search or filter polygon of more vertices than the engine tests per request.
    const ring = Array.from({ length: 10_001 }, (_, i) => {
      const a = (i * 2 * Math.PI) / 10_000;
      return `<Point xsi:type="e:PointN"><X>${(40 + Math.cos(a)).toFixed(4)}</X><Y>${
        (55 + Math.sin(a)).toFixed(4)
      }</Y></Point>`;
    }).join("");
    const polygon = (tag: string) =>
      `<${tag} xsi:type="e:PolygonN"><RingArray xsi:type="e:ArrayOfRing"><Ring xsi:type="e:Ring">` +
      `<PointArray xsi:type="e:ArrayOfPoint">${ring}</PointArray></Ring></RingArray></${tag}>`;
    assert.match(
      await fault("Identify", `${MD}${DISPLAY}${polygon("SearchShape")}<Tolerance>3</Tolerance>`),
      /identify geometry has 10001 vertices; at most 10000 are accepted/,
    );
    for (const op of ["QueryFeatureCount", "QueryFeatureData"]) {
      assert.match(
        await fault(op, sf(polygon("FilterGeometry"))),
        /filter geometry has 10001 vertices; at most 10000 are accepted/,
      );
    }
    assert.match(
      await fault(
        "Identify",
        `${MD}<SearchShape xsi:type="e:PointN"><X>1</X><Y>2</Y></SearchShape>`,
      ),
      /ImageWidth and ImageHeight/,
    );
    assert.match(
      await fault(
        "Identify",
        `${MD}${DISPLAY}<SearchShape xsi:type="e:PointN"><X>1</X><Y>2</Y></SearchShape><Tolerance>-1</Tolerance>`,
      ),
      /Tolerance/,
    );
    assert.match(
      await fault(
        "Identify",
        `${
          MD.replace("<Name>Layers</Name>", "<Name>Layers</Name>").replace(
            "<Rotation>0</Rotation>",
            `<LayerDescriptions><LayerDescription><LayerID>0</LayerID><Visible>true</Visible>` +
              `<DefinitionExpression>NAME LIKE</DefinitionExpression></LayerDescription></LayerDescriptions><Rotation>0</Rotation>`,
          )
        }${DISPLAY}<SearchShape xsi:type="e:PointN"><X>37.6</X><Y>55.7</Y></SearchShape><Tolerance>3</Tolerance>` +
          `<IdentifyOption>esriIdentifyAllLayers</IdentifyOption>`,
      ),
      /DefinitionExpression/,
    );
    assert.match(
      await fault("QueryHyperlinks", `${MD.replace("Layers", "Elsewhere")}${DISPLAY}`),
      /Map "Elsewhere" does not exist/,
    );
    // Oversized patterns are refused before any matching.
    assert.match(
      await fault("QueryFeatureData", countReq(`UPPER(NAME) LIKE '%${"A".repeat(40000)}%'`)),
      /LIKE pattern at position \d+ is 40002 characters long; patterns may have at most 2000/,
    );
    assert.match(
      await fault(
        "Find",
        `${MD}${DISPLAY}<SearchString>${"a".repeat(50000)}</SearchString><Contains>true</Contains>`,
      ),
      /SearchString has 50000 characters/,
    );
    // Densifying into billions of vertices is refused, not attempted.
    assert.match(
      await fault(
        "QueryFeatureData2",
        `<MapName>Layers</MapName><LayerDescription><LayerID>1</LayerID><LayerResultOptions><GeometryResultOptions>` +
          `<DensifyGeometries>true</DensifyGeometries><MaximumSegmentLength>1e-9</MaximumSegmentLength>` +
          `</GeometryResultOptions></LayerResultOptions></LayerDescription><QueryFilter><WhereClause/></QueryFilter>`,
      ),
      /MaximumSegmentLength 1e-9 is too small/,
    );
    // A point beyond the int range of pixels.
    assert.match(
      await fault(
        "FromMapPoints",
        `${MD}${DISPLAY}<MapPoints xsi:type="e:MultipointN"><PointArray><Point xsi:type="e:PointN"><X>1e308</X>` +
          `<Y>0</Y></Point></PointArray></MapPoints>`,
      ),
      /too far outside the image/,
    );
    // MapArea problems.
    assert.match(
      await fault(
        "ComputeScale",
        `<MapDescription><Name>Layers</Name><MapArea xsi:type="e:MapServerBookmark"><Name>Home</Name></MapArea>` +
          `</MapDescription>${DISPLAY}`,
      ),
      /bookmark "Home"/,
    );
  } finally {
    await server.close();
    await fixture.dispose();
  }
});
