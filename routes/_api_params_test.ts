import assert from "node:assert/strict";
import {
  competitionFilterSchema,
  FILTER_MEMO_MAX,
  filterMemo,
  filtersOf,
  searchTermsOf,
  vacancyFilterSchema,
} from "./_api_params.ts";
import { parseQs } from "./_querystring.ts";

Deno.test("filtersOf: a memo gives the same answers as validating every time", () => {
  const memo = filterMemo();
  const queries = [
    "page=2",
    "agency=4&page=3",
    "agency=4&page=9",
    "agency= 4 , 5 &status=1",
    "agency=x",
    "agency=x&page=2",
    "salary_min=100&salary_max=abc",
    "publish_date_from=2024-02-30",
    "agency=&group=",
  ];
  for (const raw of queries) {
    const q = parseQs(raw);
    for (const schema of [vacancyFilterSchema, competitionFilterSchema]) {
      const expected = filtersOf(q, schema);
      assert.deepEqual(
        filtersOf(q, schema, schema === vacancyFilterSchema ? memo : undefined),
        expected,
        raw,
      );
    }
  }
  // Pages of one filter share one validation; no filter at all needs none.
  assert.equal(memo.size, 5);
  assert.deepEqual(filtersOf(parseQs("page=1"), vacancyFilterSchema, memo), {
    ok: true,
    filters: {},
  });
  assert.deepEqual(filtersOf(parseQs("agency=x"), vacancyFilterSchema, memo), {
    ok: false,
    detail: "Invalid value for 'agency': expected an id or a comma-separated list of ids.",
  });
});

Deno.test("filtersOf: the memo keeps the most recently used inputs, within its bound", () => {
  const memo = filterMemo();
  const used = parseQs("agency=4&status=1");
  const kept = filtersOf(used, vacancyFilterSchema, memo);
  for (let i = 0; i < 3 * FILTER_MEMO_MAX; i++) {
    filtersOf(parseQs(`agency=${i + 100}`), vacancyFilterSchema, memo);
    assert.equal(filtersOf(used, vacancyFilterSchema, memo), kept, `the same result after ${i}`);
    assert.ok(memo.size <= FILTER_MEMO_MAX, `${memo.size} kept`);
  }
  assert.equal(memo.size, FILTER_MEMO_MAX, "full, not started over");
});

Deno.test("searchTermsOf: the last search value's terms, split once", () => {
  assert.deepEqual(searchTermsOf(parseQs("search=a&search=b+c,,d")), ["b", "c", "d"]);
  assert.deepEqual(searchTermsOf(parseQs("page=2")), []);
});
