/**
 * Geometry, projection, display math, geodesy and units for the map server.
 * Pure functions, no I/O.
 *
 * @module
 */
export * from "./units.ts";
export * from "./display.ts";
export * from "./projection.ts";
export * from "./geodesic.ts";
export * from "./relate.ts";
export * from "./rings.ts";
export * from "./envelope.ts";
export * from "./antimeridian.ts";
