/**
 * The root page: what this server offers, with links to the API and the
 * WSDLs, and a small tile viewer so a browser shows the maps without any
 * GIS client. No external scripts: the viewer is a few dozen lines of plain
 * JavaScript over the server's own tile endpoint.
 *
 * @module
 */
import type { Route } from "./router.ts";

/** A map service as the home page lists it. */
export interface HomeService {
  name: string;
  description: string;
  /** Whether the service has a tiled (Web Mercator) map the viewer can show. */
  tiled: boolean;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Routes of the home page (`GET /` and `HEAD /`).
 *
 * @example
 * ```ts
 * const routes = homeRoutes([{ name: "Recruitment", description: "", tiled: true }]);
 * ```
 */
export function homeRoutes(services: readonly HomeService[]): Route[] {
  const page = new TextEncoder().encode(homePage(services));
  const headers = {
    "content-type": "text/html; charset=utf-8",
    "content-length": String(page.byteLength),
    "cache-control": "no-cache",
  };
  return [{
    pattern: new URLPattern({ pathname: "/" }),
    method: ["GET", "HEAD"],
    handler: (req) => new Response(req.method === "HEAD" ? null : page, { headers }),
  }];
}

function homePage(services: readonly HomeService[]): string {
  const tiled = services.find((s) => s.tiled);
  const list = services.map((s) =>
    `<li><b>${escapeHtml(s.name)}</b> ${escapeHtml(s.description)} — ` +
    `<a href="/arcgis/services/${encodeURIComponent(s.name)}/MapServer?wsdl">WSDL</a></li>`
  ).join("");
  const viewer = tiled
    ? `<div id="map" data-service="${escapeHtml(tiled.name)}" tabindex="0" aria-label="Map of ${
      escapeHtml(tiled.name)
    }; drag to pan, wheel or +/- to zoom"></div>
<p class="hint">Drag to pan, scroll or press +/− to zoom. Tiles: <code>/arcgis/rest/services/${
      escapeHtml(tiled.name)
    }/MapServer/tile/{level}/{row}/{col}</code></p>
<script>${VIEWER_JS}</script>`
    : "<p>No service has a tile cache to show.</p>";
  return `<!doctype html>
<html lang="ru"><head><meta charset="utf-8"><title>Recruitment catalogue and map server</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font:15px/1.4 system-ui,sans-serif;margin:1.5rem;max-width:1100px;color:#222}
#map{position:relative;overflow:hidden;height:520px;border:1px solid #bbb;background:#cfe3f1;cursor:grab;touch-action:none}
#map img{position:absolute;width:256px;height:256px;user-select:none;-webkit-user-drag:none}
.hint{color:#666;font-size:13px}
</style></head><body>
<h1>Recruitment catalogue and map server</h1>
<h2>JSON API</h2>
<ul>
<li><a href="/api/v1/vacancies/">/api/v1/vacancies/</a> — vacancies</li>
<li><a href="/api/v1/competitions/">/api/v1/competitions/</a> — competitions</li>
<li><a href="/api/v1/agencies/for_vacancies/">/api/v1/agencies/for_vacancies/</a> — agencies</li>
<li><a href="/api/v1/schema/">/api/v1/schema/</a> — OpenAPI 3.1</li>
</ul>
<h2>Map services (ArcGIS MapServer SOAP)</h2>
<ul>${list}<li>Service catalog: <a href="/arcgis/services?wsdl">/arcgis/services?wsdl</a></li></ul>
${viewer}
</body></html>`;
}

/** The tile viewer: Web Mercator XYZ tiles, pan by drag, zoom by wheel/keys. */
const VIEWER_JS = `
(() => {
  const el = document.getElementById("map");
  const base = "/arcgis/rest/services/" + encodeURIComponent(el.dataset.service) + "/MapServer/tile/";
  let z = 3, cx = 0.68 * 256 * 8, cy = 0.3 * 256 * 8; // centred on Russia at level 3
  let loaded = 0;
  const tiles = new Map();
  function draw() {
    const w = el.clientWidth, h = el.clientHeight, n = 1 << z;
    const x0 = Math.floor((cx - w / 2) / 256), x1 = Math.floor((cx + w / 2) / 256);
    const y0 = Math.max(0, Math.floor((cy - h / 2) / 256)), y1 = Math.min(n - 1, Math.floor((cy + h / 2) / 256));
    const keep = new Set();
    for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) {
      const col = ((x % n) + n) % n, key = z + "/" + y + "/" + x;
      keep.add(key);
      let img = tiles.get(key);
      if (!img) {
        img = new Image();
        img.alt = "";
        img.onload = () => { loaded++; el.dataset.tilesLoaded = String(loaded); };
        img.src = base + z + "/" + y + "/" + col;
        tiles.set(key, img);
        el.appendChild(img);
      }
      img.style.left = Math.round(x * 256 - cx + w / 2) + "px";
      img.style.top = Math.round(y * 256 - cy + h / 2) + "px";
    }
    for (const [key, img] of tiles) if (!keep.has(key)) { img.remove(); tiles.delete(key); }
  }
  function zoom(dz, px, py) {
    const nz = Math.max(0, Math.min(19, z + dz));
    if (nz === z) return;
    const w = el.clientWidth, h = el.clientHeight, f = Math.pow(2, nz - z);
    const mx = cx + (px - w / 2), my = cy + (py - h / 2);
    cx = mx * f - (px - w / 2); cy = my * f - (py - h / 2); z = nz;
    for (const img of tiles.values()) img.remove();
    tiles.clear();
    draw();
  }
  let drag = null;
  el.addEventListener("pointerdown", (e) => { drag = [e.clientX, e.clientY]; el.setPointerCapture(e.pointerId); el.style.cursor = "grabbing"; });
  el.addEventListener("pointermove", (e) => {
    if (!drag) return;
    cx -= e.clientX - drag[0]; cy -= e.clientY - drag[1]; drag = [e.clientX, e.clientY]; draw();
  });
  el.addEventListener("pointerup", () => { drag = null; el.style.cursor = "grab"; });
  el.addEventListener("wheel", (e) => {
    e.preventDefault();
    const r = el.getBoundingClientRect();
    zoom(e.deltaY < 0 ? 1 : -1, e.clientX - r.left, e.clientY - r.top);
  }, { passive: false });
  el.addEventListener("keydown", (e) => {
    if (e.key === "+" || e.key === "=") zoom(1, el.clientWidth / 2, el.clientHeight / 2);
    if (e.key === "-") zoom(-1, el.clientWidth / 2, el.clientHeight / 2);
  });
  addEventListener("resize", draw);
  draw();
})();
`;
