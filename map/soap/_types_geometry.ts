/**
 * Type table, part 1: geometry, spatial reference and time (spec §3 H, I, J).
 *
 * @module
 */
import { abstract, complex, ext, type TypeDef } from "./schema.ts";

/** Geometry types (§3-H). `Geometry` itself is concrete and empty. */
export const GEOMETRY_TYPES: readonly TypeDef[] = [
  complex("Geometry", ""),
  abstract("Point", "", "Geometry"),
  ext(
    "Point",
    "PointN",
    "X:double Y:double M:double? Z:double? ID:int? SpatialReference:SpatialReference?",
  ),
  ext("Point", "PointB", "Bytes:base64Binary"),
  abstract("Multipoint", "", "Geometry"),
  ext(
    "Multipoint",
    "MultipointN",
    "HasID:boolean HasZ:boolean HasM:boolean Extent:Envelope? PointArray:ArrayOfPoint? " +
      "SpatialReference:SpatialReference?",
  ),
  ext("Multipoint", "MultipointB", "Bytes:base64Binary"),
  abstract("Curve", "", "Geometry"),
  abstract("Segment", "FromPoint:Point ToPoint:Point", "Curve"),
  ext("Segment", "Line"),
  ext(
    "Segment",
    "CircularArc",
    "CenterPoint:Point FromAngle:double? ToAngle:double? IsCounterClockwise:boolean " +
      "IsMinor:boolean IsLine:boolean",
  ),
  ext(
    "Segment",
    "EllipticArc",
    "EllipseStd:boolean CenterPoint:Point Rotation:double MinorMajorRatio:double " +
      "IsCounterClockwise:boolean IsMinor:boolean",
  ),
  ext("Segment", "BezierCurve", "Degree:int ControlPointArray:ArrayOfPoint"),
  ext("Curve", "Path", "PointArray:ArrayOfPoint? SegmentArray:ArrayOfSegment?"),
  ext("Path", "Ring"),
  abstract("Polycurve", "", "Curve"),
  abstract("Polyline", "", "Polycurve"),
  ext(
    "Polyline",
    "PolylineN",
    "HasID:boolean HasZ:boolean HasM:boolean Extent:Envelope? PathArray:ArrayOfPath " +
      "SpatialReference:SpatialReference?",
  ),
  ext("Polyline", "PolylineB", "Bytes:base64Binary"),
  abstract("Polygon", "", "Polycurve"),
  ext(
    "Polygon",
    "PolygonN",
    "HasID:boolean HasZ:boolean HasM:boolean Extent:Envelope? RingArray:ArrayOfRing " +
      "SpatialReference:SpatialReference?",
  ),
  ext("Polygon", "PolygonB", "Bytes:base64Binary"),
  abstract("Envelope", "", "Geometry"),
  ext(
    "Envelope",
    "EnvelopeN",
    "XMin:double YMin:double XMax:double YMax:double ZMin:double? ZMax:double? MMin:double? " +
      "MMax:double? SpatialReference:SpatialReference?",
  ),
  ext("Envelope", "EnvelopeB", "Bytes:base64Binary"),
  abstract("MultiPatch", "", "Geometry"),
  ext(
    "MultiPatch",
    "MultiPatchN",
    "HasID:boolean HasZ:boolean HasM:boolean Extent:Envelope SurfacePatchArray:ArrayOfSurfacePatch",
  ),
  ext("MultiPatch", "MultiPatchB", "Bytes:base64Binary"),
  ext("Geometry", "TriangleFan", "PointArray:ArrayOfPoint?"),
  ext("Geometry", "TriangleStrip", "PointArray:ArrayOfPoint?"),
  ext("Geometry", "Triangles", "PointArray:ArrayOfPoint?"),
];

/** Spatial reference types (§3-I). */
export const SPATIAL_REFERENCE_TYPES: readonly TypeDef[] = [
  abstract(
    "SpatialReference",
    "WKT:string? XOrigin:double? YOrigin:double? XYScale:double? ZOrigin:double? ZScale:double? " +
      "MOrigin:double? MScale:double? XYTolerance:double? ZTolerance:double? MTolerance:double? " +
      "HighPrecision:boolean? LeftLongitude:double? WKID:int? LatestWKID:int? VCSWKID:int? " +
      "LatestVCSWKID:int?",
  ),
  ext("SpatialReference", "GeographicCoordinateSystem"),
  ext("SpatialReference", "ProjectedCoordinateSystem"),
  ext("SpatialReference", "UnknownCoordinateSystem"),
];

/** Time types (§3-J). */
export const TIME_TYPES: readonly TypeDef[] = [
  complex("TimeValue", "TimeReference:TimeReference?"),
  ext("TimeValue", "TimeInstant", "Time:dateTime"),
  ext("TimeValue", "TimeExtent", "StartTime:dateTime? EndTime:dateTime? Empty:boolean?=false"),
  complex(
    "TimeReference",
    "TimeZoneNameID:string RespectsDaylightSavingTime:boolean? " +
      "RespectsDynamicAdjustmentRules:boolean?",
  ),
];
