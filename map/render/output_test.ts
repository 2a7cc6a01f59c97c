import assert from "node:assert/strict";
import { join } from "node:path";
import { OutputFolder, sweepOutput } from "./output.ts";

Deno.test("output images get ArcGIS-like names and expire after the configured age", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const output = new OutputFolder({ maxAgeMs: 60_000 });
    const name = await output.write(
      join(dir, "S_MapServer"),
      "map",
      "png",
      new Uint8Array([1, 2, 3]),
    );
    assert.match(name, /^_ags_map[0-9a-f]{32}\.png$/);
    assert.deepEqual(
      await Deno.readFile(join(dir, "S_MapServer", name)),
      new Uint8Array([1, 2, 3]),
    );
    await Deno.writeTextFile(join(dir, "S_MapServer", "keep.txt"), "not ours");
    assert.equal(await sweepOutput(join(dir, "S_MapServer"), 60_000), 0, "young files stay");
    assert.equal(
      await sweepOutput(join(dir, "S_MapServer"), 60_000, Date.now() + 120_000),
      1,
      "old files go",
    );
    const left = [...Deno.readDirSync(join(dir, "S_MapServer"))].map((e) => e.name);
    assert.deepEqual(left, ["keep.txt"], "only files the server wrote are swept");
    assert.equal(
      await sweepOutput(join(dir, "missing"), 60_000),
      0,
      "a missing folder is not an error",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name: "output: a write that fails half-way (file-size limit) leaves no _ags_ file behind",
  ignore: Deno.build.os === "windows",
  async fn() {
    const dir = await Deno.makeTempDir();
    try {
      // A child process whose files may not exceed 64 KiB (SIGXFSZ ignored, so
      // the write fails with EFBIG as it would with ENOSPC on a full disk).
      const module = new URL("./output.ts", import.meta.url).href;
      const script = `const { OutputFolder } = await import(${JSON.stringify(module)});
        try {
          await new OutputFolder().write(${
        JSON.stringify(dir)
      }, "map", "png", new Uint8Array(1 << 20));
          console.log("written");
        } catch (err) {
          console.log("failed: " + err.message);
        }`;
      const out = await new Deno.Command("sh", {
        args: ["-c", 'trap "" XFSZ; ulimit -f 128; exec "$0" eval "$1"', Deno.execPath(), script],
        stdout: "piped",
        stderr: "piped",
      }).output();
      const said = new TextDecoder().decode(out.stdout);
      assert.match(said, /^failed: /, new TextDecoder().decode(out.stderr));
      const left = [...Deno.readDirSync(dir)].map((e) => e.name);
      assert.deepEqual(left, [], "neither a truncated image nor a temporary file remains");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
