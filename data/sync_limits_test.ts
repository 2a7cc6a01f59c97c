import assert from "node:assert/strict";
import { openCatalog } from "./catalog.ts";
import { ImportError, importFiles } from "./import.ts";
import { sync, SYNC_DEFAULTS, SyncError } from "./sync.ts";
import { sampleCompetition, sampleVacancy, tempDir, writeJson } from "../tests/_data_fixtures.ts";
import type { Vacancy } from "./schemas.ts";

type Page = { results: unknown[]; next: string | null; count?: number } | Response;

/**
 * A loopback upstream: agencies are empty, competitions one page, and
 * vacancies whatever `page(n, url)` says (n from `?page=`, 1 first).
 */
function upstream(page: (n: number, url: URL) => Page | Promise<Page>) {
  const requests: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    requests.push(url.pathname + url.search);
    const json = (body: unknown) => Response.json(body);
    if (url.pathname === "/api/v1/agencies/for_vacancies/") return json([]);
    if (url.pathname === "/api/v1/competitions/") {
      return json({ count: 1, next: null, previous: null, results: [sampleCompetition(900)] });
    }
    const p = await page(Number(url.searchParams.get("page") ?? "1"), url);
    if (p instanceof Response) return p;
    return json({ count: p.count ?? 1_000_000, previous: null, ...p });
  });
  const base = `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`;
  return { server, base, requests };
}

const link = (n: number, extra = "") =>
  `http://upstream.example/api/v1/vacancies/?page=${n}${extra}`;
const vacanciesOf = (n: number, per = 2): Vacancy[] =>
  Array.from({ length: per }, (_, i) => sampleVacancy((n - 1) * per + i + 1));

/** Endless pages of fresh vacancies. */
const endless = (n: number): Page => ({ results: vacanciesOf(n), next: link(n + 1) });

function vacancyCount(path: string): number {
  const c = openCatalog(path, { readonly: true });
  try {
    return c.count("vacancies");
  } finally {
    c.close();
  }
}

Deno.test("sync: an endless upstream stops at --max-pages, keeping the batches already committed", async () => {
  const { dir, cleanup } = await tempDir();
  const up = upstream(endless);
  try {
    const path = `${dir}/m.db`;
    await assert.rejects(
      sync(up.base, { target: path, progress: false, maxPages: 25, batchRecords: 10 }),
      (err: Error) => {
        assert.ok(err instanceof SyncError, String(err));
        assert.match(err.message, /vacancies has more than 25 pages \(the --max-pages cap\)/);
        assert.match(err.message, /50 records of earlier batches were saved/);
        assert.equal(err.committed, 50);
        return true;
      },
    );
    assert.equal(up.requests.filter((r) => r.startsWith("/api/v1/vacancies/")).length, 25);
    assert.equal(vacancyCount(path), 50, "every complete batch is kept; a rerun resumes");
    assert.ok(SYNC_DEFAULTS.maxPages > 0 && SYNC_DEFAULTS.maxRecords > 0, "caps are on by default");
  } finally {
    await up.server.shutdown();
    await cleanup();
  }
});

Deno.test("sync: --max-records stops an upstream before it fills the disk; nothing written before the first batch", async () => {
  const { dir, cleanup } = await tempDir();
  const up = upstream(endless);
  try {
    const path = `${dir}/m.db`;
    openCatalog(path).close();
    await assert.rejects(
      sync(up.base, { target: path, progress: false, maxRecords: 15 }),
      (err: Error) => {
        assert.ok(err instanceof SyncError);
        assert.match(
          err.message,
          /page=8: more than 15 records \(the --max-records cap\); stopped/,
        );
        assert.equal(err.committed, 0);
        return true;
      },
    );
    assert.equal(vacancyCount(path), 0);
  } finally {
    await up.server.shutdown();
    await cleanup();
  }
});

Deno.test("sync: next links in a cycle, or that do not advance, stop with the reason", async () => {
  const { dir, cleanup } = await tempDir();
  const cycle = upstream((n) => ({ results: vacanciesOf(n), next: link(n === 4 ? 2 : n + 1) }));
  // A new URL every time, but the same records: the page number is ignored upstream.
  const stuck = upstream((n) => ({ results: vacanciesOf(1), next: link(2, `&t=${n}`) }));
  const empty = upstream((n) => ({ results: n === 1 ? vacanciesOf(1) : [], next: link(n + 1) }));
  try {
    await assert.rejects(
      sync(cycle.base, { target: `${dir}/a.db`, progress: false }),
      /page=2: the next links of vacancies loop back to page 2 \(a cycle\); stopped/,
    );
    await assert.rejects(
      sync(stuck.base, { target: `${dir}/b.db`, progress: false }),
      /page=2&t=1: the page only repeats records already read but links to a next page, so the next links do not advance/,
    );
    await assert.rejects(
      sync(empty.base, { target: `${dir}/c.db`, progress: false }),
      /page=2: the page is empty but links to a next page/,
    );
    assert.ok(stuck.requests.length < 10 && cycle.requests.length < 10);
  } finally {
    await Promise.all([cycle, stuck, empty].map((u) => u.server.shutdown()));
    await cleanup();
  }
});

Deno.test("sync: a huge page is refused by its size, declared or streamed", async () => {
  const { dir, cleanup } = await tempDir();
  const filler = JSON.stringify({ results: vacanciesOf(1), next: null, padding: "x".repeat(3e6) });
  const declared = upstream(() =>
    new Response(filler, { headers: { "content-type": "application/json" } })
  );
  const streamed = upstream(() => {
    // No content-length: chunks until the reader gives up.
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(ctl) {
        if (sent++ > 10_000) return ctl.close();
        ctl.enqueue(new TextEncoder().encode(sent === 1 ? '{"results": [' : "1,".repeat(4096)));
      },
    });
    return new Response(body, { headers: { "content-type": "application/json" } });
  });
  try {
    for (const up of [declared, streamed]) {
      await assert.rejects(
        sync(up.base, { target: `${dir}/m.db`, progress: false, maxPageBytes: 1 << 20 }),
        /vacancies\/: the response is larger than 1048576 bytes/,
      );
    }
  } finally {
    await declared.server.shutdown();
    await streamed.server.shutdown();
    await cleanup();
  }
});

Deno.test("sync: an import runs between the batches of a long sync instead of being locked out", async () => {
  const { dir, cleanup } = await tempDir();
  let served = 0;
  const up = upstream(async (n) => {
    served = n;
    await new Promise((r) => setTimeout(r, 5));
    return { results: vacanciesOf(n), next: n < 200 ? link(n + 1) : null, count: 400 };
  });
  try {
    const path = `${dir}/m.db`;
    const target = openCatalog(path);
    // No busy wait on the sync's connection: it yields and retries instead.
    target.db.exec("PRAGMA busy_timeout = 0");
    const running = sync(up.base, { target, progress: false, batchRecords: 20 });
    while (served < 20) await new Promise((r) => setTimeout(r, 10));
    const file = await writeJson(dir, "v.json", [sampleVacancy(5000)]);
    const t0 = performance.now();
    const imported = await importFiles(path, [file]);
    const ms = performance.now() - t0;
    assert.equal(imported.inserted, 1);
    assert.ok(served < 200, "the import finished while the sync was still running");
    const report = await running;
    assert.equal(report.records.vacancies, 400);
    target.close();
    assert.equal(vacancyCount(path), 401);
    console.log(`import during sync took ${ms.toFixed(0)} ms`);
  } finally {
    await up.server.shutdown();
    await cleanup();
  }
});

Deno.test("sync: records go through the import's value rules (impossible date, coordinate)", async () => {
  const { dir, cleanup } = await tempDir();
  const up = upstream(() => ({
    results: [sampleVacancy(1), sampleVacancy(2, { publish_date: "2024-02-30" })],
    next: null,
  }));
  try {
    await assert.rejects(
      sync(up.base, { target: `${dir}/m.db`, progress: false }),
      (err: Error) => {
        assert.ok(err instanceof ImportError, String(err));
        assert.equal(err.index, 1);
        assert.equal(err.path, "publish_date");
        assert.match(err.message, /vacancies\/: record 1: vacancy field publish_date: not a real/);
        return true;
      },
    );
    assert.equal(vacancyCount(`${dir}/m.db`), 0);
  } finally {
    await up.server.shutdown();
    await cleanup();
  }
});
