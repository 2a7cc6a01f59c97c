/**
 * The HTML Services Directory of the REST face (`f=html`, the default
 * format), as ArcGIS Server 10.3 serves it: pages for the catalog, each
 * service, its legend, its layers and each layer, and the forms of export, query,
 * identify and find with their results below. Every page is written from
 * the same answer `f=json` gives (operations run exactly as for JSON), and
 * every value reaches the page through the escaping `markup` template.
 *
 * Adding a page: write a function of the call (and the endpoint, to run
 * it) returning the page's text, and map the endpoint to it in
 * {@link HTML_PAGES}. Endpoints without a page show their JSON in a page.
 *
 * @module
 */
import type { RestCall, RestEndpoint } from "../endpoint.ts";
import type { RestReply } from "../reply.ts";
import { SERVICE_ENDPOINTS } from "../_services.ts";
import { LAYER_ENDPOINTS } from "../_layers.ts";
import { QUERY_ENDPOINTS } from "../_query.ts";
import { EXPORT_ENDPOINT } from "../_export.ts";
import { FIND_ENDPOINT, IDENTIFY_ENDPOINT } from "../_search.ts";
import { LEGEND_ENDPOINT } from "../_legend.ts";
import type { Json } from "./_show.ts";
import { legendPage, servicePage, servicesPage } from "./_service_pages.ts";
import { allLayersPage, layerPage } from "./_layer_pages.ts";
import { mapOperationPage, queryPage } from "./_operations.ts";

export { escapeHtml, Html, markup } from "../../markup.ts";
export { errorPage } from "./_error_page.ts";

/** Writes the `f=html` page of a call on `endpoint`. */
export type HtmlPage = (call: RestCall, endpoint: RestEndpoint) => Promise<string>;

/** A page written from the endpoint's JSON answer. */
function fromJson(write: (call: RestCall, value: Json) => string): HtmlPage {
  return async (call, endpoint) =>
    write(call, await endpoint.handle({ ...call, format: "json" }) as Json);
}

function endpoint(list: readonly RestEndpoint[], path: string): RestEndpoint {
  const hit = list.find((e) => e.path === path);
  if (!hit) throw new Error(`No REST endpoint ${path}`);
  return hit;
}

/** The directory's page of each endpoint that has one. */
export const HTML_PAGES: ReadonlyMap<RestEndpoint, HtmlPage> = new Map<RestEndpoint, HtmlPage>([
  [endpoint(SERVICE_ENDPOINTS, "/services"), fromJson(servicesPage)],
  [endpoint(SERVICE_ENDPOINTS, "/services/:service/MapServer"), fromJson(servicePage)],
  [endpoint(LAYER_ENDPOINTS, "/services/:service/MapServer/layers"), fromJson(allLayersPage)],
  [endpoint(LAYER_ENDPOINTS, "/services/:service/MapServer/:layer(\\d+)"), fromJson(layerPage)],
  [endpoint(QUERY_ENDPOINTS, "/services/:service/MapServer/:layer(\\d+)/query"), queryPage],
  [LEGEND_ENDPOINT, fromJson(legendPage)],
  [EXPORT_ENDPOINT, (call, e) => mapOperationPage(call, e, "export")],
  [IDENTIFY_ENDPOINT, (call, e) => mapOperationPage(call, e, "identify")],
  [FIND_ENDPOINT, (call, e) => mapOperationPage(call, e, "find")],
]);

/**
 * A page as a REST reply.
 *
 * @example
 * ```ts
 * import { htmlReply } from "./mod.ts";
 * htmlReply("<!DOCTYPE html><title>x</title>").contentType; // "text/html; charset=utf-8"
 * ```
 */
export function htmlReply(page: string): RestReply {
  return { status: 200, contentType: "text/html; charset=utf-8", body: page };
}
