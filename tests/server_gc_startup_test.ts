/**
 * The main thread's garbage collections stop every request for as long as
 * they take (a full collection, 16 ms after a start). Start-up's garbage is
 * collected before the server announces its URL, so the collection budget's
 * first check does not fall on a client's first requests a second later.
 * `RENDER_TRACE=1` traces each collection; the server runs with
 * `--expose-gc` as `deno task start` runs it.
 */
import assert from "node:assert/strict";
import { setTimeout as delay } from "node:timers/promises";
import { demoDir, killServerProcess, startServerProcess } from "./_server_process.ts";

/** How long the first requests go on: two ticks of the server's one-second collection timer. */
const FIRST_REQUESTS_MS = 2500;

Deno.test("the main thread collects its start-up garbage before it announces the URL, not during the first requests", async () => {
  const dir = await demoDir();
  const server = await startServerProcess(dir, [], undefined, {
    DENO_V8_FLAGS: "--expose-gc",
    RENDER_TRACE: "1",
  });
  try {
    const until = Date.now() + FIRST_REQUESTS_MS;
    let answered = 0;
    while (Date.now() < until) {
      const res = await fetch(`${server.url}/api/v1/vacancies/?page=${1 + (answered % 3)}`);
      assert.equal(res.status, 200);
      await res.arrayBuffer();
      answered++;
      await delay(50);
    }
    const log = server.stderr();
    assert.match(log, /main thread collected its start-up garbage in \d+\.\d ms/);
    assert.doesNotMatch(
      log,
      /main thread collected garbage past its budget/,
      `a collection stopped the main thread during the first ${answered} requests:\n${log}`,
    );
  } finally {
    await killServerProcess(server, dir);
  }
});
