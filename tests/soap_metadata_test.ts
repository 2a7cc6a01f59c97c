/**
 * The metadata operations through a real SOAP client (node-soap) built from
 * our WSDL URL, against a server on 127.0.0.1. Every raw response is
 * validated against our WSDL's schema.
 */
import assert from "node:assert/strict";
import {
  assertSchemaValid,
  loadTestService,
  type SoapClient,
  soapClient,
  startMapServices,
} from "./_soap_helpers.ts";

// deno-lint-ignore no-explicit-any
type Any = any;

async function call(
  client: SoapClient,
  op: string,
  args: Record<string, unknown> = {},
): Promise<Any> {
  const [result, raw] = await (client as Any)[`${op}Async`](args);
  await assertSchemaValid(raw);
  return result.Result;
}

async function withClient(fn: (client: SoapClient) => Promise<void>): Promise<void> {
  const service = await loadTestService("Test");
  const server = startMapServices([service]);
  try {
    await fn(await soapClient(`${server.serviceUrl("Test")}?wsdl`));
  } finally {
    await server.close();
    service.close();
  }
}

Deno.test("node-soap: map count, names and default map", async () => {
  await withClient(async (c) => {
    assert.equal(await call(c, "GetMapCount"), 2);
    assert.equal(await call(c, "GetMapName", { Index: 0 }), "Layers");
    assert.equal(await call(c, "GetMapName", { Index: 1 }), "Mercator");
    assert.equal(await call(c, "GetDefaultMapName"), "Layers");
    assert.equal(await call(c, "GetSupportedImageReturnTypes"), "esriImageReturnURL");
    assert.equal(await call(c, "IsFixedScaleMap", { MapName: "Layers" }), false);
    assert.equal(await call(c, "IsFixedScaleMap", { MapName: "Mercator" }), true);
    for (const MapName of ["Layers", "Mercator"]) {
      assert.equal(
        await call(c, "IsFixedScaleMap", { MapName }),
        await call(c, "HasSingleFusedMapCache", { MapName }),
      );
    }
  });
});

Deno.test("node-soap: GetServerInfo describes extents, SR, layers, fields and the default map description", async () => {
  await withClient(async (c) => {
    const info = await call(c, "GetServerInfo", { MapName: "Layers" });
    assert.equal(info.Name, "Layers");
    assert.equal(info.Description, "Cities in WGS 84");
    assert.deepEqual(
      [info.FullExtent.XMin, info.FullExtent.YMin, info.FullExtent.XMax, info.FullExtent.YMax],
      [-180, -90, 180, 90],
    );
    assert.deepEqual([info.Extent.XMin, info.Extent.YMax], [30, 60]);
    assert.equal(info.SpatialReference.attributes["xsi:type"], "tns:GeographicCoordinateSystem");
    assert.equal(info.SpatialReference.WKID, 4326);
    assert.match(info.SpatialReference.WKT, /^GEOGCS\["GCS_WGS_1984"/);
    assert.equal(info.Units, "esriDecimalDegrees");
    assert.equal(info.SupportedImageReturnTypes, "esriImageReturnURL");
    assert.deepEqual(
      // node-soap leaves xs:unsignedByte as text.
      [info.BackgroundColor.Red, info.BackgroundColor.Green, info.BackgroundColor.Blue].map(Number),
      [255, 255, 254],
    );

    const layer = info.MapLayerInfos.MapLayerInfo[0];
    assert.equal(layer.LayerID, 0);
    assert.equal(layer.Name, "Cities");
    assert.equal(layer.DisplayField, "NAME");
    assert.equal(layer.IDField, "OBJECTID");
    assert.equal(layer.ParentLayerID, -1);
    assert.equal(layer.IsFeatureLayer, true);
    assert.deepEqual([layer.MinScale, layer.MaxScale], [50_000_000, 0]);
    assert.equal(layer.HasLabels, true);
    assert.equal(layer.SourceDescription, "GeoJSON Point Feature Class");
    assert.equal(info.CopyrightText, "Test copyright");
    assert.ok(Math.abs(layer.Extent.XMin - 37.6173) < 1e-9);
    assert.ok(Math.abs(layer.Extent.YMax - 55.7887) < 1e-9);
    const fields = layer.Fields.FieldArray.Field;
    assert.deepEqual(fields.map((f: Any) => f.Name), ["OBJECTID", "Shape", "NAME"]);
    assert.deepEqual(fields.map((f: Any) => f.Type), [
      "esriFieldTypeOID",
      "esriFieldTypeGeometry",
      "esriFieldTypeString",
    ]);
    assert.equal(fields[2].AliasName, "Name");
    assert.equal(fields[2].Length, 6); // longest value, as the GeoJSON source infers it
    assert.equal(fields[1].GeometryDef.GeometryType, "esriGeometryPoint");
    assert.equal(fields[1].GeometryDef.SpatialReference.WKID, 4326);
    assert.deepEqual(layer.FieldAliases.String, ["OBJECTID", "Shape", "Name"]);

    const md = info.DefaultMapDescription;
    assert.equal(md.Name, "Layers");
    assert.equal(md.MapArea.attributes["xsi:type"], "tns:MapExtent");
    assert.deepEqual([md.MapArea.Extent.XMin, md.MapArea.Extent.XMax], [30, 60]);
    const ld = md.LayerDescriptions.LayerDescription;
    assert.equal((Array.isArray(ld) ? ld[0] : ld).LayerID, 0);
    assert.equal((Array.isArray(ld) ? ld[0] : ld).Visible, true);
  });
});

Deno.test("node-soap: GetServerInfo of a Web Mercator map and of the default map", async () => {
  await withClient(async (c) => {
    const merc = await call(c, "GetServerInfo", { MapName: "Mercator" });
    assert.equal(merc.SpatialReference.attributes["xsi:type"], "tns:ProjectedCoordinateSystem");
    assert.equal(merc.SpatialReference.WKID, 102100);
    assert.equal(merc.SpatialReference.LatestWKID, 3857);
    assert.equal(merc.Units, "esriMeters");
    assert.equal(merc.MapLayerInfos.MapLayerInfo, undefined);
    const byDefault = await call(c, "GetServerInfo", { MapName: "" });
    assert.equal(byDefault.Name, "Layers");
  });
});

Deno.test("node-soap: document info, service configuration and SQL syntax", async () => {
  await withClient(async (c) => {
    const props = (ps: Any) =>
      Object.fromEntries(ps.PropertyArray.PropertySetProperty.map((p: Any) => [p.Key, p.Value]));
    const doc = props(await call(c, "GetDocumentInfo"));
    assert.equal(doc.Title.$value, "Test");
    assert.equal(doc.Comments.$value, "In-memory test service");
    assert.equal(doc.Author.$value, "Test Author");
    assert.equal(doc.Keywords.$value, "cities,test");

    const conf = props(await call(c, "GetServiceConfigurationInfo"));
    assert.equal(conf.MaximumRecordCount.attributes["xsi:type"], "xsd:int");
    // The document's own limit wins over the default 1000.
    assert.equal(Number(conf.MaximumRecordCount.$value), 500);
    assert.equal(Number(conf.MaximumImageWidth.$value), 4096);
    assert.ok(String(conf.SupportedImageFormatTypes.$value).split(",").includes("PNG32"));
    assert.equal(String(conf.UseStandardizedQueries.$value), "true");

    const sql = await call(c, "GetSQLSyntaxInfo", { MapName: "Layers", LayerID: 0 });
    assert.equal(sql.StringComparisonCase, true);
    assert.equal(sql.IdentifierCase, false);
    assert.ok(sql.SupportedPredicates.String.includes("LIKE"));
    assert.ok(sql.Keywords.String.includes("BETWEEN"));
  });
});

Deno.test("node-soap: faults reach the client as errors with the fault string", async () => {
  await withClient(async (c) => {
    await assert.rejects(
      (c as Any).GetMapNameAsync({ Index: 7 }),
      (e: Any) => {
        assert.match(String(e.root?.Envelope?.Body?.Fault?.faultstring), /Index 7 is out of range/);
        return true;
      },
    );
  });
});
