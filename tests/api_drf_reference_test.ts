/**
 * Differential test against the reference implementation: a real Django +
 * Django REST Framework application (tests/drf_reference/, configured as the
 * original service was) serves the same
 * SQLite records as our server, and every edge-case request below must get
 * the same status, Allow / Content-Type / Vary / Location / Content-Length
 * headers and body from both, except for the documented decisions in
 * `ALLOWED`.
 *
 * Needs the Debian packages python3-django and python3-djangorestframework;
 * the test is skipped (and says so in its name) when python3 cannot import
 * rest_framework.
 */
import assert from "node:assert/strict";
import { startTestServer } from "./_api_helpers.ts";
import { type Case, type RawResponse, send } from "./drf_reference/_raw_http.ts";
import { cases, emptyCatalogCases, hiddenId } from "./drf_reference/_cases.ts";
import { openCatalog } from "../data/mod.ts";
import { optionalTest, reference } from "./_optional.ts";

const REF_DIR = new URL("./drf_reference/", import.meta.url).pathname;

/**
 * The first Python that can import Django and DRF: `DRF_PYTHON` if set, else
 * Debian's, then PATH's (a pyenv python3 on PATH lacks the Debian packages).
 */
function findPython(): string | undefined {
  const override = Deno.env.get("DRF_PYTHON");
  for (const py of override ? [override] : ["/usr/bin/python3", "python3"]) {
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

/**
 * The differences we accept, each with its reason: deliberate decisions (the
 * "our decision" column of drf-behaviour.md, the README's additions) and what
 * Deno's URL parsing imposes. Every other difference fails the test, and an
 * entry no request needed fails it too.
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
  badHost: "Django refuses a malformed Host header with its HTML 400 page; we answer 400 " +
    'JSON `{"detail":"Invalid Host header."}` (the API\'s error form): only the status and ' +
    "our JSON are checked.",
  conditional: "conditional GET is our addition (docs/api.md, Conditional requests): where DRF " +
    "answers 200 we may answer 304 Not Modified with no body to a matching If-None-Match or " +
    "If-Modified-Since; never instead of an error.",
  urlNormalised: "Deno.serve hands us the request URL parsed by the WHATWG URL parser, which " +
    "resolves `.`/`..` segments (also `%2E%2E`) and drops a raw `#fragment`; Django routes the " +
    "raw target. For such targets DRF is asked for the normalised target and must then agree " +
    "fully.",
  overflowId: "a detail id beyond SQLite's 64-bit integers makes Django raise OverflowError " +
    "(HTML 500); our server never crashes on input and answers DRF's JSON 404.",
} as const;

type Allowance = keyof typeof ALLOWED;

/** Which documented difference (if any) applies to a pair of answers. */
function allowance(c: Case, ref: RawResponse): Allowance | undefined {
  const type = ref.headers.get("content-type") ?? "";
  if (ref.status !== 301 && type.startsWith("text/html")) {
    if (ref.status === 400 && c.headers?.host !== undefined) return "badHost";
    if (ref.status === 404 && !ref.headers.has("allow")) return "unknownPath";
    if (ref.status === 500 && /\/\d{20,}\/$/.test(c.target.split("?")[0])) return "overflowId";
    if (ref.headers.has("allow")) return "browsableApi";
  }
  return undefined;
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
      const show = (x: unknown) => JSON.stringify(x)?.slice(0, 300);
      diffs.push(`${what}: ours ${show(a)}, DRF ${show(b)}`);
    }
  };
  const h = c.headers ?? {};
  const conditionalReq = "if-none-match" in h || "if-modified-since" in h;
  if (conditionalReq && ours.status === 304 && ref.status === 200) {
    seen.add("conditional");
    eq("304 body", ours.body, "");
    return diffs;
  }
  eq("status", ours.status, ref.status);
  const allowed = allowance(c, ref);
  if (allowed === "badHost") {
    eq("our content-type (expected)", ours.headers.get("content-type"), "application/json");
    eq("our body (expected)", ours.body, '{"detail":"Invalid Host header."}');
    return diffs;
  }
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

/**
 * Starts our server and the DRF app on the same database (the demo one, or
 * `dbPath`), sends every case to both and returns the differences, plus the
 * allowances that were needed.
 */
async function differences(
  makeCases: (dbPath: string) => Case[],
  dbPath?: string,
): Promise<{ failures: string[]; seen: Set<Allowance>; count: number }> {
  const server = await startTestServer(dbPath ? { dbPath } : {});
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
    const all = makeCases(server.dbPath);
    const failures: string[] = [];
    const seen = new Set<Allowance>();
    for (const c of all) {
      // Targets the WHATWG parser rewrites: DRF gets the rewritten one (see ALLOWED.urlNormalised).
      const rewritten = /\/\.{1,2}\/|\/%2e%2e\/|#/i.test(c.target) ? whatwg(c.target) : undefined;
      if (rewritten) seen.add("urlNormalised");
      const refCase = rewritten ? { ...c, target: rewritten } : c;
      const [ours, ref] = [await send(ourPort, c), await send(refPort, refCase)];
      if (c.method === "HEAD") {
        ours.get = (await send(ourPort, { ...c, method: "GET" })).body;
        ref.get = (await send(refPort, { ...refCase, method: "GET" })).body;
      }
      const a = allowance(c, ref);
      if (a) seen.add(a);
      const diffs = compare(c, ours, ref, base, seen);
      if (diffs.length) {
        const h = c.headers ? ` ${JSON.stringify(c.headers)}` : "";
        failures.push(`${c.method ?? "GET"} ${c.target}${h}\n    ${diffs.join("\n    ")}`);
      }
    }
    return { failures, seen, count: all.length };
  } finally {
    django.kill("SIGTERM");
    await django.status;
    await drained.catch(() => {});
    await server.close();
  }
}

const DRF = reference(
  "Django REST Framework",
  "apt-get install python3-django python3-djangorestframework (or set DRF_PYTHON)",
  () => PYTHON ? null : "python3 cannot import django and rest_framework",
);

optionalTest(DRF, {
  name: "api matches the Django REST Framework reference app request by request",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const { failures, seen, count } = await differences((db) => cases(hiddenId(db, "vacancy")));
    assert.ok(count >= 60);
    // Every allowance must still be needed: a stale entry would hide nothing but mislead.
    for (const a of Object.keys(ALLOWED) as Allowance[]) {
      if (!seen.has(a)) failures.push(`allow-list entry "${a}" matched no request`);
    }
    assert.equal(
      failures.length,
      0,
      `${failures.length} of ${count} requests differ from DRF:\n${failures.join("\n")}`,
    );
  },
});

optionalTest(DRF, {
  name: "api matches the DRF reference app on an empty catalogue",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "drf-empty-" });
    try {
      const dbPath = `${dir}/catalog.db`;
      openCatalog(dbPath).close();
      const { failures, count } = await differences(emptyCatalogCases, dbPath);
      assert.equal(
        failures.length,
        0,
        `${failures.length} of ${count} requests differ from DRF:\n${failures.join("\n")}`,
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
