import assert from "node:assert/strict";
import { assertAlmostEquals } from "../../tests/_geo_asserts.ts";
import {
  computeDistance,
  geodesicDistance,
  geodesicInverse,
  geodesicLength,
  planarDistance,
} from "./geodesic.ts";
import { projectPoint } from "./projection.ts";

const MOSCOW: [number, number] = [37.6173, 55.7558];
const ST_PETERSBURG: [number, number] = [30.3351, 59.9343];

Deno.test("Moscow to St Petersburg is about 634 km on the ellipsoid", () => {
  const d = geodesicDistance(MOSCOW, ST_PETERSBURG);
  assert.ok(d > 633_000 && d < 636_000, `got ${d}`);
  assertAlmostEquals(
    computeDistance(MOSCOW, ST_PETERSBURG, { wkid: 4326, units: "esriKilometers" }),
    d / 1000,
    1e-9,
  );
});

Deno.test("GeographicLib's published test geodesics are reproduced", () => {
  // (lat1, lon1, lat2, lon2, azi1, azi2, s12, a12) from GeographicLib's geodesic test suite.
  const cases = [
    [
      35.60777,
      -139.44815,
      -11.17491,
      -69.95921,
      111.098748429560326,
      129.289270889708762,
      8935244.5604818305,
      80.50729714281974,
    ],
    [
      55.52454,
      106.05087,
      77.03196,
      197.18234,
      22.020059880982801,
      109.112041110671519,
      4105086.1713924406,
      36.892740690445894,
    ],
    [
      -21.97856,
      142.59065,
      41.84138,
      98.56635,
      -32.44456876433189,
      -41.84359951440466,
      8394328.894657671,
      75.62930491011522,
    ],
  ];
  for (const [lat1, lon1, lat2, lon2, azi1, azi2, s12, a12] of cases) {
    const r = geodesicInverse([lon1, lat1], [lon2, lat2]);
    assertAlmostEquals(r.distanceMeters, s12, 1e-6);
    assertAlmostEquals(r.arcDegrees, a12, 1e-9);
    assertAlmostEquals(r.azimuth1, azi1, 1e-9);
    assertAlmostEquals(r.azimuth2 - 360 * Math.round((r.azimuth2 - azi2) / 360), azi2, 1e-9);
  }
  // The JFK–LHR example of GeographicLib's documentation.
  assertAlmostEquals(geodesicDistance([-73.8, 40.6], [-0.5, 51.6]), 5551759.400319, 1e-5);
});

Deno.test("a degree of the equator is 111.32 km and paths add up", () => {
  assertAlmostEquals(geodesicDistance([0, 0], [1, 0]), 111319.49079327357, 1e-6);
  assertAlmostEquals(geodesicLength([[0, 0], [1, 0], [2, 0]]), 2 * 111319.49079327357, 1e-6);
  assert.equal(geodesicLength([[5, 5]]), 0);
});

Deno.test("every unit is available for a geodesic distance", () => {
  const m = geodesicDistance(MOSCOW, ST_PETERSBURG);
  const opts = (units: Parameters<typeof computeDistance>[2]["units"]) => ({ wkid: 4326, units });
  assertAlmostEquals(computeDistance(MOSCOW, ST_PETERSBURG, opts("esriMiles")), m / 1609.344, 1e-9);
  assertAlmostEquals(
    computeDistance(MOSCOW, ST_PETERSBURG, opts("esriNauticalMiles")),
    m / 1852,
    1e-9,
  );
  assertAlmostEquals(computeDistance(MOSCOW, ST_PETERSBURG, opts("esriFeet")), m / 0.3048, 1e-6);
  assertAlmostEquals(computeDistance(MOSCOW, ST_PETERSBURG, opts("esriInches")), m / 0.0254, 1e-4);
  assertAlmostEquals(
    computeDistance(MOSCOW, ST_PETERSBURG, opts("esriPoints")),
    (m / 0.0254) * 72,
    1e-2,
  );
  assertAlmostEquals(computeDistance(MOSCOW, ST_PETERSBURG, opts("esriYards")), m / 0.9144, 1e-6);
  assertAlmostEquals(
    computeDistance(MOSCOW, ST_PETERSBURG, opts("esriMillimeters")),
    m * 1000,
    1e-3,
  );
  assertAlmostEquals(
    computeDistance(MOSCOW, ST_PETERSBURG, opts("esriCentimeters")),
    m * 100,
    1e-4,
  );
  assertAlmostEquals(computeDistance(MOSCOW, ST_PETERSBURG, opts("esriDecimeters")), m * 10, 1e-5);
  assertAlmostEquals(computeDistance(MOSCOW, ST_PETERSBURG, opts("esriMeters")), m, 1e-9);
  assertAlmostEquals(computeDistance(MOSCOW, ST_PETERSBURG, opts("esriUnknownUnits")), m, 1e-9);
  const deg = computeDistance(MOSCOW, ST_PETERSBURG, opts("esriDecimalDegrees"));
  assert.ok(deg > 5.6 && deg < 5.8, `arc of ${deg}°`);
});

Deno.test("projected maps measure planar by default, geodesic on request", () => {
  assert.equal(planarDistance([0, 0], [3, 4]), 5);
  assert.equal(computeDistance([0, 0], [3000, 4000], { wkid: 102100, units: "esriKilometers" }), 5);
  const a = projectPoint(MOSCOW, 4326, 3857);
  const b = projectPoint(ST_PETERSBURG, 4326, 3857);
  const planar = computeDistance(a, b, { wkid: 3857, units: "esriMeters" });
  const true_ = computeDistance(a, b, { wkid: 3857, units: "esriMeters", method: "geodesic" });
  assertAlmostEquals(true_, geodesicDistance(MOSCOW, ST_PETERSBURG), 1e-3);
  // Mercator stretches by about 1/cos(58°) at these latitudes.
  assert.ok(planar / true_ > 1.7 && planar / true_ < 2);
});

Deno.test("impossible distance requests fail with a reason", () => {
  assert.throws(
    () => computeDistance([0, 0], [1, 1], { wkid: 4326, units: "esriMeters", method: "planar" }),
    /degrees measure an angle/,
  );
  assert.throws(
    () => computeDistance([0, 0], [0, 91], { wkid: 4326, units: "esriMeters" }),
    /latitude 91 is outside -90..90/,
  );
  assert.throws(
    () => computeDistance([0, NaN], [0, 1], { wkid: 4326, units: "esriMeters" }),
    /not a finite number/,
  );
  assert.throws(
    () => computeDistance([0, 0], [1, 1], { wkid: 999999, units: "esriMeters" }),
    /units of spatial reference 999999 are unknown/,
  );
});
