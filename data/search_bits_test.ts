import assert from "node:assert/strict";
import { DatabaseSync, type SQLInputValue } from "node:sqlite";
import { type Catalog, type ListWork, openCatalog } from "./catalog.ts";
import { importFiles } from "./import.ts";
import { buildList, type ListQuery } from "./_query.ts";
import { countByBits, rebuildSearchBits } from "./_search_bits.ts";
import { CatalogWriter, searchEntry } from "./_store.ts";
import type { Vacancy } from "./schemas.ts";
import { parseIdList } from "./_ordered_ids.ts";
import { Rng } from "./_demo_gen.ts";
import { demoDb, tempDir, writeJson } from "../tests/_data_fixtures.ts";

type Collection = "vacancies" | "competitions";

/** The SQL truth: the count and id list of the plain SQL queries (no bitmap index). */
function truth(db: DatabaseSync, collection: Collection, q: ListQuery, expand: Expand) {
  const sql = buildList(collection, q, expand);
  const count = (db.prepare(sql.count).get(...sql.params) as { n: number }).n;
  const row = db.prepare(`SELECT group_concat(id) AS ids FROM (${sql.allIds})`)
    .get(...sql.params) as { ids: string | null };
  return { count, ids: [...parseIdList(row.ids)] };
}

type Expand = (prefix: string) => string[] | null;

function expander(db: DatabaseSync): Expand {
  return (prefix) => {
    const rows = db.prepare(
      "SELECT term FROM fts_term WHERE term >= ? AND term < ? ORDER BY term LIMIT 33",
    ).all(prefix, prefix + "\u{10FFFF}") as { term: string }[];
    return rows.length > 32 ? null : rows.map((r) => r.term);
  };
}

function column(db: DatabaseSync, sql: string): SQLInputValue[] {
  return (db.prepare(sql).all() as { v: SQLInputValue }[]).map((r) => r.v);
}

/** A random search combined with one to three random filters. */
function randomQuery(rng: Rng, db: DatabaseSync, collection: Collection): ListQuery {
  const table = collection === "vacancies" ? "vacancy" : "competition";
  const terms = column(db, "SELECT term AS v FROM fts_term WHERE length(term) >= 4") as string[];
  const words = [rng.pick(terms)];
  if (rng.chance(0.3)) words.push(rng.pick(terms));
  // Prefixes expand to several terms (an OR group).
  const search = words.map((w) => rng.chance(0.3) ? w.slice(0, 3 + rng.int(0, 2)) : w).join(" ");
  const q: ListQuery = { search };
  const dates = column(db, `SELECT DISTINCT publish_date AS v FROM ${table}_list`) as string[];
  const filters = collection === "vacancies"
    ? ["agency", "group", "status", "industry", "salary_min", "salary_max", "from", "to"]
    : ["agency", "group", "status", "industry", "from", "to", "deadline_from", "deadline_to"];
  const n = rng.int(1, 3);
  for (let i = 0; i < n; i++) {
    const f = rng.pick(filters);
    const ids = (
      col: string,
    ) => [rng.pick(column(db, `SELECT DISTINCT ${col} AS v FROM ${table}_list`) as number[])];
    const salary = () => {
      const values = column(db, "SELECT salary_to AS v FROM vacancy_list WHERE salary_to > 0");
      // Exact stored values (boundaries), fractions, and round numbers.
      return rng.chance(0.4)
        ? Number(rng.pick(values))
        : rng.chance(0.5)
        ? rng.int(20, 300) * 1000 + 0.5
        : rng.int(20, 300) * 1000;
    };
    if (f === "agency") q.agency = ids("agency_id");
    if (f === "group") q.group = ids("group_id");
    if (f === "status") q.status = ids("status_id");
    if (f === "industry") q.industry = [rng.int(1, 12)];
    if (f === "salary_min") q.salaryMin = salary();
    if (f === "salary_max") q.salaryMax = salary();
    if (f === "from") q.publishDateFrom = rng.pick(dates);
    if (f === "to") q.publishDateTo = rng.pick(dates);
    if (f === "deadline_from" || f === "deadline_to") {
      const d = rng.pick(column(db, "SELECT reception_finished AS v FROM competition_list"));
      if (f === "deadline_from") q.deadlineFrom = d as string;
      else q.deadlineTo = d as string;
    }
  }
  if (rng.chance(0.15)) q.ordering = [{ field: "salary_from", desc: rng.chance(0.5) }];
  return q;
}

/** Records of the demo database under new ids (other chunks), some changed. */
function recordsWithIds(db: DatabaseSync, table: string, shift: number, rng: Rng) {
  const docs = column(db, `SELECT doc AS v FROM ${table} ORDER BY id LIMIT 400`) as string[];
  return docs.map((d) => {
    const r = JSON.parse(d) as Record<string, unknown>;
    r.id = (r.id as number) + shift;
    if (table === "vacancy" && rng.chance(0.3)) r.salary_to = null;
    if (table === "vacancy" && rng.chance(0.1)) r.salary_from = null;
    return r;
  });
}

/** Compares the catalogue (bitmap index) with the SQL truth on random requests. */
/**
 * Compares `catalog` with the SQL truth on `rounds` random requests; with
 * `workOnly`, only through `runListWork`, all a reader worker ever runs.
 */
function compare(
  catalog: Catalog,
  db: DatabaseSync,
  rng: Rng,
  rounds: number,
  workOnly = false,
): number {
  const expand = expander(db);
  let byBits = 0;
  for (let i = 0; i < rounds; i++) {
    const collection: Collection = rng.chance(0.75) ? "vacancies" : "competitions";
    const q = randomQuery(rng, db, collection);
    const want = truth(db, collection, q, expand);
    const label = JSON.stringify({ collection, q });
    if (!workOnly) assert.equal(catalog.count(collection, q), want.count, label);
    const sql = buildList(collection, q, expand);
    if (sql.bits && countByBits(db, sql.bits, 0) !== null) byBits++;
    const work: ListWork = {
      count: sql.count,
      allIds: sql.allIds,
      params: sql.params,
      needCount: true,
      idsUpTo: Infinity,
      bits: sql.bits,
      bitsInOrder: sql.bitsInOrder,
    };
    const got = catalog.runListWork(work);
    assert.equal(got.count, want.count, label);
    assert.deepEqual([...got.ids!], want.ids, label);
  }
  return byBits;
}

/**
 * A demo database whose bitmap index is rebuilt with a term threshold of 40
 * (most terms common, so both kinds of term are exercised), and a writable
 * connection to it.
 */
function indexedDemoDb(
  dir: string,
  sizes: { vacancies: number; agencies: number; competitions: number },
  tables: ("vacancy" | "competition")[] = ["vacancy", "competition"],
): { path: string; db: DatabaseSync } {
  const path = demoDb(dir, sizes);
  const db = new DatabaseSync(path);
  db.exec("BEGIN IMMEDIATE");
  for (const t of tables) rebuildSearchBits(db, t, 40);
  db.exec("COMMIT");
  return { path, db };
}

Deno.test("search bitmap index: counts and id lists equal the SQL truth on random search + filter requests, through imports", async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const { path, db } = indexedDemoDb(dir, { vacancies: 1500, agencies: 6, competitions: 300 });
    const commonTerms = (db.prepare("SELECT count(*) AS n FROM vacancy_chunk_term").get() as {
      n: number;
    }).n;
    assert.ok(commonTerms > 20, `${commonTerms} common terms`);

    // Records in two more chunks (ids >= 65,536), then changes and unpublishing in
    // all of them: the writer's imports must keep every touched chunk exact.
    const rng = new Rng(7);
    const vacancies = [
      ...recordsWithIds(db, "vacancy", 70_000, rng),
      ...recordsWithIds(db, "vacancy", 140_000, rng),
    ];
    const competitions = recordsWithIds(db, "competition", 70_000, rng);
    await importFiles(path, [
      await writeJson(dir, "v1.json", vacancies),
      await writeJson(dir, "c1.json", competitions),
    ]);
    const changed = vacancies.filter((_, i) => i % 7 === 0).map((v) => ({
      ...v,
      salary_to: v.salary_to === null ? "99999.99" : null,
      publish_date: "2023-06-15",
      // New words, words gone: their terms' bits must follow.
      title: "Ведущий инженер-программист",
      job_responsibilities: "",
    }));
    const hidden = [...vacancies.filter((_, i) => i % 11 === 0), ...competitions.slice(0, 40)]
      .map((r) => ({ ...r, is_public: false }));
    const own = column(db, "SELECT doc AS v FROM vacancy ORDER BY id LIMIT 50") as string[];
    const ownChanged = own.map((d) => ({ ...JSON.parse(d), salary_from: "12345.67" }));
    await importFiles(path, [
      await writeJson(dir, "v2.json", [...changed, ...ownChanged]),
      await writeJson(dir, "h.json", hidden),
    ]);
    const chunks = column(db, "SELECT DISTINCT chunk AS v FROM vacancy_chunk ORDER BY chunk");
    assert.deepEqual(chunks, [0, 1, 2]);

    // As a reader worker opens it: range columns kept in memory.
    const catalog = openCatalog(path, { readonly: true, keepRangeColumns: true });
    catalog.preloadRangeColumns();
    try {
      const byBits = compare(catalog, db, new Rng(11), 300);
      // Nearly every request goes through the bitmap index (prefix queries of
      // more than 32 terms do not).
      assert.ok(byBits > 200, `${byBits} of 300 counted by the bitmap index`);
    } finally {
      catalog.close();
      db.close();
    }
  } finally {
    await cleanup();
  }
});

Deno.test("search bitmap index: a search with a salary range counts exactly at the boundaries; values it cannot hold make it decline", async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const path = demoDb(dir, { vacancies: 400, agencies: 3, competitions: 20 });
    const check = (wantBits: boolean) => {
      const catalog = openCatalog(path, { readonly: true });
      const db = new DatabaseSync(path, { readOnly: true });
      try {
        const expand = expander(db);
        const values = column(
          db,
          "SELECT DISTINCT salary_to AS v FROM vacancy_list WHERE salary_to IS NOT NULL LIMIT 20",
        ) as number[];
        for (const v of values) {
          for (const q of [{ salaryMin: v }, { salaryMax: v }, { salaryMin: v, salaryMax: v }]) {
            const query: ListQuery = { search: "специалист", ...q };
            const sql = buildList("vacancies", query, expand);
            assert.equal(countByBits(db, sql.bits!, 0) !== null, wantBits);
            assert.equal(
              catalog.count("vacancies", query),
              truth(db, "vacancies", query, expand).count,
            );
          }
        }
      } finally {
        catalog.close();
        db.close();
      }
    };
    check(true);
    // A salary too large for 32-bit kopecks on a matching record: the SQL answers.
    const db = new DatabaseSync(path, { readOnly: true });
    const doc = (db.prepare(
      "SELECT v.doc AS doc FROM vacancy AS v JOIN vacancy_fts AS f ON f.rowid = v.id WHERE f.vacancy_fts MATCH 'специалист' LIMIT 1",
    ).get() as { doc: string }).doc;
    db.close();
    await importFiles(path, [
      await writeJson(dir, "wide.json", [{ ...JSON.parse(doc), salary_to: "9999999999.99" }]),
    ]);
    check(false);
  } finally {
    await cleanup();
  }
});

Deno.test("search bitmap index: a reader worker's kept range columns follow an import that changes salaries and dates", async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const { path, db } = indexedDemoDb(dir, { vacancies: 1500, agencies: 6, competitions: 300 });
    // Opened and preloaded before the import, as a reader worker is at server start.
    const catalog = openCatalog(path, { readonly: true, keepRangeColumns: true });
    catalog.preloadRangeColumns();
    try {
      compare(catalog, db, new Rng(3), 60, true);
      const docs = column(db, "SELECT doc AS v FROM vacancy ORDER BY id") as string[];
      const changed = docs.filter((_, i) => i % 3 === 0).map((d) => ({
        ...JSON.parse(d),
        salary_from: "1000.00",
        salary_to: "900000.00",
        publish_date: "2020-02-02",
      }));
      await importFiles(path, [await writeJson(dir, "salaries.json", changed)]);
      const byBits = compare(catalog, db, new Rng(5), 300, true);
      assert.ok(byBits > 100, `${byBits} of 300 counted by the bitmap index`);
    } finally {
      catalog.close();
      db.close();
    }
  } finally {
    await cleanup();
  }
});

/**
 * `db` with every bitset block it returns recorded as `name@chunk`, and the
 * rows it returns from the common-term table counted.
 */
function recording(db: DatabaseSync) {
  const blocks: string[] = [];
  let termRows = 0;
  const note = (sql: string, params: unknown[], rows: unknown[]) => {
    for (
      const r of rows as ({ name?: string; chunk?: number; data?: Uint8Array } | undefined)[]
    ) {
      if (r === undefined) continue;
      if (/_chunk_term\b/.test(sql)) termRows++;
      else if (r.data !== undefined && /_chunk\b/.test(sql)) {
        // Blocks of terms only (the range columns, `c:...`, are another matter).
        const name = r.name ?? String(params[0]);
        const chunk = r.chunk ?? (typeof params[0] === "number" ? params[0] : params[1]);
        if (name.startsWith("t:")) blocks.push(`${name}@${chunk}`);
      }
    }
  };
  const proxy = new Proxy(db, {
    get(target, key) {
      if (key !== "prepare") {
        const v = Reflect.get(target, key);
        return typeof v === "function" ? v.bind(target) : v;
      }
      return (sql: string) => {
        const stmt = target.prepare(sql);
        return new Proxy(stmt, {
          get(st, k) {
            if (k === "get") {
              return (...p: SQLInputValue[]) => {
                const row = st.get(...p);
                note(sql, p, [row]);
                return row;
              };
            }
            if (k === "all") {
              return (...p: SQLInputValue[]) => {
                const rows = st.all(...p);
                note(sql, p, rows);
                return rows;
              };
            }
            const v = Reflect.get(st, k);
            return typeof v === "function" ? v.bind(st) : v;
          },
        });
      };
    },
  });
  return { db: proxy, blocks, termRows: () => termRows };
}

Deno.test("search bitmap index: a count reads only the query's terms, and a later group only the chunks still in play", async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const path = demoDb(dir, { vacancies: 1500, agencies: 6, competitions: 30 });
    const seed = new DatabaseSync(path);
    const rng = new Rng(5);
    // The demo's records again in chunks 1 and 2, and a word of its own in 60 records of chunk 2.
    const own = recordsWithIds(seed, "vacancy", 140_000, rng).slice(0, 60)
      .map((r) => ({ ...r, id: (r.id as number) + 60_000, title: "Зоотехник отдела" }));
    await importFiles(path, [
      await writeJson(dir, "more.json", [
        ...recordsWithIds(seed, "vacancy", 70_000, rng),
        ...recordsWithIds(seed, "vacancy", 140_000, rng),
        ...own,
      ]),
    ]);
    seed.exec("BEGIN IMMEDIATE");
    rebuildSearchBits(seed, "vacancy", 40);
    seed.exec("COMMIT");
    seed.close();

    const db = new DatabaseSync(path, { readOnly: true });
    try {
      const expand = expander(db);
      // A range filter, so the bitmap index is asked (a bare search is counted by FTS5).
      const q: ListQuery = { search: "зоотехник отдел", publishDateFrom: "2000-01-01" };
      const plan = buildList("vacancies", q, expand).bits!;
      assert.equal(plan.groups.length, 2);
      const [rare, wide] = plan.groups.map((g) => g[0]);
      const chunksOf = (term: string) =>
        column(db, `SELECT chunk AS v FROM vacancy_chunk WHERE name = 't:${term}' ORDER BY chunk`);
      assert.deepEqual(chunksOf(rare), [3]);
      assert.deepEqual(chunksOf(wide), [0, 1, 2, 3]);
      const commonTerms = column(db, "SELECT term AS v FROM vacancy_chunk_term").length;
      assert.ok(commonTerms > 20, `${commonTerms} common terms`);

      const rec = recording(db);
      const got = countByBits(rec.db, plan, Infinity);
      const want = truth(db, "vacancies", q, expand);
      assert.equal(got?.count, want.count);
      assert.deepEqual([...got!.ids!], want.ids);
      // The first group's blocks, then the second's only where the first left candidates.
      assert.deepEqual(rec.blocks, [`t:${rare}@3`, `t:${wide}@3`]);
      // One look-up per term, not the whole list of common terms.
      assert.ok(rec.termRows() <= 2, `${rec.termRows()} rows of vacancy_chunk_term read`);
    } finally {
      db.close();
    }
  } finally {
    await cleanup();
  }
});

Deno.test("search bitmap index: an import reads only the blocks of the terms its records gained or lost", async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const { path, db } = indexedDemoDb(
      dir,
      { vacancies: 1500, agencies: 6, competitions: 30 },
      ["vacancy"],
    );
    try {
      const commonTerms = new Set(
        column(db, "SELECT term AS v FROM vacancy_chunk_term") as string[],
      );
      const docs = column(
        db,
        "SELECT doc AS v FROM vacancy WHERE id IN (SELECT id FROM vacancy_list) LIMIT 3",
      ) as string[];
      const [retitled, repaid, hidden] = docs.map((d) => JSON.parse(d) as Vacancy);
      const terms = (v: Vacancy) =>
        new Set(searchEntry("vacancy", v).body.split(" ").filter((t) => commonTerms.has(t)));
      const changed: Vacancy = {
        ...retitled,
        title: "Ведущий инженер-программист",
        job_responsibilities: "",
      };
      const [had, has] = [terms(retitled), terms(changed)];
      // New words, words gone, and the hidden record's every common term.
      const expected = new Set(
        [...[...had].filter((t) => !has.has(t)), ...[...has].filter((t) => !had.has(t))]
          .concat([...terms(hidden)])
          .map((t) => `t:${t}@0`),
      );
      const blocksInChunk = column(
        db,
        "SELECT count(*) AS v FROM vacancy_chunk WHERE chunk = 0 AND name >= 't:' AND name < 't;'",
      )[0] as number;
      assert.ok(
        expected.size >= 5 && blocksInChunk > expected.size + 20,
        `${blocksInChunk} blocks, ${expected.size} wanted`,
      );

      const rec = recording(db);
      db.exec("BEGIN IMMEDIATE");
      const writer = new CatalogWriter(rec.db);
      assert.equal(writer.putVacancy(structuredClone(changed)), "updated");
      // A salary change keeps every term: no term block is read for it.
      const salary = repaid.salary_to === "123456.00" ? "123457.00" : "123456.00";
      assert.equal(writer.putVacancy({ ...structuredClone(repaid), salary_to: salary }), "updated");
      assert.equal(writer.putVacancy({ ...structuredClone(hidden), is_public: false }), "updated");
      writer.finish();
      db.exec("COMMIT");
      assert.deepEqual(new Set(rec.blocks), expected);
    } finally {
      db.close();
    }
    // And the index still tells the truth.
    const catalog = openCatalog(path, { readonly: true });
    const check = new DatabaseSync(path, { readOnly: true });
    try {
      compare(catalog, check, new Rng(17), 80);
    } finally {
      catalog.close();
      check.close();
    }
  } finally {
    await cleanup();
  }
});
