/**
 * Layer data sources, each a plug-in behind `FeatureSource` (source.ts):
 * GeoPackage files, GeoJSON, Shapefiles, FlatGeobuf, live PostGIS tables, Natural Earth countries
 * from world-atlas, and the live competitions layer of the recruitment catalogue.
 *
 * @module
 */
export type { FeatureQuery, FeatureSource } from "./source.ts";
export {
  type GeoPackageLayerInfo,
  type GeoPackageOptions,
  listGeoPackageLayers,
  openGeoPackage,
} from "./geopackage.ts";
export {
  type GpkgFeatureInput,
  type GpkgFieldDef,
  type GpkgLayerDef,
  writeGeoPackageLayer,
} from "./geopackage_writer.ts";
export { type GeoJsonOptions, geoJsonSource, openGeoJsonFile } from "./geojson.ts";
export {
  encodingLabel,
  openShapefile,
  readDbf,
  readShp,
  ShapefileError,
  type ShapefileOptions,
} from "./shapefile.ts";
export {
  FlatGeobufError,
  type FlatGeobufOptions,
  openFlatGeobuf,
  readFlatGeobuf,
} from "./flatgeobuf.ts";
export { expandUrl, openPostgis, type PostgisOptions } from "./postgis.ts";
export { openWorldAtlas, type WorldAtlasOptions, type WorldAtlasScale } from "./world_atlas.ts";
export { COMPETITION_ID_ALIAS, type CompetitionCatalog, openCompetitions } from "./competitions.ts";
