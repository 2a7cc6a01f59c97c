/**
 * The frame of every page of the HTML Services Directory (`f=html`), laid
 * out as ArcGIS Server 10.3 lays out its REST Services Directory: the
 * banner, the breadcrumb (Home > services > S (MapServer) > layer > query),
 * the "JSON" link to the same resource as `f=pjson`, then the content.
 * Also the links between pages, which carry our `mapName` parameter along.
 * Pages hold no script: forms submit with plain GET (or POST).
 *
 * @module
 */
import { Html, markup } from "../../markup.ts";

/** One step of the breadcrumb; the last (the page itself) has no link. */
export interface Crumb {
  label: string;
  href?: string;
}

/** What one directory page shows. */
export interface DirectoryPage {
  /** The window title and the page's heading. */
  title: string;
  crumbs: readonly Crumb[];
  /** The same resource as indented JSON (`?f=pjson`). */
  jsonHref: string;
  body: Html;
}

const STYLE = `
body{font-family:Verdana,Arial,sans-serif;font-size:13px;margin:0;color:#000}
#banner{background:#2f5597;color:#fff;padding:6px 12px;font-size:16px;font-weight:bold}
#nav{background:#e6ecf5;padding:4px 12px;border-bottom:1px solid #9ab}
#nav a{color:#003}
main{padding:8px 16px}
h2{font-size:16px;margin:8px 0}
a{color:#0033a0}
.formats{margin:4px 0 12px}
ul{margin:2px 0 6px;padding-left:24px}
.indent{padding-left:24px}
table.form{border-collapse:collapse}
table.form td{padding:2px 6px;vertical-align:top}
table.form td.label{text-align:right;white-space:nowrap;font-weight:bold}
table.form input[type=text],table.form textarea,table.form select{width:32em;max-width:90vw}
table.form .hint{color:#555;font-size:11px}
table.results{border-collapse:collapse;margin:6px 0}
table.results th,table.results td{border:1px solid #9ab;padding:2px 6px;text-align:left;vertical-align:top}
table.results th{background:#e6ecf5}
.error{color:#b00000;border:1px solid #b00000;padding:6px;margin:8px 0}
.null{color:#777}
`;

/**
 * The whole page, as HTML text.
 *
 * @example
 * ```ts
 * import { markup } from "../../markup.ts";
 * import { directoryPage } from "./page.ts";
 * directoryPage({
 *   title: "Folder: /",
 *   crumbs: [{ label: "Home", href: "/arcgis/rest/services" }, { label: "services" }],
 *   jsonHref: "/arcgis/rest/services?f=pjson",
 *   body: markup`<p>Current Version: 10.3</p>`,
 * });
 * ```
 */
export function directoryPage(page: DirectoryPage): string {
  const crumbs = page.crumbs.map((c, i) => {
    const sep = i === 0 ? "" : markup` &gt; `;
    return c.href ? markup`${sep}<a href="${c.href}">${c.label}</a>` : markup`${sep}${c.label}`;
  });
  return markup`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>${page.title}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<style>${new Html(STYLE)}</style></head>
<body>
<div id="banner">ArcGIS REST Services Directory</div>
<nav id="nav" aria-label="Breadcrumb">${crumbs}</nav>
<main>
<div class="formats"><a href="${page.jsonHref}">JSON</a></div>
<h2>${page.title}</h2>
${page.body}
</main>
</body></html>
`.text;
}

/** The REST path of a service (`/services/{S}/MapServer`), its name percent-encoded. */
export function servicePath(service: string): string {
  return `/services/${encodeURIComponent(service)}/MapServer`;
}

/**
 * URLs of directory pages: `/arcgis/rest` + path + parameters, with the
 * map the page shows (`mapName`) carried along when the request named one.
 *
 * @example
 * ```ts
 * import { Links } from "./page.ts";
 * new Links("WebMercator").href("/services/S/MapServer/0", { f: "pjson" });
 * // "/arcgis/rest/services/S/MapServer/0?f=pjson&mapName=WebMercator"
 * ```
 */
export class Links {
  /** Links for a page showing map `mapName` (undefined: the service's default map). */
  constructor(readonly mapName?: string) {}

  /** The URL of `path` (under `/arcgis/rest`, already encoded) with `params` (blank ones left out). */
  href(path: string, params: Readonly<Record<string, string | undefined>> = {}): string {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== "") q.set(k, v);
    if (this.mapName !== undefined) q.set("mapName", this.mapName);
    const query = q.toString();
    return `/arcgis/rest${path}${query ? `?${query}` : ""}`;
  }

  /** The breadcrumb down to a service page (`Home > services > S (MapServer)`). */
  crumbs(service?: string): Crumb[] {
    // The catalog shows every service, whatever map a page showed.
    const out: Crumb[] = [
      { label: "Home", href: "/arcgis/rest/services" },
      { label: "services", href: "/arcgis/rest/services" },
    ];
    if (service !== undefined) {
      out.push({ label: `${service} (MapServer)`, href: this.href(servicePath(service)) });
    }
    return out;
  }
}
