import assert from "node:assert/strict";
import { createRouter, pathRoute, type Route } from "./router.ts";

/** A route whose pattern counts how often it runs. */
function counted(route: Route): { route: Route; runs: () => number } {
  let runs = 0;
  const pattern = route.pattern;
  const spy = { exec: (input: string) => (runs++, pattern.exec(input)) } as unknown as URLPattern;
  return { route: { ...route, pattern: spy }, runs: () => runs };
}

Deno.test("pathRoute: the literal start of the pattern, exact when it has no syntax", () => {
  assert.deepEqual(pathRoute("/api/v1/", () => new Response()).prefix, {
    text: "/api/v1/",
    exact: true,
  });
  assert.deepEqual(pathRoute("/api/v1/vacancies/:id([^/.]+)/", () => new Response()).prefix, {
    text: "/api/v1/vacancies/",
    exact: false,
  });
  assert.deepEqual(pathRoute("/files/*", () => new Response()).prefix, {
    text: "/files/",
    exact: false,
  });
});

Deno.test("router: prefixed routes run their pattern only for paths they can match", async () => {
  const one = counted(pathRoute("/a/:id/", (_req, m) => new Response(`a ${m.pathname.groups.id}`)));
  const root = counted(pathRoute("/a/", () => new Response("root")));
  const route = createRouter(
    [root.route, one.route],
    () => new Response("none", { status: 404 }),
  );
  const text = async (path: string) => await (await route(new Request(`http://h${path}`))).text();
  assert.equal(await text("/b/7/"), "none");
  assert.equal(one.runs() + root.runs(), 0);
  assert.equal(await text("/a/7/"), "a 7");
  assert.deepEqual([root.runs(), one.runs()], [0, 1]);
  // A literal pattern equal to the path matches it: its pattern runs only if the match is read.
  assert.equal(await text("/a/"), "root");
  assert.deepEqual([root.runs(), one.runs()], [0, 1]);
  // Paths are compared as the patterns see them: normalized.
  assert.equal(await text("/x/../a/8/"), "a 8");
  assert.equal(await text("/a/./"), "root");
  assert.equal(await text("/A/8/"), "none");
});

Deno.test("router: a literal route's match is the pattern's, run when read; handlers get the parsed URL", async () => {
  const read = counted(
    pathRoute(
      "/c/",
      (_req, m, _info, url) =>
        new Response(`${m.pathname.input} ${m.hostname.input} ${url.search}`),
    ),
  );
  const route = createRouter([read.route], () => new Response("none", { status: 404 }));
  const res = await route(new Request("http://h/x/../c/?q=1"));
  assert.equal(await res.text(), "/c/ h ?q=1");
  assert.equal(read.runs(), 1);
});

Deno.test("router: the prefix shortcut never changes the answer, whatever the encoding of the path or of the pattern", async () => {
  const patterns = [
    "/api/v1/",
    "/api/v1/vacancies/",
    "/api/v1/vacancies/:id([^/.]+)/",
    "/files/*",
    "/Моя карта/MapServer",
    "/Моя карта/:layer/",
    "/a b/",
    '/x"y/z',
    "/é/:id",
  ];
  const paths = [
    "/api/v1/",
    "/%61pi/v1/",
    "/api%2Fv1/",
    "/api/v1%2F",
    "/api/v1%2fvacancies/",
    "/api/v1/vacancies/7/",
    "/api/v1/vacancies/%37/",
    "/api/v1/vacancies/1%2F2/",
    "/api/v1/vacancies/%2e%2e/",
    "/api/v1/vacancies/%2E/",
    "/api/./v1/",
    "/x/../api/v1/",
    "/API/v1/",
    "/files/%2F",
    "/files%2Fa",
    "/Моя карта/MapServer",
    "/%D0%9C%D0%BE%D1%8F%20%D0%BA%D0%B0%D1%80%D1%82%D0%B0/MapServer",
    "/%d0%9c%d0%be%d1%8f%20%d0%ba%d0%b0%d1%80%d1%82%d0%b0/MapServer",
    "/Моя%20карта/0/",
    "/Моя+карта/0/",
    "/a b/",
    "/a%20b/",
    "/a+b/",
    '/x"y/z',
    "/x%22y/z",
    "/é/1",
    "/%C3%A9/1",
    "/e%CC%81/1",
    "/%/",
    "/%zz/",
  ];
  const answer = (pattern: string) => (_req: Request, m: URLPatternResult) =>
    new Response(`${pattern} ${JSON.stringify(m.pathname.groups)}`);
  const withPrefix = createRouter(
    patterns.map((p) => pathRoute(p, answer(p))),
    () => new Response("none"),
  );
  const patternsOnly = createRouter(
    patterns.map((p) => ({ ...pathRoute(p, answer(p)), prefix: undefined })),
    () => new Response("none"),
  );
  let hits = 0;
  for (const path of paths) {
    const url = `http://h${path}`;
    const want = await (await patternsOnly(new Request(url))).text();
    const got = await (await withPrefix(new Request(url))).text();
    assert.equal(got, want, path);
    if (want !== "none") hits++;
  }
  // The paths do reach the patterns (raw and encoded spellings of the literals).
  assert.ok(hits >= 15, `${hits} paths matched a pattern`);
});

Deno.test("pathRoute: the shortcut's text is the pattern's literal as a URL path spells it", () => {
  assert.deepEqual(pathRoute("/Моя карта/:layer/", () => new Response()).prefix, {
    text: "/%D0%9C%D0%BE%D1%8F%20%D0%BA%D0%B0%D1%80%D1%82%D0%B0/",
    exact: false,
  });
  assert.deepEqual(pathRoute("/a b/", () => new Response()).prefix, {
    text: "/a%20b/",
    exact: true,
  });
});

Deno.test("router: the fallback learns which methods the path takes (405 vs 404)", async () => {
  const route = createRouter(
    [
      pathRoute("/a/", () => new Response("get"), ["GET", "HEAD"]),
      pathRoute("/a/", () => new Response("post"), "POST"),
      pathRoute("/b/:id/", () => new Response("b"), "GET"),
    ],
    (_req, allowed) => new Response(allowed.join(", "), { status: allowed.length ? 405 : 404 }),
  );
  const answer = async (method: string, path: string) => {
    const res = await route(new Request(`http://h${path}`, { method }));
    return `${res.status} ${await res.text()}`;
  };
  assert.equal(await answer("POST", "/a/"), "200 post");
  assert.equal(await answer("DELETE", "/a/"), "405 GET, HEAD, POST");
  assert.equal(await answer("BREW", "/b/7/"), "405 GET");
  assert.equal(await answer("BREW", "/c/"), "404 ");
});
