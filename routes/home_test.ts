import assert from "node:assert/strict";
import { homeRoutes, WEBMAP_SCRIPT, WEBMAP_STYLE } from "./home.ts";
import { createRouter } from "./router.ts";
import { WebMapBundle } from "./webmap/bundle.ts";

const js = new TextEncoder().encode("export {};\n");
const css = new TextEncoder().encode(".ol-viewport{}\n");

function app(bundle: WebMapBundle, name = "Recruitment") {
  return createRouter(
    homeRoutes([{ name, description: "d", maps: ["Layers", "WebMercator"] }], { bundle }),
    () => new Response("fallback", { status: 404 }),
  );
}

Deno.test("the page carries the map's configuration and loads the bundle from this server", async () => {
  const route = app(new WebMapBundle({ bundle: () => Promise.resolve({ js, css }) }));
  const res = await route(new Request("http://x/"));
  assert.equal(res.headers.get("content-type"), "text/html; charset=utf-8");
  const html = await res.text();
  const config = html.match(/<script type="application\/json" id="webmap-config">(.*?)<\/script>/);
  assert.deepEqual(JSON.parse(config![1]), {
    service: "Recruitment",
    maps: ["Layers", "WebMercator"],
  });
  assert.match(html, new RegExp(`<script type="module" src="${WEBMAP_SCRIPT}"`));
  assert.match(html, new RegExp(`<link rel="stylesheet" href="${WEBMAP_STYLE}">`));
  assert.doesNotMatch(html, /https?:\/\//, "nothing from another host");
  // The REST links open the HTML Services Directory (f=html is the default).
  assert.match(html, /<a href="\/arcgis\/rest\/services">REST Services Directory<\/a>/);
  assert.match(html, /<a href="\/arcgis\/rest\/services\/Recruitment\/MapServer">REST<\/a>/);

  const script = await route(new Request(`http://x${WEBMAP_SCRIPT}`));
  assert.equal(script.headers.get("content-type"), "text/javascript; charset=utf-8");
  assert.deepEqual(new Uint8Array(await script.arrayBuffer()), js);
  const head = await route(new Request(`http://x${WEBMAP_STYLE}`, { method: "HEAD" }));
  assert.equal(head.headers.get("content-length"), String(css.byteLength));
  assert.equal(await head.text(), "");
});

Deno.test("a service name cannot end the configuration's script element", async () => {
  const route = app(
    new WebMapBundle({ bundle: () => Promise.resolve({ js, css }) }),
    "a</script>b",
  );
  const html = await (await route(new Request("http://x/"))).text();
  const config = html.match(/id="webmap-config">(.*?)<\/script>/);
  assert.equal(JSON.parse(config![1]).service, "a</script>b");
});

Deno.test("a bundle that cannot be made is a 503 that says so, not a crash", async () => {
  const errors: unknown[] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => errors.push(args);
  try {
    const route = app(new WebMapBundle({ bundle: () => Promise.reject(new Error("no esbuild")) }));
    const res = await route(new Request(`http://x${WEBMAP_SCRIPT}`));
    assert.equal(res.status, 503);
    assert.match(await res.text(), /web map's script is unavailable/);
    assert.equal(errors.length, 1, "the cause is logged once");
  } finally {
    console.error = original;
  }
});
