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
  assert.equal(await text("/a/"), "root");
  assert.deepEqual([root.runs(), one.runs()], [1, 1]);
  // Paths are compared as the patterns see them: normalized.
  assert.equal(await text("/x/../a/8/"), "a 8");
  assert.equal(await text("/a/./"), "root");
  assert.equal(await text("/A/8/"), "none");
});
