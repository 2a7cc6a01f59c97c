/**
 * The data commands' error paths as a user meets them: a full disk, two
 * imports at once. Each must end in one sentence and exit code 1, never a
 * stack trace or a misleading "cannot rollback".
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { openCatalog } from "../data/mod.ts";
import { sampleVacancy, tempDir, writeJson } from "./_data_fixtures.ts";
import { mountTmpfs, remountReadOnly, unmount } from "./_mounts.ts";
import { optionalTest, reference } from "./_optional.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;
const dec = new TextDecoder();

async function runMain(
  args: string[],
  shellPrefix = "",
): Promise<{ code: number; stderr: string; stdout: string }> {
  const cmd = `${shellPrefix} exec "$0" run --allow-all "$@"`;
  const out = await new Deno.Command("sh", {
    args: ["-c", cmd, Deno.execPath(), MAIN, ...args],
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

const STACK = /^\s+at /m;

/** ~12 MB of vacancies: far more than the small filesystems below hold. */
async function bigFile(dir: string): Promise<string> {
  return await writeJson(
    dir,
    "many.json",
    Array.from({ length: 3000 }, (_, i) => sampleVacancy(i + 2)),
  );
}

/** Real small and read-only filesystems: root on Linux may mount a tmpfs. */
const TMPFS = reference(
  "tmpfs",
  "run the tests as root on Linux, where mount -t tmpfs works",
  () => mountTmpfs.probe(),
);

optionalTest(TMPFS, {
  name: "cli: import on a full disk (1 MiB tmpfs) reports 'database or disk is full'",
  async fn() {
    const { dir, cleanup } = await tempDir();
    const mnt = `${dir}/small`;
    try {
      const file = await bigFile(dir);
      await mountTmpfs(mnt, "1m");
      try {
        const r = await runMain(["import", file, "--db", `${mnt}/c.db`]);
        assert.equal(r.code, 1, r.stderr);
        assert.match(r.stderr, /Import failed, nothing was written: database or disk is full/);
        assert.doesNotMatch(r.stderr, /cannot rollback/);
        assert.doesNotMatch(r.stderr, STACK);
      } finally {
        await unmount(mnt);
      }
    } finally {
      await cleanup();
    }
  },
});

Deno.test({
  name: "cli: import past the file-size limit reports SQLite's own error, not a failed rollback",
  ignore: Deno.build.os === "windows",
  async fn() {
    const { dir, cleanup } = await tempDir();
    try {
      const file = await bigFile(dir);
      // 512 KiB per file; SIGXFSZ ignored so writes fail with EFBIG instead of
      // killing the process: SQLite sees a failed write, as on a full disk.
      const r = await runMain(
        ["import", file, "--db", `${dir}/c.db`],
        'trap "" XFSZ; ulimit -f 1024;',
      );
      assert.equal(r.code, 1, r.stderr);
      assert.match(
        r.stderr,
        /Import failed, nothing was written: (disk I\/O error|database or disk is full)/,
      );
      assert.doesNotMatch(r.stderr, /cannot rollback/);
      assert.doesNotMatch(r.stderr, STACK);
    } finally {
      await cleanup();
    }
  },
});

Deno.test("cli: an import while another import writes is rejected in one sentence", async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const db = `${dir}/c.db`;
    openCatalog(db).close();
    const file = await writeJson(dir, "v.json", [sampleVacancy(1)]);
    const other = new DatabaseSync(db);
    other.exec("BEGIN IMMEDIATE");
    try {
      const r = await runMain(["import", file, "--db", db]);
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr, /^Import rejected: another import is running \(or a sync\) on /);
      assert.doesNotMatch(r.stderr, STACK);
    } finally {
      other.exec("ROLLBACK");
      other.close();
    }
    const r = await runMain(["import", file, "--db", db]);
    assert.equal(r.code, 0, r.stderr);
  } finally {
    await cleanup();
  }
});

/** Reads a stream until `re` matches the text so far; returns all of it. */
async function readUntil(stream: ReadableStream<Uint8Array>, re: RegExp): Promise<string> {
  const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!re.test(text)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`output ended before ${re}: ${text}`);
    text += value;
  }
  reader.releaseLock();
  return text;
}

optionalTest(TMPFS, {
  name: "cli: the server starts on a database in a read-only mount and says it cannot change",
  async fn() {
    const { dir, cleanup } = await tempDir();
    const mnt = `${dir}/ro`;
    try {
      await mountTmpfs(mnt, "64m");
      try {
        const made = await runMain(["demo", "--db", `${mnt}/c.db`, "--scale", "300"]);
        assert.equal(made.code, 0, made.stderr);
        remountReadOnly(mnt);
        const server = new Deno.Command(Deno.execPath(), {
          args: ["run", "--allow-all", MAIN, "serve", "--port", "0", "--host", "127.0.0.1"]
            .concat(["--db", `${mnt}/c.db`, "--render-workers", "0"])
            // The default tiles folder sits beside the database, on the read-only mount.
            .concat(["--output-dir", `${dir}/out`]),
          stdout: "piped",
          stderr: "piped",
        }).spawn();
        try {
          const out = await readUntil(server.stdout, /Serving .* at (http:\S+) /);
          const url = /Serving .* at (http:\S+) /.exec(out)![1];
          const res = await fetch(`${url}api/v1/vacancies/?page_size=1`);
          assert.equal(res.status, 200);
          assert.equal((await res.json()).count > 0, true);
          const tile = await fetch(`${url}arcgis/rest/services/Recruitment/MapServer/tile/1/0/1`);
          assert.equal(tile.status, 200, await tile.clone().text());
          assert.deepEqual([...new Uint8Array(await tile.arrayBuffer()).slice(1, 4)], [80, 78, 71]);
          const err = await readUntil(server.stderr, /tiles are kept in memory/);
          assert.match(
            err,
            /serving it as immutable; its data cannot change while the server runs/,
          );
        } finally {
          server.kill("SIGTERM");
          await server.status;
          await server.stdout.cancel().catch(() => {});
          await server.stderr.cancel().catch(() => {});
        }
      } finally {
        await unmount(mnt);
      }
    } finally {
      await cleanup();
    }
  },
});

Deno.test("cli: a database that cannot be opened is one sentence and exit code 1", async () => {
  const { dir, cleanup } = await tempDir();
  try {
    // A directory where the file should be: SQLite's "unable to open database file".
    await Deno.mkdir(`${dir}/c.db`);
    const r = await runMain(["serve", "--port", "0", "--db", `${dir}/c.db`]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(
      r.stderr,
      /^Cannot start: The catalogue database .*c\.db cannot be opened: [^\n]+\.\n$/,
    );
    assert.doesNotMatch(r.stderr, STACK);
  } finally {
    await cleanup();
  }
});

Deno.test("cli: demo in a log (stderr not a terminal) prints plain lines, no bar redraws", async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const r = await runMain(["demo", "--db", `${dir}/d.db`, "--scale", "500"]);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(
      !r.stderr.includes("\r") && !r.stderr.includes("\u001b"),
      "no carriage returns or escape codes",
    );
    assert.match(
      r.stderr,
      /^(demo data: \d+\/\d+ \(\d+%\)\n)*demo data: (\d+)\/\2 \(100%\), [\d.]+ s\n$/,
    );
    assert.match(r.stdout, /^Created .*d\.db: /);
  } finally {
    await cleanup();
  }
});

Deno.test("cli: sync from an endless upstream stops at --max-pages with one sentence, no bar redraws", async () => {
  const { dir, cleanup } = await tempDir();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/api/v1/agencies/for_vacancies/") return Response.json([]);
    const n = Number(url.searchParams.get("page") ?? "1");
    return Response.json({
      count: 1e9,
      next: `${url.origin}${url.pathname}?page=${n + 1}`,
      previous: null,
      results: [sampleVacancy(n)],
    });
  });
  try {
    const base = `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`;
    const r = await runMain(["sync", base, "--db", `${dir}/m.db`, "--max-pages", "40"]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(
      r.stderr,
      /^Sync failed, nothing was written: \S+page=41: vacancies has more than 40 pages \(the --max-pages cap\)/m,
    );
    assert.ok(!r.stderr.includes("\r"), "plain lines in a log");
    assert.doesNotMatch(r.stderr, STACK);
    const bad = await runMain(["sync", base, "--max-pages", "lots"]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--max-pages must be a positive whole number, got "lots"/);
  } finally {
    await server.shutdown();
    await cleanup();
  }
});

Deno.test("cli: import in a log ends with one plain summary line of the records read", async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const file = await writeJson(dir, "v.json", [sampleVacancy(1), sampleVacancy(2)]);
    const r = await runMain(["import", file, "--db", `${dir}/c.db`]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /^import: 2 records, [\d.]+ s\n$/);
    assert.match(r.stdout, /^Imported 2 vacancies into /);
  } finally {
    await cleanup();
  }
});

Deno.test("cli: two imports started together into a new database both end cleanly", async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const db = `${dir}/new.db`;
    const a = await writeJson(dir, "a.json", [sampleVacancy(1)]);
    const b = await writeJson(dir, "b.json", [sampleVacancy(2)]);
    const runs = await Promise.all([
      runMain(["import", a, "--db", db]),
      runMain(["import", b, "--db", db]),
      runMain(["import", a, b, "--db", db]),
    ]);
    for (const r of runs) {
      assert.doesNotMatch(r.stderr, STACK);
      if (r.code !== 0) {
        assert.equal(r.code, 1);
        assert.match(r.stderr, /Import rejected: another import is running/);
      }
    }
    assert.ok(runs.some((r) => r.code === 0));
  } finally {
    await cleanup();
  }
});
