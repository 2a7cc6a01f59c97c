import assert from "node:assert/strict";
import { assertAlmostEquals } from "../../tests/_geo_asserts.ts";
import { InvalidRequestError } from "../errors.ts";
import {
  canProject,
  esriSpatialReference,
  isGeographic,
  MAX_MERCATOR_LATITUDE,
  MERCATOR_HALF_WORLD,
  normalizeWkid,
  projectExtent,
  projectGeometry,
  projectPoint,
  registerSpatialReference,
  spatialReferenceWkt,
  unitsOfWkid,
  wktSpatialReference,
} from "./projection.ts";

Deno.test("Web Mercator aliases normalise to 3857", () => {
  for (const id of [3857, 102100, 102113, 900913, 3785]) assert.equal(normalizeWkid(id), 3857);
  assert.equal(normalizeWkid(4326), 4326);
  assert.equal(normalizeWkid(32637), 32637);
  assert.equal(isGeographic(4326), true);
  assert.equal(isGeographic(102100), false);
  assert.equal(isGeographic(32637), false);
  assert.equal(unitsOfWkid(4326), "esriDecimalDegrees");
  assert.equal(unitsOfWkid(900913), "esriMeters");
  assert.equal(unitsOfWkid(123456), "esriUnknownUnits");
});

Deno.test("Moscow projects to its known Web Mercator coordinates", () => {
  const [x, y] = projectPoint([37.6173, 55.7558], 4326, 102100);
  assertAlmostEquals(x, 4187538.68101781, 1e-6);
  assertAlmostEquals(y, 7509955.142338095, 1e-6);
  const [lon, lat] = projectPoint([x, y], 3857, 4326);
  assertAlmostEquals(lon, 37.6173, 1e-9);
  assertAlmostEquals(lat, 55.7558, 1e-9);
});

Deno.test("4326 ↔ 3857 round trips to 1e-6 degrees over the whole grid", () => {
  for (let lon = -180; lon <= 180; lon += 7.5) {
    for (let lat = -85; lat <= 85; lat += 2.5) {
      const back = projectPoint(projectPoint([lon, lat], 4326, 3857), 3857, 4326);
      assertAlmostEquals(back[0], lon, 1e-6);
      assertAlmostEquals(back[1], lat, 1e-6);
    }
  }
});

Deno.test("latitudes beyond ±85.0511° are clamped to the square world", () => {
  const [, yNorth] = projectPoint([0, 90], 4326, 3857);
  const [, ySouth] = projectPoint([0, -89.9], 4326, 3857);
  assertAlmostEquals(yNorth, MERCATOR_HALF_WORLD, 1e-6);
  assertAlmostEquals(ySouth, -MERCATOR_HALF_WORLD, 1e-6);
  const [x180] = projectPoint([180, 0], 4326, 3857);
  assertAlmostEquals(x180, 20037508.342789244, 1e-6);
  assertAlmostEquals(projectPoint([0, yNorth], 3857, 4326)[1], MAX_MERCATOR_LATITUDE, 1e-9);
});

Deno.test("geometries keep their shape and type when projected", () => {
  const poly = projectGeometry(
    { type: "Polygon", rings: [[[0, 0], [0, 10], [10, 10], [10, 0], [0, 0]]] },
    4326,
    3857,
  );
  assert.equal(poly.type, "Polygon");
  if (poly.type !== "Polygon") return;
  assert.equal(poly.rings[0].length, 5);
  assertAlmostEquals(poly.rings[0][2][0], 1113194.9079327357, 1e-6);
  const line = projectGeometry({ type: "Polyline", paths: [[[0, 0], [1, 1]]] }, 4326, 3857);
  assert.equal(line.type, "Polyline");
  const mp = projectGeometry({ type: "Multipoint", points: [[1, 2]] }, 4326, 4326);
  assert.deepEqual(mp, { type: "Multipoint", points: [[1, 2]] });
  const env = projectGeometry(
    { type: "Envelope", xmin: -10, ymin: -10, xmax: 10, ymax: 10 },
    4326,
    3857,
  );
  assert.equal(env.type, "Envelope");
});

Deno.test("extents are projected from densified edges", () => {
  const e = projectExtent({ xmin: -180, ymin: -90, xmax: 180, ymax: 90 }, 4326, 102100);
  assertAlmostEquals(e.xmin, -MERCATOR_HALF_WORLD, 1e-6);
  assertAlmostEquals(e.ymax, MERCATOR_HALF_WORLD, 1e-6);
  // A UTM box's edges curve in lon/lat: the corners alone would miss the bulge.
  const utm = { xmin: 300000, ymin: 6000000, xmax: 700000, ymax: 6400000 };
  const dense = projectExtent(utm, 32637, 4326, 32);
  const corners = projectExtent(utm, 32637, 4326, 1);
  assert.ok(dense.ymax > corners.ymax);
  assert.ok(dense.ymax - corners.ymax < 0.1);
});

Deno.test("UTM zones work through proj4 and Web Mercator still clamps", () => {
  const [lon, lat] = projectPoint([500000, 0], 32637, 4326);
  assertAlmostEquals(lon, 39, 1e-9);
  assertAlmostEquals(lat, 0, 1e-9);
  const p = projectPoint([413224.1376592744, 6179766.953877236], 32637, 102100);
  const q = projectPoint([37.6173, 55.7558], 4326, 3857);
  assertAlmostEquals(p[0], q[0], 1e-3);
  assertAlmostEquals(p[1], q[1], 1e-3);
  assert.equal(canProject(32637, 102113), true);
  assert.equal(canProject(123456, 4326), false);
  assert.throws(() => projectPoint([0, 0], 123456, 4326), /WKID 123456 .*not supported/);
});

/** Lambert-93 (EPSG:2154) as a GeoPackage stores it. */
const lambert93 =
  'PROJCS["RGF93 / Lambert-93",GEOGCS["RGF93",DATUM["Reseau_Geodesique_Francais_1993",' +
  'SPHEROID["GRS 1980",6378137,298.257222101]],PRIMEM["Greenwich",0],UNIT["degree",0.0174532925199433]],' +
  'PROJECTION["Lambert_Conformal_Conic_2SP"],PARAMETER["standard_parallel_1",49],' +
  'PARAMETER["standard_parallel_2",44],PARAMETER["latitude_of_origin",46.5],' +
  'PARAMETER["central_meridian",3],PARAMETER["false_easting",700000],' +
  'PARAMETER["false_northing",6600000],UNIT["metre",1]]';

Deno.test("a GeoPackage WKT can be registered and used", () => {
  assert.equal(registerSpatialReference(2154, lambert93), true);
  const [x, y] = projectPoint([3, 46.5], 4326, 2154);
  assertAlmostEquals(x, 700000, 1e-3);
  assertAlmostEquals(y, 6600000, 1e-3);
  assert.equal(spatialReferenceWkt(2154), lambert93);
  assert.equal(unitsOfWkid(2154), "esriMeters");
  assert.equal(registerSpatialReference(2155, "not a definition"), false);
});

Deno.test("ArcGIS reports ESRI WKT and 102100/3857 for Web Mercator", () => {
  assert.match(spatialReferenceWkt(4326)!, /^GEOGCS\["GCS_WGS_1984"/);
  assert.match(spatialReferenceWkt(102100)!, /Mercator_Auxiliary_Sphere/);
  assert.equal(spatialReferenceWkt(123456), undefined);
  const merc = esriSpatialReference(3857);
  assert.equal(merc.$type, "ProjectedCoordinateSystem");
  assert.equal(merc.WKID, 102100);
  assert.equal(merc.LatestWKID, 3857);
  const geo = esriSpatialReference(4326);
  assert.equal(geo.$type, "GeographicCoordinateSystem");
  assert.equal(geo.WKID, 4326);
  assert.equal(geo.LeftLongitude, -180);
  assert.equal(esriSpatialReference(123456).$type, "UnknownCoordinateSystem");
});

/** The Web Mercator WKT the ArcGIS Maps SDK sends across 180°: ArcGIS's, its central meridian moved. */
function sdkWebMercator(centralMeridian: number): string {
  return spatialReferenceWkt(3857)!.replace(
    '"Central_Meridian",0.0',
    `"Central_Meridian",${centralMeridian}`,
  );
}

Deno.test("wktSpatialReference resolves Esri and OGC WKT to the spatial references the engine knows", () => {
  assert.deepEqual(wktSpatialReference(spatialReferenceWkt(4326)!), { wkid: 4326, xShift: 0 });
  assert.deepEqual(wktSpatialReference(spatialReferenceWkt(3857)!), { wkid: 3857, xShift: 0 });
  // The SDK's shifted meridian: x in 3857 = x in its frame + R * 100°.
  const shifted = wktSpatialReference(sdkWebMercator(99.99999999999999));
  assert.equal(shifted.wkid, 3857);
  assert.ok(Math.abs(shifted.xShift - 6378137 * Math.PI * 100 / 180) < 1e-6, `${shifted.xShift}`);
  // OGC WKT with its EPSG authority, and recognised by parameters without one.
  const ogcUtm = 'PROJCS["WGS 84 / UTM zone 37N",GEOGCS["WGS 84",DATUM["WGS_1984",' +
    'SPHEROID["WGS 84",6378137,298.257223563]],PRIMEM["Greenwich",0],UNIT["degree",0.0174532925199433]],' +
    'PROJECTION["Transverse_Mercator"],PARAMETER["latitude_of_origin",0],PARAMETER["central_meridian",39],' +
    'PARAMETER["scale_factor",0.9996],PARAMETER["false_easting",500000],PARAMETER["false_northing",0],' +
    'UNIT["metre",1]]';
  assert.deepEqual(wktSpatialReference(ogcUtm), { wkid: 32637, xShift: 0 });
  assert.deepEqual(
    wktSpatialReference(ogcUtm.replace('"false_northing",0', '"false_northing",10000000')),
    { wkid: 32737, xShift: 0 },
  );
  assert.deepEqual(
    wktSpatialReference(ogcUtm.replace(/\]$/, ',AUTHORITY["EPSG","32637"]]')),
    { wkid: 32637, xShift: 0 },
  );
  const pseudo = 'PROJCS["WGS 84 / Pseudo-Mercator",GEOGCS["WGS 84",DATUM["WGS_1984",' +
    'SPHEROID["WGS 84",6378137,298.257223563]],PRIMEM["Greenwich",0],UNIT["degree",0.0174532925199433]],' +
    'PROJECTION["Mercator_1SP"],PARAMETER["central_meridian",0],PARAMETER["scale_factor",1],' +
    'PARAMETER["false_easting",0],PARAMETER["false_northing",0],UNIT["metre",1],AUTHORITY["EPSG","3857"]]';
  assert.deepEqual(wktSpatialReference(pseudo), { wkid: 3857, xShift: 0 });
  // Without its authority, that WKT is the ellipsoidal World Mercator.
  assert.deepEqual(wktSpatialReference(pseudo.replace(/,AUTHORITY\["EPSG","3857"\]\]$/, "]")), {
    wkid: 3395,
    xShift: 0,
  });
  assert.throws(
    () => wktSpatialReference(lambert93),
    /Lambert_Conformal_Conic_2SP is not supported/,
  );
  assert.throws(
    () =>
      wktSpatialReference(sdkWebMercator(0).replace('"False_Easting",0.0', '"False_Easting",5.0')),
    /Mercator.*not supported/,
  );
  assert.throws(() => wktSpatialReference("PROJCS[nonsense"), /cannot be read/);
  assert.throws(() => wktSpatialReference("PROJCS[]"), InvalidRequestError);
});
