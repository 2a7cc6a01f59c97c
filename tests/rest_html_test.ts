/**
 * The HTML Services Directory (`f=html`, the default format) on a real
 * server: the catalog, service and layer pages (breadcrumb, JSON link,
 * links between them), the forms of export, query, identify and find
 * (every ArcGIS parameter, pre-filled from the request) and their results
 * shown as HTML when submitted, checked against the `f=json` answer of the
 * same request; every reflected value escaped (payloads in every parameter
 * name and value and in path segments); and the query page in Chromium.
 */
import assert from "node:assert/strict";
import { startTestServer, type TestServer } from "./_api_helpers.ts";
import { rest, restServerTest as serverTest } from "./_rest_helpers.ts";
import { CHROMIUM, optionalTest } from "./_optional.ts";
import { Chromium } from "./_cdp.ts";

const SERVICE = "/services/Recruitment/MapServer";

/** GETs an HTML page and checks it is one. */
async function page(s: TestServer, path: string, params: Record<string, string> = {}) {
  const answer = await rest(s.url, path, params);
  assert.match(answer.headers.get("content-type")!, /^text\/html; charset=utf-8/, path);
  return answer.text;
}

/** Entity-decoded text (the few entities the pages write). */
function decode(text: string): string {
  return text.replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n)))
    .replace(/&gt;/g, ">").replace(/&lt;/g, "<").replace(/&amp;/g, "&").replace(/&nbsp;/g, " ");
}

/** The hrefs of a page's links, decoded. */
function links(text: string): string[] {
  return [...text.matchAll(/<a href="([^"]*)"/g)].map((m) => decode(m[1]));
}

/** The names of the form's fields, in order (radio groups once). */
function fieldNames(text: string): string[] {
  const form = /<form[^>]*>([\s\S]*?)<\/form>/.exec(text)?.[1] ?? "";
  const names = [...form.matchAll(/<(?:input|select|textarea)[^>]*\bname="([^"]*)"/g)]
    .map((m) => decode(m[1]));
  return [...new Set(names)];
}

/** The value a text box or text area of the form shows. */
function fieldValue(text: string, name: string): string | undefined {
  const input = new RegExp(`<input type="text" name="${name}" id="${name}" value="([^"]*)"`)
    .exec(text);
  if (input) return decode(input[1]);
  const area = new RegExp(`<textarea name="${name}"[^>]*>([^<]*)</textarea>`).exec(text);
  return area ? decode(area[1]) : undefined;
}

/** What a browser sends for the form: every field (blank unless given), `f=html`. */
function submission(names: string[], given: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const n of names) out[n] = given[n] ?? "";
  return { ...out, f: "html", ...given };
}

/** The rows of the results table, each as its cells' text. */
function resultRows(text: string): string[][] {
  const body = /<table class="results">[\s\S]*?<tbody>([\s\S]*?)<\/tbody>/.exec(text)?.[1];
  if (body === undefined) return [];
  return [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((r) =>
    [...r[1].matchAll(/<td>([\s\S]*?)<\/td>/g)].map((c) => decode(c[1].replace(/<[^>]*>/g, " ")))
  );
}

serverTest("REST HTML: the catalog, service and layer pages link to each other", async (s) => {
  const catalog = await page(s, "/services");
  assert.match(catalog, /<h2>Folder: \/<\/h2>/);
  assert.match(catalog, /<b>Current Version:<\/b> 10\.3/);
  assert.ok(links(catalog).includes(`/arcgis/rest${SERVICE}`));
  assert.ok(links(catalog).includes("/arcgis/rest/services?f=pjson"));

  const service = await page(s, SERVICE);
  assert.match(
    service,
    /<nav[^>]*><a href="\/arcgis\/rest\/services">Home<\/a> &gt; <a href="\/arcgis\/rest\/services">services<\/a> &gt; Recruitment \(MapServer\)<\/nav>/,
  );
  const json = (await rest(s.url, SERVICE, { f: "json" })).body;
  const hrefs = links(service);
  assert.ok(hrefs.includes(`/arcgis/rest${SERVICE}?f=pjson`), "the JSON link");
  assert.ok(hrefs.includes("/"), "View In: the web map");
  for (const l of json.layers) {
    assert.ok(hrefs.includes(`/arcgis/rest${SERVICE}/${l.id}`), `layer ${l.id} linked`);
    assert.ok(service.includes(`>${l.name}</a> (${l.id})`));
  }
  const e = json.fullExtent;
  const exportLink = hrefs.find((h) => h.startsWith(`/arcgis/rest${SERVICE}/export?`))!;
  assert.equal(
    new URL(exportLink, s.url).searchParams.get("bbox"),
    [e.xmin, e.ymin, e.xmax, e.ymax].join(","),
    "Export Map opens on the full extent",
  );
  assert.ok(hrefs.includes(`/arcgis/rest${SERVICE}/identify`));
  assert.ok(hrefs.includes(`/arcgis/rest${SERVICE}/find`));
  assert.ok(hrefs.includes(`/arcgis/rest${SERVICE}/legend`));
  assert.match(service, /<b>Spatial Reference:<\/b> 4326 {2}\(4326\)/);
  assert.match(
    service,
    new RegExp(`<b>Full Extent:</b>\\s*<div class="indent"><b>XMin:</b> ${e.xmin}<br>`),
  );
  assert.match(service, /<b>Single Fused Map Cache:<\/b> false/);
  assert.doesNotMatch(service, /Tile Info/);
  assert.match(service, /<b>Title:<\/b> Recruitment<br>/);

  // The cached map (mapName): tile info, and every link keeps the map.
  const merc = await page(s, SERVICE, { mapName: "WebMercator" });
  assert.match(merc, /<b>Spatial Reference:<\/b> 102100 {2}\(3857\)/);
  assert.match(merc, /<b>Tile Info:<\/b>[\s\S]*<b>Levels of Detail:<\/b> 20[\s\S]*Level ID: 0/);
  assert.match(merc, /<b>Origin:<\/b> X: -20037508\.342787, Y: 20037508\.342787/);
  for (const href of links(merc).filter((h) => h.startsWith(`/arcgis/rest${SERVICE}/`))) {
    assert.match(href, /mapName=WebMercator/, href);
  }

  const layer = await page(s, `${SERVICE}/0`);
  const layerJson = (await rest(s.url, `${SERVICE}/0`, { f: "json" })).body;
  assert.ok(layer.includes(`<h2>Layer: ${layerJson.name} (ID: 0)</h2>`));
  assert.ok(
    layer.includes(
      `&gt; <a href="/arcgis/rest${SERVICE}">Recruitment (MapServer)</a> &gt; ${layerJson.name}</nav>`,
    ),
  );
  assert.ok(links(layer).includes(`/arcgis/rest${SERVICE}/0?f=pjson`));
  assert.ok(links(layer).includes(`/arcgis/rest${SERVICE}/0/query`));
  assert.match(layer, /<b>Geometry Type:<\/b> esriGeometryPoint/);
  for (const f of layerJson.fields) {
    assert.ok(
      decode(layer.replace(/<[^>]*>/g, "")).includes(
        `${f.name} (type: ${f.type}, alias: ${f.alias}`,
      ),
      `field ${f.name} with type and alias`,
    );
  }
  assert.match(layer, /<b>Unique Value Renderer:<\/b>/);
  assert.match(layer, /<b>Field 1:<\/b> type<br>/);
  assert.match(layer, /<b>Label Expression:<\/b> \[agency\]/);
  assert.match(
    layer,
    new RegExp(`<b>Extent:</b>\\s*<div class="indent"><b>XMin:</b> ${layerJson.extent.xmin}<br>`),
  );

  // The legend: each swatch an image the layer's images resource serves.
  const legend = await page(s, `${SERVICE}/legend`);
  const legendJson = (await rest(s.url, `${SERVICE}/legend`, { f: "json" })).body;
  const swatches = [...legend.matchAll(/<img src="([^"]+)"[^>]*><\/td><td>([^<]*)<\/td>/g)];
  const entries = legendJson.layers.flatMap((l: { legend: { label: string }[] }) => l.legend);
  assert.equal(swatches.length, entries.length);
  assert.deepEqual(
    swatches.map((m) => decode(m[2])),
    entries.map((e: { label: string }) => e.label),
  );
  const swatch = await fetch(`${s.url}${decode(swatches[0][1])}`);
  assert.equal(swatch.headers.get("content-type"), "image/png");
  await swatch.body?.cancel();

  // Unknown things: the ArcGIS error in the directory's frame.
  const missing = await page(s, "/services/Nope/MapServer/0");
  assert.match(missing, /<h2>Error<\/h2>/);
  assert.match(
    missing,
    /<b>Error:<\/b> Service &#39;Nope\/MapServer&#39; does not exist\.<br><b>Code:<\/b> 404<br>Published services: Recruitment\./,
  );
  assert.match(
    await page(s, `${SERVICE}/7`),
    /<b>Error:<\/b> Layer &#39;7&#39; does not exist[^<]*<br><b>Code:<\/b> 404/,
  );

  const all = await page(s, `${SERVICE}/layers`);
  assert.equal((all.match(/<h3>/g) ?? []).length, json.layers.length);
  // The JSON formats are still JSON.
  assert.deepEqual((await rest(s.url, `${SERVICE}/0`, { f: "pjson" })).body, layerJson);
});

const QUERY_FIELDS = [
  "where",
  "text",
  "objectIds",
  "time",
  "geometry",
  "geometryType",
  "inSR",
  "spatialRel",
  "relationParam",
  "outFields",
  "returnGeometry",
  "maxAllowableOffset",
  "geometryPrecision",
  "outSR",
  "returnIdsOnly",
  "returnCountOnly",
  "orderByFields",
  "groupByFieldsForStatistics",
  "outStatistics",
  "returnZ",
  "returnM",
  "returnDistinctValues",
  "resultOffset",
  "resultRecordCount",
  "f",
];

serverTest("REST HTML: the query form submits to itself and shows the features", async (s) => {
  const path = `${SERVICE}/0/query`;
  const empty = await page(s, path);
  assert.deepEqual(fieldNames(empty), QUERY_FIELDS);
  assert.match(
    empty,
    /<form method="get" action="\/arcgis\/rest\/services\/Recruitment\/MapServer\/0\/query">/,
  );
  assert.match(empty, /<button type="submit">Query \(GET\)<\/button>/);
  assert.match(empty, /formmethod="post">Query \(POST\)/);
  assert.match(empty, /<input type="radio" name="f" value="geojson">/);
  assert.doesNotMatch(empty, /class="results"|class="error"/, "nothing asked, nothing shown");

  const given = {
    where: "agency_id < 40",
    outFields: "id,title,deadline",
    orderByFields: "id DESC",
    resultRecordCount: "7",
  };
  const text = await page(s, path, submission(QUERY_FIELDS, given));
  for (const [k, v] of Object.entries(given)) {
    assert.equal(fieldValue(text, k), v, `${k} pre-filled`);
  }
  assert.match(text, /<input type="radio" name="returnGeometry" value="true" checked>/);
  const json = (await rest(s.url, path, { ...given, f: "json" })).body;
  assert.equal(json.features.length, 7);
  const rows = resultRows(text);
  assert.deepEqual(
    rows.map((r) => Number(r[0])),
    json.features.map((f: { attributes: { id: number } }) => f.attributes.id),
  );
  assert.equal(rows[0][1], json.features[0].attributes.title);
  assert.equal(
    rows[0][2],
    new Date(json.features[0].attributes.deadline).toISOString().replace(".000Z", "Z"),
  );
  assert.match(rows[0][3], /^Point \(\d/);
  assert.match(text, /<th scope="col">title<br><i>Наименование конкурса<\/i><\/th>/);
  assert.match(text, /<b>Records:<\/b> 7<br>\s*<b>Exceeded Transfer Limit:<\/b>/);
  // The JSON link asks the same question.
  const jsonLink = links(text).find((h) => h.includes("f=pjson"))!;
  const viaLink = await fetch(`${s.url}${jsonLink}`).then((r) => r.json());
  assert.deepEqual(viaLink, json);

  const count = await page(
    s,
    path,
    submission(QUERY_FIELDS, { where: "1=1", returnCountOnly: "true" }),
  );
  const total =
    (await rest(s.url, path, { where: "1=1", returnCountOnly: "true", f: "json" })).body.count;
  assert.ok(total > 7);
  assert.match(count, new RegExp(`<b>Count:</b> ${total}<br>`));
  assert.match(count, /<input type="radio" name="returnCountOnly" value="true" checked>/);

  const ids = await page(
    s,
    path,
    submission(QUERY_FIELDS, { objectIds: "3,1", returnIdsOnly: "true" }),
  );
  assert.match(ids, /<b>Object ID Field:<\/b> id<br>/);
  assert.ok(links(ids).includes(`/arcgis/rest${path}?objectIds=1&outFields=*`));

  const stats = await page(
    s,
    path,
    submission(QUERY_FIELDS, {
      where: "1=1",
      outStatistics:
        '[{"statisticType":"count","onStatisticField":"id","outStatisticFieldName":"n"}]',
      groupByFieldsForStatistics: "type",
    }),
  );
  const statJson = (await rest(s.url, path, {
    where: "1=1",
    outStatistics:
      '[{"statisticType":"count","onStatisticField":"id","outStatisticFieldName":"n"}]',
    groupByFieldsForStatistics: "type",
    f: "json",
  })).body;
  assert.deepEqual(
    resultRows(stats).map((r) => r.map((c) => c.trim())),
    statJson.features.map((f: { attributes: Record<string, unknown> }) =>
      statJson.fields.map((x: { name: string }) => String(f.attributes[x.name]))
    ),
  );

  // Another map of the service (mapName): kept in the form, its features in its own coordinates.
  const merc = await page(
    s,
    path,
    submission(QUERY_FIELDS, { objectIds: "1", outFields: "id", mapName: "WebMercator" }),
  );
  assert.match(merc, /<input type="hidden" name="mapName" value="WebMercator">/);
  const mercJson = (await rest(s.url, path, {
    objectIds: "1",
    outFields: "id",
    mapName: "WebMercator",
    f: "json",
  })).body;
  const g = mercJson.features[0].geometry;
  assert.ok(Math.abs(g.x) > 1000, "Web Mercator metres");
  assert.deepEqual(resultRows(merc), [["1", `Point (${g.x}, ${g.y})`]]);

  // Bad input: the form again, with the ArcGIS error below it.
  const bad = await page(s, path, submission(QUERY_FIELDS, { where: "1=1", outSR: "abc" }));
  assert.match(
    bad,
    /<div class="error" role="alert"><b>Error:<\/b> [^<]*outSR[^<]*<br><b>Code:<\/b> 400/,
  );
  assert.equal(fieldValue(bad, "outSR"), "abc");
  // POST, as the second button sends it.
  const post = await rest(s.url, path, submission(QUERY_FIELDS, given), true);
  assert.deepEqual(resultRows(post.text), rows);
});

serverTest("REST HTML: export, identify and find forms show their results", async (s) => {
  const exp = `${SERVICE}/export`;
  const exportFields = fieldNames(await page(s, exp));
  assert.deepEqual(exportFields, [
    "bbox",
    "bboxSR",
    "layers",
    "layerDefs",
    "size",
    "dpi",
    "imageSR",
    "format",
    "transparent",
    "time",
    "rotation",
    "f",
  ]);
  const given = { bbox: "30,40,60,70", size: "300,200", format: "png32", layers: "show:1" };
  const text = await page(s, exp, submission(exportFields, given));
  assert.match(text, /<option value="png32" selected>png32<\/option>/);
  const img = /<img src="([^"]+)" width="300" height="200" alt="Exported map">/.exec(text);
  assert.ok(img, "the exported image");
  const png = await fetch(decode(img[1]));
  assert.equal(png.status, 200);
  assert.equal(png.headers.get("content-type"), "image/png");
  assert.deepEqual([...new Uint8Array(await png.arrayBuffer()).slice(1, 4)], [80, 78, 71]);
  const json = (await rest(s.url, exp, { ...given, f: "json" })).body;
  assert.match(
    text,
    new RegExp(`<b>Extent:</b>\\s*<div class="indent"><b>XMin:</b> ${json.extent.xmin}<br>`),
  );
  assert.match(text, new RegExp(`<b>Scale:</b> ${json.scale}<br>`));
  const missing = await page(s, exp, submission(exportFields, { size: "300,200" }));
  assert.match(missing, /class="error"[^>]*><b>Error:<\/b> Parameter &#39;bbox&#39; is required/);

  const find = `${SERVICE}/find`;
  const findFields = fieldNames(await page(s, find));
  assert.deepEqual(findFields.slice(0, 6), [
    "searchText",
    "contains",
    "searchFields",
    "sr",
    "layers",
    "layerDefs",
  ]);
  const q = { searchText: "Москва", layers: "0", searchFields: "address" };
  const found = resultRows(await page(s, find, submission(findFields, q)));
  const foundJson = (await rest(s.url, find, { ...q, f: "json" })).body.results;
  assert.ok(foundJson.length > 0);
  assert.equal(found.length, foundJson.length);
  assert.equal(found[0][1], "address");
  assert.equal(found[0][2], foundJson[0].value);

  const identify = `${SERVICE}/identify`;
  const idFields = fieldNames(await page(s, identify));
  assert.ok(
    [
      "geometry",
      "geometryType",
      "sr",
      "layers",
      "tolerance",
      "mapExtent",
      "imageDisplay",
      "returnGeometry",
    ]
      .every((n) => idFields.includes(n)),
    idFields.join(),
  );
  const point = foundJson[0].geometry;
  const at = {
    geometry: `${point.x},${point.y}`,
    geometryType: "esriGeometryPoint",
    layers: "all:0",
    tolerance: "3",
    mapExtent: `${point.x - 1},${point.y - 1},${point.x + 1},${point.y + 1}`,
    imageDisplay: "400,400,96",
  };
  const hits = resultRows(await page(s, identify, submission(idFields, at)));
  const hitsJson = (await rest(s.url, identify, { ...at, f: "json" })).body.results;
  assert.ok(hitsJson.length > 0);
  assert.equal(hits.length, hitsJson.length);
  assert.equal(hits[0][1], hitsJson[0].value);
  assert.match(hits[0][3], /^Point/);
});

serverTest(
  "REST query: text= searches the display field, as the form's Text field asks",
  async (s) => {
    const path = `${SERVICE}/0/query`;
    const count = async (params: Record<string, string>) =>
      (await rest(s.url, path, { ...params, returnCountOnly: "true", f: "json" })).body.count;
    const all = await count({ where: "1=1" });
    const byText = await count({ text: "начальник" });
    assert.equal(byText, await count({ where: "title LIKE '%начальник%'" }));
    assert.ok(byText > 0 && byText < all, `${byText} of ${all}`);
    assert.equal(await count({ text: "O'Brien" }), 0, "a quote is text, not SQL");
    assert.equal(await count({ text: "начальник", where: "1=1" }), all, "where wins over text");
    const shown = await page(
      s,
      path,
      submission(QUERY_FIELDS, { text: "начальник", returnCountOnly: "true" }),
    );
    assert.match(shown, new RegExp(`<b>Count:</b> ${byText}<br>`));
  },
);

const PAYLOAD = `"'><script>alert(1)</script><img src=x onerror=alert(2)>`;

/** Fails when `text` holds markup from the payload rather than its escaped text. */
function assertInert(text: string, where: string): void {
  assert.ok(!/<script/i.test(text), `${where}: a <script> element`);
  assert.ok(!/<img src=x/i.test(text), `${where}: the payload's <img>`);
  assert.ok(!/="[^"]*"'>/.test(text), `${where}: an attribute broken out of`);
}

serverTest("REST HTML: every reflected value is escaped", async (s) => {
  const pages = {
    [`${SERVICE}/0/query`]: QUERY_FIELDS,
    [`${SERVICE}/export`]: [] as string[],
    [`${SERVICE}/identify`]: [] as string[],
    [`${SERVICE}/find`]: [] as string[],
  };
  let requests = 0;
  for (const path of Object.keys(pages)) {
    const names = fieldNames(await page(s, path)).filter((n) => n !== "f");
    // Every field at once: each value is shown in the form.
    const all = await page(s, path, {
      ...Object.fromEntries(names.map((n) => [n, PAYLOAD])),
      [PAYLOAD]: PAYLOAD,
    });
    requests++;
    assertInert(all, `${path} (all fields)`);
    for (
      const n of names.filter((n) =>
        ![
          "returnGeometry",
          "returnIdsOnly",
          "returnCountOnly",
          "returnZ",
          "returnM",
          "returnDistinctValues",
          "transparent",
          "contains",
          "returnFieldName",
        ].includes(n)
      )
    ) {
      assert.ok(
        all.includes(
          `${
            n === "geometry" || n === "outStatistics" || n === "layerDefs" ? ">" : 'value="'
          }&#34;&#39;&#62;&#60;script&#62;`,
        ),
        `${path}: ${n} shown, escaped`,
      );
    }
    // One field at a time: its error message quotes it.
    for (const n of names) {
      const one = await page(s, path, { [n]: PAYLOAD, where: n === "where" ? PAYLOAD : "1=1" });
      requests++;
      assertInert(one, `${path} (${n})`);
    }
  }
  const error = await page(s, `${SERVICE}/0/query`, { outSR: PAYLOAD });
  assert.match(
    error,
    /class="error"[^>]*><b>Error:<\/b> [^<]*&#60;script&#62;/,
    "the error quotes it, escaped",
  );
  // Path segments and the map name, in every page that names them.
  const enc = encodeURIComponent(PAYLOAD);
  for (
    const [path, params] of [
      [`/services/${enc}/MapServer`, {}],
      [`/services/${enc}/MapServer/0/query`, {}],
      [SERVICE, { mapName: PAYLOAD }],
      [`${SERVICE}/0`, { mapName: PAYLOAD }],
      [`${SERVICE}/export`, { mapName: PAYLOAD, bbox: "0,0,1,1" }],
    ] as const
  ) {
    const text = await page(s, path, params);
    requests++;
    assertInert(text, path);
    assert.ok(text.includes("&#60;script&#62;"), `${path}: the payload is shown, escaped`);
  }
  // Unknown paths are quoted still percent-encoded: nothing to escape, nothing to run.
  for (const path of [`${SERVICE}/0/${enc}`, `/${enc}`]) assertInert(await page(s, path), path);
  assertInert(await page(s, `${SERVICE}/99/query`, { where: PAYLOAD }), "an unknown layer");
  // Case-insensitive map names are shown as the request wrote them, escaped.
  assertInert(await page(s, SERVICE, { mapName: "webmercator", [PAYLOAD]: "1" }), "a payload name");
  assert.ok(requests >= 64, `${requests} requests`);
});

optionalTest(CHROMIUM, {
  name: "browser: the query page submits its form and shows the features, with no console errors",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const s = await startTestServer();
    const browser = await Chromium.launch(`${s.dir}/profile`);
    try {
      const tab = await browser.page();
      await tab.goto(`${s.url}/arcgis/rest${SERVICE}/0/query`);
      assert.equal(await tab.evaluate(`document.querySelectorAll("table.results").length`), 0);
      const loaded = new Promise<void>((resolve) => tab.on("Page.loadEventFired", () => resolve()));
      await tab.evaluate(`(() => {
        document.getElementById("where").value = "id <= 5";
        document.getElementById("outFields").value = "*";
        document.querySelector("form button[type=submit]").click();
      })()`);
      await loaded;
      await tab.waitFor(`document.querySelector("table.results")`, "the results table");
      const shown = await tab.evaluate<{ url: string; ids: number[]; where: string }>(`({
        url: location.search,
        ids: [...document.querySelectorAll("table.results tbody tr")].map((r) => Number(r.cells[0].textContent)),
        where: document.getElementById("where").value,
      })`);
      const json =
        (await rest(s.url, `${SERVICE}/0/query`, { where: "id <= 5", outFields: "*", f: "json" }))
          .body;
      assert.deepEqual(
        shown.ids,
        json.features.map((f: { attributes: { id: number } }) => f.attributes.id),
      );
      assert.equal(shown.where, "id <= 5");
      assert.match(shown.url, /[?&]f=html(&|$)/);
      // The payload in every field stays text: no element comes from it.
      const inert = `${s.url}/arcgis/rest${SERVICE}/0/query?${new URLSearchParams(
        QUERY_FIELDS.filter((n) => n !== "f").map((n) => [n, PAYLOAD]),
      )}`;
      await tab.goto(inert);
      const dom = await tab.evaluate<{ scripts: number; imgs: number; where: string }>(`({
        scripts: document.scripts.length,
        imgs: document.images.length,
        where: document.getElementById("where").value,
      })`);
      assert.deepEqual(dom, { scripts: 0, imgs: 0, where: PAYLOAD });
      assert.deepEqual(tab.errors, [], "no console errors");
    } finally {
      await browser.close();
      await s.close();
    }
  },
});
