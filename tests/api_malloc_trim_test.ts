/**
 * Giving freed malloc memory back (routes/_malloc_trim.ts) in a running
 * server: looked at after the known spikes and on a timer, trimmed when due,
 * rate-limited; a server without glibc or FFI starts and serves all the same.
 */
import assert from "node:assert/strict";
import { startTestServer } from "./_api_helpers.ts";
import { createDemoDatabase } from "../data/mod.ts";
import type { MallocControl, MallocStats } from "../routes/mod.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;
const MiB = 2 ** 20;
const HOUR = 3_600_000;

/** A malloc that always looks worth trimming (64 MiB free, resident growing), counting calls. */
function dueMalloc(): MallocControl & { looks: number; trims: number } {
  let resident = 200 * MiB;
  const m = {
    looks: 0,
    trims: 0,
    stats(): Promise<MallocStats> {
      m.looks++;
      resident += 32 * MiB;
      return Promise.resolve({ usedBytes: 80 * MiB, freeBytes: 64 * MiB, residentBytes: resident });
    },
    trim(): Promise<void> {
      m.trims++;
      return Promise.resolve();
    },
  };
  return m;
}

async function get(url: string): Promise<number> {
  const res = await fetch(url);
  await res.body?.cancel();
  return res.status;
}

Deno.test("malloc trim: a list built by the reader worker leads to a look; trims are rate-limited", async () => {
  const malloc = dueMalloc();
  const s = await startTestServer({
    malloc,
    // No timer in this test: only the known spikes make the server look.
    mallocCheckMs: HOUR,
    mallocTrim: { minCheckIntervalMs: 0, minIntervalMs: HOUR },
    minorGc: () => {},
    youngGcBytes: 2 ** 40,
  });
  try {
    assert.equal(malloc.looks, 0);
    // A search with a filter: its count and id list are built in the reader worker.
    assert.equal(await get(`${s.url}/api/v1/vacancies/?search=аудит&agency=1&page=1`), 200);
    // One look found a trim due, one more right after it notes what the trim left.
    assert.equal(malloc.looks, 2, "the list's build ended: one look");
    assert.equal(malloc.trims, 1, "due: trimmed");
    assert.equal(await get(`${s.url}/api/v1/vacancies/?search=отдел&agency=2&page=1`), 200);
    assert.equal(malloc.looks, 2, "within the hour after a trim: not even a look");
    assert.equal(malloc.trims, 1, "still due, but within the hour since the last trim");
  } finally {
    await s.close();
  }
});

Deno.test("malloc trim: a young collection of dead API bodies leads to a look", async () => {
  const malloc = dueMalloc();
  let collections = 0;
  const s = await startTestServer({
    malloc,
    mallocCheckMs: HOUR,
    mallocTrim: { minCheckIntervalMs: 0, minIntervalMs: 0, costFactor: 0 },
    minorGc: () => collections++,
    youngGcBytes: 1000,
    readerWorkers: 0,
  });
  try {
    assert.equal(await get(`${s.url}/api/v1/vacancies/`), 200);
    assert.equal(collections, 1);
    assert.equal(malloc.looks, 2, "one look, and one after the trim");
    assert.equal(malloc.trims, 1);
    assert.equal(await get(`${s.url}/api/v1/vacancies/?page=2`), 200);
    assert.equal(collections, 2);
    assert.equal(malloc.looks, 4);
    assert.equal(malloc.trims, 2);
  } finally {
    await s.close();
  }
});

Deno.test("malloc trim: the timer looks while the server is idle, and stops with it", async () => {
  const malloc = dueMalloc();
  const s = await startTestServer({
    malloc,
    mallocCheckMs: 20,
    mallocTrim: { minCheckIntervalMs: 0, minIntervalMs: 0, costFactor: 0 },
  });
  try {
    // Bounded so a server whose timer never looks fails instead of hanging the suite.
    for (let i = 0; i < 500 && malloc.trims < 3; i++) await new Promise((r) => setTimeout(r, 20));
    assert.ok(malloc.trims >= 3, `trims: ${malloc.trims}`);
  } finally {
    await s.close();
  }
  const after = malloc.looks;
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(malloc.looks, after, "no look after shutdown");
});

Deno.test("malloc trim: without a C library to trim (null) the server starts and serves", async () => {
  const s = await startTestServer({ malloc: null });
  try {
    assert.equal(await get(`${s.url}/api/v1/vacancies/?page=2`), 200);
  } finally {
    await s.close();
  }
});

/** Runs `main.ts serve` with `permissions`, returns the start-up lines and the API's status. */
async function serveOnce(dir: string, permissions: string[]): Promise<[string, number]> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      ...permissions,
      MAIN,
      "serve",
      ...["--host", "127.0.0.1", "--port", "0", "--db", `${dir}/catalog.db`],
      ...["--render-workers", "0", "--output-dir", `${dir}/output`],
    ],
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let out = "";
  try {
    while (!/^Freed memory .*$/m.test(out)) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the server ended before it was up: ${out}`);
      out += value;
    }
    const url = out.match(/Serving .* at (http:\/\/127\.0\.0\.1:\d+)\//)![1];
    return [out, await get(`${url}/api/v1/vacancies/?page=2`)];
  } finally {
    child.kill("SIGTERM");
    await reader.cancel();
    await child.status;
  }
}

Deno.test("malloc trim: the server says at start whether it trims; FFI denied, it serves without", async () => {
  const dir = await Deno.makeTempDir({ prefix: "malloc-trim-" });
  try {
    await createDemoDatabase(`${dir}/catalog.db`);
    const [denied, deniedStatus] = await serveOnce(dir, ["--allow-all", "--deny-ffi"]);
    assert.match(denied, /Freed memory is left to malloc/);
    assert.equal(deniedStatus, 200);
    const [allowed, allowedStatus] = await serveOnce(dir, ["--allow-all"]);
    assert.equal(allowedStatus, 200);
    const glibc = Deno.build.os === "linux" &&
      !(await new Deno.Command("ldd", { args: ["--version"], stdout: "piped", stderr: "piped" })
        .output().then((o) => /musl/i.test(new TextDecoder().decode(o.stdout)), () => true));
    if (glibc) assert.match(allowed, /Freed memory goes back to the system/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
