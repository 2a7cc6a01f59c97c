import assert from "node:assert/strict";
import { assertAlmostEquals } from "../../tests/_geo_asserts.ts";
import {
  convertLength,
  displayMetersPerUnit,
  ESRI_UNITS,
  isLinearUnit,
  parseEsriUnits,
} from "./units.ts";

Deno.test("linear units convert with their international definitions", () => {
  assertAlmostEquals(convertLength(1, "esriMiles", "esriKilometers"), 1.609344, 1e-12);
  assertAlmostEquals(convertLength(1, "esriNauticalMiles", "esriMeters"), 1852, 1e-12);
  assertAlmostEquals(convertLength(1, "esriFeet", "esriInches"), 12, 1e-12);
  assertAlmostEquals(convertLength(1, "esriYards", "esriFeet"), 3, 1e-12);
  assertAlmostEquals(convertLength(1, "esriInches", "esriPoints"), 72, 1e-9);
  assertAlmostEquals(convertLength(1, "esriMeters", "esriDecimeters"), 10, 1e-12);
  assertAlmostEquals(convertLength(1, "esriCentimeters", "esriMillimeters"), 10, 1e-12);
  assert.equal(convertLength(634000, "esriMeters", "esriKilometers"), 634);
});

Deno.test("degrees and unknown units convert only to themselves", () => {
  assert.equal(convertLength(2, "esriDecimalDegrees", "esriDecimalDegrees"), 2);
  assert.equal(convertLength(2, "esriUnknownUnits", "esriUnknownUnits"), 2);
  assert.throws(
    () => convertLength(1, "esriDecimalDegrees", "esriMeters"),
    /esriDecimalDegrees to esriMeters: degrees measure an angle/,
  );
  assert.throws(() => convertLength(1, "esriMeters", "esriUnknownUnits"), /unit is unknown/);
});

Deno.test("every esriUnits value has a display factor and a lenient spelling", () => {
  for (const u of ESRI_UNITS) {
    assert.ok(displayMetersPerUnit(u) > 0);
    assert.equal(parseEsriUnits(u), u);
    assert.equal(parseEsriUnits(u.slice(4).toUpperCase()), u);
  }
  assert.equal(isLinearUnit("esriDecimalDegrees"), false);
  assert.equal(isLinearUnit("esriPoints"), true);
  assert.throws(() => parseEsriUnits("furlongs"), /Unknown unit "furlongs"; expected one of/);
});
