/**
 * QueryFeatureData and QueryFeatureData2 through a real node-soap client
 * built from our WSDL, against the GeoPackage fixture served from map
 * documents: RecordSet fields and typed values, output SR, ORDER BY /
 * DISTINCT, record cap, definition expressions, result formats.
 */
import assert from "node:assert/strict";
import {
  type Any,
  call,
  CITIES,
  items,
  near,
  type QueryServer,
  rawCall,
  withFixture,
} from "./_soap_query_fixtures.ts";
import { unzipFirst } from "./_unzip.ts";

function where(clause: string): Record<string, unknown> {
  return { WhereClause: clause };
}

async function count(s: QueryServer, layer: number): Promise<number> {
  const c = await s.client("Fixture");
  return Number((await call(c, "QueryFeatureCount", { MapName: "Layers", LayerID: layer })).Result);
}

function fieldsOf(recordSet: Any): Any[] {
  return items(recordSet.Fields.FieldArray.Field);
}

function rowsOf(recordSet: Any): Any[][] {
  return items(recordSet.Records?.Record).map((r: Any) => items(r.Values.Value));
}

Deno.test("QueryFeatureData: fields, SubFields, typed values, geometry, output SR", async () => {
  await withFixture(async (s) => {
    const c = await s.client("Fixture");
    const all = await call(c, "QueryFeatureData", {
      MapName: "Layers",
      LayerID: 0,
      QueryFilter: { WhereClause: "OBJECTID IN (1, 3, 10)", SubFields: "*" },
    });
    assert.equal(all.Result.attributes["xsi:type"], "tns:RecordSet");
    const fields = fieldsOf(all.Result);
    assert.deepEqual(fields.map((f) => f.Name), [
      "OBJECTID",
      "geom",
      "NAME",
      "POP",
      "AREA",
      "FOUNDED",
      "URL",
    ]);
    assert.deepEqual(fields.map((f) => f.Type), [
      "esriFieldTypeOID",
      "esriFieldTypeGeometry",
      "esriFieldTypeString",
      "esriFieldTypeInteger",
      "esriFieldTypeDouble",
      "esriFieldTypeDate",
      "esriFieldTypeString",
    ]);
    assert.deepEqual(fields.map((f) => f.AliasName), [
      "OBJECTID",
      "geom",
      "Name",
      "Population",
      "Area (km²)",
      "Founded",
      "Web site",
    ]);
    assert.equal(fields[1].GeometryDef.GeometryType, "esriGeometryPoint");
    assert.equal(Number(fields[1].GeometryDef.SpatialReference.WKID), 4326);
    const rows = rowsOf(all.Result);
    assert.equal(rows.length, 3);
    assert.equal(Number(rows[0][0].$value ?? rows[0][0]), 1);

    // The raw XML carries the xsi:type of every value (Double stays double even when integral).
    const xml = await rawCall(
      s.serviceUrl("Fixture"),
      "QueryFeatureData",
      `<MapName>Layers</MapName><LayerID>0</LayerID><QueryFilter><WhereClause>OBJECTID IN (1, 3, 10)</WhereClause>` +
        `<SubFields>*</SubFields></QueryFilter>`,
    );
    const values = [...xml.matchAll(/<Values xsi:type="tns:ArrayOfValue">(.*?)<\/Values>/g)].map((
      m,
    ) => m[1]);
    assert.equal(values.length, 3);
    assert.equal(
      values[0],
      `<Value xsi:type="xsd:int">1</Value>` +
        `<Value xsi:type="tns:PointN"><X>37.6173</X><Y>55.7558</Y></Value>` +
        `<Value xsi:type="xsd:string">Moscow</Value>` +
        `<Value xsi:type="xsd:int">13010112</Value>` +
        `<Value xsi:type="xsd:double">2561.5</Value>` +
        `<Value xsi:type="xsd:dateTime">1147-04-04T00:00:00.000Z</Value>` +
        `<Value xsi:type="xsd:string">https://example.org/moscow</Value>`,
    );
    assert.match(values[1], /<Value xsi:type="xsd:double">1439<\/Value>/);
    assert.match(
      values[1],
      /<Value xsi:type="xsd:string">Saint Petersburg<\/Value><Value xsi:type="xsd:int">5601911</,
    );
    // Vladivostok: null population and area, null URL.
    assert.match(values[2], /Vladivostok<\/Value><Value xsi:nil="true"\/><Value xsi:nil="true"\/>/);

    // SubFields: the OID comes back unasked, geometry only when named, layer order kept.
    const sub = await call(c, "QueryFeatureData", {
      MapName: "Layers",
      LayerID: 0,
      QueryFilter: { WhereClause: "POP > 1500000", SubFields: "pop, NAME" },
    });
    assert.deepEqual(fieldsOf(sub.Result).map((f) => f.Name), ["OBJECTID", "NAME", "POP"]);
    const subRows = rowsOf(sub.Result).map((r) => r.map((v: Any) => v.$value ?? v));
    assert.deepEqual(subRows.map((r) => [Number(r[0]), r[1], Number(r[2])]), [
      [1, "Moscow", 13010112],
      [3, "Saint Petersburg", 5601911],
      [4, "Novosibirsk", 1633595],
      [5, "Yekaterinburg", 1544376],
    ]);

    // Output in Web Mercator (102100): coordinates to 1e-6 m.
    const merc = await rawCall(
      s.serviceUrl("Fixture"),
      "QueryFeatureData",
      `<MapName>Layers</MapName><LayerID>0</LayerID><QueryFilter><SubFields>Shape</SubFields>` +
        `<WhereClause>OBJECTID = 2</WhereClause><OutputSpatialReference xsi:type="e:ProjectedCoordinateSystem">` +
        `<WKID>102100</WKID></OutputSpatialReference></QueryFilter>`,
    );
    const x = Number(/<X>([^<]+)<\/X>/.exec(merc)![1]);
    const y = Number(/<Y>([^<]+)<\/Y>/.exec(merc)![1]);
    near(x, 6378137 * 49.1221 * Math.PI / 180, 1e-6, "x");
    near(y, 6378137 * Math.log(Math.tan(Math.PI / 4 + 55.7887 * Math.PI / 360)), 1e-6, "y");
    assert.match(merc, /<WKID>102100<\/WKID><LatestWKID>3857<\/LatestWKID>/);
  });
});

Deno.test("QueryFeatureData: polygons with holes and polylines come back as PolygonN / PolylineN", async () => {
  await withFixture(async (s) => {
    const c = await s.client("Fixture");
    const r = await call(c, "QueryFeatureData", {
      MapName: "Layers",
      LayerID: 1,
      QueryFilter: { WhereClause: "NAME = 'West'", SubFields: "NAME,Shape" },
    });
    const row = rowsOf(r.Result)[0];
    const shape = row[1];
    assert.equal(shape.attributes["xsi:type"], "tns:PolygonN");
    const rings = items(shape.RingArray.Ring).map((ring: Any) =>
      items(ring.PointArray.Point).map((p: Any) => [Number(p.X), Number(p.Y)])
    );
    assert.deepEqual(rings, [
      [[30, 50], [30, 60], [40, 60], [40, 50], [30, 50]],
      [[34, 54], [36, 54], [36, 56], [34, 56], [34, 54]],
    ]);
    // Roads are stored in 3857 and returned in the map's 4326.
    const road = await call(c, "QueryFeatureData", {
      MapName: "Layers",
      LayerID: 2,
      QueryFilter: { WhereClause: "NAME = 'Parallel 55'", SubFields: "*" },
    });
    const path = items(rowsOf(road.Result)[0][1].PathArray.Path)[0];
    const pts = items(path.PointArray.Point).map((p: Any) => [Number(p.X), Number(p.Y)]);
    near(pts[0][0], 30, 1e-9, "lon0");
    near(pts[0][1], 55, 1e-9, "lat0");
    near(pts[1][0], 50, 1e-9, "lon1");
  });
});

Deno.test("QueryFeatureData: ORDER BY, DISTINCT and the MaximumRecordCount cap", async () => {
  await withFixture(async (server) => {
    const c = await server.client("Capped");
    const data = async (filter: Record<string, unknown>, layer = 0) =>
      rowsOf(
        (await call(c, "QueryFeatureData", {
          MapName: "Layers",
          LayerID: layer,
          QueryFilter: filter,
        })).Result,
      )
        .map((r) => r.map((v: Any) => v?.$value ?? v));
    // Capped at 3 (the first by object id), Count and IDs are not.
    assert.deepEqual(
      (await data({ WhereClause: "", SubFields: "NAME" })).map((r) => Number(r[0])),
      [1, 2, 3],
    );
    const n = await call(c, "QueryFeatureCount", {
      MapName: "Layers",
      LayerID: 0,
      QueryFilter: { WhereClause: "" },
    });
    assert.equal(Number(n.Result), CITIES.length);
    const all = await call(c, "QueryFeatureIDs", { MapName: "Layers", LayerID: 0 });
    assert.equal(items(all.Result.FIDArray.Int).length, CITIES.length);
    // ORDER BY before the cap: the three most populous.
    const top = await data({
      WhereClause: "POP IS NOT NULL",
      SubFields: "NAME",
      PostfixClause: "ORDER BY POP DESC",
    });
    assert.deepEqual(top.map((r) => r[1]), ["Moscow", "Saint Petersburg", "Novosibirsk"]);
    // DISTINCT kinds of regions.
    const kinds = await data({
      WhereClause: "",
      SubFields: "KIND",
      PrefixClause: "DISTINCT",
      PostfixClause: "ORDER BY KIND",
    }, 1);
    assert.deepEqual(kinds.map((r) => r[1]), ["rectangle", "square"]);
  });
});

Deno.test("*2 operations AND the layer's and LayerDescription's definition expressions; by-LayerID ones override", async () => {
  await withFixture(async (s) => {
    const c = await s.client("Fixture");
    const desc = (extra: Record<string, unknown> = {}) => ({
      LayerID: 3,
      Visible: true,
      ShowLabels: false,
      ScaleSymbols: false,
      SetSelectionSymbol: false,
      SelectionBufferDistance: 0,
      ShowSelectionBuffer: false,
      DefinitionExpression: "",
      ...extra,
    });
    // Layer 3 = Cities with POP > 1500000.
    assert.equal(
      await count(s, 3),
      CITIES.length,
      "QueryFeatureCount ignores the layer's definition",
    );
    const c2 = await call(c, "QueryFeatureCount2", {
      MapName: "Layers",
      LayerDescription: desc(),
      QueryFilter: where(""),
    });
    assert.equal(Number(c2.Result), 4);
    const c2b = await call(c, "QueryFeatureCount2", {
      MapName: "Layers",
      LayerDescription: desc({ DefinitionExpression: "NAME LIKE 'S%'" }),
      QueryFilter: where(""),
    });
    assert.equal(Number(c2b.Result), 1);
    const ids2 = await call(c, "QueryFeatureIDs2", {
      MapName: "Layers",
      LayerDescription: desc(),
      QueryFilter: where("NAME <> 'Moscow'"),
    });
    assert.deepEqual(items(ids2.Result.FIDArray.Int).map(Number), [3, 4, 5]);

    // Data2 as a RecordSet object; IncludeGeometry=false drops the shape column.
    const d2 = await call(c, "QueryFeatureData2", {
      MapName: "Layers",
      LayerDescription: desc({ LayerResultOptions: { IncludeGeometry: false } }),
      QueryFilter: { WhereClause: "", SubFields: "*" },
      QueryResultOptions: { Format: "esriQueryResultRecordSetAsObject" },
    });
    assert.equal(d2.Result.Object.attributes["xsi:type"], "tns:RecordSet");
    assert.deepEqual(fieldsOf(d2.Result.Object).map((f) => f.Name), [
      "OBJECTID",
      "NAME",
      "POP",
      "AREA",
      "FOUNDED",
      "URL",
    ]);
    assert.deepEqual(rowsOf(d2.Result.Object).map((r) => Number(r[0].$value ?? r[0])), [
      1,
      3,
      4,
      5,
    ]);
  });
});

Deno.test("QueryFeatureData2 honours GeometryResultOptions (densify, generalize)", async () => {
  await withFixture(async (s) => {
    const c = await s.client("Fixture");
    const ring = async (options: Record<string, unknown>) => {
      const r = await call(c, "QueryFeatureData2", {
        MapName: "Layers",
        LayerDescription: {
          LayerID: 1,
          Visible: true,
          DefinitionExpression: "",
          LayerResultOptions: { IncludeGeometry: true, GeometryResultOptions: options },
        },
        QueryFilter: { WhereClause: "NAME = 'East'", SubFields: "Shape" },
        QueryResultOptions: { Format: "esriQueryResultRecordSetAsObject" },
      });
      const shape = rowsOf(r.Result.Object)[0][1];
      return items(items(shape.RingArray.Ring)[0].PointArray.Point).map((
        p: Any,
      ) => [Number(p.X), Number(p.Y)]);
    };
    assert.equal((await ring({})).length, 5);
    // 10° edges split at most every 4°: 3 pieces each.
    const dense = await ring({ DensifyGeometries: true, MaximumSegmentLength: 4 });
    assert.equal(dense.length, 13);
    near(dense[1][1], 50 + 10 / 3, 1e-9, "first inserted vertex");
    // Generalising a square keeps the square.
    assert.deepEqual(await ring({ GeneralizeGeometries: true, MaximumAllowableOffset: 100 }), [
      [40, 50],
      [40, 60],
      [50, 60],
      [50, 50],
      [40, 50],
    ]);
  });
});

Deno.test("QueryFeatureData2 result formats: JSON and KMZ as MIME and URL; AMF refused", async () => {
  await withFixture(async (s) => {
    const c = await s.client("Fixture");
    const req = (format: string) => ({
      MapName: "Layers",
      LayerDescription: { LayerID: 0, Visible: true, DefinitionExpression: "" },
      QueryFilter: { WhereClause: "POP > 1500000", SubFields: "NAME,POP,Shape" },
      QueryResultOptions: { Format: format },
    });
    const json = await call(c, "QueryFeatureData2", req("esriQueryResultJsonAsMime"));
    const fs = JSON.parse(
      new TextDecoder().decode(
        Uint8Array.from(atob(json.Result.MimeData), (ch) => ch.charCodeAt(0)),
      ),
    );
    assert.equal(fs.geometryType, "esriGeometryPoint");
    assert.equal(fs.spatialReference.wkid, 4326);
    assert.deepEqual(fs.fields.map((f: Any) => f.name), ["OBJECTID", "NAME", "POP"]);
    assert.deepEqual(fs.fieldAliases, { OBJECTID: "OBJECTID", NAME: "Name", POP: "Population" });
    assert.deepEqual(fs.features.map((f: Any) => f.attributes.NAME), [
      "Moscow",
      "Saint Petersburg",
      "Novosibirsk",
      "Yekaterinburg",
    ]);
    assert.deepEqual(fs.features[0].geometry, { x: 37.6173, y: 55.7558 });

    const url = await call(c, "QueryFeatureData2", req("esriQueryResultJsonAsURL"));
    const name = /\/(_ags_[0-9a-f]{32}\.json)$/.exec(url.Result.URL);
    assert.ok(name, url.Result.URL);
    assert.ok(url.Result.URL.startsWith(s.baseUrl));
    const onDisk = JSON.parse(
      await Deno.readTextFile(`${s.outputDir}/Fixture_MapServer/${name[1]}`),
    );
    assert.equal(onDisk.features.length, 4);
    // The URL is served.
    const served = await fetch(url.Result.URL);
    assert.equal(served.status, 200);
    assert.match(served.headers.get("content-type") ?? "", /json/);
    assert.deepEqual(await served.json(), onDisk);

    const kmz = await call(c, "QueryFeatureData2", req("esriQueryResultKMLAsMime"));
    const kml = await unzipSingle(
      Uint8Array.from(atob(kmz.Result.MimeData), (ch) => ch.charCodeAt(0)),
    );
    assert.equal((kml.match(/<Placemark /g) ?? []).length, 4);
    assert.match(kml, /<name>Moscow<\/name>/);
    assert.match(kml, /<Point><coordinates>37.6173,55.7558<\/coordinates><\/Point>/);
    assert.match(
      kml,
      /<Data name="POP"><displayName>Population<\/displayName><value>13010112<\/value><\/Data>/,
    );

    const kmzUrl = await call(c, "QueryFeatureData2", req("esriQueryResultKMLAsURL"));
    assert.match(kmzUrl.Result.URL, /\/_ags_[0-9a-f]{32}\.kmz$/);
    const kmzFile = await fetch(kmzUrl.Result.URL);
    assert.equal(kmzFile.status, 200);
    const servedKml = await unzipSingle(new Uint8Array(await kmzFile.arrayBuffer()));
    assert.equal((servedKml.match(/<Placemark /g) ?? []).length, 4);

    const [, raw] = await (c as Any).QueryFeatureData2Async(req("esriQueryResultAmfAsMime")).catch((
      e: Any,
    ) => [
      null,
      e.body,
    ]);
    assert.match(String(raw), /esriQueryResultAmfAsMime is not supported/);
  });
});

/** Extracts the single file of a ZIP archive (in process: no `unzip` program needed). */
function unzipSingle(zip: Uint8Array): Promise<string> {
  const { name, data } = unzipFirst(zip);
  assert.equal(name, "doc.kml");
  return Promise.resolve(new TextDecoder().decode(data));
}
