import assert from "node:assert/strict";
import { Connections } from "./_connections.ts";
import { EventLog } from "./_event_log.ts";
import type { ConnServer } from "./_hyper_conn.ts";

/** A connection's hyper server as far as the set sees it: it finishes when aborted. */
function fakeServer(): ConnServer & { aborted: boolean } {
  const { promise, resolve } = Promise.withResolvers<void>();
  const s = {
    aborted: false,
    finished: promise,
    abort() {
      s.aborted = true;
      resolve();
    },
  };
  return s;
}

function setup(lines: string[] = []) {
  const events = new EventLog((l) => lines.push(l), 0);
  return { conns: new Connections(events, 1000, 5000), events, lines };
}

Deno.test("connections: a silent connection closes after the header timeout, with a log line", async () => {
  const { conns, events, lines } = setup();
  const c = conns.open();
  const server = fakeServer();
  conns.add(c, server);
  conns.sweep(c.since + 998);
  assert.equal(server.aborted, false);
  conns.sweep(c.since + 1001); // a little past: the clock is fractional
  assert.equal(server.aborted, true);
  await server.finished;
  await new Promise((r) => setTimeout(r, 0));
  assert.equal(conns.size, 0);
  events.close();
  assert.match(lines.join("\n"), /no complete request within 1 s/);
});

Deno.test("connections: an idle connection gets the idle timeout plus time for its last bytes", () => {
  const { conns, events } = setup();
  const c = conns.open();
  const server = fakeServer();
  conns.add(c, server);
  c.active++;
  c.served++;
  conns.sweep(c.since + 60_000); // busy: never closed by the sweep
  assert.equal(server.aborted, false);
  conns.handedOver(c, new Response(new Uint8Array(65_536)), { completed: Promise.resolve() });
  assert.equal(c.active, 0);
  conns.sweep(c.since + 5000 + 998); // 64 KiB get 1 s to leave on top of the idle 5 s
  assert.equal(server.aborted, false);
  conns.sweep(c.since + 5000 + 1001);
  assert.equal(server.aborted, true);
  events.close();
});

Deno.test("connections: at shutdown idle ones close at once and busy ones after the deadline", async () => {
  const { conns, events, lines } = setup();
  const idle = conns.open(), busy = conns.open();
  const idleServer = fakeServer(), busyServer = fakeServer();
  conns.add(idle, idleServer);
  conns.add(busy, busyServer);
  busy.active = 1;
  conns.stopping = true;
  await conns.closeAll(50);
  assert.equal(idleServer.aborted, true);
  assert.equal(busyServer.aborted, true);
  assert.equal(conns.size, 0);
  events.close();
  assert.match(lines.join("\n"), /Closed 1 connection\(s\) still busy after the 0.05 s/);
});
