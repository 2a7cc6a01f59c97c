/**
 * Baseline for the load benchmarks: a bare `Deno.serve` answering every
 * request with a constant body of a given size. Usage:
 * `deno run -A bench/_baseline_server.ts PORT BYTES`
 *
 * @module
 */
const [portText, bytesText] = Deno.args;
const body = new TextEncoder().encode(`{"x":"${"a".repeat(Math.max(0, Number(bytesText) - 8))}"}`);
const headers = { "content-type": "application/json" };
Deno.serve(
  { port: Number(portText), hostname: "127.0.0.1", onListen: () => console.log("ready") },
  () => new Response(body, { headers }),
);
