/**
 * The directory's page of an ArcGIS error (`f=html`): the message, code
 * and details in the directory's frame, as ArcGIS Server shows an unknown
 * service or layer to a browser.
 *
 * @module
 */
import { type Html, markup } from "../../markup.ts";
import { directoryPage } from "./page.ts";

/** An ArcGIS REST error body. */
export interface RestErrorBody {
  code: number;
  message: string;
  details: string[];
}

/**
 * The box showing an error: message, code, details.
 *
 * @example
 * ```ts
 * import { errorBox } from "./_error_page.ts";
 * errorBox({ code: 400, message: "Invalid where.", details: [] }).text;
 * ```
 */
export function errorBox(error: RestErrorBody): Html {
  const details = error.details.map((d) => markup`<br>${d}`);
  return markup`<div class="error" role="alert"><b>Error:</b> ${error.message}<br><b>Code:</b> ${error.code}${details}</div>`;
}

/**
 * The page of an ArcGIS REST error body.
 *
 * @example
 * ```ts
 * import { errorPage } from "./_error_page.ts";
 * errorPage({ code: 404, message: "Service 'Nope/MapServer' does not exist.", details: [] });
 * ```
 */
export function errorPage(error: RestErrorBody): string {
  return directoryPage({
    title: "Error",
    crumbs: [
      { label: "Home", href: "/arcgis/rest/services" },
      { label: "services", href: "/arcgis/rest/services" },
    ],
    jsonHref: "/arcgis/rest/services?f=pjson",
    body: errorBox(error),
  });
}
