/**
 * `serve --maps DIR` refuses map documents whose data lies outside DIR
 * (after `..` and symlinks) unless `--allow-map-paths-outside` is given; the
 * message names the document, the path and the flag.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { writeGeoPackageLayer } from "../map/sources/geopackage_writer.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;

function serve(dir: string, extra: string[]): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-all",
      MAIN,
      "serve",
      "--host",
      "127.0.0.1",
      "--port",
      "0",
      "--db",
      join(dir, "catalog.db"),
      "--maps",
      join(dir, "maps"),
      "--render-workers",
      "0",
      ...extra,
    ],
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

Deno.test({
  name: "cli: a map document reaching outside --maps stops the start unless explicitly allowed",
  sanitizeResources: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "cli-map-paths-" });
    try {
      await Deno.mkdir(join(dir, "maps"));
      writeGeoPackageLayer(join(dir, "elsewhere.gpkg"), {
        table: "Points",
        geometryType: "Point",
        wkid: 4326,
        fields: [{ name: "NAME", type: "String" }],
      }, [{ id: 1, attributes: { NAME: "a" }, geometry: { type: "Point", x: 1, y: 2 } }]);
      await Deno.writeTextFile(
        join(dir, "maps", "Outside.json"),
        JSON.stringify({
          name: "Outside",
          maps: [{
            name: "Main",
            layers: [{ name: "P", source: { type: "geopackage", path: "../elsewhere.gpkg" } }],
          }],
        }),
      );
      const refused = await serve(dir, []).output();
      const stderr = new TextDecoder().decode(refused.stderr);
      assert.notEqual(refused.code, 0, stderr);
      assert.match(stderr, /Outside\.json: maps\[0\]\.layers\[0\]\.source\.path: /);
      assert.match(stderr, /"\.\.\/elsewhere\.gpkg" is outside the maps folder/);
      assert.match(stderr, /--allow-map-paths-outside/);

      const child = serve(dir, ["--allow-map-paths-outside"]);
      const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
      let out = "";
      while (!/Map service Outside: (\S+)/.test(out)) {
        const { value, done } = await reader.read();
        if (done) break;
        out += value;
      }
      const wsdl = /Map service Outside: (\S+)/.exec(out);
      assert.ok(wsdl, `the server did not start: ${out}`);
      const res = await fetch(wsdl[1]);
      assert.equal(res.status, 200);
      await res.text();
      child.kill("SIGTERM");
      await child.status;
      await reader.cancel();
      await child.stderr.cancel();
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
