import assert from "node:assert/strict";
import { calendarDate, latitude, longitude, salaryAmount, timestamp } from "./values.ts";

Deno.test("values: calendar dates follow the Gregorian leap-year rule, years 0001-9999", () => {
  for (const d of ["2024-02-29", "2000-02-29", "0001-01-01", "9999-12-31", "2023-04-30"]) {
    assert.ok(calendarDate.test(d), d);
  }
  for (
    const d of ["2023-02-29", "1900-02-29", "2024-02-30", "2024-04-31", "2024-13-01", "0000-01-01"]
      .concat(["2024-00-10", "2024-01-00", "2024-1-01", "24-01-01", ""])
  ) assert.ok(!calendarDate.test(d), d);
});

Deno.test("values: timestamps need a real date, 00-23 hours, 00-59 minutes and seconds, six digits", () => {
  assert.ok(timestamp.test("2024-02-29T00:00:00.000000"));
  assert.ok(timestamp.test("2024-12-31T23:59:59.999999"));
  for (
    const t of [
      "9999-99-99T99:99:99.999999",
      "2024-02-30T10:00:00.000000",
      "2024-01-01T24:00:00.000000",
      "2024-01-01T10:60:00.000000",
      "2024-01-01T10:00:60.000000",
      "2024-01-01T10:00:00.00000",
      "2024-01-01T10:00:00",
      "2024-01-01 10:00:00.000000",
    ]
  ) assert.ok(!timestamp.test(t), t);
});

Deno.test("values: coordinates and salaries have ranges", () => {
  assert.deepEqual([90, -90, 0, 91, -90.000001, NaN].map(latitude.test), [
    true,
    true,
    true,
    false,
    false,
    false,
  ]);
  assert.deepEqual([180, -180, 181, -999].map(longitude.test), [true, true, false, false]);
  const ok = ["0.00", "0", "12345.6", "9999999999.99", "+5", ".5"];
  const bad = ["-0.01", "10000000000.00", "1e32", "1.234", "", ".", "abc"];
  for (const s of ok) assert.ok(salaryAmount.test(s), s);
  for (const s of bad) assert.ok(!salaryAmount.test(s), s);
});
