/**
 * The root page: a web map of the first map service (OpenLayers, bundled
 * from npm by `webmap/bundle.ts` and served from here, never a CDN) beside
 * links to the JSON API and the WSDLs. The map itself is `webmap/app.ts`;
 * this module writes the page, with the map's configuration as JSON, and
 * serves the bundled script and style sheet.
 *
 * @module
 */
import { type Route, route, type RouteHandler } from "./router.ts";
import { DRF_FACE } from "./_drf.ts";
import type { WebMapConfig } from "./webmap/_arcgis.ts";
import { type WebMapAssets, WebMapBundle } from "./webmap/bundle.ts";

/** A map service as the home page lists it. */
export interface HomeService {
  name: string;
  description: string;
  /** Names of the service's maps, its default map first (the page picks one by their service JSON). */
  maps: string[];
}

/** Options of {@link homeRoutes}. */
export interface HomeOptions {
  /** Where the map's script comes from (default: a new {@link WebMapBundle}). */
  bundle?: WebMapBundle;
}

/** Paths of the bundled script and style sheet. */
export const WEBMAP_SCRIPT = "/webmap/app.js";
export const WEBMAP_STYLE = "/webmap/app.css";

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Routes of the home page (`GET /` and `HEAD /`) and of the web map's
 * script and style sheet.
 *
 * @example
 * ```ts
 * const routes = homeRoutes([{ name: "Recruitment", description: "", maps: ["Layers", "WebMercator"] }]);
 * ```
 */
export function homeRoutes(services: readonly HomeService[], options: HomeOptions = {}): Route[] {
  const bundle = options.bundle ?? new WebMapBundle();
  const page = new TextEncoder().encode(homePage(services));
  const asset = (path: string, type: string, pick: (a: WebMapAssets) => Uint8Array): Route => {
    const handler: RouteHandler = async (req) => {
      let body: Uint8Array;
      try {
        body = pick(await bundle.assets());
      } catch (e) {
        console.error(e instanceof Error ? e.message : e);
        const text = "The web map's script is unavailable; the server log says why.\n";
        return new Response(req.method === "HEAD" ? null : text, {
          status: 503,
          headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
        });
      }
      return new Response(req.method === "HEAD" ? null : body as Uint8Array<ArrayBuffer>, {
        headers: {
          "content-type": type,
          "content-length": String(body.byteLength),
          "cache-control": "no-cache",
        },
      });
    };
    return route({ path, face: DRF_FACE, methods: { GET: handler, HEAD: handler } });
  };
  const home: RouteHandler = (req) => {
    // Start bundling while the browser parses the page.
    if (services.length > 0) bundle.assets().catch(() => {});
    return new Response(req.method === "HEAD" ? null : page, {
      headers: {
        "content-type": "text/html; charset=utf-8",
        "content-length": String(page.byteLength),
        "cache-control": "no-cache",
      },
    });
  };
  return [
    route({ path: "/", face: DRF_FACE, methods: { GET: home, HEAD: home } }),
    asset(WEBMAP_SCRIPT, "text/javascript; charset=utf-8", (a) => a.js),
    asset(WEBMAP_STYLE, "text/css; charset=utf-8", (a) => a.css),
  ];
}

/** JSON for a `<script type="application/json">`: `<` escaped so no `</script>` can end it. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c");
}

function homePage(services: readonly HomeService[]): string {
  const shown = services[0];
  const list = services.map((s) =>
    `<li><b>${escapeHtml(s.name)}</b> ${escapeHtml(s.description)}: ` +
    `<a href="/arcgis/services/${encodeURIComponent(s.name)}/MapServer?wsdl">WSDL</a>, ` +
    `<a href="/arcgis/rest/services/${encodeURIComponent(s.name)}/MapServer">REST</a></li>`
  ).join("");
  const config: WebMapConfig | null = shown ? { service: shown.name, maps: shown.maps } : null;
  const script = config
    ? `<script type="application/json" id="webmap-config">${scriptJson(config)}</script>
<script type="module" src="${WEBMAP_SCRIPT}" onerror="var s=document.getElementById('status');s.hidden=false;s.textContent='The map script could not be loaded (the server log says why).'"></script>`
    : "";
  const title = shown ? `Map of ${escapeHtml(shown.name)}` : "No map service";
  return `<!doctype html>
<html lang="ru"><head><meta charset="utf-8"><title>Recruitment catalogue and map server</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${WEBMAP_STYLE}">
<style>${PAGE_CSS}</style></head><body>
<header>
<h1>Recruitment catalogue and map server</h1>
<form id="search" role="search"><input id="search-text" type="search" name="search" placeholder="Search competitions" aria-label="Search competitions" autocomplete="off"><button type="submit">Search</button></form>
<button id="panel-toggle" type="button" aria-controls="panel" aria-expanded="false">Layers</button>
<output id="search-result" for="search-text" aria-live="polite"></output>
</header>
<main>
<div id="map" tabindex="0" aria-label="${title}">${
    config ? "" : "<p class='unavailable'>No map service is published.</p>"
  }<p id="status" role="status" hidden></p></div>
<aside id="panel">
<h2>Layers</h2><ul id="layers"><li>Loading…</li></ul>
<h2>Legend</h2><div id="legend">Loading…</div>
<h2>Data</h2>
<ul class="links">
<li><a href="/api/v1/competitions/">/api/v1/competitions/</a>, <a href="/api/v1/vacancies/">vacancies</a>, <a href="/api/v1/agencies/for_vacancies/">agencies</a>, <a href="/api/v1/schema/">OpenAPI</a></li>
${list}
<li><a href="/arcgis/services?wsdl">SOAP service catalog</a>, <a href="/arcgis/rest/services">REST Services Directory</a></li>
</ul>
</aside>
</main>
<div id="popup" class="popup" hidden><button id="popup-close" type="button" aria-label="Close">×</button><div id="popup-content"></div></div>
${script}
</body></html>`;
}

const PAGE_CSS = `
html,body{height:100%;margin:0}
body{display:flex;flex-direction:column;font:15px/1.4 system-ui,sans-serif;color:#222}
header{display:flex;flex-wrap:wrap;gap:.4rem .8rem;align-items:center;padding:.4rem .7rem;background:#24476b;color:#fff}
header h1{font-size:1.05rem;margin:0;flex:1 1 auto}
#search{display:flex;gap:.3rem;flex:1 1 18rem;max-width:34rem}
#search input{flex:1;min-width:0;min-height:40px;font-size:16px;padding:0 .5rem;border:0;border-radius:4px}
button{min-height:40px;min-width:40px;font-size:15px;border-radius:4px;border:1px solid #99a;background:#f4f6fa;cursor:pointer}
#search-result{flex-basis:100%;font-size:13px}
#search-result:empty{display:none}
main{flex:1;display:flex;min-height:0;position:relative}
#map{flex:1;position:relative;background:#cde1f0;min-height:0}
#panel{width:300px;overflow:auto;border-left:1px solid #ccc;padding:.3rem .9rem;background:#fafafa}
#panel h2{font-size:1rem;margin:.8rem 0 .3rem}
#panel h3{font-size:.9rem;margin:.5rem 0 .2rem}
#panel ul{list-style:none;padding:0;margin:0}
#layers label{display:flex;align-items:center;gap:.4rem;min-height:40px;cursor:pointer}
#layers input{width:22px;height:22px}
#legend li{display:flex;align-items:center;gap:.4rem;font-size:13px}
.links li{font-size:13px;margin:.3rem 0}
.unavailable{color:#a33}
#panel-toggle{display:none}
#status{position:absolute;z-index:2;top:.5rem;left:50%;transform:translateX(-50%);margin:0;padding:.3rem .7rem;background:#fff3cd;border:1px solid #d8b75a;border-radius:4px}
.popup{position:absolute;background:#fff;border-radius:8px;box-shadow:0 2px 10px rgba(0,0,0,.35);padding:.5rem 2.6rem .5rem .8rem;width:max-content;max-width:min(320px,80vw);max-height:45vh;overflow:auto;font-size:14px}
.popup article+article{border-top:1px solid #ddd;margin-top:.4rem;padding-top:.4rem}
.popup p{margin:.2rem 0}
.popup .title{font-weight:600}
.popup .deadline{color:#555}
#popup-close{position:absolute;top:4px;right:4px;border:0;background:none;font-size:22px;line-height:1}
@media (pointer:coarse){.ol-control button{width:44px;height:44px;font-size:1.5em}}
@media (max-width:700px){
 header h1{font-size:.95rem;flex-basis:100%}
 #panel-toggle{display:inline-block}
 #panel{position:absolute;z-index:3;left:0;right:0;bottom:0;width:auto;max-height:55%;border-left:0;border-top:1px solid #bbb;box-shadow:0 -2px 8px rgba(0,0,0,.2);display:none}
 body.panel-open #panel{display:block}
}
`;
