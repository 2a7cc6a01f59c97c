/**
 * The WFS face (OGC WFS 2.0.0 and 1.1.0) of the map services, at ArcGIS
 * Server's URL for a MapServer's WFS capability,
 * `/arcgis/services/{Service}/MapServer/WFSServer`: GetCapabilities,
 * DescribeFeatureType, GetFeature (KVP, or an XML body), and for 2.0.0
 * GetPropertyValue and the GetFeatureById stored query, answered by the same query operations
 * (map/ops) the SOAP and REST faces call. Every refusal is an OWS
 * ExceptionReport; nothing here knows HTTP beyond a status and a content
 * type.
 *
 * @module
 */
import type { MapServer, RequestUrls } from "../mod.ts";
import { InvalidRequestError, ServerBusyError } from "../errors.ts";
import { exceptionReport, WfsError } from "./_exception.ts";
import { findType, wfsScope } from "./_feature_types.ts";
import { kvpRequest, type WfsRequest, type WfsVersion, xmlRequest } from "./_request.ts";
import type { WfsReply } from "./_reply.ts";
import { getCapabilities } from "./capabilities.ts";
import { describeFeatureType } from "./describe.ts";
import { getFeature, getFeatureById, getPropertyValue } from "./get_feature.ts";
import { describeStoredQueries, GET_FEATURE_BY_ID, listStoredQueries } from "./_stored_queries.ts";

export type { WfsReply } from "./_reply.ts";
export { exceptionReport, WfsError } from "./_exception.ts";

/** What the WFS face uses of the map server. */
export type WfsMapServer = Pick<MapServer, "service" | "services" | "operationContext">;

/** A WFS request as it came: key-value parameters, or an XML body. */
export type WfsInput = { query: URLSearchParams } | { xml: string };

/** Options of {@link answerWfs}. */
export interface WfsOptions {
  /** Called with unexpected errors (logging). */
  onError?: (error: unknown) => void;
}

const VERSIONS: readonly WfsVersion[] = ["2.0.0", "1.1.0"];

/**
 * The WFS URL of a service, from the public base URL.
 *
 * @example
 * ```ts
 * wfsEndpoint("World", { baseUrl: "http://localhost:8000" });
 * // "http://localhost:8000/arcgis/services/World/MapServer/WFSServer"
 * ```
 */
export function wfsEndpoint(serviceName: string, urls: RequestUrls): string {
  return `${urls.baseUrl}/arcgis/services/${encodeURIComponent(serviceName)}/MapServer/WFSServer`;
}

/** The version of a request: 2.0.x is 2.0.0; GetCapabilities negotiates by AcceptVersions. */
function negotiate(r: WfsRequest): WfsVersion {
  const isCaps = r.request.toLowerCase() === "getcapabilities";
  if (isCaps && r.acceptVersions) {
    const v = r.acceptVersions.map((a) => (/^2\.0(\.\d+)?$/.test(a) ? "2.0.0" : a)).find((a) =>
      VERSIONS.includes(a as WfsVersion)
    );
    if (!v) {
      throw new WfsError(
        "VersionNegotiationFailed",
        `None of the versions ${
          r.acceptVersions.join(", ")
        } is served; this WFS speaks 2.0.0 and 1.1.0.`,
        "AcceptVersions",
      );
    }
    return v as WfsVersion;
  }
  if (r.version === undefined) return "2.0.0";
  if (/^2\.0(\.\d+)?$/.test(r.version)) return "2.0.0";
  if (r.version === "1.1.0" || r.version === "1.1") return "1.1.0";
  // GetCapabilities answers in the newest version when the one asked for is not served.
  if (isCaps) return "2.0.0";
  throw new WfsError(
    "InvalidParameterValue",
    `VERSION "${r.version}" is not served; use 2.0.0 or 1.1.0.`,
    "VERSION",
  );
}

/** The version an exception report is written in, from a request that may not parse. */
function reportVersion(input: WfsInput): WfsVersion {
  if ("query" in input) {
    for (const [k, v] of input.query) {
      if (k.toUpperCase() === "VERSION" && v.trim() === "1.1.0") return "1.1.0";
    }
  } else if (/\bversion\s*=\s*["']1\.1\.0["']/.test(input.xml.slice(0, 2000))) return "1.1.0";
  return "2.0.0";
}

/** The same KVP request from `start` on. */
function pager(query: URLSearchParams, endpoint: string): (start: number) => string {
  return (start) => {
    const q = new URLSearchParams();
    for (const [k, v] of query) if (k.toUpperCase() !== "STARTINDEX") q.append(k, v);
    q.append("STARTINDEX", String(start));
    return `${endpoint}?${q}`;
  };
}

/**
 * Answers one WFS request to service `serviceName`.
 *
 * @example
 * ```ts ignore
 * const reply = await answerWfs(maps, "Recruitment",
 *   { query: new URLSearchParams("SERVICE=WFS&REQUEST=GetCapabilities") },
 *   { baseUrl: "http://localhost:8000" });
 * ```
 */
export async function answerWfs(
  maps: WfsMapServer,
  serviceName: string,
  input: WfsInput,
  urls: RequestUrls,
  opts: WfsOptions = {},
): Promise<WfsReply> {
  let version = reportVersion(input);
  try {
    const service = maps.service(serviceName);
    if (!service) {
      throw new WfsError(
        "InvalidParameterValue",
        `Service "${serviceName}" does not exist. Published services: ${
          maps.services.map((s) => s.name).join(", ") || "none"
        }.`,
        "service",
        404,
      );
    }
    const r = "query" in input ? kvpRequest(input.query) : xmlRequest(input.xml);
    version = negotiate(r);
    if (
      r.service !== undefined && r.service.trim() !== "" && r.service.trim().toUpperCase() !== "WFS"
    ) {
      throw new WfsError(
        "InvalidParameterValue",
        `SERVICE "${r.service}" is not served here; this is a WFS (SERVICE=WFS).`,
        "SERVICE",
      );
    }
    const endpoint = wfsEndpoint(service.name, urls);
    const scope = wfsScope(service, maps.operationContext(service, urls), endpoint);
    const v2 = version === "2.0.0";
    switch (r.request.toLowerCase()) {
      case "getcapabilities":
        return getCapabilities(scope, version);
      case "describefeaturetype":
        return describeFeatureType(
          scope,
          (r.typeNames ?? []).map((n) => findType(scope, n, v2 ? "TYPENAMES" : "TYPENAME")),
          version,
        );
      case "getfeature": {
        const gf = r.getFeature!;
        if (gf.storedQuery && v2) {
          if (gf.storedQuery.id !== GET_FEATURE_BY_ID) {
            throw new WfsError(
              "InvalidParameterValue",
              `Stored query "${gf.storedQuery.id}" does not exist; the one stored query is ${GET_FEATURE_BY_ID}.`,
              "STOREDQUERY_ID",
            );
          }
          const id = gf.storedQuery.params.get("ID");
          if (!id) throw new WfsError("MissingParameterValue", "ID is missing.", "ID");
          return getFeatureById(
            scope,
            id,
            gf.storedQuery.params.get("SRSNAME"),
            gf.outputFormat,
          );
        }
        return await getFeature(scope, gf, {
          version,
          pageUrl: "query" in input ? pager(input.query, endpoint) : undefined,
        });
      }
      case "getpropertyvalue":
        if (!v2) break;
        if (!r.valueReference) {
          throw new WfsError(
            "MissingParameterValue",
            "VALUEREFERENCE is missing.",
            "VALUEREFERENCE",
          );
        }
        return await getPropertyValue(scope, r.getFeature!, r.valueReference, {
          pageUrl: "query" in input ? pager(input.query, endpoint) : undefined,
        });
      case "liststoredqueries":
        if (v2) return listStoredQueries(scope);
        break;
      case "describestoredqueries":
        if (v2) return describeStoredQueries(scope, r.storedQueryIds ?? []);
        break;
    }
    throw new WfsError(
      "OperationNotSupported",
      `REQUEST "${r.request}" is not supported; use GetCapabilities, DescribeFeatureType or GetFeature${
        v2 ? " (or GetPropertyValue, ListStoredQueries, DescribeStoredQueries)" : ""
      }.`,
      r.requestLocator,
    );
  } catch (e) {
    if (e instanceof WfsError) return exceptionReport(e, version);
    if (e instanceof ServerBusyError) {
      return exceptionReport(new WfsError("NoApplicableCode", e.message, undefined, 503), version);
    }
    // The engine's own refusals (a where clause it cannot run, a shape it cannot project).
    if (e instanceof InvalidRequestError) {
      return exceptionReport(new WfsError("InvalidParameterValue", e.message), version);
    }
    opts.onError?.(e);
    return exceptionReport(
      new WfsError(
        "NoApplicableCode",
        "The server failed to answer this request; it has been logged.",
        undefined,
        500,
      ),
      version,
    );
  }
}
