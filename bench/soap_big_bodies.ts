/**
 * Large SOAP bodies vs. everyone else (issue 7 item 5): N concurrent
 * ~9.7 MB SOAP requests (QueryFeatureIDs with a pretty-printed FIDSet of
 * 240,000 ids, just under the 250,000-element limit) while `GET /api/v1/`
 * is timed every 100 ms. Prints the probe's worst and median latency (with
 * `--trace`, every probe over a second and when it started), the
 * SOAP answers by status and the server's RSS before, at peak and after.
 *
 * The server runs as its own process (`main.ts serve`, demo database in
 * `var/bench/big/`, created on first use) on 127.0.0.1; the run is bounded
 * (every request has a deadline) and stops the server at the end.
 *
 * ```
 * deno run -A bench/soap_big_bodies.ts [--concurrency 64] [--port 18750] [--trace] [-- serve flags]
 * ```
 *
 * @module
 */
import { parseArgs } from "node:util";
import { existsSync, mkdirSync } from "node:fs";
import { rssMiB, startProcess } from "./_load.ts";

const { values, positionals } = parseArgs({
  args: Deno.args,
  options: {
    concurrency: { type: "string", default: "64" },
    port: { type: "string", default: "18750" },
    trace: { type: "boolean", default: false },
  },
  allowPositionals: true,
});
const concurrency = Number(values.concurrency);
const port = Number(values.port);
const main = new URL("../main.ts", import.meta.url).pathname;
const dir = "var/bench/big";
const db = `${dir}/catalog.db`;
mkdirSync(dir, { recursive: true });
if (!existsSync(db)) {
  const st = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", main, "demo", "--db", db],
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (!st.success) Deno.exit(1);
}

/** The big request: one FIDSet id per line, indented as pretty-printers do. */
function bigBody(): Uint8Array<ArrayBuffer> {
  const NS = "http://www.esri.com/schemas/ArcGIS/10.3";
  const indent = "\n" + " ".repeat(22);
  const ids: string[] = [];
  for (let i = 1; i <= 240_000; i++) ids.push(`${indent}<Int>${i}</Int>`);
  const xml = `<?xml version="1.0" encoding="utf-8"?>\n` +
    `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">\n <soap:Body>\n` +
    `  <e:QueryFeatureIDs xmlns:e="${NS}">\n   <MapName>Layers</MapName>\n   <LayerID>0</LayerID>\n` +
    `   <QueryFilter xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="e:QueryFilter">\n` +
    `    <WhereClause></WhereClause>\n    <FIDSet><FIDArray>${
      ids.join("")
    }\n    </FIDArray></FIDSet>\n` +
    `   </QueryFilter>\n  </e:QueryFeatureIDs>\n </soap:Body>\n</soap:Envelope>\n`;
  return new TextEncoder().encode(xml);
}

const body = bigBody();
const base = `http://127.0.0.1:${port}`;
const server = await startProcess(
  [
    main,
    "serve",
    "--db",
    db,
    "--host",
    "127.0.0.1",
    "--port",
    String(port),
    "--render-workers",
    "0",
    ...positionals,
  ],
  /Serving/,
  base,
);
const pid = server.child.pid;
try {
  // Warm up both paths once.
  await (await fetch(`${base}/api/v1/`)).text();
  await (await fetch(`${base}/arcgis/services/Recruitment/MapServer`, {
    method: "POST",
    headers: { "content-type": "text/xml; charset=utf-8" },
    body,
  })).text();
  const before = rssMiB(pid).rss;

  let running = true;
  const start = performance.now();
  const latencies: number[] = [];
  let peakRss = before;
  const rssTimer = setInterval(() => {
    peakRss = Math.max(peakRss, rssMiB(pid).rss);
  }, 50);
  const probe = (async () => {
    while (running) {
      const t0 = performance.now();
      const res = await fetch(`${base}/api/v1/`, { signal: AbortSignal.timeout(60_000) });
      await res.arrayBuffer();
      latencies.push(performance.now() - t0);
      if (values.trace && performance.now() - t0 > 1000) {
        console.log(
          `slow probe at ${((t0 - start) / 1000).toFixed(1)} s: ${
            (performance.now() - t0).toFixed(0)
          } ms`,
        );
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  })();

  const t0 = performance.now();
  const statuses = new Map<string, number>();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    let key: string;
    try {
      const res = await fetch(`${base}/arcgis/services/Recruitment/MapServer`, {
        method: "POST",
        headers: { "content-type": "text/xml; charset=utf-8" },
        body,
        signal: AbortSignal.timeout(120_000),
      });
      const text = await res.text();
      key = `${res.status}${/<faultstring>([^<]{0,60})/.exec(text)?.[1] ? " fault" : ""}`;
    } catch (e) {
      key = `error ${(e as Error).name}`;
    }
    statuses.set(key, (statuses.get(key) ?? 0) + 1);
  }));
  const elapsed = performance.now() - t0;
  running = false;
  await probe;
  clearInterval(rssTimer);
  await new Promise((r) => setTimeout(r, 500));
  const after = rssMiB(pid).rss;
  const sorted = [...latencies].sort((a, b) => a - b);
  console.log(
    `${concurrency} x ${(body.byteLength / 2 ** 20).toFixed(1)} MiB SOAP bodies in ${
      (elapsed / 1000).toFixed(1)
    } s; answers: ${[...statuses].map(([k, n]) => `${n} x ${k}`).join(", ")}`,
  );
  console.log(
    `GET /api/v1/ every 100 ms: ${sorted.length} probes, max ${
      sorted[sorted.length - 1].toFixed(0)
    } ms, median ${sorted[Math.floor(sorted.length / 2)].toFixed(0)} ms`,
  );
  console.log(
    `server RSS: before ${before.toFixed(0)} MiB, peak ${peakRss.toFixed(0)} MiB, after ${
      after.toFixed(0)
    } MiB`,
  );
} finally {
  await server.stop();
}
