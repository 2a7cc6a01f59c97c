import assert from "node:assert/strict";
import { PathPattern } from "./path_pattern.ts";
import { REST_ENDPOINTS } from "./rest/mod.ts";

/** Every pattern the server routes by (routes/*.ts), and the REST face's endpoints. */
const SERVER_PATTERNS: readonly [string, boolean][] = [
  ["/api/v1/", false],
  ["/api/v1/schema/", false],
  ["/api/v1/agencies/for_vacancies/", false],
  ["/api/v1/agencies/for_vacancies/:id([^/.]+)/", false],
  ["/api/v1/vacancies/", false],
  ["/api/v1/vacancies/:id([^/.]+)/", false],
  ["/api/v1/vacancies", false],
  ["/api/v1/competitions/:id([^/.]+)/", false],
  ["/((?:a|%61)(?:p|%70)(?:i|%69)(?:/|%2[Ff]).*)", false],
  ["/arcgis/services/:service/MapServer{/}?", true],
  ["/arcgis/services{/}?", true],
  ["/arcgis/rest/services/:service/MapServer/tile/:level(\\d+)/:row(\\d+)/:col(\\d+)", true],
  ["/arcgis/rest/services/:service/MapServer/tile/:map/_alllayers/:level/:row/:col", true],
  ["/arcgis/rest/directories/arcgisoutput/:dir/:file", true],
  ["/arcgis/rest{/*}?", true],
  ["/arcgis/rest/services/:service/OGCFeatureServer{/*}?", true],
  ["/arcgis/services/:service/MapServer/WFSServer{/}?", true],
  ["/arcgis/services/:service/MapServer/WMSServer{/}?", true],
  ["/arcgis/rest/services/:service/MapServer/WMTS{/*}?", true],
  ["/", false],
  ...REST_ENDPOINTS.map((e) => [e.path, true] as [string, boolean]),
];

/** Other syntax: groups with prefix and suffix, unnamed groups, escapes (left to URLPattern). */
const OTHER_PATTERNS: readonly string[] = [
  "/a/:x?",
  "/a{/:x}?/b",
  "/a{-:x-}?",
  "/files/*.png",
  "/(\\d+)/(x|y)",
  "/a/:x/:y?",
  "/a b/é/:x",
  "/a\\+b/:x",
  "/a/:x*",
  "/a/:x+",
  "/a{/:x}*",
  "/a/*+",
  "/:ä(\\d+)",
];

const SEGMENTS = [
  "",
  "api",
  "API",
  "%61pi",
  "v1",
  "vacancies",
  "vacancies.json",
  "agencies",
  "for_vacancies",
  "12",
  "١٢",
  "x.y",
  "arcgis",
  "ArcGIS",
  "rest",
  "services",
  "World",
  "MapServer",
  "mapserver",
  "tile",
  "3",
  "_alllayers",
  "export",
  "a%2Fb",
  "%FF",
  "Моя карта",
  "WMSServer",
  "wmts",
  "OGCFeatureServer",
  "collections",
  "directories",
  "arcgisoutput",
  "out.png",
  "a b",
  "-x-",
  "(1)",
  "\u212a",
];

/** A seeded sequence in [0, 1). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Paths made of the segments above, and each pattern's own spelling, as the URL parser leaves them. */
function paths(patterns: readonly string[]): string[] {
  const rnd = random(22);
  const out = new Set<string>();
  const add = (p: string) => out.add(new URL("http://h" + p).pathname);
  for (let n = 0; n < 6000; n++) {
    const k = Math.floor(rnd() * 8);
    const parts = Array.from({ length: k }, () => SEGMENTS[Math.floor(rnd() * SEGMENTS.length)]);
    add("/" + parts.join("/") + (rnd() < 0.3 ? "/" : ""));
  }
  for (const p of patterns) {
    // The pattern with each parameter filled in, in several cases and with and without its tail.
    const filled = p.replace(/:[\p{L}_$][\p{L}\p{N}_$]*(\([^)]*\)|)/gu, () => "7")
      .replace(/[{}]/g, "").replace(/\*\?/g, "/x/y").replace(/[?*+]/g, "");
    for (
      const variant of [
        filled,
        filled.toUpperCase(),
        filled + "/",
        filled + "/z",
        filled.slice(0, -1),
      ]
    ) {
      add(variant);
    }
  }
  return [...out];
}

Deno.test("PathPattern matches what URLPattern matches, with the same groups", () => {
  const all: [string, boolean][] = [
    ...SERVER_PATTERNS,
    ...OTHER_PATTERNS.flatMap((p) => [[p, false], [p, true]] as [string, boolean][]),
  ];
  const inputs = paths(all.map(([p]) => p));
  let matched = 0;
  for (const [path, ignoreCase] of all) {
    const ours = new PathPattern(path, { ignoreCase });
    const theirs = new URLPattern({ pathname: path }, { ignoreCase });
    assert.equal(ours.source, theirs.pathname);
    for (const input of inputs) {
      const expected = theirs.exec({ pathname: input })?.pathname.groups ?? null;
      const got = ours.exec(input);
      assert.deepEqual(got, expected, `${path} (ignoreCase ${ignoreCase}) on ${input}`);
      assert.equal(ours.test(input), expected !== null, `${path} test ${input}`);
      if (expected) matched++;
    }
  }
  // The comparison covers matches, not only refusals.
  assert.ok(matched > 400, `only ${matched} matches`);
});

Deno.test("every pattern the server routes by is compiled, not left to URLPattern", () => {
  for (const [path, ignoreCase] of SERVER_PATTERNS) {
    assert.ok(new PathPattern(path, { ignoreCase }).compiled, path);
  }
  // Syntax it does not build goes to URLPattern.
  for (const path of ["/a/:x*", "/a/:x+", "/a{/:x}*", "/a\\+b/:x"]) {
    assert.equal(new PathPattern(path).compiled, false, path);
  }
});

Deno.test("PathPattern refuses what URLPattern refuses", () => {
  for (const path of ["/a/(b(c))", "/a/:", "/a/(", "/a{/b"]) {
    assert.throws(() => new PathPattern(path), TypeError, path);
  }
});
