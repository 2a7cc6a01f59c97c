/**
 * `serve --render-start`: with `--maps` the render workers start with the
 * server, which listens once they have drawn their start-up views (no
 * client's first views meet a worker warming up); without it, or with
 * `--render-start lazy`, they start with the first drawing request.
 */
import assert from "node:assert/strict";
import { createFixture } from "./_soap_query_fixtures.ts";
import { startServerProcess } from "./_server_process.ts";

const WARMED = /Render workers \(1\) warmed up in [\d.]+ s/;

async function startOutput(extra: string[]): Promise<string> {
  const fixture = await createFixture();
  const server = await startServerProcess(fixture.dir, [
    "--allow-map-paths-outside",
    "--render-workers",
    "1",
    ...extra.map((a) => a === "MAPS" ? fixture.mapsDir : a),
  ]);
  try {
    // The server draws once it listens, warm or not.
    const res = await fetch(
      `${server.url}/arcgis/rest/services/Fixture/MapServer/export?bbox=0,0,10,10&size=64,48&f=image`,
    );
    assert.equal(res.status, 200, await res.clone().text());
    assert.equal(res.headers.get("content-type"), "image/png");
    await res.body?.cancel();
    return server.startOutput;
  } finally {
    server.child.kill("SIGTERM");
    await server.child.status;
    await fixture.dispose();
  }
}

Deno.test("serve --maps: the render workers are warm before the server listens", async () => {
  const out = await startOutput(["--maps", "MAPS"]);
  assert.match(out, WARMED);
  assert.ok(out.search(WARMED) < out.indexOf("Serving "), out);
});

Deno.test("serve --maps --render-start lazy: the workers wait for the first drawing request", async () => {
  const out = await startOutput(["--maps", "MAPS", "--render-start", "lazy"]);
  assert.doesNotMatch(out, /warmed up/);
});

Deno.test("serve --render-start eager without --maps warms the built-in service's workers", async () => {
  const fixture = await createFixture();
  const server = await startServerProcess(fixture.dir, [
    "--render-workers",
    "1",
    "--render-start",
    "eager",
  ]);
  try {
    assert.match(server.startOutput, WARMED);
  } finally {
    server.child.kill("SIGTERM");
    await server.child.status;
    await fixture.dispose();
  }
});
