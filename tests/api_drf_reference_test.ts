/**
 * Differential test against the reference implementation: a real Django +
 * Django REST Framework application (tests/drf_reference/, configured as
 * shared/spec/drf-behaviour.md records the original service) serves the same
 * SQLite records as our server, and every edge-case request below must get
 * the same status, Allow / Content-Type / Vary / Location / Content-Length
 * headers and body from both, except for the documented decisions in
 * `ALLOWED`.
 *
 * Needs the Debian packages python3-django and python3-djangorestframework;
 * the test is ignored (and says so in its name) when python3 cannot import
 * rest_framework.
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { startTestServer } from "./_api_helpers.ts";

const REF_DIR = new URL("./drf_reference/", import.meta.url).pathname;

/** The first Python that can import Django and DRF (Debian's, then PATH's). */
function findPython(): string | undefined {
  for (const py of ["/usr/bin/python3", "python3"]) {
    try {
      const out = new Deno.Command(py, {
        args: ["-c", "import django, rest_framework"],
        stdout: "null",
        stderr: "null",
      }).outputSync();
      if (out.success) return py;
    } catch {
      // not installed: try the next one
    }
  }
  return undefined;
}

const PYTHON = findPython();

/** One request sent to both servers. */
interface Case {
  /** Request target: path and query, sent byte for byte. */
  target: string;
  method?: string;
  headers?: Record<string, string>;
  /** Also compare the body text byte for byte (after replacing the base URLs). */
  raw?: boolean;
}

/** A raw HTTP/1.1 response. */
interface RawResponse {
  status: number;
  headers: Map<string, string>;
  body: string;
  /** For HEAD: the body the same request answers with GET. */
  get?: string;
}

/**
 * Documented, deliberate differences (the "our decision" column of
 * drf-behaviour.md). Every other difference fails the test.
 */
const ALLOWED = {
  browsableApi: "format=api (or an Accept that picks DRF's BrowsableAPIRenderer, like text/html) " +
    "answers the browsable HTML page in DRF; the seed says the body stays JSON, so we answer " +
    "JSON: only the status and the pagination links are compared.",
  unknownPath: "an unknown path is Django's HTML 404 page; we answer DRF's JSON 404 " +
    '`{"detail":"Not found."}` under /api/ so API clients can parse it: only the status ' +
    "is compared.",
  whatwgQuery: "a redirect's Location keeps the query as sent in Django; Deno hands us the URL " +
    "already parsed by the WHATWG URL parser, which percent-encodes a raw `'` (and raw spaces, " +
    "quotes, `<>`, non-ASCII bytes): the same parameters, so Location is compared after " +
    "passing DRF's through the same parser.",
  overflowId: "a detail id beyond SQLite's 64-bit integers makes Django raise OverflowError " +
    "(HTML 500); our server never crashes on input and answers DRF's JSON 404.",
} as const;

type Allowance = keyof typeof ALLOWED;

function hiddenId(dbPath: string, table: string): number {
  const db = new DatabaseSync(dbPath, { readOnly: true });
  try {
    const row = db.prepare(`SELECT id FROM ${table} WHERE published = 0 ORDER BY id LIMIT 1`)
      .get() as { id: number } | undefined;
    assert.ok(row, `the demo data has an unpublished ${table}`);
    return row.id;
  } finally {
    db.close();
  }
}

function cases(hiddenVacancy: number): Case[] {
  const V = "/api/v1/vacancies/";
  const C = "/api/v1/competitions/";
  const A = "/api/v1/agencies/for_vacancies/";
  const list: Case[] = [];
  const get = (target: string, extra: Omit<Case, "target"> = {}) => list.push({ target, ...extra });
  // Collections, default page; then every record byte for byte, 100 a page.
  get(V, { raw: true });
  get(C, { raw: true });
  get(A, { raw: true });
  for (const p of ["1", "2", "3", "4"]) get(`${V}?page_size=100&page=${p}`, { raw: true });
  for (const p of ["1", "2"]) get(`${C}?page_size=100&page=${p}`, { raw: true });
  get(`${V}?page_size=25&page=16`);
  get(`${V}?page_size=25&page=17`);
  // Page numbers: Python int() syntax, "last", invalid ones.
  for (
    const p of [
      "1",
      "2",
      "40",
      "last",
      "LAST",
      "Last",
      "0",
      "-1",
      "41",
      "abc",
      "1.5",
      "2.0",
      "",
      "02",
      "%202",
      "%2B2",
      "2%20",
      "1_0",
      "1__0",
      "_1",
      "%D9%A2", // ARABIC-INDIC DIGIT TWO: Python int() reads it as 2
      "%EF%BC%93", // FULLWIDTH DIGIT THREE
      "%C2%A02", // NO-BREAK SPACE around the number
      "%1C2", // U+001C, white space to Python, not to JavaScript
      "%EF%BB%BF2", // BOM: white space to JavaScript, not to Python
      "2%00",
      "99999999999999999999",
      "%E2%80%A8",
    ]
  ) get(`${V}?page=${p}`);
  get(`${C}?page=2`, { raw: true });
  get(`${C}?page=last`);
  get(`${C}?page=21`);
  get(`${V}?page=2&page=3`);
  get(`${V}?page=3&page=abc`);
  get(`${V}?page=abc&page=3`);
  get(`${A}?page=abc`);
  // Page sizes.
  for (
    const s of [
      "25",
      "100",
      "1000",
      "0",
      "-1",
      "abc",
      "2.5",
      "",
      "%2B7",
      "1_5",
      "99999999999999999999",
    ]
  ) get(`${V}?page_size=${s}&page=2`);
  get(`${V}?page_size=25&page=last`);
  get(`${V}?page_size=7&page_size=3`);
  get(`${A}?page_size=5`);
  // Formats.
  for (const f of ["json", "api", "xml", "JSON", "", "json&format=xml", "xml&format=json"]) {
    get(`${V}?format=${f}`);
  }
  get(`${V}?format=api&page=2`);
  get(`${V}?format=api&page=abc`);
  get(`${A}?format=api`);
  get(`${A}?format=xml`);
  // Accept headers.
  const accept = (target: string, a: string, raw = false) =>
    get(target, { headers: { accept: a }, raw });
  accept(V, "application/json");
  accept(`${V}?page=2`, "application/json; indent=2", true);
  accept(`${V}?page=abc`, "application/json; indent=2", true);
  accept("/api/v1/vacancies/1/", "application/json;indent=4", true);
  accept(A, "application/json; indent=0", true);
  accept(V, "application/json; indent=20", true);
  accept(V, "application/json; indent=abc", true);
  accept(V, "application/json; charset=utf-8");
  accept(V, "text/html");
  accept(V, "application/xml");
  accept(V, "*/*");
  accept(V, "text/*");
  accept(V, "application/*");
  accept(V, "text/html;q=0.9, application/json;q=0.1");
  accept(V, "application/xml, */*;q=0.1");
  accept(V, "image/png, text/*");
  accept(V, "");
  accept(V, "application/json;q=0");
  accept(V, "text/html, application/json");
  accept(V, "application/json; indent=2, text/html", true);
  accept(V, "Application/JSON");
  accept(V, "APPLICATION/json; indent=2", true);
  accept(V, "*/json");
  accept(V, "application/json; indent=2; q=0.5", true);
  accept(V, 'application/json; indent="3"', true);
  accept(V, "application/json; INDENT=2", true);
  accept(V, "application/json; indent= 2", true);
  accept(V, "application/json ; indent=2", true);
  accept(V, "  ");
  accept(`${V}?format=xml`, "application/json; indent=2", true);
  accept(V, "application/xml; indent=2", true);
  accept("/api/v1/vacancies/999999/", "application/json; indent=2", true);
  get(V, { method: "OPTIONS", headers: { accept: "application/json; indent=2" }, raw: true });
  get(V, { method: "PUT", headers: { accept: "application/json; indent=2" }, raw: true });
  accept(`${V}?format=json`, "text/html");
  accept(`${V}?format=api`, "application/json");
  accept(`${V}?format=xml`, "application/xml");
  // Methods.
  get(V, { method: "HEAD" });
  get(`${V}?page=abc`, { method: "HEAD" });
  get(`${V}?format=xml`, { method: "HEAD" });
  get("/api/v1/vacancies/1/", { method: "HEAD" });
  get(A, { method: "HEAD" });
  get(V, { method: "OPTIONS" });
  get(V, { method: "OPTIONS", headers: { "access-control-request-method": "GET" } });
  get("/api/v1/vacancies", { method: "OPTIONS" });
  get(`${C}?page=abc`, { method: "OPTIONS" });
  get(A, { method: "OPTIONS" });
  get(`${V}?format=xml`, { method: "OPTIONS" });
  get(V, { method: "OPTIONS", headers: { accept: "application/xml" } });
  for (const m of ["POST", "PUT", "PATCH", "DELETE", "TRACE", "BREW", "post", "get", "options"]) {
    get(V, { method: m });
  }
  get(A, { method: "DELETE" });
  get("/api/v1/competitions/1/", { method: "PUT" });
  get(V, {
    method: "POST",
    headers: { "content-type": "application/json" },
  });
  // Missing trailing slash: a relative 301 with the query kept, any method.
  get("/api/v1/vacancies");
  get("/api/v1/vacancies?page=2&b=%2F");
  get("/api/v1/vacancies?flag", { method: "POST" });
  get("/api/v1/agencies/for_vacancies", { method: "HEAD" });
  get("/api/v1/competitions/1");
  get("/api/v1/vacancies/1", { method: "DELETE" });
  // Unknown query parameters are carried into the links, re-encoded and sorted.
  for (
    const q of [
      "b=2&a=1&page=2",
      "flag&page=2",
      "q=%D0%BF%D1%80%D0%B8%D0%B2%D0%B5%D1%82&page=2",
      "q=a%20b&page=2",
      "q=a+b&page=2",
      "q=a%2Fb&page=2",
      "q=%2B&page=2",
      "q=%3C%3E%26%22",
      "a=1&a=2&page=2",
      "z=1&a=2&z=0",
      "B=1&a=2&_=3&page=3",
      "q=%E2%80%A8%E2%80%A9",
      "q=%C3%28&page=2",
      "q=%ZZ&page=2",
      "a=1=2&=x&&page=2&",
      "%F0%9F%98%80=%F0%9F%98%80",
      "q=~-._*'()!",
      "q=%EF%BB%BFx&page=2",
    ]
  ) get(`${V}?${q}`, { raw: true });
  get(`${C}?flag&format=json&page=3`, { raw: true });
  // Absolute links follow the Host header as sent; forwarding headers are ignored.
  for (const host of ["Example.COM:8080", "example.com", "[::1]:9000"]) {
    get(`${V}?page=2`, { headers: { host }, raw: true });
  }
  get(`${V}?page=2`, {
    headers: { "x-forwarded-host": "proxy.example", "x-forwarded-proto": "https" },
  });
  // Percent-encoded and raw UTF-8 request targets.
  get("/api/v1/%76acancies/?page=2");
  get("/api/v1/vacancies/%31/");
  get("/api/v1/vacancies/?q=%D0%BF%D1%80%D0%B8%D0%BC%D0%B5%D1%80&page=2");
  get("/api/v1/vacancies?q=%D0%BF%D1%80%D0%B8%D0%BC%D0%B5%D1%80&b=%2F%20");
  get("/api//v1/vacancies/");
  get("/api/v1/vacancies%2F?page=2");
  get("/api/v1/%76acancies?page=2");
  get("/api/v1/%76acancies/1/");
  get("/api/v1/vacancies/%ZZ/");
  get("/api/v1/vacancies%ZZ/");
  get("/api/v1/vacancies?q='&r=%22");
  get("/api/v1/vacancies/?q='&r=%22&page=2", { raw: true });
  // Detail routes.
  get("/api/v1/vacancies/97/", { raw: true }); // U+2028 in its text
  get("/api/v1/vacancies/1/", { raw: true });
  get("/api/v1/competitions/1/", { raw: true });
  get("/api/v1/agencies/for_vacancies/1/", { raw: true });
  for (
    const id of [
      "999999",
      String(hiddenVacancy),
      "abc",
      "0",
      "-1",
      "01",
      "%2B1",
      "%201",
      "1_0",
      "1e3",
      "%D9%A1",
    ]
  ) get(`/api/v1/vacancies/${id}/`);
  get("/api/v1/agencies/for_vacancies/0/");
  get("/api/v1/vacancies/1/?format=xml");
  get("/api/v1/vacancies/1/?format=api");
  get("/api/v1/vacancies/1/?page=abc");
  get("/api/v1/vacancies/1/", { method: "OPTIONS" });
  get("/api/v1/vacancies/999999/", { method: "OPTIONS" });
  get("/api/v1/competitions/abc/", { method: "OPTIONS" });
  get("/api/v1/agencies/for_vacancies/1/", { method: "OPTIONS" });
  // Paths neither serves.
  get("/api/v1/vacancies/1.5/");
  get("/api/v1/vacancies/1.json");
  get("/api/v1/nothing/");
  get("/api/v1/vacancies/1/extra/");
  get("/api/v1/vacancies/99999999999999999999/");
  return list;
}

/** Which documented difference (if any) applies to a pair of answers. */
function allowance(c: Case, ref: RawResponse): Allowance | undefined {
  const type = ref.headers.get("content-type") ?? "";
  if (ref.status !== 301 && type.startsWith("text/html")) {
    if (ref.status === 404 && !ref.headers.has("allow")) return "unknownPath";
    if (ref.status === 500 && /\/\d{20,}\/$/.test(c.target.split("?")[0])) return "overflowId";
    if (ref.headers.has("allow")) return "browsableApi";
  }
  return undefined;
}

/** Sends one request over a fresh connection and reads the whole answer. */
async function send(port: number, c: Case): Promise<RawResponse> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    const lines = [
      `${c.method ?? "GET"} ${c.target} HTTP/1.1`,
      `Host: ${c.headers?.host ?? `127.0.0.1:${port}`}`,
      "Connection: close",
    ];
    for (const [k, v] of Object.entries(c.headers ?? {})) {
      if (k !== "host") lines.push(`${k}: ${v}`);
    }
    await conn.write(new TextEncoder().encode(lines.join("\r\n") + "\r\n\r\n"));
    const chunks: Uint8Array[] = [];
    const buf = new Uint8Array(65536);
    for (;;) {
      const n = await conn.read(buf);
      if (n === null) break;
      chunks.push(buf.slice(0, n));
    }
    return parseResponse(concat(chunks), c.method === "HEAD");
  } finally {
    try {
      conn.close();
    } catch {
      // already closed by the peer
    }
  }
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

function parseResponse(bytes: Uint8Array, head: boolean): RawResponse {
  let end = -1;
  for (let i = 0; i + 3 < bytes.length; i++) {
    if (bytes[i] === 13 && bytes[i + 1] === 10 && bytes[i + 2] === 13 && bytes[i + 3] === 10) {
      end = i;
      break;
    }
  }
  assert.ok(end >= 0, "a complete HTTP response head");
  const [statusLine, ...headerLines] = new TextDecoder().decode(bytes.slice(0, end)).split(
    "\r\n",
  );
  const status = Number(statusLine.split(" ")[1]);
  const headers = new Map<string, string>();
  for (const line of headerLines) {
    const colon = line.indexOf(":");
    headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  let body: Uint8Array = bytes.slice(end + 4);
  if (!head && headers.get("transfer-encoding")?.toLowerCase() === "chunked") {
    body = dechunk(body);
  }
  return { status, headers, body: new TextDecoder().decode(body) };
}

function dechunk(bytes: Uint8Array): Uint8Array {
  const parts: Uint8Array[] = [];
  let at = 0;
  for (;;) {
    let eol = at;
    while (eol + 1 < bytes.length && !(bytes[eol] === 13 && bytes[eol + 1] === 10)) eol++;
    const size = parseInt(new TextDecoder().decode(bytes.slice(at, eol)), 16);
    if (!size) break;
    parts.push(bytes.slice(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return concat(parts);
}

/** The next/previous links DRF's browsable page shows (HTML-escaped in the page). */
function htmlLinks(html: string): { next: string | null; previous: string | null } {
  const pick = (name: string) => {
    const m = new RegExp(`&quot;${name}&quot;: (?:&quot;<a href="([^"]*)"|null)`).exec(html);
    assert.ok(m, `the browsable page shows "${name}"`);
    return m[1] === undefined ? null : m[1].replaceAll("&amp;", "&");
  };
  return { next: pick("next"), previous: pick("previous") };
}

/** A relative URL as the WHATWG URL parser re-serializes it. */
function whatwg(relative: string): string {
  const u = new URL(relative, "http://h");
  return u.pathname + u.search;
}

/** Compares one pair of answers; returns the differences found. */
function compare(
  c: Case,
  ours: RawResponse,
  ref: RawResponse,
  base: { ours: string; ref: string },
  seen: Set<Allowance>,
): string[] {
  const diffs: string[] = [];
  const eq = (what: string, a: unknown, b: unknown) => {
    try {
      assert.deepStrictEqual(a, b);
    } catch {
      diffs.push(`${what}: ours ${JSON.stringify(a)}, DRF ${JSON.stringify(b)}`);
    }
  };
  eq("status", ours.status, ref.status);
  const allowed = allowance(c, ref);
  if (allowed === "unknownPath" || allowed === "overflowId") {
    // DRF's status is not compared here; ours must be the JSON 404 the decision names.
    diffs.length = 0;
    eq("our status (expected)", ours.status, 404);
    eq("our content-type (expected)", ours.headers.get("content-type"), "application/json");
    eq("our body (expected)", ours.body, '{"detail":"Not found."}');
    return diffs;
  }
  if (allowed === "browsableApi") {
    // Our JSON must carry the same links the browsable page shows.
    eq("content-type", ours.headers.get("content-type"), "application/json");
    if (ours.status === 200 && ours.body.startsWith("{") && ref.body.includes("&quot;next&quot;")) {
      const body = JSON.parse(ours.body.replaceAll(base.ours, "{base}"));
      const links = htmlLinks(ref.body.replaceAll(base.ref, "{base}"));
      eq("next", body.next, links.next);
      eq("previous", body.previous, links.previous);
    }
    return diffs;
  }
  for (const h of ["allow", "content-type", "vary"]) {
    eq(h, ours.headers.get(h) ?? null, ref.headers.get(h) ?? null);
  }
  const [loc, refLoc] = [ours.headers.get("location"), ref.headers.get("location")];
  if (loc && refLoc && loc !== refLoc && whatwg(refLoc) === loc) seen.add("whatwgQuery");
  else eq("location", loc ?? null, refLoc ?? null);
  if (c.method === "HEAD") {
    // Each server's Content-Length must be its own GET body's length (links hold its own base).
    const length = (s: string) => String(new TextEncoder().encode(s).byteLength);
    eq("HEAD content-length vs GET body", ours.headers.get("content-length"), length(ours.get!));
    eq("DRF HEAD content-length vs GET body", ref.headers.get("content-length"), length(ref.get!));
    eq(
      "GET body",
      ours.get!.replaceAll(base.ours, "{base}"),
      ref.get!.replaceAll(base.ref, "{base}"),
    );
    eq("HEAD body", ours.body, "");
    return diffs;
  }
  const oursText = ours.body.replaceAll(base.ours, "{base}");
  const refText = ref.body.replaceAll(base.ref, "{base}");
  if ((ref.headers.get("content-type") ?? "").startsWith("application/json")) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(oursText);
    } catch {
      diffs.push(`body is not JSON: ${oursText.slice(0, 200)}`);
      return diffs;
    }
    const refParsed = JSON.parse(refText);
    try {
      assert.deepStrictEqual(parsed, refParsed);
    } catch {
      diffs.push(`body: ours ${oursText.slice(0, 300)}\n      DRF  ${refText.slice(0, 300)}`);
    }
    if (c.raw && oursText !== refText) {
      let at = 0;
      while (at < oursText.length && oursText[at] === refText[at]) at++;
      diffs.push(
        `body text differs at ${at}: ours ${JSON.stringify(oursText.slice(at, at + 80))}, ` +
          `DRF ${JSON.stringify(refText.slice(at, at + 80))}`,
      );
    }
  } else {
    eq("body", oursText, refText);
  }
  return diffs;
}

function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

Deno.test({
  name: PYTHON
    ? "api matches the Django REST Framework reference app request by request"
    : "api matches the DRF reference app (IGNORED: python3 cannot import rest_framework; " +
      "apt-get install python3-django python3-djangorestframework)",
  ignore: PYTHON === undefined,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const server = await startTestServer();
    const refPort = freePort();
    const django = new Deno.Command(PYTHON!, {
      args: ["manage.py", "runserver", "--noreload", "--nothreading", `127.0.0.1:${refPort}`],
      cwd: REF_DIR,
      env: { REF_DB: server.dbPath, PYTHONDONTWRITEBYTECODE: "1", PYTHONUNBUFFERED: "1" },
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).spawn();
    // Drain Django's request log so the pipe never fills; keep the tail for errors.
    let log = "";
    const drained = (async () => {
      for await (const chunk of django.stderr.pipeThrough(new TextDecoderStream())) {
        log = (log + chunk).slice(-4000);
      }
    })();
    try {
      const ourPort = Number(new URL(server.url).port);
      for (let i = 0;; i++) {
        try {
          await send(refPort, { target: "/api/v1/" });
          break;
        } catch {
          if (i >= 300) throw new Error(`the DRF reference app did not start:\n${log}`);
          await new Promise((r) => setTimeout(r, 100));
        }
      }
      const base = { ours: `http://127.0.0.1:${ourPort}`, ref: `http://127.0.0.1:${refPort}` };
      const all = cases(hiddenId(server.dbPath, "vacancy"));
      assert.ok(all.length >= 60);
      const failures: string[] = [];
      const seen = new Set<Allowance>();
      for (const c of all) {
        const [ours, ref] = [await send(ourPort, c), await send(refPort, c)];
        if (c.method === "HEAD") {
          ours.get = (await send(ourPort, { ...c, method: "GET" })).body;
          ref.get = (await send(refPort, { ...c, method: "GET" })).body;
        }
        const a = allowance(c, ref);
        if (a) seen.add(a);
        const diffs = compare(c, ours, ref, base, seen);
        if (diffs.length) {
          const h = c.headers ? ` ${JSON.stringify(c.headers)}` : "";
          failures.push(`${c.method ?? "GET"} ${c.target}${h}\n    ${diffs.join("\n    ")}`);
        }
      }
      // Every allowance must still be needed: a stale entry would hide nothing but mislead.
      for (const a of Object.keys(ALLOWED) as Allowance[]) {
        if (!seen.has(a)) failures.push(`allow-list entry "${a}" matched no request`);
      }
      assert.equal(
        failures.length,
        0,
        `${failures.length} of ${all.length} requests differ from DRF:\n${failures.join("\n")}`,
      );
    } finally {
      django.kill("SIGTERM");
      await django.status;
      await drained.catch(() => {});
      await server.close();
    }
  },
});
