import assert from "node:assert/strict";
import { type Catalog, type ListWork, type ListWorkResult, openCatalog } from "./catalog.ts";
import { ReaderPool } from "./readers.ts";
import type { ListQuery } from "./_query.ts";
import { demoDb, idsOf, publishedRecords, tempDir, writeJson } from "../tests/_data_fixtures.ts";
import { importFiles } from "./import.ts";

/** A demo database, a reader pool of `size` on it, and two read-only catalogues beside it. */
async function withPool(
  size: number,
  test: (
    t: { path: string; pool: ReaderPool; prepared: Catalog; inPlace: Catalog },
  ) => Promise<void>,
): Promise<void> {
  const { dir, cleanup } = await tempDir();
  const path = demoDb(dir, { vacancies: 3_000, agencies: 4, competitions: 5 });
  const pool = new ReaderPool({ path, size });
  const prepared = openCatalog(path, { readonly: true });
  const inPlace = openCatalog(path, { readonly: true });
  try {
    await test({ path, pool, prepared, inPlace });
  } finally {
    pool.close();
    prepared.close();
    inPlace.close();
    await cleanup();
  }
}

Deno.test("reader pool: lists prepared in a worker equal lists computed in place", () =>
  withPool(2, async ({ path, pool, prepared, inPlace }) => {
    const vac = publishedRecords(path, "vacancy");
    const agency = (vac[0].agency as { id: number }).id;
    const shapes: ListQuery[] = [
      { agency: [agency] },
      { search: "специалист" },
      { search: "специалист", agency: [agency] },
      { search: "специалист", ordering: [{ field: "salary_from", desc: true }] },
      { salaryMin: 90_000 },
      { ordering: [{ field: "title", desc: false }] },
    ];
    for (const shape of shapes) {
      const count = inPlace.count("vacancies", shape);
      for (const page of [1, 2, 7, Math.max(1, Math.ceil(count / 10))]) {
        const q = { ...shape, page };
        const work = prepared.listWork("vacancies", q);
        if (page === 1 && shape.ordering === undefined) {
          assert.ok(work?.needCount, `${JSON.stringify(q)}: a cold count`);
        }
        await pool.prepare(prepared, "vacancies", q);
        // Everything slow is cached now: nothing is left for a worker.
        assert.equal(prepared.listWork("vacancies", q), null, JSON.stringify(q));
        const got = prepared.list("vacancies", q);
        const want = inPlace.list("vacancies", q);
        assert.equal(got.count, want.count, JSON.stringify(q));
        assert.deepEqual(idsOf(got.docs), idsOf(want.docs), JSON.stringify(q));
      }
    }
    // Default order, no filter: never any work.
    assert.equal(prepared.listWork("vacancies", { page: 250 }), null);
  }));

Deno.test("reader pool: a result from an older revision is not kept", async () => {
  const { dir, cleanup } = await tempDir();
  const path = demoDb(dir, { vacancies: 500, agencies: 3, competitions: 5 });
  const pool = new ReaderPool({ path, size: 1 });
  const catalog = openCatalog(path, { readonly: true });
  try {
    const q: ListQuery = { search: "специалист", salaryMin: 50_000 };
    const work = catalog.listWork("vacancies", q)!;
    const stale = await pool.run(work);
    const vac = publishedRecords(path, "vacancy");
    const file = await writeJson(dir, "removed.json", [{ ...vac[0], is_removed: true }]);
    await importFiles(path, [file]);
    assert.equal(catalog.primeList(work, stale), false);
    await pool.prepare(catalog, "vacancies", q);
    assert.equal(catalog.list("vacancies", q).count, openCatalog(path).count("vacancies", q));
  } finally {
    pool.close();
    catalog.close();
    await cleanup();
  }
});

Deno.test("reader pool: a database the worker cannot open rejects with the reason", async () => {
  const pool = new ReaderPool({ path: "/nonexistent/catalog.db", size: 1 });
  try {
    await assert.rejects(
      pool.run({
        count: "SELECT 1 AS n",
        allIds: "SELECT 1 AS id",
        params: [],
        needCount: true,
        idsUpTo: 0,
      }),
      /could not open the catalogue.*does not exist/,
    );
  } finally {
    pool.close();
  }
});

Deno.test("reader pool: a page past the end of a searched or filtered list is counted, never listed", async () => {
  const { dir, cleanup } = await tempDir();
  const path = demoDb(dir, { vacancies: 1_500, agencies: 4, competitions: 5 });
  const pool = new ReaderPool({ path, size: 1 });
  const catalog = openCatalog(path, { readonly: true });
  // Every work the workers run, with what came back.
  const runs: { work: ListWork; result: ListWorkResult }[] = [];
  const run = pool.run.bind(pool);
  pool.run = async (work) => {
    const result = await run(work);
    runs.push({ work, result });
    return result;
  };
  try {
    const vac = publishedRecords(path, "vacancy");
    const agency = (vac[0].agency as { id: number }).id;
    const shapes: ListQuery[] = [
      { search: "специалист" },
      { search: "специалист", salaryMin: 50_000 },
      { agency: [agency] },
      { agency: [agency], ordering: [{ field: "salary_from", desc: true }] },
    ];
    let deep = 0;
    for (const shape of shapes) {
      const label = JSON.stringify(shape);
      runs.length = 0;
      const q = { ...shape, page: 999_999 };
      await pool.prepare(catalog, "vacancies", q);
      // (The ordered shape's count is known from the shape before it: no work at all.)
      if (shape.ordering === undefined) {
        assert.ok(runs.length >= 1, `${label}: counted in a worker`);
      }
      for (const r of runs) {
        assert.equal(r.result.ids, undefined, `${label}: an id list was built`);
      }
      // The list answers from the count alone: nothing left for a worker, no page.
      assert.equal(catalog.listWork("vacancies", q), null, label);
      const { count, docs } = catalog.list("vacancies", q);
      assert.ok(count > 0 && count < 999_999 * 10, label);
      assert.deepEqual(docs, []);

      // A deep page that exists still gets its ids, in a second work after the count.
      runs.length = 0;
      const last = { ...shape, page: Math.ceil(count / 10), pageSize: 10 };
      await pool.prepare(catalog, "vacancies", last);
      if (count > 500) {
        deep++;
        assert.ok(runs.some((r) => r.result.ids !== undefined), label);
      }
      const plain = openCatalog(path, { readonly: true, idListBytes: 0 });
      try {
        const want = idsOf(plain.list("vacancies", last).docs);
        assert.deepEqual(idsOf(catalog.list("vacancies", last).docs), want, label);
      } finally {
        plain.close();
      }
    }
    assert.ok(deep >= 2, `${deep} lists long enough for a deep last page`);
  } finally {
    pool.close();
    catalog.close();
    await cleanup();
  }
});

Deno.test("reader pool: concurrent requests for different pages of one cold list share one build", () =>
  withPool(1, async ({ pool, prepared, inPlace }) => {
    const shape: ListQuery = {
      search: "специалист",
      ordering: [{ field: "salary_from", desc: true }],
    };
    const count = inPlace.count("vacancies", shape);
    const last = Math.ceil(count / 10);
    assert.ok(last > 60, `the list has ${count} records: enough pages`);
    // Three deep pages and one past the end, all asked for at once on a cold server.
    const pages = [51, 55, last, last + 5];
    await Promise.all(pages.map((page) => pool.prepare(prepared, "vacancies", { ...shape, page })));
    assert.equal(pool.posted, 1, "one build for the four requests");
    for (const page of pages.slice(0, 3)) {
      const q = { ...shape, page };
      assert.equal(prepared.listWork("vacancies", q), null, `page ${page}: nothing left to build`);
      assert.deepEqual(
        idsOf(prepared.list("vacancies", q).docs),
        idsOf(inPlace.list("vacancies", q).docs),
        `page ${page}`,
      );
    }
  }));

Deno.test("reader pool: a worker gives its SQLite pages back after each job, so they never crowd out the server's connection", () =>
  withPool(1, async ({ path, pool, prepared }) => {
    // SQLite keeps one page cache for every connection of the process (Catalog.releaseCachedPages):
    // the worker's release after its job empties it of the pages no statement reads, this
    // connection's included, so it reads them again. Read calls of this thread only, from /proc
    // (the worker reads on its own thread, and the suite runs other files in parallel).
    const reads = () =>
      Number(Deno.readTextFileSync("/proc/thread-self/io").match(/syscr: (\d+)/)![1]);
    const vac = publishedRecords(path, "vacancy");
    const ids = vac.slice(0, 40).map((r) => r.id as number);
    const pass = () => {
      const before = reads();
      for (const id of ids) assert.ok(prepared.getBytes("vacancies", id));
      return reads() - before;
    };
    pass();
    // Cached, the records cost only what SQLite reads directly (overflow pages); after the
    // worker's release, their pages are read again.
    const cached = pass();
    const agency = (vac[0].agency as { id: number }).id;
    const q = { agency: [agency], page: 2 };
    assert.ok(prepared.listWork("vacancies", q)?.needCount, "a cold count: a job for the worker");
    await pool.prepare(prepared, "vacancies", q);
    // The 40 records sit on ~17 pages, read again after the release (19 more calls measured).
    const afterJob = pass();
    assert.ok(
      afterJob >= cached + 10,
      `after a reader job the working set cost ${afterJob} read calls, cached ${cached}: ` +
        `the worker kept its pages`,
    );
    assert.equal(pass(), cached, "read back once, cached again");
  }));
