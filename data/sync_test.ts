import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { openCatalog } from "./catalog.ts";
import { ImportError } from "./import.ts";
import { sync, SyncError } from "./sync.ts";
import { toJson } from "./_json.ts";
import { idsOf, sampleCompetition, sampleVacancy, tempDir } from "../tests/_data_fixtures.ts";

/** A loopback server answering like the API, with hooks to misbehave. */
function fixtureServer(
  records: { vacancies: unknown[]; competitions: unknown[]; agencies: unknown[] },
  pageSize: number,
  hook: (url: URL) => Response | null = () => null,
) {
  const requests: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    requests.push(url.pathname + url.search);
    const hooked = hook(url);
    if (hooked) return hooked;
    const json = (body: unknown) =>
      new Response(JSON.stringify(body), { headers: { "content-type": "application/json" } });
    if (url.pathname === "/api/v1/agencies/for_vacancies/") return json(records.agencies);
    const m = /^\/api\/v1\/(vacancies|competitions)\/$/.exec(url.pathname);
    if (!m) return new Response('{"detail":"Not found."}', { status: 404 });
    const all = records[m[1] as "vacancies" | "competitions"];
    const page = Number(url.searchParams.get("page") ?? "1");
    const last = Math.max(1, Math.ceil(all.length / pageSize));
    // Links name a different host, as a proxy without forwarded headers would.
    const link = (n: number) =>
      `http://backend.internal:9/api/v1/${m[1]}/${n === 1 ? "" : `?page=${n}`}`;
    return json({
      count: all.length,
      next: page < last ? link(page + 1) : null,
      previous: page > 1 ? link(page - 1) : null,
      results: all.slice((page - 1) * pageSize, page * pageSize),
    });
  });
  const addr = server.addr as Deno.NetAddr;
  return { server, base: `http://127.0.0.1:${addr.port}`, requests };
}

const vacancies = [1, 2, 3, 4, 5, 6, 7].map((id) => sampleVacancy(id));
const competitions = [11, 12, 13].map((id) => sampleCompetition(id));
const agencies = [vacancies[0].agency];

Deno.test("sync: walks agencies and every next link, reports progress, stores identical docs", async () => {
  const { dir, cleanup } = await tempDir();
  const fx = fixtureServer({ vacancies, competitions, agencies }, 3);
  try {
    const path = `${dir}/mirror.db`;
    const seen: string[] = [];
    const report = await sync(fx.base, {
      target: path,
      progress: (c, done, total) => seen.push(`${c} ${done}/${total}`),
    });
    assert.deepEqual(report.records, { agencies: 1, vacancies: 7, competitions: 3 });
    assert.deepEqual(seen, [
      "vacancies 1/3",
      "vacancies 2/3",
      "vacancies 3/3",
      "competitions 1/1",
    ]);
    assert.deepEqual(fx.requests, [
      "/api/v1/agencies/for_vacancies/",
      "/api/v1/vacancies/",
      "/api/v1/vacancies/?page=2",
      "/api/v1/vacancies/?page=3",
      "/api/v1/competitions/",
    ]);
    const catalog = openCatalog(path, { readonly: true });
    assert.deepEqual(idsOf(catalog.list("vacancies").docs), [1, 2, 3, 4, 5, 6, 7]);
    assert.equal(catalog.get("competitions", 12), toJson(competitions[1]));
    catalog.close();
    // A second sync changes nothing.
    const again = await sync(fx.base + "/", { target: path, progress: false });
    assert.equal(again.unchanged, 11);
    assert.equal(again.revision, report.revision);
  } finally {
    await fx.server.shutdown();
    await cleanup();
  }
});

Deno.test("sync: retries transient 503s, then gives up with a clear error", async () => {
  const { dir, cleanup } = await tempDir();
  let failures = 2;
  const fx = fixtureServer({ vacancies, competitions, agencies }, 5, (url) => {
    if (url.searchParams.get("page") === "2" && failures-- > 0) {
      return new Response("busy", { status: 503 });
    }
    return null;
  });
  try {
    const path = `${dir}/m.db`;
    const r = await sync(fx.base, { target: path, progress: false, retryDelayMs: 1 });
    assert.equal(r.records.vacancies, 7);
    failures = 10;
    await assert.rejects(
      sync(fx.base, { target: `${dir}/m2.db`, progress: false, retryDelayMs: 1, retries: 2 }),
      (err: Error) => {
        assert.ok(err instanceof SyncError);
        assert.match(err.message, /page=2: the server answered 503.*gave up after 3 attempts/);
        return true;
      },
    );
  } finally {
    await fx.server.shutdown();
    await cleanup();
  }
});

Deno.test("sync: an invalid record or a 404 rejects the whole sync, leaving the database as it was", async () => {
  const { dir, cleanup } = await tempDir();
  const broken = [...competitions, {
    ...sampleCompetition(14),
    document_reception_finished: "soon",
  }];
  const fx = fixtureServer({ vacancies, competitions: broken, agencies }, 3);
  const gone = fixtureServer(
    { vacancies, competitions, agencies },
    3,
    (url) =>
      url.pathname.startsWith("/api/v1/competitions/")
        ? new Response('{"detail":"Not found."}', { status: 404 })
        : null,
  );
  try {
    const path = `${dir}/m.db`;
    openCatalog(path).close();
    await assert.rejects(sync(fx.base, { target: path, progress: false }), (err: Error) => {
      assert.ok(err instanceof ImportError);
      assert.match(
        err.message,
        /competitions\/\?page=2: record 0: competition field document_reception_finished: expected a date/,
      );
      return true;
    });
    await assert.rejects(
      sync(gone.base, { target: path, progress: false }),
      /competitions\/: the server answered 404/,
    );
    const db = new DatabaseSync(path, { readOnly: true });
    for (const t of ["agency", "vacancy", "competition"]) {
      assert.deepEqual({ ...db.prepare(`SELECT count(*) AS n FROM ${t}`).get() }, { n: 0 });
    }
    db.close();
    await assert.rejects(
      sync("not a url", { target: path, progress: false }),
      /not an absolute URL/,
    );
  } finally {
    await fx.server.shutdown();
    await gone.server.shutdown();
    await cleanup();
  }
});
