/**
 * The command line as a user runs it: the server process (demo database on
 * first start, port flags, clean stop on SIGTERM/SIGINT) and `import`
 * (whole-file rejection, updates seen by a running server).
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { fetchJson } from "./_api_helpers.ts";
import { waitForLine } from "./_server_process.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;

function deno(args: string[], env: Record<string, string> = {}): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", MAIN, ...args],
    stdout: "piped",
    stderr: "piped",
    env,
  }).spawn();
}

async function runToEnd(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = await deno(args).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

async function startProcess(dir: string, extra: string[] = [], env: Record<string, string> = {}) {
  const child = deno(["serve", "--host", "127.0.0.1", "--db", `${dir}/catalog.db`, ...extra], env);
  const m = await waitForLine(child.stdout, /Serving .* at (http:\/\/127\.0\.0\.1:(\d+)\/)/);
  return { child, url: m[1].replace(/\/$/, ""), port: Number(m[2]) };
}

/** A maps folder with one document naming a source type that does not exist (`x.json`). */
async function writeBadMapDocument(maps: string): Promise<void> {
  await Deno.mkdir(maps);
  await Deno.writeTextFile(
    `${maps}/x.json`,
    JSON.stringify({
      name: "X",
      maps: [{ name: "M", wkid: 4326, layers: [{ name: "L", source: { type: "oracle" } }] }],
    }),
  );
}

function snapshot(dbPath: string): string {
  const db = new DatabaseSync(dbPath, { readOnly: true });
  try {
    const rows = db.prepare("SELECT id, doc, published FROM vacancy ORDER BY id").all();
    const meta = db.prepare("SELECT key, value FROM meta ORDER BY key").all();
    return JSON.stringify([rows, meta]);
  } finally {
    db.close();
  }
}

Deno.test({
  name: "cli: first start creates the demo database, serves, stops cleanly on SIGTERM",
  sanitizeResources: false,
  async fn() {
    const dir = await Deno.makeTempDir();
    try {
      const { child, url } = await startProcess(dir, ["--port", "0"]);
      const { status, body } = await fetchJson(`${url}/api/v1/vacancies/`);
      assert.equal(status, 200);
      assert.ok(body.count > 300);
      child.kill("SIGTERM");
      const st = await child.status;
      assert.equal(st.code, 0);
      await child.stderr.cancel();
      await Deno.stat(`${dir}/catalog.db`);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "cli: PORT from the environment, SIGINT stops",
  sanitizeResources: false,
  async fn() {
    const dir = await Deno.makeTempDir();
    try {
      // Find a free port, then hand it over through PORT.
      const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
      const port = (l.addr as Deno.NetAddr).port;
      l.close();
      const { child, port: got } = await startProcess(dir, [], { PORT: String(port) });
      assert.equal(got, port);
      child.kill("SIGINT");
      assert.equal((await child.status).code, 0);
      await child.stderr.cancel();
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("cli: bad flags are a usage error, not a stack trace", async () => {
  const r = await runToEnd(["serve", "--port", "http"]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--port must be/);
  const start = await runToEnd(["serve", "--render-start", "soon"]);
  assert.equal(start.code, 2);
  assert.match(start.stderr, /--render-start must be "auto" or "eager" or "lazy", got "soon"/);
  const u = await runToEnd(["frobnicate"]);
  assert.equal(u.code, 2);
  assert.match(u.stderr, /Unknown command "frobnicate"/);
});

Deno.test({
  name: "cli: a bad map document or a port in use stops the start with one line and status 1",
  sanitizeResources: false,
  async fn() {
    const dir = await Deno.makeTempDir();
    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    try {
      await writeBadMapDocument(`${dir}/maps`);
      const common = ["--host", "127.0.0.1", "--db", `${dir}/catalog.db`];
      const bad = await runToEnd(["serve", ...common, "--port", "0", "--maps", `${dir}/maps`]);
      const busy = await runToEnd([
        "serve",
        ...common,
        "--port",
        String((listener.addr as Deno.NetAddr).port),
      ]);
      for (
        const [r, what] of [[bad, /x\.json: maps\[0\]\.layers\[0\]\.source\.type/], [
          busy,
          /Address already in use.*--port/,
        ]] as const
      ) {
        assert.equal(r.code, 1, r.stderr);
        const lines = r.stderr.trim().split("\n");
        assert.equal(lines.length, 1, r.stderr);
        assert.match(lines[0], /^Cannot start: /);
        assert.match(lines[0], what);
      }
    } finally {
      listener.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("cli: --help of each command prints its usage and exits 0, starting nothing", async () => {
  for (
    const [command, flag] of [
      ["serve", "--port N"],
      ["import", "--collection"],
      ["sync", "--max-pages N"],
      ["demo", "--scale"],
      ["seed-tiles", "--levels"],
    ]
  ) {
    for (const help of ["--help", "-h"]) {
      const r = await runToEnd([command, help]);
      assert.equal(r.code, 0, r.stderr);
      assert.ok(r.stdout.includes(`main.ts ${command} `), r.stdout);
      assert.ok(r.stdout.includes(flag), `${command} ${help}: ${r.stdout}`);
      assert.doesNotMatch(r.stdout, /Serving/);
      for (const other of ["serve", "import", "sync", "demo", "seed-tiles"]) {
        if (other !== command) assert.ok(!r.stdout.includes(`main.ts ${other} `), r.stdout);
      }
    }
  }
  const all = await runToEnd(["--help"]);
  assert.equal(all.code, 0);
  assert.match(all.stdout, /main\.ts serve[\s\S]*main\.ts seed-tiles/);
});

Deno.test({
  name: "cli: import rejects a whole file on one bad record; a good import is served at once",
  sanitizeResources: false,
  async fn() {
    const dir = await Deno.makeTempDir();
    try {
      const { child, url } = await startProcess(dir, ["--port", "0"]);
      const db = `${dir}/catalog.db`;
      const { body: page, headers } = await fetchJson(`${url}/api/v1/vacancies/`);
      const [a, b, c] = page.results;
      const before = snapshot(db);

      // Record 1 is invalid: a salary without two decimals. Record 0 would be a change.
      const bad = [
        { ...a, title: "Изменённое название" },
        { ...b, salary_from: "100" },
        c,
      ];
      await Deno.writeTextFile(`${dir}/bad.json`, JSON.stringify(bad));
      const r = await runToEnd(["import", `${dir}/bad.json`, "--db", db]);
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr, /record 1/);
      assert.match(r.stderr, /salary_from/);
      assert.equal(snapshot(db), before, "nothing was written");

      // NDJSON with one change: accepted, and the running server sees it.
      const changed = { ...a, title: "Главный специалист-эксперт отдела импорта" };
      await Deno.writeTextFile(
        `${dir}/good.ndjson`,
        [changed, b].map((x) => JSON.stringify(x)).join("\n") + "\n",
      );
      const ok = await runToEnd(["import", `${dir}/good.ndjson`, "--db", db]);
      assert.equal(ok.code, 0, ok.stderr);
      assert.match(ok.stdout, /1 updated/);
      const after = await fetchJson(`${url}/api/v1/vacancies/${a.id}/`);
      assert.equal(after.body.title, changed.title);
      const list = await fetchJson(`${url}/api/v1/vacancies/`, {
        headers: { "if-none-match": headers.get("etag")! },
      });
      assert.equal(list.status, 200, "the ETag changed with the data");
      const found = await fetchJson(
        `${url}/api/v1/vacancies/?search=${encodeURIComponent("импорта")}`,
      );
      assert.deepEqual(found.body.results.map((x: { id: number }) => x.id), [a.id]);

      child.kill("SIGTERM");
      assert.equal((await child.status).code, 0);
      await child.stderr.cancel();
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "cli: sync mirrors a running instance through its API",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir();
    try {
      const source = await startProcess(dir, ["--port", "0"]);
      const mirrorDb = `${dir}/mirror.db`;
      const r = await runToEnd(["sync", `${source.url}/`, "--db", mirrorDb]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /Synced .* vacancies/);
      const mirrorDir = `${dir}/m`;
      await Deno.mkdir(mirrorDir);
      await Deno.rename(mirrorDb, `${mirrorDir}/catalog.db`);
      const mirror = await startProcess(mirrorDir, ["--port", "0"]);
      for (
        const path of [
          "/api/v1/vacancies/?page=3",
          "/api/v1/competitions/?page=2",
          "/api/v1/agencies/for_vacancies/",
        ]
      ) {
        const a = await fetchJson(source.url + path);
        const b = await fetchJson(mirror.url + path);
        const strip = (t: string, base: string) => t.replaceAll(base, "BASE");
        assert.equal(strip(b.text, mirror.url), strip(a.text, source.url), path);
      }
      const bad = await runToEnd(["sync", "http://127.0.0.1:9/", "--db", `${dir}/none.db`]);
      assert.equal(bad.code, 1);
      assert.match(bad.stderr, /Sync failed/);
      for (const p of [source, mirror]) {
        p.child.kill("SIGTERM");
        await p.child.status;
        await p.child.stderr.cancel();
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "cli: seed-tiles pre-renders levels into the MBTiles store the server reads",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir();
    try {
      const db = `${dir}/catalog.db`;
      assert.equal((await runToEnd(["demo", "--db", db])).code, 0);
      const r = await runToEnd(["seed-tiles", "--levels", "0-2", "--db", db]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /21 tiles of Recruitment \(21 rendered/);
      const store = new DatabaseSync(`${dir}/tiles/Recruitment/WebMercator.mbtiles`, {
        readOnly: true,
      });
      const n = (store.prepare("SELECT count(*) AS n FROM tiles").get() as { n: number }).n;
      store.close();
      assert.equal(n, 21);
      const again = await runToEnd(["seed-tiles", "--levels", "0-2", "--db", db]);
      assert.match(again.stdout, /\(0 rendered/);
      const bad = await runToEnd(["seed-tiles", "--levels", "7-3", "--db", db]);
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /--levels/);

      const { child, url } = await startProcess(dir, ["--port", "0"]);
      const tile = await fetch(`${url}/arcgis/rest/services/Recruitment/MapServer/tile/2/1/2`);
      assert.equal(tile.status, 200);
      assert.equal(tile.headers.get("content-type"), "image/png");
      const bytes = new Uint8Array(await tile.arrayBuffer());
      assert.deepEqual([...bytes.slice(1, 4)], [0x50, 0x4e, 0x47]);
      child.kill("SIGTERM");
      await child.status;
      await child.stderr.cancel();
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "cli: every command's start-up failure is one line 'Cannot start: ...' and status 1",
  sanitizeResources: false,
  async fn() {
    const dir = await Deno.makeTempDir();
    try {
      // Not a database: random bytes where the SQLite file should be.
      await Deno.writeFile(`${dir}/corrupt.db`, crypto.getRandomValues(new Uint8Array(8192)));
      // A file where the database's folder should be made.
      await Deno.writeTextFile(`${dir}/file`, "x");
      await writeBadMapDocument(`${dir}/maps`);
      const good = `${dir}/good.db`;
      assert.equal((await runToEnd(["demo", "--db", good, "--scale", "50"])).code, 0);
      const serve = ["serve", "--host", "127.0.0.1", "--port", "0"];
      const cases: [string[], RegExp][] = [
        [[...serve, "--db", `${dir}/corrupt.db`], /corrupt\.db cannot be opened: .*not a database/],
        [[...serve, "--db", `${dir}/file/x.db`], /EEXIST|ENOTDIR|file/],
        [["seed-tiles", "--db", `${dir}/corrupt.db`], /corrupt\.db cannot be opened/],
        [["seed-tiles", "--db", good, "--maps", `${dir}/maps`], /x\.json: maps\[0\]/],
        [["seed-tiles", "--db", good, "--maps", `${dir}/nowhere`], /nowhere/],
        [["demo", "--db", `${dir}/file/x.db`], /EEXIST|ENOTDIR|file/],
        [["import", `${dir}/file`, "--db", `${dir}/file/x.db`], /EEXIST|ENOTDIR|file/],
        [["sync", "http://127.0.0.1:9/", "--db", `${dir}/file/x.db`], /EEXIST|ENOTDIR|file/],
      ];
      for (const [args, what] of cases) {
        const r = await runToEnd(args);
        assert.equal(r.code, 1, `${args.join(" ")}: ${r.stderr}`);
        const lines = r.stderr.trim().split("\n");
        assert.equal(lines.length, 1, `${args.join(" ")}: ${r.stderr}`);
        assert.match(lines[0], /^Cannot start: /);
        assert.match(lines[0], what);
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("cli: flags come from one declaration: unknown ones, missing values, --help", async () => {
  const unknown = await runToEnd(["import", "x.json", "--colection", "agency"]);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /^Unknown option '--colection'\.\n`main\.ts import --help`/);
  const missing = await runToEnd(["sync", "http://127.0.0.1:9/", "--max-pages"]);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /^Option '--max-pages.*' needs a value\./);
  const extra = await runToEnd(["demo", "now"]);
  assert.equal(extra.code, 2);
  assert.match(extra.stderr, /^Unexpected argument 'now'\./);
  // Each flag a command reads is in its --help, with its default.
  const help = (await runToEnd(["serve", "--help"])).stdout;
  for (
    const line of [
      /--port N .*\(default: \$PORT, else 8000\)/,
      /--body-budget-mb N .*\(default: 64\)/,
      /--header-timeout S .*\(default: 15\)/,
      /--trust-proxy /,
      /--http-engine E .*load balancer.*\(default: hyper\)/,
    ]
  ) assert.match(help, line);
});
