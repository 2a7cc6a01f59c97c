/**
 * Interoperability with Python's zeep (Debian package python3-zeep): a
 * client generated from our WSDL URL calls metadata and query operations
 * and receives a Fault. Skipped when zeep is not installed.
 */
import assert from "node:assert/strict";
import { loadTestService, startMapServices } from "./_soap_helpers.ts";
import { DEBIAN_PYTHON as PYTHON, optionalTest, ZEEP } from "./_optional.ts";

const SCRIPT = `
import json, sys, zeep
c = zeep.Client(sys.argv[1])
s = c.service
out = {}
out["count"] = s.GetMapCount()
out["name1"] = s.GetMapName(Index=1)
info = s.GetServerInfo(MapName="Layers")
out["sr"] = [type(info.SpatialReference).__name__, info.SpatialReference.WKID]
layer = info.MapLayerInfos.MapLayerInfo[0]
out["fields"] = [f.Name for f in layer.Fields.FieldArray.Field]
env = c.get_type("ns0:EnvelopeN")(XMin=40, YMin=50, XMax=60, YMax=60)
qf = c.get_type("ns0:SpatialFilter")(WhereClause="NAME LIKE 'K%'", SpatialRel="esriSpatialRelIntersects",
    FilterGeometry=env, SearchOrder="esriSearchOrderSpatial", SpatialRelDescription="",
    GeometryFieldName="", FilterOwnsGeometry=False, Resolution=0)
rs = s.QueryFeatureData(MapName="Layers", LayerID=0, QueryFilter=qf)
rec = rs.Records.Record[0].Values.Value
out["record"] = [rec[0], rec[1].X, rec[1].Y, rec[2]]
md = info.DefaultMapDescription
for ld in md.LayerDescriptions.LayerDescription:
    # zeep reads the empty required string as None; a real client sets it back.
    ld.DefinitionExpression = ld.DefinitionExpression or ""
display = c.get_type("ns0:ImageDisplay")(ImageHeight=300, ImageWidth=400, ImageDPI=96)
out["scale"] = s.ComputeScale(MapDescription=md, MapImageDisplay=display)
try:
    s.GetMapName(Index=9)
except zeep.exceptions.Fault as e:
    out["fault"] = [e.code, e.message]
print(json.dumps(out))
`;

optionalTest(ZEEP, {
  name: "zeep: WSDL, metadata, spatial query, ComputeScale and Faults",
  async fn() {
    const service = await loadTestService("Test");
    const server = startMapServices([service]);
    try {
      const out = await new Deno.Command(PYTHON, {
        args: ["-c", SCRIPT, `${server.serviceUrl("Test")}?wsdl`],
        stdout: "piped",
        stderr: "piped",
      }).output();
      const stderr = new TextDecoder().decode(out.stderr);
      assert.ok(out.success, stderr);
      const r = JSON.parse(new TextDecoder().decode(out.stdout));
      assert.equal(r.count, 2);
      assert.equal(r.name1, "Mercator");
      assert.deepEqual(r.sr, ["GeographicCoordinateSystem", 4326]);
      assert.deepEqual(r.fields, ["OBJECTID", "Shape", "NAME"]);
      assert.deepEqual(r.record, [2, 49.1221, 55.7887, "Kazan"]);
      // Initial extent 30..60 x 50..60 on 400x300 px at 96 dpi, widened to the aspect ratio.
      const res = Math.max(30 / 400, 10 / 300);
      assert.ok(Math.abs(r.scale - res * 111319.49079327358 * 96 * 39.37) < 1e-3);
      assert.deepEqual(r.fault, [
        "soap:Client",
        "Index 9 is out of range: this service has 2 map(s), indexes 0 to 1.",
      ]);
    } finally {
      await server.close();
      service.close();
    }
  },
});
