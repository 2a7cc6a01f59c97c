/**
 * Request and response elements of the 35 MapServer operations (spec §2),
 * in the order the WSDL lists them.
 *
 * @module
 */
import { operation, type OperationDef } from "./schema.ts";

const BY_MAP = "MapDescription:MapDescription MapImageDisplay:ImageDisplay";
const BY_NAME_LAYER = "MapName:string LayerID:int";

/** The MapServer operations. */
export const MAPSERVER_OPERATIONS: readonly OperationDef[] = [
  operation("GetDocumentInfo", "", "Result:PropertySet"),
  operation("GetMapCount", "", "Result:int"),
  operation("GetMapName", "Index:int", "Result:string"),
  operation("GetDefaultMapName", "", "Result:string"),
  operation("GetServerInfo", "MapName:string", "Result:MapServerInfo"),
  operation("GetSupportedImageReturnTypes", "", "Result:esriImageReturnType"),
  operation("IsFixedScaleMap", "MapName:string", "Result:boolean"),
  operation("GetSQLSyntaxInfo", BY_NAME_LAYER, "Result:SQLSyntaxInfo"),
  operation("GetServiceConfigurationInfo", "", "Result:PropertySet"),
  operation(
    "ExportMapImage",
    "MapDescription:MapDescription ImageDescription:ImageDescription",
    "Result:MapImage",
  ),
  operation(
    "ExportScaleBar",
    "ScaleBar:ScaleBar? MapDescription:MapDescription MapDisplay:ImageDisplay " +
      "BackGroundColor:Color? ImageDescription:ImageDescription",
    "Result:ImageResult",
  ),
  operation(
    "GetLegendInfo",
    "MapName:string LayerIDs:ArrayOfInt LegendPatch:MapServerLegendPatch ImageType:ImageType",
    "Result:ArrayOfMapServerLegendInfo",
  ),
  operation(
    "GetLegendInfo2",
    BY_MAP + " LayerIDs:ArrayOfInt LegendPatch:MapServerLegendPatch ImageType:ImageType",
    "Result:ArrayOfMapServerLegendInfo",
  ),
  operation(
    "Find",
    BY_MAP + " SearchString:string Contains:boolean SearchFields:string " +
      "FindOption:esriFindOption LayerIDs:ArrayOfInt",
    "Result:ArrayOfMapServerFindResult",
  ),
  operation(
    "Identify",
    BY_MAP + " SearchShape:Geometry Tolerance:int IdentifyOption:esriIdentifyOption " +
      "LayerIDs:ArrayOfInt",
    "Result:ArrayOfMapServerIdentifyResult",
  ),
  operation("QueryFeatureCount", BY_NAME_LAYER + " QueryFilter:QueryFilter", "Result:int"),
  operation("QueryFeatureIDs", BY_NAME_LAYER + " QueryFilter:QueryFilter", "Result:FIDSet"),
  operation("QueryFeatureData", BY_NAME_LAYER + " QueryFilter:QueryFilter", "Result:RecordSet"),
  operation(
    "QueryFeatureCount2",
    "MapName:string LayerDescription:LayerDescription QueryFilter:QueryFilter",
    "Result:int",
  ),
  operation(
    "QueryFeatureIDs2",
    "MapName:string LayerDescription:LayerDescription QueryFilter:QueryFilter",
    "Result:FIDSet",
  ),
  operation(
    "QueryFeatureData2",
    "MapName:string LayerDescription:LayerDescription QueryFilter:QueryFilter " +
      "QueryResultOptions:QueryResultOptions",
    "Result:QueryResult",
  ),
  operation("QueryHyperlinks", BY_MAP + " LayerIDs:ArrayOfInt", "Result:ArrayOfMapServerHyperlink"),
  operation("ComputeScale", BY_MAP, "Result:double"),
  operation(
    "ComputeDistance",
    "MapName:string FromPoint:Point ToPoint:Point Units:esriUnits",
    "Result:double",
  ),
  operation(
    "ToMapPoints",
    BY_MAP + " ScreenXValues:ArrayOfInt ScreenYValues:ArrayOfInt",
    "Result:Multipoint",
  ),
  operation(
    "FromMapPoints",
    BY_MAP + " MapPoints:Multipoint",
    "ScreenXValues:ArrayOfInt ScreenYValues:ArrayOfInt",
  ),
  operation("HasSingleFusedMapCache", "MapName:string", "Result:boolean"),
  operation("GetTileCacheInfo", "MapName:string", "Result:TileCacheInfo"),
  operation(
    "GetMapTile",
    "MapName:string Level:int Row:int Column:int Format:string?",
    "Result:base64Binary",
  ),
  operation("HasLayerCache", BY_NAME_LAYER, "Result:boolean"),
  operation(
    "GetLayerTile",
    BY_NAME_LAYER + " Level:int Row:int Column:int Format:string?",
    "Result:base64Binary",
  ),
  operation("GetVirtualCacheDirectory", BY_NAME_LAYER, "Result:string"),
  operation("GetCacheName", BY_NAME_LAYER, "Result:string"),
  operation("GetTileImageInfo", "MapName:string", "Result:TileImageInfo"),
  operation("GetCacheControlInfo", "MapName:string", "Result:CacheControlInfo"),
];
