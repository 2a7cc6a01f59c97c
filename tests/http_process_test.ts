/**
 * The server process under pressure (issue 7, items 2 and 3): more
 * connections than its open-file limit must not end it, and SIGTERM while a
 * request body trickles in must still stop it within the shutdown timeout.
 */
import assert from "node:assert/strict";
import { closeQuietly, connectTo, send } from "./_raw_http.ts";
import {
  demoDir,
  exitWithin,
  getUntilOk,
  killServerProcess,
  MAIN,
  startServerProcess,
} from "./_server_process.ts";
import { HTTP_ENGINES } from "../routes/server.ts";

// Both HTTP engines must behave alike (issue 24).
for (const engine of HTTP_ENGINES) {
  Deno.test({
    name: `process: more idle connections than \`ulimit -n\` do not end the server [${engine}]`,
    sanitizeResources: false,
    sanitizeOps: false,
    async fn() {
      const dir = await demoDir();
      const server = await startServerProcess(dir, ["--http-engine", engine], 256);
      const conns: Deno.Conn[] = [];
      try {
        for (let i = 0; i < 300; i++) conns.push(await connectTo(server.url));
        await new Promise((r) => setTimeout(r, 1500));
        conns.forEach(closeQuietly);
        assert.equal(await getUntilOk(`${server.url}/api/v1/`, 10_000), 200, server.stderr());
        assert.match(
          server.stderr(),
          /Refused a connection with 503|Accepting a connection failed/,
        );
        server.child.kill("SIGTERM");
        assert.equal((await exitWithin(server.child, 15_000)).code, 0, server.stderr());
      } finally {
        conns.forEach(closeQuietly);
        await killServerProcess(server, dir);
      }
    },
  });

  Deno.test({
    name:
      `process: at the open-file limit accept errors are logged and the server recovers [${engine}]`,
    sanitizeResources: false,
    sanitizeOps: false,
    async fn() {
      // A cap above the limit makes accept itself fail with EMFILE; the header
      // timeout then frees descriptors while the idle connections are still open.
      const dir = await demoDir();
      const server = await startServerProcess(
        dir,
        ["--http-engine", engine, "--max-connections", "1000", "--header-timeout", "1"],
        256,
      );
      const conns: Deno.Conn[] = [];
      try {
        for (let i = 0; i < 300; i++) conns.push(await connectTo(server.url));
        assert.equal(await getUntilOk(`${server.url}/api/v1/`, 15_000), 200, server.stderr());
        assert.match(server.stderr(), /Accepting a connection failed \(Too many open files/);
        server.child.kill("SIGTERM");
        assert.equal((await exitWithin(server.child, 15_000)).code, 0, server.stderr());
      } finally {
        conns.forEach(closeQuietly);
        await killServerProcess(server, dir);
      }
    },
  });

  Deno.test({
    name:
      `process: SIGTERM while a request body trickles in at 1 byte/s exits within the shutdown timeout [${engine}]`,
    sanitizeResources: false,
    sanitizeOps: false,
    async fn() {
      const dir = await demoDir();
      const server = await startServerProcess(dir, [
        "--http-engine",
        engine,
      ]);
      const conn = await connectTo(server.url);
      let trickling = true;
      try {
        // Well-formed so far: the SOAP route parses as the body arrives and would
        // answer a malformed prefix at once, ending the request before the signal.
        const head = `<?xml version="1.0"?><soap:Envelope ` +
          `xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><x>`;
        await send(
          conn,
          "POST /arcgis/services/Recruitment/MapServer HTTP/1.1\r\nHost: 127.0.0.1\r\n" +
            `Content-Type: text/xml\r\nContent-Length: ${head.length + 1000}\r\n\r\n${head}`,
        );
        const trickle = (async () => {
          while (trickling) {
            await send(conn, "a").catch(() => trickling = false);
            await new Promise((r) => setTimeout(r, 1000));
          }
        })();
        await new Promise((r) => setTimeout(r, 1500));
        const t0 = performance.now();
        server.child.kill("SIGTERM");
        // The default --shutdown-timeout is 10 s; allow a little for closing down.
        const st = await exitWithin(server.child, 14_000);
        assert.equal(st.code, 0);
        assert.ok(performance.now() - t0 > 5000, "the request in flight was given time");
        trickling = false;
        await trickle;
      } finally {
        trickling = false;
        closeQuietly(conn);
        await killServerProcess(server, dir);
      }
    },
  });
}
Deno.test("process: bad timeout, connection-cap and engine flags are usage errors", async () => {
  for (
    const [flag, value] of [
      ["--header-timeout", "0"],
      ["--body-timeout", "-1"],
      ["--idle-timeout", "soon"],
      ["--shutdown-timeout", ""],
      ["--max-connections", "0"],
      ["--max-connections", "1.5"],
      ["--http-engine", "fast"],
    ]
  ) {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-all", MAIN, "serve", `${flag}=${value}`],
      stdout: "null",
      stderr: "piped",
    }).output();
    assert.equal(out.code, 2, `${flag} ${value}`);
    assert.match(new TextDecoder().decode(out.stderr), new RegExp(`^${flag} must be `));
  }
});
