/**
 * A list request's SQL is built once for all its steps (issue 22): the page
 * a plan moves to equals the page built afresh, a plan answers as the query
 * does, and a plan made before an import is rebuilt, not served stale.
 */
import assert from "node:assert/strict";
import { openCatalog } from "./catalog.ts";
import { importFiles } from "./import.ts";
import { buildList, listAtPage, type ListQuery } from "./_query.ts";
import { searchGroups, searchStems, searchTerms } from "./_text.ts";
import {
  demoDb,
  idsOf,
  publishedRecords,
  sampleVacancy,
  tempDir,
  writeJson,
} from "../tests/_data_fixtures.ts";

Deno.test("searchTerms splits as DRF's SearchFilter; stems of the terms equal those of the value", () => {
  assert.deepEqual(searchTerms(" аудит,  отдел\t\n,,эксперт "), ["аудит", "отдел", "эксперт"]);
  assert.deepEqual(searchTerms("a\0b c"), ["ab", "c"]);
  assert.deepEqual(searchTerms(" , ,"), []);
  for (const raw of ["специалисты, Программиста  ЁЛКИ 1С", " , ", "IT-отдел,учёт"]) {
    assert.deepEqual(searchStems(searchTerms(raw)), searchStems(raw), raw);
    assert.deepEqual(searchGroups(searchTerms(raw)), searchGroups(raw), raw);
  }
});

Deno.test("listAtPage: another page of a built list equals that page built afresh", () => {
  const shapes: ListQuery[] = [
    {},
    { agency: [3] },
    { industry: [2, 5] },
    { industry: [2], agency: [1], ordering: [{ field: "salary_from", desc: true }] },
    { industry: [4], search: "специалист" },
    { search: ["аудит", "отдел"], ordering: [{ field: "title", desc: false }] },
    { ordering: [{ field: "publish_date", desc: true }], publishDateFrom: "2020-01-01" },
  ];
  for (const shape of shapes) {
    for (const pageSize of [10, 100]) {
      const first = buildList("vacancies", { ...shape, pageSize, page: 1 });
      // Both sides of the depth where the industry filter changes form (offset 5,000).
      for (const page of [1, 2, 50, 499, 500, 501, 900]) {
        const what = `${JSON.stringify(shape)} size ${pageSize} page ${page}`;
        const fresh = buildList("vacancies", { ...shape, pageSize, page });
        assert.deepEqual(listAtPage(first, page), fresh, what);
        assert.deepEqual(listAtPage(listAtPage(first, 900), page), fresh, what);
      }
    }
  }
  assert.throws(() => listAtPage(buildList("vacancies", {}), 0), RangeError);
});

Deno.test("plans: one build serves work, count and page; a plan older than an import is rebuilt", async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const path = demoDb(dir, { vacancies: 600, agencies: 3, competitions: 4 });
    const catalog = openCatalog(path, { readonly: true });
    const agency = (publishedRecords(path, "vacancy")[0].agency as { id: number }).id;
    const shapes: ListQuery[] = [
      { page: 2 },
      { agency: [agency], page: 3 },
      { search: ["специалист"], page: 2 },
      { search: "специалист", ordering: [{ field: "title", desc: true }], page: 4 },
    ];
    for (const q of shapes) {
      const plan = catalog.plan("vacancies", q);
      const what = JSON.stringify(q);
      assert.deepEqual(catalog.list(plan), catalog.list("vacancies", q), what);
      assert.equal(catalog.count(plan), catalog.count("vacancies", q), what);
      assert.deepEqual(catalog.listWork(plan), catalog.listWork("vacancies", q), what);
      const last = Math.ceil(catalog.count(plan) / 10);
      assert.deepEqual(
        catalog.list(catalog.atPage(plan, last)),
        catalog.list("vacancies", { ...q, page: last }),
        `${what} last page`,
      );
    }
    // A word no record had: its plan expands the prefix to nothing. After an import adds it,
    // the same plan finds the new record, as a fresh query does.
    const plan = catalog.plan("vacancies", { search: ["зоотехник"] });
    assert.equal(catalog.count(plan), 0);
    const file = await writeJson(dir, "new.json", [
      sampleVacancy(9_000_001, { title: "Ведущий зоотехника" }),
    ]);
    await importFiles(path, [file]);
    assert.deepEqual(idsOf(catalog.list(plan).docs), [9_000_001]);
    assert.equal(catalog.count(plan), 1);
    catalog.close();
  } finally {
    await cleanup();
  }
});
