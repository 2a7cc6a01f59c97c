/**
 * The embedded default service ("Recruitment": competitions over Natural
 * Earth countries, in WGS 84 and Web Mercator) over a real demo database,
 * loaded by openMapServer and called with node-soap from our WSDL URL.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { createDemoDatabase, openCatalog } from "../data/mod.ts";
import { openMapServer } from "../map/mod.ts";
import { arcgisRoutes } from "../routes/arcgis.ts";
import { assertSchemaValid, soapClient, startRoutesServer } from "./_soap_helpers.ts";

// deno-lint-ignore no-explicit-any
type Any = any;

Deno.test("default service: catalog, maps, layers and fields of the real data", async () => {
  const dir = await Deno.makeTempDir({ prefix: "soap-default-" });
  const dbPath = join(dir, "catalog.db");
  await createDemoDatabase(dbPath);
  const catalog = openCatalog(dbPath, { readonly: true });
  const maps = await openMapServer({ catalog, outputDir: join(dir, "output") });
  const routes = arcgisRoutes({ maps, baseUrl: (req) => new URL(req.url).origin });
  const server = startRoutesServer(routes);
  try {
    assert.deepEqual(maps.services.map((s) => s.name), ["Recruitment"]);
    const c: Any = await soapClient(`${server.serviceUrl("Recruitment")}?wsdl`);
    const call = async (op: string, args: Record<string, unknown> = {}) => {
      const [result, raw] = await c[`${op}Async`](args);
      await assertSchemaValid(raw);
      return result.Result;
    };
    assert.equal(await call("GetMapCount"), 2);
    assert.equal(await call("GetDefaultMapName"), "Layers");
    assert.equal(await call("GetMapName", { Index: 1 }), "WebMercator");
    assert.equal(await call("IsFixedScaleMap", { MapName: "WebMercator" }), true);

    const published = catalog.db.prepare(
      "SELECT count(*) AS n, min(lon) AS xmin, max(lat) AS ymax FROM competition " +
        "WHERE published = 1 AND lat IS NOT NULL AND lon IS NOT NULL",
    ).get() as { n: number; xmin: number; ymax: number };
    assert.ok(published.n > 0, "the demo data has located competitions");

    const info = await call("GetServerInfo", { MapName: "Layers" });
    const layers = info.MapLayerInfos.MapLayerInfo;
    assert.deepEqual(layers.map((l: Any) => [l.LayerID, l.Name]), [[0, "Конкурсы"], [1, "Страны"]]);
    const comp = layers[0];
    assert.equal(comp.DisplayField, "title");
    assert.equal(comp.HasHyperlinks, true);
    assert.ok(Math.abs(comp.Extent.XMin - published.xmin) < 1e-9);
    assert.ok(Math.abs(comp.Extent.YMax - published.ymax) < 1e-9);
    const fields = comp.Fields.FieldArray.Field;
    assert.equal(fields[0].Type, "esriFieldTypeOID");
    assert.equal(fields.find((f: Any) => f.Name === "title").AliasName, "Наименование конкурса");
    assert.equal(
      fields.find((f: Any) => f.Type === "esriFieldTypeGeometry").GeometryDef.GeometryType,
      "esriGeometryPoint",
    );
    const countries = layers[1];
    assert.equal(
      countries.Fields.FieldArray.Field.find((f: Any) => f.Name === "name").AliasName,
      "Название",
    );
    assert.equal(countries.CopyrightText, "Natural Earth");
    assert.ok(countries.Extent.XMin < -170 && countries.Extent.XMax > 170);

    const merc = await call("GetServerInfo", { MapName: "WebMercator" });
    assert.equal(merc.SpatialReference.WKID, 102100);
    assert.equal(merc.Units, "esriMeters");
    // The competitions layer's extent is projected to Web Mercator.
    const x = merc.MapLayerInfos.MapLayerInfo[0].Extent.XMin;
    assert.ok(Math.abs(x - published.xmin * 20037508.342789244 / 180) < 1e-3);

    const services = await fetch(`${server.baseUrl}/arcgis/services`, {
      method: "POST",
      headers: { "content-type": "text/xml" },
      body: `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body>` +
        `<GetServiceDescriptions xmlns="http://www.esri.com/schemas/ArcGIS/10.3"/></s:Body></s:Envelope>`,
    });
    assert.match(await services.text(), /<Name>Recruitment<\/Name><Type>MapServer<\/Type>/);
  } finally {
    await server.close();
    maps.close();
    catalog.close?.();
    await Deno.remove(dir, { recursive: true });
  }
});
