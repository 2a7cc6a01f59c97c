import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { openCatalog } from "./catalog.ts";
import { SCHEMA_VERSION } from "./_migrations.ts";
import {
  allRecords,
  demoDb,
  idsOf,
  publishedRecords,
  tempDir,
  writeJson,
} from "../tests/_data_fixtures.ts";
import { importFiles } from "./import.ts";
import type { ListQuery } from "./_query.ts";

type Rec = Record<string, unknown>;

/** All ids of a list, walking every page. */
function allIds(
  catalog: ReturnType<typeof openCatalog>,
  collection: "vacancies" | "competitions",
  q: ListQuery,
): { count: number; ids: number[] } {
  const ids: number[] = [];
  let count = 0;
  for (let page = 1;; page++) {
    const r = catalog.list(collection, { ...q, page, pageSize: 100 });
    count = r.count;
    ids.push(...idsOf(r.docs));
    if (r.docs.length < 100) break;
  }
  return { count, ids };
}

Deno.test("schema: migrations set user_version, WAL mode and every contract table", async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const path = `${dir}/fresh.db`;
    openCatalog(path).close();
    const db = new DatabaseSync(path);
    const uv = db.prepare("PRAGMA user_version").get() as { user_version: number };
    assert.equal(uv.user_version, SCHEMA_VERSION);
    const jm = db.prepare("PRAGMA journal_mode").get() as { journal_mode: string };
    assert.equal(jm.journal_mode, "wal");
    const names = (db.prepare("SELECT name FROM sqlite_master").all() as { name: string }[])
      .map((r) => r.name);
    for (
      const t of [
        "agency",
        "vacancy",
        "competition",
        "vacancy_industry",
        "competition_industry",
        "competition_rtree",
        "meta",
        "change_log",
        "vacancy_fts",
        "competition_fts",
      ]
    ) assert.ok(names.includes(t), `missing ${t}`);
    const cols = (db.prepare("PRAGMA table_info(competition)").all() as { name: string }[])
      .map((r) => r.name);
    for (
      const c of [
        "id",
        "doc",
        "published",
        "title",
        "agency_id",
        "agency_title",
        "lat",
        "lon",
        "publish_date",
        "reception_finished",
        "competition_type",
        "group_title",
        "address_text",
        "site_link",
      ]
    ) assert.ok(cols.includes(c), `competition lacks ${c}`);
    const meta = db.prepare("SELECT key, value FROM meta ORDER BY key").all();
    assert.deepEqual(meta.map((r) => ({ ...r })), [
      { key: "last_modified", value: "" },
      { key: "revision", value: "0" },
    ]);
    db.close();
    // Re-opening an up-to-date database runs no migration and keeps data.
    const again = openCatalog(path);
    assert.equal(again.revision(), 0);
    assert.equal(again.lastModified(), null);
    again.close();
  } finally {
    await cleanup();
  }
});

Deno.test("openCatalog: read-only refuses a missing file and a database newer than the code", async () => {
  const { dir, cleanup } = await tempDir();
  try {
    assert.throws(() => openCatalog(`${dir}/none.db`, { readonly: true }), /does not exist/);
    const path = `${dir}/future.db`;
    openCatalog(path).close();
    const db = new DatabaseSync(path);
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    assert.throws(() => openCatalog(path), /newer than this program/);
    assert.throws(() => openCatalog(path, { readonly: true }), /schema version/);
  } finally {
    await cleanup();
  }
});

Deno.test("read-only catalogue sees commits of another connection", async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const path = demoDb(dir, { vacancies: 30, competitions: 5, agencies: 3 });
    const reader = openCatalog(path, { readonly: true });
    const before = reader.list("vacancies", { agency: [1] }).count;
    assert.ok(before > 0);
    // Another connection (as the import process would) unpublishes agency 1's vacancies.
    const mine = allRecords(path, "vacancy").filter((r) => (r.agency as { id: number }).id === 1)
      .map((r) => ({ ...r, is_removed: true }));
    await importFiles(path, [await writeJson(dir, "hide.json", mine)]);
    assert.equal(reader.list("vacancies", { agency: [1] }).count, 0);
    assert.equal(reader.revision(), 2);
    assert.throws(() => reader.db.exec("DELETE FROM vacancy"));
    reader.close();
  } finally {
    await cleanup();
  }
});

Deno.test("shareReads: reads of one event-loop turn share a snapshot; the next turn sees new commits", async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const path = demoDb(dir, { vacancies: 12, competitions: 2, agencies: 2 });
    const shared = openCatalog(path, { readonly: true, shareReads: true });
    const plain = openCatalog(path, { readonly: true });
    const writer = new DatabaseSync(path);
    try {
      const first = shared.revision();
      const id = idsOf(shared.list("vacancies").docs)[0];
      writer.exec("UPDATE meta SET value = '77' WHERE key = 'revision'");
      writer.exec(`UPDATE vacancy SET published = 0 WHERE id = ${id}`);
      // Same turn: the shared reader still reads its snapshot; a plain one sees the commit.
      assert.equal(shared.revision(), first);
      assert.ok(shared.get("vacancies", id));
      assert.equal(plain.revision(), 77);
      assert.equal(plain.get("vacancies", id), null);
      await new Promise((resolve) => setTimeout(resolve, 0));
      assert.equal(shared.revision(), 77);
      assert.equal(shared.get("vacancies", id), null);
      assert.equal(shared.db.isTransaction, true);
      await new Promise((resolve) => setTimeout(resolve, 0));
      assert.equal(shared.db.isTransaction, false, "the snapshot ends with its turn");
    } finally {
      writer.close();
      plain.close();
      shared.close();
    }
  } finally {
    await cleanup();
  }
});

Deno.test("list/get: only published records, default order by id, every page consistent", async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const path = demoDb(dir, { vacancies: 250, competitions: 120, agencies: 12 });
    const catalog = openCatalog(path, { readonly: true });
    for (
      const [collection, table] of [["vacancies", "vacancy"], [
        "competitions",
        "competition",
      ]] as const
    ) {
      const expected = publishedRecords(path, table).map((r) => r.id as number);
      const { count, ids } = allIds(catalog, collection, {});
      assert.equal(count, expected.length);
      assert.deepEqual(ids, expected);
      // Pages of 10 agree with pages of 100.
      const p3 = catalog.list(collection, { page: 3 });
      assert.deepEqual(idsOf(p3.docs), expected.slice(20, 30));
      const past = catalog.list(collection, { page: 1000 });
      assert.deepEqual(past, { count: expected.length, docs: [] });
    }
    const all = (new DatabaseSync(path, { readOnly: true })).prepare(
      "SELECT id, published, doc FROM vacancy",
    ).all() as { id: number; published: number; doc: string }[];
    const hidden = all.filter((r) => r.published === 0);
    assert.ok(hidden.length > 0, "demo data should include unpublished records");
    for (const h of hidden) assert.equal(catalog.get("vacancies", h.id), null);
    const shown = all.find((r) => r.published === 1)!;
    assert.equal(catalog.get("vacancies", shown.id), shown.doc);
    assert.equal(catalog.get("vacancies", 99_999_999), null);
    assert.equal(catalog.get("vacancies", 1.5), null);
    assert.throws(() => catalog.list("vacancies", { page: 0 }), RangeError);
    catalog.close();
  } finally {
    await cleanup();
  }
});

Deno.test("listBody: the head, the page's records in page order joined by commas, the tail", async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const path = demoDb(dir, { vacancies: 900, competitions: 60, agencies: 6 });
    const catalog = openCatalog(path, { readonly: true });
    const agency = (publishedRecords(path, "vacancy")[0].agency as { id: number }).id;
    const text = new TextDecoder();
    const frame = (count: number) => ({ head: `{"n":${count},"r":[`, tail: "]}" });
    const cases: ["vacancies" | "competitions", ListQuery][] = [
      ["vacancies", {}],
      ["vacancies", { page: 7 }],
      ["competitions", { page: 2 }],
      ["vacancies", { agency: [agency], page: 2 }],
      // Records in neither id nor table order: the body keeps the page's order.
      ["vacancies", { ordering: [{ field: "salary_from", desc: true }], page: 3 }],
      ["vacancies", { search: ["специалист"], ordering: [{ field: "title", desc: false }] }],
      // Deep pages are sliced from a kept id list.
      ["vacancies", { ordering: [{ field: "title", desc: true }], page: 60, pageSize: 10 }],
      ["vacancies", { page: 1000 }],
      ["vacancies", { search: ["несуществующееслово"] }],
    ];
    for (const [collection, q] of cases) {
      const what = `${collection} ${JSON.stringify(q)}`;
      const plan = catalog.plan(collection, q);
      const { count, docs } = catalog.list(collection, q);
      const got = catalog.listBody(plan, frame);
      assert.equal(got.count, count, what);
      assert.equal(text.decode(got.body!), `{"n":${count},"r":[${docs.join(",")}]}`, what);
      assert.ok(q.page !== 1000 || docs.length === 0, what);
    }
    assert.ok(
      idsOf(catalog.list("vacancies", cases[4][1]).docs).some((id, i, a) => i > 0 && id < a[i - 1]),
      "the ordered case must not be in id order",
    );
    // No page: the frame says so and nothing is read.
    const none = catalog.listBody(catalog.plan("vacancies", { page: 5 }), () => null);
    assert.deepEqual(none, { count: catalog.count("vacancies"), body: null });
    catalog.close();
  } finally {
    await cleanup();
  }
});

Deno.test("agencies: bare list by id and agency by id", async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const path = demoDb(dir, { agencies: 7, vacancies: 5, competitions: 2 });
    const catalog = openCatalog(path, { readonly: true });
    const docs = catalog.agencies();
    assert.deepEqual(idsOf(docs), [1, 2, 3, 4, 5, 6, 7]);
    assert.equal(catalog.agency(4), docs[3]);
    assert.equal(catalog.get("agencies", 4), docs[3]);
    assert.equal(catalog.agency(8), null);
    catalog.close();
  } finally {
    await cleanup();
  }
});

function check(
  catalog: ReturnType<typeof openCatalog>,
  collection: "vacancies" | "competitions",
  records: Rec[],
  q: ListQuery,
  pred: (r: Rec) => boolean,
) {
  const expected = records.filter(pred).map((r) => r.id as number);
  const got = allIds(catalog, collection, q);
  assert.deepEqual(got.ids, expected, JSON.stringify(q));
  assert.equal(got.count, expected.length);
  assert.equal(catalog.count(collection, { ...q, page: 99 }), expected.length);
  return expected.length;
}

Deno.test("filters: agency, group, industry, status, dates, salary overlap", async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const path = demoDb(dir, { vacancies: 400, competitions: 200, agencies: 10, seed: 7 });
    const catalog = openCatalog(path, { readonly: true });
    const vac = publishedRecords(path, "vacancy");
    const com = publishedRecords(path, "competition");
    const agencyId = (r: Rec) => (r.agency as { id: number }).id;
    const groupId = (r: Rec) => (r.groups_of_positions as { id: number }).id;

    assert.ok(check(catalog, "vacancies", vac, { agency: [2] }, (r) => agencyId(r) === 2) > 0);
    assert.ok(
      check(catalog, "vacancies", vac, { agency: [2, 5] }, (r) => [2, 5].includes(agencyId(r))) >
        0,
    );
    assert.ok(check(catalog, "competitions", com, { group: [1] }, (r) => groupId(r) === 1) > 0);
    assert.ok(
      check(
        catalog,
        "vacancies",
        vac,
        { industry: [3] },
        (r) => (r.industries as { id: number }[]).some((i) => i.id === 3),
      ) > 0,
    );
    assert.ok(
      check(
        catalog,
        "competitions",
        com,
        { industry: [3, 4] },
        (r) => (r.industries as number[]).some((i) => i === 3 || i === 4),
      ) > 0,
    );
    assert.ok(check(catalog, "vacancies", vac, { status: [3] }, () => true) > 0);
    check(catalog, "vacancies", vac, { status: [999] }, () => false);
    assert.ok(
      check(
        catalog,
        "vacancies",
        vac,
        { publishDateFrom: "2023-06-01", publishDateTo: "2023-12-31" },
        (r) =>
          (r.publish_date as string) >= "2023-06-01" && (r.publish_date as string) <= "2023-12-31",
      ) > 0,
    );
    assert.ok(
      check(
        catalog,
        "competitions",
        com,
        { deadlineFrom: "2024-01-01", deadlineTo: "2024-03-31" },
        (r) =>
          (r.document_reception_finished as string) >= "2024-01-01" &&
          (r.document_reception_finished as string) <= "2024-03-31",
      ) > 0,
    );
    const num = (s: unknown) => (s === null ? null : Number(s));
    const overlaps = (min: number | null, max: number | null) => (r: Rec) => {
      const from = num(r.salary_from);
      const to = num(r.salary_to);
      if (from === null && to === null) return false;
      if (min !== null && to !== null && to < min) return false;
      if (max !== null && from !== null && from > max) return false;
      return true;
    };
    assert.ok(check(catalog, "vacancies", vac, { salaryMin: 150000 }, overlaps(150000, null)) > 0);
    assert.ok(check(catalog, "vacancies", vac, { salaryMax: 50000 }, overlaps(null, 50000)) > 0);
    assert.ok(
      check(
        catalog,
        "vacancies",
        vac,
        { salaryMin: 80000, salaryMax: 90000 },
        overlaps(80000, 90000),
      ) >
        0,
    );
    // Filters combine with AND.
    check(
      catalog,
      "vacancies",
      vac,
      { agency: [1], salaryMin: 100000 },
      (r) => agencyId(r) === 1 && overlaps(100000, null)(r),
    );
    catalog.close();
  } finally {
    await cleanup();
  }
});

Deno.test("ordering: each field, both directions, nulls last, id tiebreak in the last term's direction, unknown dropped", async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const path = demoDb(dir, { vacancies: 300, competitions: 60, agencies: 6, seed: 3 });
    const catalog = openCatalog(path, { readonly: true });
    const vac = publishedRecords(path, "vacancy");
    const key = (field: string, r: Rec) =>
      field === "salary_from"
        ? (r.salary_from === null ? null : Number(r.salary_from))
        : (r[field] as string | number);
    for (
      const field of ["publish_date", "created_at", "updated_at", "salary_from", "title", "id"]
    ) {
      for (const desc of [false, true]) {
        const expected = [...vac].sort((a, b) => {
          const ka = key(field, a);
          const kb = key(field, b);
          if (ka === null && kb !== null) return 1;
          if (kb === null && ka !== null) return -1;
          if (ka !== null && kb !== null && ka !== kb) {
            return (ka < kb ? -1 : 1) * (desc ? -1 : 1);
          }
          // Ties go by id in the direction of the last ordering term.
          return ((a.id as number) - (b.id as number)) * (desc ? -1 : 1);
        }).map((r) => r.id);
        const got = allIds(catalog, "vacancies", { ordering: [{ field: field as "id", desc }] });
        assert.deepEqual(got.ids, expected, `${desc ? "-" : ""}${field}`);
      }
    }
    assert.ok(vac.some((r) => r.salary_from === null), "demo data should have null salaries");
    // Two terms: group by publish_date descending, then title ascending.
    const two = allIds(catalog, "vacancies", {
      ordering: [{ field: "publish_date", desc: true }, { field: "title", desc: false }],
    }).ids;
    const expected2 = [...vac].sort((a, b) =>
      (b.publish_date as string).localeCompare(a.publish_date as string) ||
      ((a.title as string) < (b.title as string)
        ? -1
        : (a.title as string) > (b.title as string)
        ? 1
        : 0) ||
      (a.id as number) - (b.id as number)
    ).map((r) => r.id);
    assert.deepEqual(two, expected2);
    // salary_from does not exist on competitions: dropped, default order remains.
    const com = publishedRecords(path, "competition").map((r) => r.id);
    assert.deepEqual(
      allIds(catalog, "competitions", { ordering: [{ field: "salary_from", desc: true }] }).ids,
      com,
    );
    catalog.close();
  } finally {
    await cleanup();
  }
});

Deno.test("counts cached per query are dropped after writes through the same connection", async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const path = demoDb(dir, { vacancies: 40, competitions: 5, agencies: 2 });
    const catalog = openCatalog(path);
    const before = catalog.list("vacancies", { agency: [2] }).count;
    const theirs = allRecords(path, "vacancy").filter((r) =>
      (r.agency as { id: number }).id === 2 && r.is_public === true && r.is_removed === false
    );
    assert.equal(before, theirs.length);
    await importFiles(catalog, [
      await writeJson(dir, "h.json", [{ ...theirs[0], is_public: false }]),
    ]);
    assert.equal(catalog.list("vacancies", { agency: [2] }).count, before - 1);
    assert.equal(catalog.list("vacancies").count, publishedRecords(path, "vacancy").length);
    catalog.close();
  } finally {
    await cleanup();
  }
});

Deno.test("a read-only catalogue sees an import committed by another process", async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const path = demoDb(dir, { vacancies: 20, competitions: 3, agencies: 2 });
    const reader = openCatalog(path, { readonly: true });
    const before = reader.list("vacancies").count;
    const fresh = allRecords(path, "vacancy")[0];
    const file = await writeJson(dir, "new.json", [
      { ...fresh, id: 90_001, url: "/vakansii/90001/", is_public: true, is_removed: false },
    ]);
    const importer = new URL("./import.ts", import.meta.url).href;
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "eval",
        `import { importFiles } from ${JSON.stringify(importer)};
         await importFiles(${JSON.stringify(path)}, [${JSON.stringify(file)}]);`,
      ],
      cwd: new URL("..", import.meta.url).pathname,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    assert.equal(reader.list("vacancies").count, before + 1);
    assert.ok(reader.get("vacancies", 90_001));
    assert.equal(reader.revision(), 2);
    reader.close();
  } finally {
    await cleanup();
  }
});

Deno.test("ordering with many matches: walking the ordering's index gives the sorted answer", async () => {
  const { dir, cleanup } = await tempDir();
  try {
    // Enough rows that a group filter matches more than the walk threshold (2000).
    const path = demoDb(dir, { vacancies: 12_000, agencies: 8, competitions: 5 });
    const catalog = openCatalog(path, { readonly: true });
    const vac = publishedRecords(path, "vacancy");
    const group = (vac[0].groups_of_positions as { id: number }).id;
    const matching = vac.filter((r) => (r.groups_of_positions as { id: number }).id === group);
    assert.ok(matching.length > 2000, `matches: ${matching.length}`);
    for (const desc of [true, false]) {
      const expected = [...matching].sort((a, b) =>
        ((a.publish_date as string).localeCompare(b.publish_date as string) ||
          (a.id as number) - (b.id as number)) * (desc ? -1 : 1)
      ).map((r) => r.id);
      for (const page of [1, 2, 7]) {
        const q: ListQuery = {
          group: [group],
          ordering: [{ field: "publish_date", desc }],
          page,
          pageSize: 100,
        };
        const got = idsOf(catalog.list("vacancies", q).docs);
        assert.deepEqual(
          got,
          expected.slice((page - 1) * 100, page * 100),
          `page ${page} desc=${desc}`,
        );
      }
    }
    catalog.close();
  } finally {
    await cleanup();
  }
});

Deno.test("deep pages sliced from id lists equal OFFSET pages, and follow an import", async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const path = demoDb(dir, { vacancies: 3_000, agencies: 4, competitions: 5 });
    const sliced = openCatalog(path, { readonly: true });
    const walked = openCatalog(path, { readonly: true, idListBytes: 0 });
    const vac = publishedRecords(path, "vacancy");
    const agency = (vac[0].agency as { id: number }).id;
    const industries = [
      ...new Set(
        vac.slice(0, 30).flatMap((r) => (r.industries as { id: number }[]).map((i) => i.id)),
      ),
    ];
    const shapes: ListQuery[] = [
      { agency: [agency] },
      { industry: industries },
      { ordering: [{ field: "salary_from", desc: false }] },
      { ordering: [{ field: "salary_from", desc: true }, { field: "title", desc: false }] },
      { ordering: [{ field: "publish_date", desc: true }], agency: [agency] },
      { search: "специалист" },
      { search: "специалист", ordering: [{ field: "title", desc: true }] },
    ];
    for (const shape of shapes) {
      const count = walked.count("vacancies", shape);
      assert.ok(count > 600, `${JSON.stringify(shape)} matches ${count}`);
      for (const page of [6, 7, Math.ceil(count / 100)]) {
        const q = { ...shape, page, pageSize: 100 };
        assert.deepEqual(
          idsOf(sliced.list("vacancies", q).docs),
          idsOf(walked.list("vacancies", q).docs),
          `${JSON.stringify(shape)} page ${page}`,
        );
      }
    }
    // An import that moves a record to the front of the salary order is seen at once.
    const q: ListQuery = {
      ordering: [{ field: "salary_from", desc: true }],
      page: 6,
      pageSize: 100,
    };
    const before = idsOf(sliced.list("vacancies", q).docs);
    const moved = vac.find((r) => r.id === before[0])!;
    const file = await writeJson(dir, "moved.json", [{ ...moved, salary_from: "9999999.00" }]);
    await importFiles(path, [file]);
    const after = idsOf(sliced.list("vacancies", q).docs);
    assert.deepEqual(after, idsOf(walked.list("vacancies", q).docs));
    assert.notDeepEqual(after, before);
    sliced.close();
    walked.close();
  } finally {
    await cleanup();
  }
});

Deno.test("search with agency, group, status and industry filters = search ∩ filter", async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const path = demoDb(dir, { vacancies: 2_000, agencies: 5, competitions: 300 });
    const catalog = openCatalog(path, { readonly: true });
    for (
      const [collection, table] of [["vacancies", "vacancy"], [
        "competitions",
        "competition",
      ]] as const
    ) {
      const recs = publishedRecords(path, table);
      const r = recs[0] as {
        agency: { id: number };
        groups_of_positions: { id: number };
        status: { id: number };
        industries: ({ id: number } | number)[];
      };
      const industry = r.industries.map((i) => (typeof i === "number" ? i : i.id));
      const filters: ListQuery[] = [
        { agency: [r.agency.id] },
        { agency: [r.agency.id, (recs[1].agency as { id: number }).id] },
        { group: [r.groups_of_positions.id], status: [r.status.id] },
        { industry },
        { agency: [r.agency.id], industry: industry.slice(0, 1), publishDateFrom: "2000-01-01" },
      ];
      let nonEmpty = 0;
      for (const search of ["специалист", "отдел", "консульт"]) {
        const searched = new Set(allIds(catalog, collection, { search }).ids);
        for (const f of filters) {
          const expected = allIds(catalog, collection, f).ids.filter((id) => searched.has(id));
          const got = allIds(catalog, collection, { ...f, search });
          const what = `${collection} ${search} ${JSON.stringify(f)}`;
          if (expected.length > 0) nonEmpty++;
          assert.deepEqual(got.ids, expected, what);
          assert.equal(got.count, expected.length, what);
          const titled = allIds(catalog, collection, {
            ...f,
            search,
            ordering: [{ field: "title", desc: true }],
          });
          assert.deepEqual([...titled.ids].sort((a, b) => a - b), expected, `${what} by title`);
        }
      }
      // Most combinations match something, so the comparison above is not of empty lists.
      assert.ok(nonEmpty >= filters.length * 2, `${collection}: ${nonEmpty} non-empty`);
    }
    catalog.close();
  } finally {
    await cleanup();
  }
});

Deno.test("schema 1 databases get their search index rebuilt with filter terms on open", async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const path = demoDb(dir, { vacancies: 600, agencies: 3, competitions: 50 });
    const before = openCatalog(path, { readonly: true });
    const q: ListQuery = { search: "специалист", agency: [1] };
    const expected = allIds(before, "vacancies", q);
    before.close();
    // A schema 1 index: stems only. Emptied here, so only a rebuild can answer.
    const db = new DatabaseSync(path);
    for (const t of ["vacancy", "competition"]) {
      db.exec(`DROP TABLE ${t}_fts`);
      db.exec(
        `CREATE VIRTUAL TABLE ${t}_fts USING fts5 (body, content = '', contentless_delete = 1, detail = 'none', tokenize = 'ascii')`,
      );
      // Schema 3's bitmap index did not exist either.
      db.exec(`DROP TABLE ${t}_chunk; DROP TABLE ${t}_chunk_term; DROP TABLE ${t}_chunk_state`);
    }
    db.exec("PRAGMA user_version = 1");
    db.close();
    assert.throws(
      () => openCatalog(path, { readonly: true }),
      new RegExp(`schema version 1, expected ${SCHEMA_VERSION}; open it once read-write`),
    );
    const notices: string[] = [];
    openCatalog(path, { onNotice: (m) => notices.push(m) }).close();
    assert.match(notices.join("\n"), /re-indexing the search of \d+ vacancy records/);
    assert.match(notices.join("\n"), /schema 3: indexing the common search terms of \d+ vacancy/);
    const after = openCatalog(path, { readonly: true });
    assert.ok(expected.count > 0);
    assert.deepEqual(allIds(after, "vacancies", q), expected);
    after.close();
  } finally {
    await cleanup();
  }
});

Deno.test("caches: plans, counts and prefix expansions keep the most recently used, within bounds", async () => {
  const { dir, cleanup } = await tempDir();
  const catalog = openCatalog(demoDb(dir, { vacancies: 40, competitions: 2, agencies: 3 }), {
    readonly: true,
  });
  try {
    // Plans: at most 1,024 and 256 KiB of text. One used all along stays; one used once goes.
    const used = { agency: [1_000_000] };
    const plan = catalog.plan("vacancies", used);
    const once = catalog.plan("vacancies", { agency: [1_000_001] });
    for (let i = 0; i < 1100; i++) {
      catalog.plan("vacancies", { agency: [2_000_000 + i] });
      if (i % 100 === 0) assert.equal(catalog.plan("vacancies", used), plan, `plan after ${i}`);
      const { plans, planChars } = catalog.cacheSizes();
      assert.ok(plans <= 1024 && planChars <= 256 * 2 ** 10, `${plans} plans, ${planChars}`);
    }
    assert.equal(catalog.plan("vacancies", used), plan);
    assert.notEqual(catalog.plan("vacancies", { agency: [1_000_001] }), once);
    assert.ok(catalog.cacheSizes().planChars > 200 * 2 ** 10, "full, not started over");
    // Counts: 4,096.
    for (let i = 0; i < 4200; i++) catalog.count("vacancies", { agency: [3_000_000 + i] });
    assert.equal(catalog.cacheSizes().counts, 4096);
    // Prefix expansions: 1,024.
    for (let i = 0; i < 1100; i++) catalog.count("vacancies", { search: `zq${i}` });
    assert.equal(catalog.cacheSizes().expansions, 1024);
  } finally {
    catalog.close();
    await cleanup();
  }
});
