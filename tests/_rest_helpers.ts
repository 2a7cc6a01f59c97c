/**
 * Helpers for ArcGIS REST tests: GET or POST a REST resource and read the
 * JSON answer, asserting what every REST answer shares (HTTP 200 and CORS).
 *
 * @module
 */
import assert from "node:assert/strict";
import { startTestServer, type TestServer } from "./_api_helpers.ts";

/**
 * A test on a fresh demo server (the `Recruitment` service), closed after it.
 *
 * @example
 * ```ts ignore
 * restServerTest("REST /info", async (s) => { await rest(s.url, "/info", { f: "json" }); });
 * ```
 */
export function restServerTest(name: string, fn: (s: TestServer) => Promise<void>): void {
  Deno.test({
    name,
    sanitizeResources: false,
    sanitizeOps: false,
    async fn() {
      const s = await startTestServer();
      try {
        await fn(s);
      } finally {
        await s.close();
      }
    },
  });
}

/** A REST answer: the HTTP status, headers, text and (for JSON) the parsed body. */
export interface RestAnswer {
  status: number;
  headers: Headers;
  text: string;
  // deno-lint-ignore no-explicit-any
  body: any;
}

/**
 * GETs `base + "/arcgis/rest" + path` with `params` (a POST form instead
 * when `post` is true) and parses the body as JSON when it is JSON.
 *
 * @example
 * ```ts ignore
 * const { body } = await rest(s.url, "/services", { f: "json" });
 * ```
 */
export async function rest(
  base: string,
  path: string,
  params: Record<string, string> = {},
  post = false,
): Promise<RestAnswer> {
  const form = new URLSearchParams(params).toString();
  const url = `${base}/arcgis/rest${path}`;
  const res = post
    ? await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: form,
    })
    : await fetch(form ? `${url}?${form}` : url);
  const text = await res.text();
  assert.equal(res.status, 200, `${path}: ArcGIS REST answers HTTP 200 (errors included)`);
  assert.equal(res.headers.get("access-control-allow-origin"), "*");
  const json = /json/.test(res.headers.get("content-type") ?? "");
  return {
    status: res.status,
    headers: res.headers,
    text,
    body: json ? JSON.parse(text) : undefined,
  };
}

/**
 * Asserts that `answer` is an ArcGIS error with `code` whose message matches `message`.
 *
 * @example
 * ```ts ignore
 * assertRestError(await rest(s.url, "/services/Nope/MapServer", { f: "json" }), 404, /Nope/);
 * ```
 */
export function assertRestError(answer: RestAnswer, code: number, message: RegExp): void {
  assert.ok(answer.body?.error, `expected an ArcGIS error, got ${answer.text.slice(0, 200)}`);
  assert.equal(answer.body.error.code, code, answer.text);
  assert.match(answer.body.error.message, message);
  assert.ok(Array.isArray(answer.body.error.details));
}
