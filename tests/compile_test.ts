/**
 * `deno task compile` end to end: the single binary, started on a free port
 * in an empty folder, creates its demo database like `deno task start` and
 * serves the JSON API, a SOAP ExportMapImage PNG (CanvasKit's wasm and the
 * DejaVu font from the binary's embedded files, drawn in a render worker)
 * and a map tile.
 *
 * `deno compile` needs a `denort` runtime: `DENORT_BIN`, or its download. The
 * binary is built when this file loads; where no runtime can be had the test
 * is skipped under a name that says so (even with REFERENCE_TESTS=required:
 * the download is not reachable on the machines this project is built on).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { compileArgs, prepareCompile } from "../tools/compile.ts";
import { optionalTest, reference } from "./_optional.ts";
import { soapClient } from "./_soap_helpers.ts";
import { call, imageDisplay, mapDescription } from "./_soap_query_fixtures.ts";
import { decode } from "./_render_helpers.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const BUILD = await Deno.makeTempDir({ prefix: "compile-test-" });
const BINARY = join(BUILD, Deno.build.os === "windows" ? "catalog-server.exe" : "catalog-server");

/** Builds the binary; the reason it could not, or null. Other compile errors throw. */
async function build(): Promise<string | null> {
  const denort = Deno.env.get("DENORT_BIN");
  if (denort !== undefined) {
    try {
      if (!Deno.statSync(denort).isFile) return `DENORT_BIN=${denort} is not a file`;
    } catch {
      return `DENORT_BIN=${denort} does not exist`;
    }
  }
  await prepareCompile(ROOT);
  const out = await new Deno.Command(Deno.execPath(), {
    args: compileArgs(BINARY),
    cwd: ROOT,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (out.success) return null;
  const text = new TextDecoder().decode(out.stderr);
  if (/Setting up base binary|denort/i.test(text)) {
    const cause = /dns error|connection refused|timed out|certificate|status code \d+/i.exec(text);
    return `no denort runtime: deno compile could not download it${cause ? ` (${cause[0]})` : ""}`;
  }
  throw new Error(`deno task compile failed:\n${text}`);
}

const DENORT = reference(
  "deno compile runtime",
  "set DENORT_BIN to a denort binary of this Deno version, or let deno compile download it",
  () => null,
  false,
);
let why: string | null = null;
let compileError: unknown = undefined;
try {
  why = await build();
} catch (e) {
  compileError = e; // a real compile error is a failure, not a skip
}
const RUNTIME = why === null ? DENORT : reference(DENORT.name, DENORT.enable, () => why, false);

function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

async function waitUntilServing(url: string, child: Deno.ChildProcess): Promise<void> {
  let exited = false;
  child.status.then(() => exited = true);
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    assert.ok(!exited, "the binary exited before serving");
    try {
      const r = await fetch(url);
      await r.body?.cancel();
      if (r.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the binary did not serve ${url} within 120 s`);
}

if (compileError !== undefined) {
  Deno.test("compiled binary: deno task compile builds it", () => {
    throw compileError;
  });
} else {
  optionalTest(RUNTIME, {
    name: "compiled binary: demo database on first start, API, ExportMapImage PNG and a tile",
    sanitizeResources: false,
    sanitizeOps: false,
    async fn() {
      const dir = await Deno.makeTempDir({ prefix: "compiled-run-" });
      const port = freePort();
      const base = `http://127.0.0.1:${port}`;
      const child = new Deno.Command(BINARY, {
        args: ["serve", "--host", "127.0.0.1", "--port", String(port)],
        cwd: dir,
        stdout: "null",
        stderr: "piped",
      }).spawn();
      try {
        await waitUntilServing(`${base}/api/v1/vacancies/`, child);
        const stat = await Deno.stat(join(dir, "var", "catalog.db"));
        assert.ok(stat.isFile && stat.size > 0, "demo database created in the working folder");

        const page = await (await fetch(`${base}/api/v1/vacancies/`)).json();
        assert.ok(page.count > 0 && page.results.length === 10, JSON.stringify(page).slice(0, 200));

        const client = await soapClient(`${base}/arcgis/services/Recruitment/MapServer?wsdl`);
        const r = await call(client, "ExportMapImage", {
          MapDescription: mapDescription("Layers", [20, 40, 180, 80]),
          ImageDescription: {
            ImageType: {
              ImageFormat: "esriImagePNG32",
              ImageReturnType: "esriImageReturnMimeData",
            },
            ImageDisplay: imageDisplay(400, 200),
          },
        });
        const png = decode(Uint8Array.from(atob(r.Result.ImageData), (c) => c.charCodeAt(0)));
        assert.deepEqual([png.width, png.height], [400, 200]);
        const colours = new Set<number>();
        for (let i = 0; i < png.data.length; i += 4 * 97) {
          colours.add(png.data[i] << 16 | png.data[i + 1] << 8 | png.data[i + 2]);
        }
        assert.ok(colours.size > 2, "the image has land, sea and markers, not one flat colour");

        // The web map's bundle was embedded (a binary cannot bundle).
        const script = await fetch(`${base}/webmap/app.js`);
        assert.equal(script.status, 200);
        assert.match(await script.text(), /ImageArcGISRest|arcgis\/rest\/services/);

        const tile = await fetch(`${base}/arcgis/rest/services/Recruitment/MapServer/tile/2/1/2`);
        assert.equal(tile.status, 200);
        assert.equal(tile.headers.get("content-type"), "image/png");
        const t = decode(new Uint8Array(await tile.arrayBuffer()));
        assert.deepEqual([t.width, t.height], [256, 256]);
      } finally {
        try {
          child.kill("SIGTERM");
        } catch {
          // it has exited already (the assertion above says why)
        }
        await child.status;
        await child.stderr.cancel();
        await Deno.remove(dir, { recursive: true });
      }
    },
  });
}

globalThis.addEventListener("unload", () => Deno.removeSync(BUILD, { recursive: true }));
