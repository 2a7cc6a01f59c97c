/**
 * Baselines of `bench/http_server_load.ts`: a constant body of a given size
 * served either by a bare `Deno.serve` or by our server module
 * (`routes/server.ts`: own accept loop, timeouts, cap). Both handlers take
 * the request, as the application's does (Deno.serve has a faster path for
 * handlers without parameters, which no real application can use). Usage:
 * `deno run -A bench/_serve_http_baseline.ts PORT BYTES deno|ours`
 *
 * @module
 */
import { serveHttp } from "../routes/server.ts";

const [portText, bytesText, which] = Deno.args;
const body = new TextEncoder().encode(`{"x":"${"a".repeat(Math.max(0, Number(bytesText) - 8))}"}`);
const headers = { "content-type": "application/json" };
const handler = (_req: Request) => new Response(body, { headers });
if (which === "ours") {
  serveHttp({ hostname: "127.0.0.1", port: Number(portText), handler });
  console.log("ready");
} else {
  Deno.serve({
    hostname: "127.0.0.1",
    port: Number(portText),
    onListen: () => console.log("ready"),
  }, handler);
}
