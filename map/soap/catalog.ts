/**
 * The ArcGIS service catalog (`/arcgis/services`, port ServiceCatalogPort)
 * that ArcMap calls before opening a map service: its type table,
 * operations and handlers, answered from our list of services.
 *
 * @module
 */
import { array, complex, enumeration, operation, Schema } from "./schema.ts";
import type { Handler } from "./dispatch.ts";
import { SoapFault } from "./fault.ts";

/** The catalog schema (its own small type table). */
export const CATALOG_SCHEMA: Schema = new Schema(
  [
    enumeration(
      "esriServiceCatalogMessageFormat",
      "esriServiceCatalogMessageFormatSoap esriServiceCatalogMessageFormatBin " +
        "esriServiceCatalogMessageFormatSoapOrBin",
    ),
    complex(
      "ServiceDescription",
      "Name:string Type:string Url:string ParentType:string Capabilities:string Description:string",
    ),
    array("ArrayOfServiceDescription", "ServiceDescription", "ServiceDescription"),
    array("ArrayOfString", "String", "string"),
    enumeration(
      "esriArcGISVersion",
      "esriArcGISVersion83 esriArcGISVersion90 esriArcGISVersion92 esriArcGISVersion93 " +
        "esriArcGISVersion10 esriArcGISVersion101 esriArcGISVersion103 esriArcGISVersion104 " +
        "esriArcGISVersion105 esriArcGISVersion106 esriArcGISVersion107",
    ),
  ],
  [
    operation("GetMessageVersion", "", "MessageVersion:esriArcGISVersion"),
    operation("GetMessageFormats", "", "MessageFormats:esriServiceCatalogMessageFormat"),
    operation("GetTokenServiceURL", "", "TokenServiceURL:string"),
    operation("GetFolders", "", "FolderNames:ArrayOfString"),
    operation("GetServiceDescriptions", "", "ServiceDescriptions:ArrayOfServiceDescription"),
    operation("RequiresTokens", "", "Result:boolean"),
    operation(
      "GetServiceDescriptionsEx",
      "FolderName:string",
      "ServiceDescriptions:ArrayOfServiceDescription",
    ),
  ],
);

/** One published service as the catalog lists it. */
export interface CatalogEntry {
  name: string;
  description: string;
  /** Server type, e.g. "MapServer". */
  type: string;
  /** Comma list, e.g. "Map,Query,Data". */
  capabilities: string;
}

/** What catalog handlers need. */
export interface CatalogContext {
  entries: readonly CatalogEntry[];
  /** Public base URL (`http://host:port`), without trailing slash. */
  baseUrl: string;
}

function descriptions(ctx: CatalogContext): Record<string, unknown>[] {
  return ctx.entries.map((s) => ({
    Name: s.name,
    Type: s.type,
    Url: `${ctx.baseUrl}/arcgis/services/${encodeURIComponent(s.name)}/${s.type}`,
    ParentType: "",
    Capabilities: s.capabilities,
    Description: s.description,
  }));
}

/** Handlers of the catalog operations. Every service sits in the root folder. */
export const CATALOG_HANDLERS: Readonly<Record<string, Handler<CatalogContext>>> = {
  // Our messages follow the 10.3 schema whatever namespace the client used.
  GetMessageVersion: () => ({ MessageVersion: "esriArcGISVersion103" }),
  GetMessageFormats: () => ({ MessageFormats: "esriServiceCatalogMessageFormatSoap" }),
  GetTokenServiceURL: () => ({ TokenServiceURL: "" }),
  GetFolders: () => ({ FolderNames: [] }),
  GetServiceDescriptions: (_req, ctx) => ({ ServiceDescriptions: descriptions(ctx) }),
  RequiresTokens: () => ({ Result: false }),
  GetServiceDescriptionsEx: (req, ctx) => {
    const folder = typeof req.FolderName === "string"
      ? req.FolderName.trim().replace(/^\/+|\/+$/g, "")
      : "";
    if (folder !== "") {
      throw new SoapFault(
        "Client",
        `Folder "${folder}" does not exist; all services are in the root folder (FolderName "").`,
        { FolderName: folder },
      );
    }
    return { ServiceDescriptions: descriptions(ctx) };
  },
};
