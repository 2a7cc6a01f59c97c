/**
 * Predicate and projection speed on real outlines (Natural Earth 50m
 * Russia, ~7,400 vertices): the costs Identify and spatial queries pay
 * per candidate feature.
 * Run: deno bench --allow-all map/geo/relate_bench.ts
 *
 * @module
 */
import { openWorldAtlas } from "../sources/world_atlas.ts";
import { contains, geometryDistance, intersects, touches, within } from "./relate.ts";
import { projectGeometry } from "./projection.ts";
import type { Geometry } from "../types.ts";

const countries = await openWorldAtlas({ scale: "50m" });
const all = countries.query({});
const russia = all.find((f) => f.attributes.name === "Russia")!.geometry!;
const kazakhstan = all.find((f) => f.attributes.name === "Kazakhstan")!.geometry!;
const moscow: Geometry = { type: "Point", x: 37.6173, y: 55.7558 };
const box: Geometry = { type: "Envelope", xmin: 30, ymin: 50, xmax: 40, ymax: 60 };

Deno.bench("intersects: point in Russia", () => {
  intersects(moscow, russia);
});
Deno.bench("intersects: 10°×10° box and Russia", () => {
  intersects(box, russia);
});
Deno.bench("within: 10°×10° box in Russia (full matrix)", () => {
  within(box, russia);
});
Deno.bench("contains: box contains Russia (bbox short cut)", () => {
  contains(box, russia);
});
Deno.bench("touches: Russia and Kazakhstan", () => {
  touches(russia, kazakhstan);
});
Deno.bench("distance: point 3 px outside a coast", () => {
  geometryDistance({ type: "Point", x: 20, y: 70 }, russia);
});
Deno.bench("project Russia 4326 → 3857", () => {
  projectGeometry(russia, 4326, 3857);
});
