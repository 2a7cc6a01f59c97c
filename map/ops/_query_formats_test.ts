import assert from "node:assert/strict";
import type { MapLayer } from "./types.ts";
import type { FeatureSource } from "../sources/source.ts";
import type { Feature, FieldInfo } from "../types.ts";
import { crc32, featuresKml, zipSingleFile } from "./_query_formats.ts";
import { featureSetObject } from "./_query_feature_json.ts";
import { fieldValue, formatValue, selectColumns } from "./_query_records.ts";
import { applyShapeOptions, shapeOptionsOf } from "./_query_shape_options.ts";
import { optionalTest, UNZIP } from "../../tests/_optional.ts";
import { unzipFirst } from "../../tests/_unzip.ts";

const FIELDS: FieldInfo[] = [
  { name: "fid", type: "OID", alias: "fid", length: 4, nullable: false },
  { name: "name", type: "String", alias: "Название", length: 50, nullable: true },
  { name: "when", type: "Date", alias: "Дата", length: 8, nullable: true },
];

/** A layer over nothing: the formats only read its description. */
function layer(geometryType: MapLayer["geometryType"]): MapLayer {
  const source = { idField: "fid", wkid: 4326, geometryType } as unknown as FeatureSource;
  return {
    id: 3,
    name: "Zones & <areas>",
    description: "",
    source,
    geometryType,
    fields: FIELDS,
    displayField: "name",
    visible: true,
    minScale: 0,
    maxScale: 0,
    definitionExpression: "",
  } as unknown as MapLayer;
}

const DONUT: Feature = {
  id: 7,
  attributes: { fid: 7, name: "Кольцо <1>", when: Date.UTC(2024, 1, 29) },
  geometry: {
    type: "Polygon",
    rings: [
      [[0, 0], [0, 10], [10, 10], [10, 0], [0, 0]],
      [[4, 4], [6, 4], [6, 6], [4, 6], [4, 4]],
    ],
  },
};

Deno.test("crc32 matches the ZIP check value", () => {
  assert.equal(crc32(new TextEncoder().encode("123456789")), 0xcbf43926);
  assert.equal(crc32(new Uint8Array()), 0);
});

Deno.test("zipSingleFile writes a deflated archive that restores its file", async () => {
  const text = "<kml>" + "Δ".repeat(5000) + "</kml>";
  const zip = await zipSingleFile("doc.kml", new TextEncoder().encode(text));
  const { name, data } = unzipFirst(zip);
  assert.equal(name, "doc.kml");
  assert.equal(new TextDecoder().decode(data), text);
  assert.ok(zip.length < text.length, "deflated");
});

optionalTest(UNZIP, {
  name: "Info-ZIP unzip accepts zipSingleFile's archive and restores it",
  async fn() {
    const text = "<kml>" + "Δ".repeat(5000) + "</kml>";
    const zip = await zipSingleFile("doc.kml", new TextEncoder().encode(text));
    const file = await Deno.makeTempFile({ suffix: ".kmz" });
    try {
      await Deno.writeFile(file, zip);
      const test = await new Deno.Command("unzip", { args: ["-t", file], stdout: "piped" })
        .output();
      assert.ok(test.success, new TextDecoder().decode(test.stdout));
      const out = await new Deno.Command("unzip", {
        args: ["-p", file, "doc.kml"],
        stdout: "piped",
      })
        .output();
      assert.equal(new TextDecoder().decode(out.stdout), text);
    } finally {
      await Deno.remove(file);
    }
  },
});

Deno.test("featuresKml: escaped names, ExtendedData, polygon holes as inner boundaries", () => {
  const l = layer("Polygon");
  const kml = featuresKml(l, [DONUT], selectColumns(l, "*"), 4326);
  assert.match(kml, /<Document><name>Zones &amp; &lt;areas&gt;<\/name>/);
  assert.match(kml, /<Placemark id="3_7"><name>Кольцо &lt;1&gt;<\/name>/);
  assert.match(kml, /<Data name="when"><displayName>Дата<\/displayName><value>2024-02-29<\/value>/);
  assert.match(
    kml,
    /<Polygon><outerBoundaryIs><LinearRing><coordinates>0,0 0,10 10,10 10,0 0,0<\/coordinates><\/LinearRing><\/outerBoundaryIs><innerBoundaryIs><LinearRing><coordinates>4,4 6,4 6,6 4,6 4,4<\/coordinates>/,
  );
});

Deno.test("featuresKml projects Web Mercator geometry to WGS 84", () => {
  const l = layer("Point");
  const kml = featuresKml(
    l,
    [{
      id: 1,
      attributes: { name: "x" },
      geometry: { type: "Point", x: 20037508.342789244, y: 0 },
    }],
    selectColumns(l, "Shape"),
    3857,
  );
  const m = /<coordinates>([^,]+),([^<]+)<\/coordinates>/.exec(kml)!;
  assert.ok(Math.abs(Number(m[1]) - 180) < 1e-9 && Math.abs(Number(m[2])) < 1e-9, m[0]);
});

Deno.test("featureSetObject: Esri JSON with aliases, epoch dates and rings", () => {
  const l = layer("Polygon");
  const json = JSON.parse(JSON.stringify(featureSetObject({
    geometryType: "Polygon",
    displayField: "name",
    fields: selectColumns(l, "*").columns,
    objectIdField: "fid",
    features: [DONUT],
    wkid: 102100,
    exceededTransferLimit: false,
  })));
  assert.equal(json.displayFieldName, "name");
  assert.deepEqual(json.spatialReference, { wkid: 102100, latestWkid: 3857 });
  assert.equal(json.geometryType, "esriGeometryPolygon");
  assert.deepEqual(json.fieldAliases, { fid: "fid", name: "Название", when: "Дата" });
  assert.deepEqual(json.features[0].attributes, {
    fid: 7,
    name: "Кольцо <1>",
    when: Date.UTC(2024, 1, 29),
  });
  assert.equal(json.features[0].geometry.rings.length, 2);
});

Deno.test("fieldValue coerces values to their field's type, formatValue writes display strings", () => {
  assert.equal(fieldValue("12.7", "Integer"), 12);
  assert.equal(fieldValue(true, "Double"), 1);
  assert.deepEqual(fieldValue("2024-02-29", "Date"), new Date(Date.UTC(2024, 1, 29)));
  assert.equal(fieldValue(12, "String"), "12");
  assert.equal(fieldValue(null, "Integer"), null);
  assert.equal(fieldValue("abc", "Double"), null);
  assert.equal(formatValue(null, "String"), "Null");
  assert.equal(formatValue(Date.UTC(2024, 1, 29, 13, 5), "Date"), "2024-02-29T13:05:00Z");
});

Deno.test("shape options: Douglas-Peucker keeps corners, densify splits long segments", () => {
  const line = {
    type: "Polyline" as const,
    paths: [[[0, 0], [1, 0.01], [2, 0], [3, 5]] as [number, number][]],
  };
  const simplified = applyShapeOptions(
    line,
    shapeOptionsOf({
      GeometryResultOptions: { GeneralizeGeometries: true, MaximumAllowableOffset: 0.1 },
    }),
  );
  assert.deepEqual(simplified, { type: "Polyline", paths: [[[0, 0], [2, 0], [3, 5]]] });
  // Flags off: the offsets are ignored.
  assert.equal(
    applyShapeOptions(
      line,
      shapeOptionsOf({ GeometryResultOptions: { MaximumAllowableOffset: 1 } }),
    ),
    line,
  );
  const dense = applyShapeOptions(
    { type: "Polyline", paths: [[[0, 0], [10, 0]]] },
    shapeOptionsOf({
      GeometryResultOptions: { DensifyGeometries: true, MaximumSegmentLength: 2.5 },
    }),
  );
  assert.deepEqual(dense, {
    type: "Polyline",
    paths: [[[0, 0], [2.5, 0], [5, 0], [7.5, 0], [10, 0]]],
  });
});
