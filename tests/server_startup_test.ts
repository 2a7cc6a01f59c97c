/**
 * A server whose start-up fails part-way leaves nothing running: the reader
 * workers (started eagerly), the catalogue's connection and the loaded
 * services are closed before the error reaches the caller. A worker left
 * running keeps a process alive, so each case runs in its own process, which
 * must end by itself once the error is caught.
 */
import assert from "node:assert/strict";
import { demoDb, tempDir } from "./_data_fixtures.ts";

const ROOT = new URL("../", import.meta.url).pathname;
/** Only a guard against a hang (the failure this test looks for), not a speed limit. */
const HANG_GUARD_MS = 120_000;

/** Runs `startServer(opts)` in a fresh process; returns what it printed once it ended. */
async function startInProcess(opts: Record<string, unknown>): Promise<string> {
  const code = `
    import { startServer } from ${JSON.stringify(new URL("../main.ts", import.meta.url).href)};
    try {
      await startServer(${JSON.stringify(opts)});
      console.log("started");
    } catch (err) {
      console.log("failed: " + err.message);
    }
  `;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--ext=ts", code],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(HANG_GUARD_MS),
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  assert.ok(
    out.success,
    `the process did not end by itself after the failed start-up (something it started is still ` +
      `running); it printed: ${text}${new TextDecoder().decode(out.stderr)}`,
  );
  return text;
}

Deno.test("server start-up: a failure after the reader workers started (no map documents) closes everything", async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const dbPath = demoDb(dir, { vacancies: 50, agencies: 2, competitions: 5 });
    await Deno.mkdir(`${dir}/maps`);
    const out = await startInProcess({
      dbPath,
      mapsDir: `${dir}/maps`,
      port: 0,
      hostname: "127.0.0.1",
      quiet: true,
      renderWorkers: 0,
      readerWorkers: 2,
      outputDir: `${dir}/output`,
    });
    assert.match(out, /failed: .*no \.json map documents/);
  } finally {
    await cleanup();
  }
});

Deno.test("server start-up: a port already in use closes the readers and services started before", async () => {
  const { dir, cleanup } = await tempDir();
  const taken = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  try {
    const dbPath = demoDb(dir, { vacancies: 50, agencies: 2, competitions: 5 });
    const out = await startInProcess({
      dbPath,
      port: taken.addr.port,
      hostname: "127.0.0.1",
      quiet: true,
      renderWorkers: 0,
      readerWorkers: 2,
      outputDir: `${dir}/output`,
    });
    assert.match(out, /failed: .*(in use|AddrInUse)/i);
  } finally {
    taken.close();
    await cleanup();
  }
});
