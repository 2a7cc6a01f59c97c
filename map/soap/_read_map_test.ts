import assert from "node:assert/strict";
import { InvalidRequestError } from "../errors.ts";
import { dispatchSoap } from "./dispatch.ts";
import { MAPSERVER_HANDLERS } from "./handlers.ts";
import { MAPSERVER_SCHEMA } from "./types.ts";
import type { OperationContext } from "./operation.ts";
import {
  layerDescriptionFromSoap,
  mapAreaFromSoap,
  mapDescriptionFromSoap,
  queryFilterFromSoap,
} from "./_read_map.ts";
import { DRAW_REQUESTS, LAYER_QUERY_REQUESTS, SEARCH_REQUESTS } from "./_requests.ts";

const NS = "http://www.esri.com/schemas/ArcGIS/10.3";
const XSI = "http://www.w3.org/2001/XMLSchema-instance";

function assertClientError(fn: () => unknown, pattern: RegExp): void {
  assert.throws(fn, (e) => e instanceof InvalidRequestError && pattern.test(e.message));
}

const envelope = (XMin: number, YMin: number, XMax: number, YMax: number) => ({
  $type: "EnvelopeN",
  XMin,
  YMin,
  XMax,
  YMax,
});

Deno.test("a MapDescription becomes typed values: area, WKID, layer overrides, colours", () => {
  const md = mapDescriptionFromSoap({
    $type: "MapDescription",
    Name: "Layers",
    Rotation: 0,
    MapArea: { $type: "MapExtent", Extent: envelope(0, 0, 10, 5) },
    SpatialReference: { $type: "ProjectedCoordinateSystem", WKID: 102100 },
    LayerDescriptions: [{
      $type: "LayerDescription",
      LayerID: 2,
      Visible: false,
      DefinitionExpression: "POP > 10",
      SelectionFeatures: [3, 4],
      SetSelectionSymbol: false,
      SelectionSymbol: { $type: "SimpleFillSymbol" },
      LayerResultOptions: {
        IncludeGeometry: false,
        GeometryResultOptions: { GeneralizeGeometries: true, MaximumAllowableOffset: 0.5 },
      },
    }],
    SelectionColor: { $type: "RgbColor", Red: 255, Green: 0, Blue: 0 },
    BackgroundSymbol: { $type: "SimpleFillSymbol" },
  });
  assert.deepEqual(md, {
    Name: "Layers",
    Rotation: 0,
    MapArea: {
      type: "MapExtent",
      Extent: { geometry: { type: "Envelope", xmin: 0, ymin: 0, xmax: 10, ymax: 5 }, wkid: null },
    },
    SpatialReference: 102100,
    LayerDescriptions: [{
      LayerID: 2,
      Visible: false,
      DefinitionExpression: "POP > 10",
      SelectionFeatures: [3, 4],
      LayerResultOptions: {
        IncludeGeometry: false,
        GeometryResultOptions: { GeneralizeGeometries: true, MaximumAllowableOffset: 0.5 },
      },
    }],
    SelectionColor: [255, 0, 0, 255],
    // A background symbol without a colour: no background at all.
    BackgroundColor: null,
  });
});

Deno.test("a MapArea without its required parts is a client error naming the element", () => {
  assertClientError(
    () => mapAreaFromSoap({ $type: "MapExtent" }, "MapDescription/MapArea"),
    /MapDescription\/MapArea\/Extent is required/,
  );
  assertClientError(
    () => mapAreaFromSoap({ $type: "CenterAndScale", Center: { $type: "PointN", X: 1, Y: 2 } }),
    /MapArea\/Scale must be a finite number/,
  );
  assertClientError(
    () => mapAreaFromSoap({ $type: "CenterAndScale", Scale: 1000 }),
    /MapArea\/Center is required and must be a PointN/,
  );
  assertClientError(
    () => mapAreaFromSoap({ $type: "FeatureExtent", FeatureIDs: [1] }),
    /MapArea\/LayerID is required/,
  );
  assertClientError(
    () =>
      mapAreaFromSoap({
        $type: "CenterAndSize",
        Center: { $type: "PointN", X: 1, Y: 2 },
        Width: 1,
        Height: 1,
        Units: "furlongs",
      }),
    /Unknown unit "furlongs"/,
  );
  assertClientError(() => mapAreaFromSoap("everywhere"), /MapArea must be a complex value/);
});

Deno.test("a LayerDescription needs an integer LayerID; a filter's geometry and relation are checked", () => {
  assertClientError(
    () =>
      layerDescriptionFromSoap({ $type: "LayerDescription", Visible: true }, "LayerDescription"),
    /LayerDescription\/LayerID is required/,
  );
  assertClientError(
    () =>
      mapDescriptionFromSoap({
        LayerDescriptions: [{ $type: "LayerDescription", LayerID: 0 }, { Visible: false }],
      }),
    /MapDescription\/LayerDescriptions\[1\]\/LayerID is required/,
  );
  assertClientError(
    () => queryFilterFromSoap({ $type: "SpatialFilter", WhereClause: "1=1" }),
    /SpatialFilter\/FilterGeometry is required/,
  );
  assertClientError(
    () =>
      queryFilterFromSoap({
        $type: "SpatialFilter",
        FilterGeometry: envelope(0, 0, 1, 1),
        SpatialRel: "esriSpatialRelNear",
      }),
    /SpatialFilter\/SpatialRel must be one of/,
  );
  assert.deepEqual(
    queryFilterFromSoap({
      $type: "SpatialFilter",
      WhereClause: "",
      FIDSet: { FIDArray: [7, 3] },
      FilterGeometry: envelope(0, 0, 1, 1),
      OutputSpatialReference: { WKID: 4326 },
    }),
    {
      WhereClause: "",
      FIDSet: [7, 3],
      OutputSpatialReference: 4326,
      FilterGeometry: {
        geometry: { type: "Envelope", xmin: 0, ymin: 0, xmax: 1, ymax: 1 },
        wkid: null,
      },
    },
  );
});

Deno.test("request readers refuse bad nested shapes before any operation runs", () => {
  assertClientError(
    () =>
      SEARCH_REQUESTS.Identify({
        SearchShape: {
          $type: "PolygonN",
          RingArray: [{
            PointArray: [{ $type: "PointN", X: 0, Y: 0 }, { $type: "PointN", X: "a", Y: 1 }],
          }],
        },
      }),
    /SearchShape\/RingArray\[0\]\/PointArray\[1\]\/X must be a finite number/,
  );
  assertClientError(
    () =>
      LAYER_QUERY_REQUESTS.QueryFeatureCount2({ LayerDescription: { $type: "LayerDescription" } }),
    /LayerDescription\/LayerID is required/,
  );
  assertClientError(
    () =>
      DRAW_REQUESTS.ExportMapImage({
        MapDescription: {
          CustomGraphics: [{
            $type: "MarkerElement",
            Point: { $type: "PointN", X: 0, Y: 0 },
            Symbol: { $type: "PictureMarkerSymbol" },
          }],
        },
      }),
    /CustomGraphics\[0\]: symbol type PictureMarkerSymbol cannot be drawn/,
  );
  assertClientError(
    () =>
      DRAW_REQUESTS.ExportMapImage({
        ImageDescription: { ImageType: { ImageFormat: "esriImageSVG" } },
      }),
    /SVG/,
  );
});

/** Sends `body` (the operation element) through the real SOAP dispatch with the MapServer handlers. */
async function fault(body: string): Promise<{ code?: string; message?: string }> {
  const xml = `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" ` +
    `xmlns:e="${NS}" xmlns:xsi="${XSI}"><soap:Body>${body}</soap:Body></soap:Envelope>`;
  const reply = await dispatchSoap(xml, {
    schema: MAPSERVER_SCHEMA,
    handlers: MAPSERVER_HANDLERS,
    // The readers refuse the request before an operation could use its context.
    context: () => ({}) as OperationContext,
  });
  assert.equal(reply.status, 500);
  return {
    code: /<faultcode>([^<]*)<\/faultcode>/.exec(reply.body)?.[1],
    message: /<faultstring>([^<]*)<\/faultstring>/.exec(reply.body)?.[1],
  };
}

Deno.test("bad nested shapes sent as SOAP are soap:Client faults", async () => {
  const noExtent = await fault(
    `<e:ExportMapImage><MapDescription><Name>Layers</Name>` +
      `<MapArea xsi:type="e:MapExtent"/></MapDescription>` +
      `<ImageDescription><ImageDisplay><ImageHeight>10</ImageHeight><ImageWidth>10</ImageWidth>` +
      `<ImageDPI>96</ImageDPI></ImageDisplay></ImageDescription></e:ExportMapImage>`,
  );
  assert.equal(noExtent.code, "soap:Client");
  assert.match(noExtent.message!, /MapDescription\/MapArea\/Extent is required/);

  const noGeometry = await fault(
    `<e:QueryFeatureCount><MapName>Layers</MapName><LayerID>0</LayerID>` +
      `<QueryFilter xsi:type="e:SpatialFilter"><WhereClause>1=1</WhereClause></QueryFilter>` +
      `</e:QueryFeatureCount>`,
  );
  assert.equal(noGeometry.code, "soap:Client");
  assert.match(noGeometry.message!, /SpatialFilter\/FilterGeometry is required/);

  const noLayerId = await fault(
    `<e:Find><MapDescription><Name>Layers</Name><LayerDescriptions>` +
      `<LayerDescription><Visible>true</Visible></LayerDescription>` +
      `</LayerDescriptions></MapDescription><SearchString>x</SearchString></e:Find>`,
  );
  assert.equal(noLayerId.code, "soap:Client");
  assert.match(noLayerId.message!, /LayerDescriptions\[0\]\/LayerID is required/);
});
