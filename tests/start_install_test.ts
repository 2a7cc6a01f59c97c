/**
 * `deno task start` in a fresh checkout installs the npm packages the
 * server imports, not every package of deno.json: the browser clients,
 * the SOAP client, the load generator and the other test-only packages
 * (~450 MB) are installed by `deno task test` (`deno install`), not by a
 * first start. The checkout is a copy of the server's files without
 * node_modules; the packages come from Deno's global cache.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { waitForLine } from "./_server_process.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** What the server imports (or reads: the font), and what those pull in through the bundler. */
const SERVER_PACKAGES = new Set([
  "canvaskit-wasm",
  "dejavu-fonts-ttf",
  "geographiclib-geodesic",
  "lru-cache",
  "ol",
  "postgres",
  "proj4",
  "saxes",
  "snowball-stemmers",
  "topojson-client",
  "world-atlas",
  "zod",
]);

async function copyCheckout(to: string): Promise<void> {
  for (const name of ["deno.json", "deno.lock", "main.ts", "data", "map", "routes", "tools"]) {
    const out = await new Deno.Command("cp", { args: ["-r", join(ROOT, name), to] }).output();
    assert.ok(out.success, `cp ${name}`);
  }
}

Deno.test({
  name: "deno task start installs only the server's npm packages, and draws maps with them",
  sanitizeResources: false,
  async fn() {
    const dir = await Deno.makeTempDir();
    try {
      await copyCheckout(dir);
      // Its own process group: `deno task` and the server it starts are stopped together.
      const child = new Deno.Command("setsid", {
        args: [Deno.execPath(), "task", "start", "--host", "127.0.0.1", "--port", "0"],
        cwd: dir,
        env: { NO_COLOR: "1" },
        stdout: "piped",
        stderr: "null",
      }).spawn();
      try {
        const [, url] = await waitForLine(
          child.stdout,
          /Serving .* at (http:\/\/127\.0\.0\.1:\d+\/)/,
        );
        // The renderer's wasm and font are there: a drawing is a PNG.
        const res = await fetch(
          `${url}arcgis/rest/services/Recruitment/MapServer/export?bbox=20,40,180,80&bboxSR=4326&size=200,150&f=image&format=png`,
        );
        assert.equal(res.status, 200);
        assert.equal(res.headers.get("content-type"), "image/png");
        await res.body?.cancel();
      } finally {
        Deno.kill(-child.pid, "SIGTERM");
        await child.status;
        await child.stdout.cancel().catch(() => {});
      }
      const installed = [...Deno.readDirSync(join(dir, "node_modules"))]
        .map((e) => e.name)
        .filter((n) => !n.startsWith("."))
        .sort();
      const extra = installed.filter((n) => !SERVER_PACKAGES.has(n));
      assert.deepEqual(extra, [], `installed beyond the server's packages: ${extra.join(", ")}`);
      for (const needed of ["canvaskit-wasm", "dejavu-fonts-ttf"]) {
        assert.ok(installed.includes(needed), `${needed} missing: ${installed.join(", ")}`);
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
