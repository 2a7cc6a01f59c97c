/**
 * REST parameters to the typed requests of the operations, without HTTP:
 * layerDefs, the export layers switch, and the requests of export,
 * identify, find and legend.
 */
import assert from "node:assert/strict";
import type { MapFrame } from "../ops/mod.ts";
import { InvalidRequestError } from "../errors.ts";
import { RestParams } from "./params.ts";
import { layerDescriptions, parseLayerDefs, parseLayerVisibility } from "./_map_request.ts";
import { exportRequest } from "./_export.ts";
import { findRequest, identifyRequest } from "./_search.ts";
import { legendRequest } from "./_legend.ts";

const FRAME = {
  name: "Layers",
  wkid: 4326,
  backgroundColor: [10, 20, 30],
  layers: [
    { id: 0, name: "Cities", visible: true },
    { id: 1, name: "Roads", visible: false },
    { id: 2, name: "Countries", visible: true },
  ],
} as unknown as MapFrame;

function params(query: string): RestParams {
  return new RestParams(new URLSearchParams(query));
}

Deno.test("layerDefs: JSON object, JSON array and the old id:where;id:where form", () => {
  const expected = new Map([[0, "POP > 10"], [2, "NAME = 'a;b'"]]);
  assert.deepEqual(parseLayerDefs(FRAME, `{"0":"POP > 10","2":"NAME = 'a;b'"}`), expected);
  assert.deepEqual(
    parseLayerDefs(
      FRAME,
      `[{"layerId":0,"where":"POP > 10"},{"layerId":2,"where":"NAME = 'a;b'"}]`,
    ),
    expected,
  );
  assert.deepEqual(parseLayerDefs(FRAME, "0:POP > 10;2:NAME = 'a;b'"), expected);
  assert.deepEqual(parseLayerDefs(FRAME, undefined), new Map());
  for (const bad of ["{", "POP > 10", '{"x":"a"}', '{"0":5}', "7:a = 1"]) {
    assert.throws(() => parseLayerDefs(FRAME, bad), InvalidRequestError, bad);
  }
});

Deno.test("export layers: show, hide, include and exclude change the default visibility", () => {
  const visible = (text: string) => [...parseLayerVisibility(FRAME, text)!.values()];
  assert.deepEqual(visible("show:1"), [false, true, false]);
  assert.deepEqual(visible("hide:0"), [false, false, true]);
  assert.deepEqual(visible("include:1"), [true, true, true]);
  assert.deepEqual(visible("EXCLUDE:0,2"), [false, false, false]);
  // An empty list keeps the defaults, show: included (as ArcGIS draws QGIS's `show:`).
  for (const empty of ["show:", "hide:", "include:", "exclude: "]) {
    assert.equal(parseLayerVisibility(FRAME, empty), undefined, empty);
  }
  assert.equal(parseLayerVisibility(FRAME, undefined), undefined);
  for (const bad of ["0,1", "top:1", "show:a", "show:9"]) {
    assert.throws(() => parseLayerVisibility(FRAME, bad), InvalidRequestError, bad);
  }
  assert.deepEqual(
    layerDescriptions(FRAME, {
      visibility: parseLayerVisibility(FRAME, "show:2"),
      definitions: new Map([[2, "A = 1"]]),
      returnGeometry: false,
      maxAllowableOffset: 0.5,
    })[2],
    {
      LayerID: 2,
      Visible: true,
      DefinitionExpression: "A = 1",
      LayerResultOptions: {
        IncludeGeometry: false,
        ReturnFieldNamesInResults: false,
        GeometryResultOptions: { GeneralizeGeometries: true, MaximumAllowableOffset: 0.5 },
      },
    },
  );
});

Deno.test("export: the ExportMapImage request of bbox, SRs, size, dpi, format and transparency", () => {
  const req = exportRequest(
    params(
      "bbox=0,0,1000,500&bboxSR=102100&size=200,100&dpi=192&format=jpg&transparent=true&rotation=15",
    ),
    FRAME,
    "image",
  );
  assert.deepEqual(req.MapDescription.MapArea, {
    type: "MapExtent",
    Extent: {
      geometry: { type: "Envelope", xmin: 0, ymin: 0, xmax: 1000, ymax: 500 },
      wkid: 102100,
    },
  });
  // imageSR follows bboxSR when absent.
  assert.equal(req.MapDescription.SpatialReference, 102100);
  assert.equal(req.MapDescription.Rotation, 15);
  assert.deepEqual(req.MapDescription.TransparentColor, [10, 20, 30, 255]);
  assert.deepEqual(req.ImageDescription, {
    ImageDisplay: { ImageWidth: 200, ImageHeight: 100, ImageDPI: 192 },
    ImageType: { ImageFormat: "jpg", ImageReturnType: "MimeData" },
  });
  const plain = exportRequest(params("bbox=0,0,1,1&imageSR=3857"), FRAME, "json");
  assert.equal(plain.MapDescription.SpatialReference, 3857);
  assert.equal(plain.MapDescription.TransparentColor, undefined);
  assert.deepEqual(plain.ImageDescription, {
    ImageDisplay: { ImageWidth: 400, ImageHeight: 400, ImageDPI: 96 },
    ImageType: { ImageFormat: "png8", ImageReturnType: "URL" },
  });
  for (
    const bad of ["", "bbox=1,1,1,0", "bbox=0,0,1,1&size=0.4,2", "bbox=0,0,1,1&format=pdf"]
  ) assert.throws(() => exportRequest(params(bad), FRAME, "json"), InvalidRequestError, bad);
  // A fractional size is rounded to whole pixels (OpenLayers sends them).
  assert.deepEqual(
    exportRequest(params("bbox=0,0,1,1&size=1.5,2.4"), FRAME, "json").ImageDescription
      .ImageDisplay,
    exportRequest(params("bbox=0,0,1,1&size=2,2"), FRAME, "json").ImageDescription.ImageDisplay,
  );
  // Corners in any order, as ArcGIS reads an envelope.
  const swapped = exportRequest(params("bbox=1,1,0,0"), FRAME, "json").MapDescription.MapArea;
  assert.deepEqual(swapped?.type === "MapExtent" ? swapped.Extent.geometry : swapped, {
    type: "Envelope",
    xmin: 0,
    ymin: 0,
    xmax: 1,
    ymax: 1,
  });
});

Deno.test("identify: shape, view, tolerance and layers option", () => {
  const req = identifyRequest(
    params(
      "geometry=1,2&sr=3857&tolerance=4&mapExtent=0,0,10,10&imageDisplay=100,100&layers=all:0,2",
    ),
    FRAME,
  );
  assert.deepEqual(req.SearchShape, { geometry: { type: "Point", x: 1, y: 2 }, wkid: 3857 });
  assert.deepEqual(req.MapImageDisplay, { ImageWidth: 100, ImageHeight: 100, ImageDPI: 96 });
  assert.equal(req.Tolerance, 4);
  assert.equal(req.IdentifyOption, "esriIdentifyAllLayers");
  assert.deepEqual(req.LayerIDs, [0, 2]);
  assert.equal(req.MapDescription?.SpatialReference, 3857);
  assert.deepEqual(req.MapDescription?.MapArea, {
    type: "MapExtent",
    Extent: { geometry: { type: "Envelope", xmin: 0, ymin: 0, xmax: 10, ymax: 10 }, wkid: 3857 },
  });
  const top = identifyRequest(
    params("geometry=1,2&tolerance=0&mapExtent=0,0,10,10&imageDisplay=100,100,72"),
    FRAME,
  );
  assert.equal(top.IdentifyOption, "esriIdentifyTopmost");
  assert.deepEqual(top.LayerIDs, []);
  assert.equal(top.SearchShape.wkid, null);
});

Deno.test("find and legend requests", () => {
  const req = findRequest(
    params("searchText=Kaz&contains=false&searchFields=NAME&layers=0,2&returnGeometry=false"),
    FRAME,
  );
  assert.equal(req.SearchString, "Kaz");
  assert.equal(req.Contains, false);
  assert.equal(req.SearchFields, "NAME");
  assert.equal(req.FindOption, "esriFindAllLayers");
  assert.deepEqual(req.LayerIDs, [0, 2]);
  assert.equal(
    req.MapDescription?.LayerDescriptions?.[0].LayerResultOptions?.IncludeGeometry,
    false,
  );
  assert.equal(findRequest(params("searchText=x"), FRAME).Contains, true);
  assert.deepEqual(legendRequest(params("size=30,10&dpi=192"), FRAME), {
    MapName: "Layers",
    LayerIDs: [],
    LegendPatch: { Width: 30, Height: 10, ImageDPI: 192 },
    ImageType: { ImageFormat: "png32", ImageReturnType: "MimeData" },
  });
  assert.throws(() => legendRequest(params("size=600,10"), FRAME), /'size'/);
});
