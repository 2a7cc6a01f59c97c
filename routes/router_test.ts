import assert from "node:assert/strict";
import { createRouter, type Face, type Route, route, type RouteHandler } from "./router.ts";
import { PERCENT_ESCAPE_MESSAGE } from "../map/percent.ts";

/** A face that says what it refused, as text, and takes OPTIONS when asked to. */
function face(name: string, options = false): Face {
  return {
    options,
    methodNotAllowed: (req) => new Response(`${name}: no ${req.method}`, { status: 405 }),
    badPath: (req, _url, message) =>
      new Response(`${name} ${req.method}: ${message}`, { status: 400 }),
  };
}

const TEXT = face("text");
const ok = (body: string): RouteHandler => () => new Response(body);

/** A route on `path` answering GET with `body`. */
function get(path: string, body: string | RouteHandler = path): Route {
  return route({ path, face: TEXT, methods: { GET: typeof body === "string" ? ok(body) : body } });
}

const notFound = () => new Response("none", { status: 404 });

async function ask(
  handler: (req: Request) => Promise<Response>,
  method: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<string> {
  const res = await handler(new Request(`http://h${path}`, { method, headers }));
  const allow = res.headers.get("allow");
  return `${res.status}${allow === null ? "" : ` [${allow}]`} ${await res.text()}`;
}

Deno.test("router: routes match the pathname as the URL parser leaves it; handlers get the parsed URL", async () => {
  const walk = createRouter([
    get(
      "/a/",
      (_req, m, _info, url) =>
        new Response(`root ${JSON.stringify(m.pathname.groups)} ${url.pathname} ${url.search}`),
    ),
    get("/a/:id/", (_req, m) => new Response(`a ${m.pathname.groups.id}`)),
  ], notFound);
  const text = async (path: string) => await (await walk(new Request(`http://h${path}`))).text();
  assert.equal(await text("/b/7/"), "none");
  assert.equal(await text("/a/7/"), "a 7");
  assert.equal(await text("/a/"), "root {} /a/ ");
  // Normalized: dot segments resolved, case kept.
  assert.equal(await text("/x/../a/8/"), "a 8");
  assert.equal(await text("/a/./?q=1"), "root {} /a/ ?q=1");
  assert.equal(await text("/A/8/"), "none");
});

Deno.test("router: a route matches what URLPattern matches, whatever the encoding of the path or of the pattern", async () => {
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
  const answer = (pattern: string): RouteHandler => (_req, m) =>
    new Response(`${pattern} ${JSON.stringify(m.pathname.groups)}`);
  const walk = createRouter(patterns.map((p) => get(p, answer(p))), notFound);
  // What URLPattern, run on the request URL, says: the first pattern matching, with its groups.
  const expected = (url: string) => {
    for (const p of patterns) {
      const m = new URLPattern({ pathname: p }).exec(url);
      if (m) return `${p} ${JSON.stringify(m.pathname.groups)}`;
    }
    return "none";
  };
  let hits = 0;
  for (const path of paths) {
    const url = `http://h${path}`;
    const want = expected(url);
    const got = await (await walk(new Request(url))).text();
    assert.equal(got, want, path);
    if (want !== "none") hits++;
  }
  // The paths do reach the patterns (raw and encoded spellings of the literals).
  assert.ok(hits >= 15, `${hits} paths matched a pattern`);
});

Deno.test("router: a method the route does not declare is a 405 in its face's form, with the declared methods as Allow", async () => {
  const walk = createRouter([
    route({ path: "/soap", face: face("soap"), methods: { POST: ok("post"), GET: ok("get") } }),
    route({
      path: "/rest",
      face: face("rest", true),
      methods: { GET: ok("get"), POST: ok("post") },
    }),
    route({ path: "/put", face: face("put"), methods: { DELETE: ok("del"), PUT: ok("put") } }),
  ], notFound);
  // Allow in the usual order, HEAD added for GET; OPTIONS when the face takes it.
  assert.equal(await ask(walk, "PUT", "/soap"), "405 [GET, HEAD, POST] soap: no PUT");
  assert.equal(await ask(walk, "OPTIONS", "/soap"), "405 [GET, HEAD, POST] soap: no OPTIONS");
  assert.equal(await ask(walk, "BREW", "/rest"), "405 [GET, HEAD, POST, OPTIONS] rest: no BREW");
  assert.equal(await ask(walk, "GET", "/put"), "405 [PUT, DELETE] put: no GET");
  assert.equal(await ask(walk, "GET", "/nope"), "404 none");
  assert.equal(await ask(walk, "BREW", "/nope"), "404 none");
});

Deno.test("router: OPTIONS is a 204 with Allow where the face takes it; HEAD is GET without the body", async () => {
  const walk = createRouter([
    route({
      path: "/r",
      face: face("rest", true),
      methods: { GET: () => new Response("body", { headers: { "x-a": "1" } }) },
    }),
    route({ path: "/own", face: face("own", true), methods: { OPTIONS: ok("mine") } }),
  ], notFound);
  assert.equal(await ask(walk, "OPTIONS", "/r"), "204 [GET, HEAD, OPTIONS] ");
  const head = await walk(new Request("http://h/r", { method: "HEAD" }));
  assert.equal(head.status, 200);
  assert.equal(head.headers.get("x-a"), "1");
  assert.equal(await head.text(), "");
  // A route's own OPTIONS is kept.
  assert.equal(await ask(walk, "OPTIONS", "/own"), "200 mine");
});

Deno.test("router: an overlay passes other methods on to the route below; the 405 lists both", async () => {
  const overlay = route({
    path: "/tree/tile/:z",
    face: face("tiles", true),
    overlay: true,
    methods: { GET: ok("tile") },
  });
  const tree = route({
    path: "/tree{/*}?",
    face: face("tree", true),
    methods: { POST: ok("tree post"), PATCH: ok("tree patch") },
  });
  const walk = createRouter([overlay, tree], notFound);
  assert.equal(await ask(walk, "GET", "/tree/tile/3"), "200 tile");
  assert.equal(await ask(walk, "POST", "/tree/tile/3"), "200 tree post");
  // The tree's OPTIONS, with its methods (an overlay adds no OPTIONS of its own).
  assert.equal(await ask(walk, "OPTIONS", "/tree/tile/3"), "204 [POST, PATCH, OPTIONS] ");
  assert.equal(
    await ask(walk, "PUT", "/tree/tile/3"),
    "405 [GET, HEAD, POST, PATCH, OPTIONS] tree: no PUT",
  );
  assert.equal(await ask(walk, "PUT", "/tree/x"), "405 [POST, PATCH, OPTIONS] tree: no PUT");
  // An overlay alone on its path answers the 405 itself.
  const alone = createRouter([overlay], notFound);
  assert.equal(await ask(alone, "PUT", "/tree/tile/3"), "405 [GET, HEAD] tiles: no PUT");
});

Deno.test('router: "*" answers every method the route does not name', async () => {
  const walk = createRouter([
    route({ path: "/any/*", face: TEXT, methods: { GET: ok("get"), "*": ok("any") } }),
  ], notFound);
  assert.equal(await ask(walk, "GET", "/any/x"), "200 get");
  assert.equal(await ask(walk, "BREW", "/any/x"), "200 any");
  assert.equal(await ask(walk, "constructor", "/any/x"), "200 any");
});

Deno.test("router: decoded path parameters, and one message for an escape that is not UTF-8", async () => {
  const walk = createRouter([
    route({
      path: "/s/:service/:rest*",
      ignoreCase: true,
      face: face("soap"),
      decode: ["service"],
      methods: {
        GET: (_req, m) => new Response(`${m.pathname.groups.service} ${m.pathname.groups.rest}`),
        POST: ok("post"),
      },
    }),
  ], notFound);
  assert.equal(await ask(walk, "GET", "/s/%D0%9C%20x/a%20b"), "200 М x a%20b");
  const bad = `400 soap GET: ${PERCENT_ESCAPE_MESSAGE}`;
  assert.equal(await ask(walk, "GET", "/s/%FF/a"), bad);
  assert.equal(await ask(walk, "GET", "/s/%E0%A4/a"), bad);
  assert.equal(await ask(walk, "POST", "/s/%FF/a"), `400 soap POST: ${PERCENT_ESCAPE_MESSAGE}`);
  // A bad escape outside the decoded parameters is the handler's to judge.
  assert.equal(await ask(walk, "GET", "/s/x/%FF"), "200 x %FF");
  // The 405 comes before the path is looked at.
  assert.match(await ask(walk, "PUT", "/s/%FF/a"), /^405 /);
  assert.throws(
    () =>
      route({ path: "/x/:a", face: { ...TEXT, badPath: undefined }, decode: ["a"], methods: {} }),
    /badPath/,
  );
});

Deno.test("router: a conditional route answers If-None-Match with a 304 carrying the 200's headers", async () => {
  let built = 0;
  const tile: RouteHandler = (req) => {
    built++;
    const headers = {
      etag: '"t1"',
      "cache-control": "public, max-age=300",
      "content-type": "image/png",
    };
    return new Response(req.method === "HEAD" ? null : "png", { headers });
  };
  const walk = createRouter([
    route({ path: "/tile", face: TEXT, conditional: true, methods: { GET: tile, HEAD: tile } }),
    route({ path: "/plain", face: TEXT, methods: { GET: tile } }),
    route({
      path: "/missing",
      face: TEXT,
      conditional: true,
      methods: { GET: () => new Response("no", { status: 404, headers: { etag: '"t1"' } }) },
    }),
  ], notFound);
  const asked = async (method: string, path: string, inm?: string) => {
    const res = await walk(
      new Request(`http://h${path}`, { method, headers: inm ? { "if-none-match": inm } : {} }),
    );
    const h = ["etag", "cache-control", "content-type"].map((k) => res.headers.get(k)).join(" ");
    return `${res.status} ${h} ${await res.text()}`;
  };
  const fresh = '304 "t1" public, max-age=300 image/png ';
  assert.equal(await asked("GET", "/tile", '"t1"'), fresh);
  assert.equal(await asked("GET", "/tile", 'W/"t1"'), fresh);
  assert.equal(await asked("GET", "/tile", '"x", "t1"'), fresh);
  assert.equal(await asked("GET", "/tile", "*"), fresh);
  assert.equal(await asked("HEAD", "/tile", '"t1"'), fresh);
  assert.equal(await asked("GET", "/tile", '"x"'), '200 "t1" public, max-age=300 image/png png');
  assert.equal(await asked("GET", "/tile"), '200 "t1" public, max-age=300 image/png png');
  assert.equal(built, 7);
  // Only the routes that ask for it, and only for a 200.
  assert.match(await asked("GET", "/plain", '"t1"'), /^200 /);
  assert.match(await asked("GET", "/missing", '"t1"'), /^404 /);
});

Deno.test("router: methods are exact unless the face takes them in any case, as Django does", async () => {
  const walk = createRouter([
    route({ path: "/exact", face: TEXT, methods: { GET: ok("get") } }),
    route({
      path: "/django",
      face: { ...TEXT, anyCaseMethods: true },
      methods: { GET: ok("get") },
    }),
  ], notFound);
  // `Request` upper-cases the standard methods it knows but PATCH; a server sees them as sent.
  const raw = (method: string, path: string) =>
    walk({ method, url: `http://h${path}`, headers: new Headers() } as Request);
  assert.equal((await raw("get", "/exact")).status, 405);
  assert.equal(await (await raw("get", "/django")).text(), "get");
  assert.equal((await raw("patch", "/django")).status, 405);
});
