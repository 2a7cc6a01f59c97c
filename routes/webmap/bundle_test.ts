import assert from "node:assert/strict";
import { bundleWebMap, WebMapBundle, writeWebMapBundle } from "./bundle.ts";

Deno.test("the web map bundles OpenLayers and the page into one ES module and a style sheet", async () => {
  const { js, css } = await bundleWebMap();
  const text = new TextDecoder().decode(js);
  assert.ok(js.byteLength > 100_000, `bundle of ${js.byteLength} bytes`);
  assert.match(text, /\/identify\?/, "the page's own code is in");
  assert.doesNotMatch(text, /\bfrom\s*["'](ol|npm:)/, "no import left for the browser to resolve");
  assert.match(new TextDecoder().decode(css), /\.ol-scale-line/);
});

Deno.test("a prebuilt bundle is read as written, and its absence is explained", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const missing = new WebMapBundle({ prebuilt: true, prebuiltDir: `${dir}/none` });
    await assert.rejects(missing.assets(), /prebuilt bundle is missing .*deno task compile/);
    await writeWebMapBundle(dir);
    const read = await new WebMapBundle({ prebuilt: true, prebuiltDir: dir }).assets();
    assert.deepEqual(read.js, await Deno.readFile(`${dir}/app.js`));
    let calls = 0;
    const once = new WebMapBundle({ bundle: () => (calls++, Promise.resolve(read)) });
    await once.assets();
    await once.assets();
    assert.equal(calls, 1, "bundled once, then kept");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
