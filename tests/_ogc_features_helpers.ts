/**
 * Helpers of the OGC API – Features tests: the real server (`main.ts`)
 * publishing the GeoPackage fixture (`Fixture`, and `Capped` with
 * maxRecordCount 3) from a `--maps` folder, and GET helpers for its
 * OGCFeatureServer and its REST query (to compare the two).
 *
 * @module
 */
import assert from "node:assert/strict";
import { fetchText, startTestServer, type TestServer } from "./_api_helpers.ts";
import { createFixture, type Fixture } from "./_soap_query_fixtures.ts";

/** A running server over the fixture. */
export interface OgcServer extends TestServer {
  fixture: Fixture;
  /** `.../services/Fixture/OGCFeatureServer`. */
  landing: string;
}

/**
 * Runs `fn` against a fresh server publishing the fixture, closed after.
 *
 * @example
 * ```ts ignore
 * await withOgcServer(async (s) => { await ogcGet(s.landing + "/collections"); });
 * ```
 */
export async function withOgcServer(fn: (s: OgcServer) => Promise<void>): Promise<void> {
  const fixture = await createFixture();
  const server = await startTestServer({ mapsDir: fixture.mapsDir, allowMapPathsOutside: true });
  try {
    await fn({
      ...server,
      fixture,
      landing: `${server.url}/arcgis/rest/services/Fixture/OGCFeatureServer`,
    });
  } finally {
    await server.close();
    await fixture.dispose();
  }
}

/** A GET answer: status, headers, text and the parsed JSON (when JSON). */
export interface OgcAnswer {
  status: number;
  headers: Headers;
  text: string;
  // deno-lint-ignore no-explicit-any
  body: any;
}

/**
 * GETs `url` (with `params` and an Accept header) and parses JSON bodies.
 *
 * @example
 * ```ts ignore
 * const { body } = await ogcGet(`${s.landing}/collections/0/items`, { limit: "2" });
 * ```
 */
export async function ogcGet(
  url: string,
  params: Record<string, string> = {},
  accept?: string,
): Promise<OgcAnswer> {
  const q = new URLSearchParams(params).toString();
  const a = await fetchText(q ? `${url}?${q}` : url, { headers: accept ? { accept } : {} });
  const json = /json/.test(a.headers.get("content-type") ?? "");
  return { ...a, body: json ? JSON.parse(a.text) : undefined };
}

/**
 * Asserts an OGC API exception: the status, JSON `{code, description}` and
 * a description matching `message`.
 *
 * @example
 * ```ts ignore
 * expectException(await ogcGet(url, { limit: "0" }), 400, /limit/);
 * ```
 */
export function expectException(a: OgcAnswer, status: number, message: RegExp): void {
  assert.equal(a.status, status, a.text);
  assert.match(a.headers.get("content-type") ?? "", /^application\/json/);
  assert.equal(typeof a.body.code, "string");
  assert.match(a.body.description, message);
}
