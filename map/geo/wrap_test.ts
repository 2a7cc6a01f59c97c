import assert from "node:assert/strict";
import {
  moveIntoWorld,
  shiftExtent,
  shiftGeometry,
  windowShifts,
  worldPeriod,
  worldShifts,
} from "./wrap.ts";
import { MERCATOR_HALF_WORLD } from "./projection.ts";

Deno.test("worldPeriod: geographic and Web Mercator wrap, other projections do not", () => {
  assert.equal(worldPeriod(4326), 360);
  assert.equal(worldPeriod(3857), 2 * MERCATOR_HALF_WORLD);
  assert.equal(worldPeriod(102100), 2 * MERCATOR_HALF_WORLD);
  assert.equal(worldPeriod(32637), 0);
});

Deno.test("worldShifts: the copies of a range that meet a window, at most three worlds away", () => {
  assert.deepEqual(worldShifts(-180, -170, 160, 200, 360), [360]);
  assert.deepEqual(worldShifts(-180, 180, -10, 10, 360), [0]);
  assert.deepEqual(worldShifts(-180, 180, 175, 185, 360), [0, 360]);
  assert.deepEqual(worldShifts(-180, 180, -5000, 5000, 360), [
    -1080,
    -720,
    -360,
    0,
    360,
    720,
    1080,
  ]);
  assert.deepEqual(worldShifts(0, 10, 20, 30, 0), [0]);
});

Deno.test("windowShifts: a window inside the world needs no copy; one past 180 also searches shifted back", () => {
  assert.deepEqual(windowShifts({ xmin: -10, ymin: 0, xmax: 10, ymax: 1 }, 4326), [0]);
  assert.deepEqual(windowShifts({ xmin: 175, ymin: 0, xmax: 185, ymax: 1 }, 4326), [0, 360]);
  assert.deepEqual(windowShifts({ xmin: -190, ymin: 0, xmax: -185, ymax: 1 }, 4326), [-360]);
  const h = MERCATOR_HALF_WORLD;
  assert.deepEqual(windowShifts({ xmin: h + 1, ymin: 0, xmax: h + 2, ymax: 1 }, 3857), [2 * h]);
  assert.deepEqual(windowShifts({ xmin: 1e9, ymin: 0, xmax: 2e9, ymax: 1 }, 32637), [0]);
});

Deno.test("shiftGeometry and shiftExtent move x only", () => {
  assert.deepEqual(shiftGeometry({ type: "Point", x: 185, y: -15 }, -360), {
    type: "Point",
    x: -175,
    y: -15,
  });
  assert.deepEqual(
    shiftGeometry({ type: "Polygon", rings: [[[0, 0], [1, 0], [1, 1], [0, 0]]] }, 10),
    { type: "Polygon", rings: [[[10, 0], [11, 0], [11, 1], [10, 0]]] },
  );
  assert.deepEqual(shiftExtent({ xmin: 175, ymin: 0, xmax: 185, ymax: 1 }, -360), {
    xmin: -185,
    ymin: 0,
    xmax: -175,
    ymax: 1,
  });
});

Deno.test("moveIntoWorld moves a geometry and brings its middle into the central world", () => {
  assert.deepEqual(moveIntoWorld({ type: "Point", x: -170, y: 5 }, -100, 360), {
    type: "Point",
    x: 90,
    y: 5,
  });
  assert.deepEqual(moveIntoWorld({ type: "Point", x: 30, y: 5 }, -100, 360), {
    type: "Point",
    x: -70,
    y: 5,
  });
  // A line across the moved frame's edge stays whole, on the side of its middle.
  assert.deepEqual(
    moveIntoWorld({ type: "Polyline", paths: [[[-85, 0], [-70, 0]]] }, -100, 360),
    { type: "Polyline", paths: [[[-185, 0], [-170, 0]]] },
  );
  assert.deepEqual(moveIntoWorld({ type: "Point", x: 1, y: 2 }, 5, 0), {
    type: "Point",
    x: 6,
    y: 2,
  });
});
