/**
 * Interoperability with a .NET Web Reference style client: Mono's `wsdl`
 * generates a SoapHttpClientProtocol proxy from our WSDL URL (the same
 * XmlSerializer mapping as .NET's wsdl.exe, which ArcGIS clients use), `mcs`
 * compiles it, and the program calls metadata, drawing, query and legend
 * operations and gets a Fault. Skipped when Debian's mono-devel is absent.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { loadTestService, startMapServices } from "./_soap_helpers.ts";
import { MONO, optionalTest } from "./_optional.ts";

async function run(cmd: string, args: string[], cwd: string): Promise<string> {
  const out = await new Deno.Command(cmd, { args, cwd, stdout: "piped", stderr: "piped" }).output();
  const text = new TextDecoder().decode(out.stdout);
  assert.ok(out.success, `${cmd} failed:\n${new TextDecoder().decode(out.stderr)}\n${text}`);
  return text;
}

const PROGRAM = `using System;
using System.Globalization;
public class MainClass {
  public static void Main() {
    CultureInfo.DefaultThreadCurrentCulture = CultureInfo.InvariantCulture;
    var p = new Test_MapServer();
    Console.WriteLine("count=" + p.GetMapCount());
    var merc = p.GetServerInfo("Mercator");
    Console.WriteLine("sr=" + merc.SpatialReference.GetType().Name + " " + merc.SpatialReference.WKID + " " + merc.SpatialReference.LatestWKID);
    var info = p.GetServerInfo("Layers");
    var fs = info.MapLayerInfos[0].Fields.FieldArray;
    Console.WriteLine("fields=" + fs.Length + " " + fs[2].AliasName + " " + fs[1].GeometryDef.GeometryType);
    var d = new ImageDisplay { ImageWidth = 400, ImageHeight = 300, ImageDPI = 96 };
    Console.WriteLine("scale=" + p.ComputeScale(info.DefaultMapDescription, d).ToString("R"));
    var it = new ImageType { ImageFormat = esriImageFormat.esriImagePNG, ImageReturnType = esriImageReturnType.esriImageReturnMimeData };
    var mi = p.ExportMapImage(info.DefaultMapDescription, new ImageDescription { ImageType = it, ImageDisplay = d });
    Console.WriteLine("image=" + (mi.ImageData.Length > 100) + " " + mi.ImageType + " " + mi.ImageWidth);
    var qf = new SpatialFilter { WhereClause = "NAME = 'Kazan'", SpatialRel = esriSpatialRelEnum.esriSpatialRelIntersects,
      FilterGeometry = new EnvelopeN { XMin = 30, YMin = 50, XMax = 60, YMax = 60 } };
    var rs = p.QueryFeatureData("Layers", 0, qf);
    var v = rs.Records[0].Values;
    var pt = (PointN) v[1];
    Console.WriteLine("records=" + rs.Records.Length + " " + v[0].GetType().Name + ":" + v[0] + " " + pt.X.ToString("R") + " " + v[2]);
    foreach (var pp in p.GetServiceConfigurationInfo().PropertyArray)
      if (pp.Key == "MaximumRecordCount") Console.WriteLine("maxrecords=" + pp.Value.GetType().Name + ":" + pp.Value);
    var legend = p.GetLegendInfo("Layers", null, null, null);
    Console.WriteLine("legend=" + legend.Length + " " + legend[0].Name);
    try { p.GetMapName(9); } catch (System.Web.Services.Protocols.SoapException e) { Console.WriteLine("fault=" + e.Code.Name + " " + e.Message); }
  }
}
`;

optionalTest(MONO, {
  name: ".NET-style proxy (Mono wsdl + XmlSerializer) calls the service",
  async fn() {
    const service = await loadTestService("Test");
    const server = startMapServices([service]);
    const dir = await Deno.makeTempDir({ prefix: "soap-dotnet-" });
    try {
      await run("wsdl", ["-nologo", "-out:Proxy.cs", `${server.serviceUrl("Test")}?wsdl`], dir);
      await Deno.writeTextFile(join(dir, "Main.cs"), PROGRAM);
      await run("mcs", [
        "-nologo",
        "-r:System.Web.Services.dll",
        "-r:System.Xml.dll",
        "-out:client.exe",
        "Proxy.cs",
        "Main.cs",
      ], dir);
      const out = await run("mono", ["client.exe"], dir);
      const r = new Map(
        out.split("\n").filter((l) => l.includes("=")).map((
          l,
        ) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
      );
      assert.equal(r.get("count"), "2");
      assert.equal(r.get("sr"), "ProjectedCoordinateSystem 102100 3857");
      assert.equal(r.get("fields"), "3 Name esriGeometryPoint");
      const scale = Math.max(30 / 400, 10 / 300) * 111319.49079327358 * 96 * 39.37;
      assert.ok(Math.abs(Number(r.get("scale")) - scale) < 1e-3, r.get("scale"));
      assert.equal(r.get("image"), "True image/png 400");
      assert.equal(r.get("records"), "1 Int32:2 49.1221 Kazan");
      assert.equal(r.get("maxrecords"), "Int32:500");
      assert.equal(r.get("legend"), "1 Cities");
      assert.equal(
        r.get("fault"),
        "Client Index 9 is out of range: this service has 2 map(s), indexes 0 to 1.",
      );
    } finally {
      await server.close();
      service.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
