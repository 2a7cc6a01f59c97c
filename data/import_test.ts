import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { openCatalog } from "./catalog.ts";
import { ImportError, importFiles } from "./import.ts";
import { toJson } from "./_json.ts";
import {
  allRecords,
  idsOf,
  sampleCompetition,
  sampleVacancy,
  tempDir,
  writeJson,
} from "../tests/_data_fixtures.ts";

/** A snapshot of every table that an import may touch. */
function snapshot(path: string): string {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    const parts: unknown[] = [];
    for (
      const t of [
        "agency",
        "vacancy",
        "competition",
        "vacancy_industry",
        "competition_industry",
        "competition_rtree",
        "change_log",
        "meta",
      ]
    ) parts.push(db.prepare(`SELECT * FROM ${t} ORDER BY 1, 2`).all());
    return JSON.stringify(parts);
  } finally {
    db.close();
  }
}

Deno.test("import: bare array, envelope page, single record and NDJSON, detected per record", async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const path = `${dir}/i.db`;
    const v1 = sampleVacancy(1);
    const v2 = sampleVacancy(2);
    const c1 = sampleCompetition(10);
    const array = await writeJson(dir, "array.json", [v1, c1]);
    const envelope = await writeJson(dir, "page.json", {
      count: 1,
      next: null,
      previous: "http://x/api/v1/vacancies/",
      results: [v2],
    });
    const single = await writeJson(dir, "one.json", sampleCompetition(11));
    const ndjson = `${dir}/lines.ndjson`;
    await Deno.writeTextFile(
      ndjson,
      [sampleVacancy(3), sampleVacancy(4), v1.agency].map((r) => JSON.stringify(r)).join("\n") +
        "\n",
    );
    const agencies = await writeJson(dir, "agencies.json", [
      { ...v1.agency, id: 77, title: "Федеральное архивное агентство" },
    ]);
    const report = await importFiles(path, [array, envelope, single, ndjson, agencies]);
    assert.deepEqual(report.records, { agencies: 2, vacancies: 4, competitions: 2 });
    assert.equal(report.revision, 1);
    const catalog = openCatalog(path, { readonly: true });
    assert.deepEqual(idsOf(catalog.list("vacancies").docs), [1, 2, 3, 4]);
    assert.deepEqual(idsOf(catalog.list("competitions").docs), [10, 11]);
    assert.ok(idsOf(catalog.agencies()).includes(77));
    // The stored doc is the record itself, in API form.
    assert.equal(catalog.get("vacancies", 2), toJson(v2));
    catalog.close();
  } finally {
    await cleanup();
  }
});

Deno.test("import: explicit collection, timestamps padded to six digits, agencies from records", async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const path = `${dir}/i.db`;
    const v = sampleVacancy(5, { created_at: "2024-02-03T04:05:06" });
    (v.agency.universities[0] ?? {}).updated_at = "2020-01-01T00:00:00.5";
    const file = await writeJson(dir, "v.json", [v]);
    await importFiles(path, [file], { collection: "vacancies" });
    const catalog = openCatalog(path, { readonly: true });
    const doc = JSON.parse(catalog.get("vacancies", 5)!);
    assert.equal(doc.created_at, "2024-02-03T04:05:06.000000");
    if (v.agency.universities.length) {
      assert.equal(doc.agency.universities[0].updated_at, "2020-01-01T00:00:00.500000");
    }
    // The embedded agency was added to the agency table.
    assert.deepEqual(idsOf(catalog.agencies()), [v.agency.id]);
    catalog.close();
    // Forcing the wrong collection fails validation.
    const bad = await writeJson(dir, "v2.json", [sampleVacancy(6)]);
    await assert.rejects(
      importFiles(path, [bad], { collection: "competitions" }),
      /record 0: competition field/,
    );
  } finally {
    await cleanup();
  }
});

Deno.test("import: one invalid record rejects everything, naming file, index and field path", async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const path = `${dir}/i.db`;
    await importFiles(path, [await writeJson(dir, "base.json", [sampleVacancy(1)])]);
    const before = snapshot(path);
    const good = await writeJson(dir, "good.json", [sampleVacancy(7), sampleCompetition(8)]);
    const cases: [unknown, RegExp][] = [
      [
        [sampleVacancy(2), sampleVacancy(3, { salary_from: "100" })],
        /bad\.json: record 1: vacancy field salary_from: expected a decimal/,
      ],
      [
        [sampleVacancy(2), { ...sampleVacancy(3), publish_date: "03.02.2024" }],
        /record 1: vacancy field publish_date: expected a date/,
      ],
      [
        [sampleCompetition(4, { industries: [{ id: 1 }] as unknown as number[] })],
        /record 0: competition field industries\[0\]/,
      ],
      [
        [{ ...sampleVacancy(2), agency: { ...sampleVacancy(2).agency, inn: 7701 } }],
        /record 0: vacancy field agency\.inn/,
      ],
      [[{ hello: "world" }], /record 0: cannot tell/],
      [{ count: 1, results: "nope" }, /results is not an array/],
      [[sampleVacancy(2, { created_by: 5 as unknown as null })], /field created_by/],
    ];
    for (const [content, message] of cases) {
      const bad = await writeJson(dir, "bad.json", content);
      await assert.rejects(importFiles(path, [good, bad]), (err: Error) => {
        assert.ok(err instanceof ImportError, String(err));
        assert.match(err.message, message);
        return true;
      });
      assert.equal(snapshot(path), before, `database changed by ${message}`);
    }
    const broken = `${dir}/broken.ndjson`;
    await Deno.writeTextFile(
      broken,
      JSON.stringify(sampleVacancy(2)) + "\n" + "{not json\n" + JSON.stringify(sampleVacancy(3)),
    );
    await assert.rejects(importFiles(path, [broken]), /broken\.ndjson: record 1 \(line 2\)/);
    await assert.rejects(importFiles(path, [`${dir}/missing.json`]), /missing\.json: cannot read/);
    assert.equal(snapshot(path), before);
  } finally {
    await cleanup();
  }
});

Deno.test("import: an id given twice is refused, naming both records; nothing is written", async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const path = `${dir}/i.db`;
    await importFiles(path, [await writeJson(dir, "base.json", [sampleVacancy(1)])]);
    const before = snapshot(path);
    const twice = await writeJson(dir, "twice.json", [
      sampleVacancy(2),
      sampleCompetition(2),
      sampleVacancy(2, { salary_from: "1000.00" }),
    ]);
    await assert.rejects(importFiles(path, [twice]), (err: Error) => {
      assert.ok(err instanceof ImportError, String(err));
      assert.match(
        err.message,
        /twice\.json: record 2: vacancy id 2 is already given by .*twice\.json: record 0;/,
      );
      return true;
    });
    // NDJSON names lines.
    const lines = `${dir}/lines.ndjson`;
    await Deno.writeTextFile(
      lines,
      [sampleCompetition(5), sampleVacancy(6), sampleCompetition(5)].map((r) => JSON.stringify(r))
        .join("\n\n"),
    );
    await assert.rejects(
      importFiles(path, [lines]),
      /lines\.ndjson: record 2 \(line 5\): competition id 5 is already given by .*lines\.ndjson: record 0 \(line 1\)/,
    );
    assert.equal(snapshot(path), before);
    // An id already in the catalogue, or in an earlier file of the import, is an update.
    const later = sampleVacancy(6, { salary_from: "2000.00" });
    await importFiles(path, [
      await writeJson(dir, "again.json", [sampleVacancy(1), sampleVacancy(6)]),
      await writeJson(dir, "later.json", [later]),
    ]);
  } finally {
    await cleanup();
  }
});

Deno.test("import: re-import updates, unchanged records leave the revision alone", async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const path = `${dir}/i.db`;
    const first = await writeJson(dir, "a.json", [sampleVacancy(1), sampleVacancy(2)]);
    const r1 = await importFiles(path, [first], { now: new Date("2025-01-02T03:04:05Z") });
    assert.deepEqual([r1.inserted, r1.updated, r1.revision], [2, 0, 1]);
    const same = await importFiles(path, [first]);
    assert.deepEqual([same.inserted, same.updated, same.unchanged, same.revision], [0, 0, 2, 1]);
    const changed = await writeJson(dir, "b.json", [
      sampleVacancy(2, { title: "Новое название" }),
      sampleVacancy(1, { is_removed: true }),
    ]);
    const r2 = await importFiles(path, [changed], { now: new Date("2025-02-03T04:05:06Z") });
    assert.deepEqual([r2.updated, r2.revision], [2, 2]);
    const catalog = openCatalog(path, { readonly: true });
    assert.equal(catalog.lastModified(), "2025-02-03T04:05:06.000Z");
    assert.equal(catalog.get("vacancies", 1), null);
    assert.equal(JSON.parse(catalog.get("vacancies", 2)!).title, "Новое название");
    assert.deepEqual(catalog.list("vacancies"), { count: 1, docs: [catalog.get("vacancies", 2)] });
    catalog.close();
    // Unpublished records are kept, not lost.
    assert.equal(allRecords(path, "vacancy").length, 2);
    // Publishing again, and inserting below the highest id, renumbers the dense seq.
    const back = await writeJson(dir, "c.json", [
      sampleVacancy(1),
      sampleVacancy(0),
      sampleVacancy(9),
    ]);
    await importFiles(path, [back]);
    const c2 = openCatalog(path, { readonly: true });
    assert.deepEqual(idsOf(c2.list("vacancies").docs), [0, 1, 2, 9]);
    assert.deepEqual(idsOf(c2.list("vacancies", { page: 2, pageSize: 3 }).docs), [9]);
    const seqs = c2.db.prepare("SELECT id, seq FROM vacancy_list ORDER BY id").all();
    assert.deepEqual(seqs.map((r) => [r.id, r.seq]), [[0, 1], [1, 2], [2, 3], [9, 4]]);
    c2.close();
  } finally {
    await cleanup();
  }
});

Deno.test("import: change_log rows record new and old coordinates of changed competitions", async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const path = `${dir}/i.db`;
    const moscow = {
      document_reception_map_latitude: "55.755826",
      document_reception_map_longitude: "37.617300",
    };
    const kazan = {
      document_reception_map_latitude: "55.796127",
      document_reception_map_longitude: "49.106405",
    };
    await importFiles(path, [
      await writeJson(dir, "a.json", [
        sampleCompetition(1, moscow),
        sampleCompetition(2, moscow),
        sampleCompetition(3, moscow),
      ]),
    ], { now: new Date("2025-01-01T00:00:00Z") });
    await importFiles(path, [
      await writeJson(dir, "b.json", [
        sampleCompetition(1, kazan), // moved
        sampleCompetition(2, moscow), // unchanged: no row
        sampleCompetition(3, { ...moscow, is_public: false }), // hidden
      ]),
    ], { now: new Date("2025-01-02T00:00:00Z") });
    const db = new DatabaseSync(path, { readOnly: true });
    const rows = db.prepare(
      "SELECT collection, record_id, lat, lon, old_lat, old_lon, changed_at FROM change_log ORDER BY seq",
    ).all().map((r) => ({ ...r }));
    db.close();
    const t1 = "2025-01-01T00:00:00.000Z";
    const t2 = "2025-01-02T00:00:00.000Z";
    const row = (
      id: number,
      lat: number | null,
      lon: number | null,
      oLat: number | null,
      oLon: number | null,
      at: string,
    ) => ({
      collection: "competition",
      record_id: id,
      lat,
      lon,
      old_lat: oLat,
      old_lon: oLon,
      changed_at: at,
    });
    assert.deepEqual(rows, [
      row(1, 55.755826, 37.6173, null, null, t1),
      row(2, 55.755826, 37.6173, null, null, t1),
      row(3, 55.755826, 37.6173, null, null, t1),
      row(1, 55.796127, 49.106405, 55.755826, 37.6173, t2),
      row(3, null, null, 55.755826, 37.6173, t2),
    ]);
    const catalog = openCatalog(path, { readonly: true });
    const tree = catalog.db.prepare("SELECT id FROM competition_rtree ORDER BY id").all();
    assert.deepEqual(tree.map((r) => r.id), [1, 2]);
    catalog.close();
  } finally {
    await cleanup();
  }
});

Deno.test("import: large NDJSON streams in batches; a bad line deep inside still rolls back", async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const path = `${dir}/i.db`;
    const lines = Array.from({ length: 2500 }, (_, i) => JSON.stringify(sampleVacancy(i + 1)));
    const good = `${dir}/big.ndjson`;
    await Deno.writeTextFile(good, "\uFEFF" + lines.join("\r\n") + "\r\n\r\n");
    const r = await importFiles(path, [good]);
    assert.equal(r.records.vacancies, 2500);
    const bad = `${dir}/bad.ndjson`;
    const broken = [...lines.map((l) => l.replace('"title":"', '"title":"Новый ')), ""];
    broken[2100] = JSON.stringify({ ...sampleVacancy(2101), salary_to: "много" });
    await Deno.writeTextFile(bad, broken.join("\n"));
    const before = snapshot(path);
    await assert.rejects(
      importFiles(path, [bad]),
      /bad\.ndjson: record 2100 \(line 2101\): vacancy field salary_to/,
    );
    assert.equal(snapshot(path), before);
    const catalog = openCatalog(path, { readonly: true });
    assert.equal(catalog.list("vacancies", { search: "новый" }).count, 0);
    catalog.close();
  } finally {
    await cleanup();
  }
});

Deno.test("import: a database held by another writer gives a sentence, not SQLITE_BUSY", async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const path = `${dir}/i.db`;
    openCatalog(path).close();
    const other = new DatabaseSync(path);
    other.exec("BEGIN IMMEDIATE");
    const catalog = openCatalog(path);
    catalog.db.exec("PRAGMA busy_timeout = 50");
    const file = await writeJson(dir, "v.json", [sampleVacancy(1)]);
    await assert.rejects(importFiles(catalog, [file]), /another import is running/);
    other.exec("ROLLBACK");
    other.close();
    assert.equal((await importFiles(catalog, [file])).inserted, 1);
    catalog.close();
  } finally {
    await cleanup();
  }
});
