import assert from "node:assert/strict";
import { openCatalog } from "./catalog.ts";
import { ReaderPool } from "./readers.ts";
import type { ListQuery } from "./_query.ts";
import { demoDb, idsOf, publishedRecords, tempDir, writeJson } from "../tests/_data_fixtures.ts";
import { importFiles } from "./import.ts";

Deno.test("reader pool: lists prepared in a worker equal lists computed in place", async () => {
  const { dir, cleanup } = await tempDir();
  const path = demoDb(dir, { vacancies: 3_000, agencies: 4, competitions: 5 });
  const pool = new ReaderPool({ path, size: 2 });
  const prepared = openCatalog(path, { readonly: true });
  const inPlace = openCatalog(path, { readonly: true });
  try {
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
  } finally {
    pool.close();
    prepared.close();
    inPlace.close();
    await cleanup();
  }
});

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
