/**
 * The HTML of the OGC API face (`f=html`, or browsers' `Accept`): one
 * small page per resource, every value going through `markup`, so a
 * reflected parameter, field value or error message is text, never markup.
 *
 * @module
 */
import { type Html, markup } from "../markup.ts";
import type { Link } from "./_collections.ts";
import type { GeoJsonFeature, ItemsPage } from "./_items.ts";

const STYLE = `body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:2px 6px;text-align:left;vertical-align:top}
th{background:#f3f3f3}pre{background:#f7f7f7;padding:.5em;overflow:auto;max-height:20em}nav a{margin-right:1em}`;

/**
 * A whole page: title, the links of the resource, and its body.
 *
 * @example
 * ```ts ignore
 * htmlPage("Conformance", links, markup`<ul>...</ul>`);
 * ```
 */
export function htmlPage(title: string, links: readonly Link[], body: Html): string {
  return markup`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>${STYLE}</style></head>
<body><h1>${title}</h1>
${body}
${linkList(links)}
</body></html>
`.text;
}

function linkList(links: readonly Link[]): Html {
  if (links.length === 0) return markup``;
  return markup`<h2>Links</h2><ul>${
    links.map((l) =>
      markup`<li><a href="${l.href}">${l.title ?? l.rel}</a> (${l.rel}${
        l.type ? `, ${l.type}` : ""
      })</li>`
    )
  }</ul>`;
}

/** A value in a table cell: objects as JSON text. */
function cell(v: unknown): string {
  if (v === null || v === undefined) return "";
  return typeof v === "object" ? JSON.stringify(v) : String(v);
}

/**
 * Key/value rows of an object.
 *
 * @example
 * ```ts ignore
 * propertiesTable({ title: "Cities", itemType: "feature" });
 * ```
 */
export function propertiesTable(values: Record<string, unknown>): Html {
  return markup`<table>${
    Object.entries(values).map(([k, v]) => markup`<tr><th>${k}</th><td>${cell(v)}</td></tr>`)
  }</table>`;
}

/**
 * Rows of records under the given columns, the first column linked when
 * `href` gives a link for a row.
 *
 * @example
 * ```ts ignore
 * recordsTable(["id", "title"], rows, (r) => `${base}/collections/${r.id}`);
 * ```
 */
export function recordsTable(
  columns: readonly string[],
  rows: readonly Record<string, unknown>[],
  href?: (row: Record<string, unknown>) => string,
): Html {
  return markup`<table><tr>${columns.map((c) => markup`<th>${c}</th>`)}</tr>${
    rows.map((r) =>
      markup`<tr>${
        columns.map((c, i) =>
          i === 0 && href
            ? markup`<td><a href="${href(r)}">${cell(r[c])}</a></td>`
            : markup`<td>${cell(r[c])}</td>`
        )
      }</tr>`
    )
  }</table>`;
}

/**
 * The body of an items page: counts, the features as a table, paging.
 *
 * @example
 * ```ts ignore
 * htmlPage("Cities: features", page.links, itemsBody(page, base));
 * ```
 */
export function itemsBody(page: ItemsPage, itemsHref: string): Html {
  const names = [...new Set(page.features.flatMap((f) => Object.keys(f.properties)))];
  const rows = page.features.map((f) => ({ id: f.id, ...f.properties }));
  // Paging stays in HTML: the next and prev links of the page, asked as HTML.
  const nav = page.links.filter((l) => l.rel === "next" || l.rel === "prev").map((l) => {
    const url = new URL(l.href);
    url.searchParams.set("f", "html");
    return markup`<a rel="${l.rel}" href="${url.href}">${l.title ?? l.rel}</a>`;
  });
  return markup`<p>${page.numberReturned} of ${page.numberMatched} features (${page.timeStamp}),
coordinates in ${page.crs.uri}.</p>
<nav>${nav}</nav>
${recordsTable(["id", ...names], rows, (r) => `${itemsHref}/${r.id}?f=html`)}`;
}

/**
 * The body of a single feature's page: its properties and its geometry.
 *
 * @example
 * ```ts ignore
 * htmlPage("Feature 3", f.links ?? [], featureBody(f));
 * ```
 */
export function featureBody(f: GeoJsonFeature): Html {
  return markup`${propertiesTable({ id: f.id, ...f.properties })}
<h2>Geometry</h2><pre>${JSON.stringify(f.geometry, null, 1)}</pre>`;
}

/**
 * The page of an exception: status, code and description, as text.
 *
 * @example
 * ```ts ignore
 * errorPage(404, "NotFound", "Collection 'x' does not exist.");
 * ```
 */
export function errorPage(status: number, code: string, description: string): string {
  return htmlPage(`Error ${status}: ${code}`, [], markup`<p>${description}</p>`);
}
