import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { openCatalog } from "./catalog.ts";
import { ImportError, importFiles } from "./import.ts";
import type { Competition, Vacancy } from "./schemas.ts";
import { sampleCompetition, sampleVacancy, tempDir, writeJson } from "../tests/_data_fixtures.ts";

/** Every row of the tables an import writes, as one string. */
function contents(path: string): string {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    return JSON.stringify(
      ["agency", "vacancy", "competition", "competition_rtree", "change_log", "meta"].map((t) =>
        db.prepare(`SELECT * FROM ${t} ORDER BY 1, 2`).all()
      ),
    );
  } finally {
    db.close();
  }
}

const vacancy = (over: Partial<Vacancy>) => sampleVacancy(3, over);
const competition = (over: Partial<Competition>) => sampleCompetition(4, over);
const withUniversityTime = (at: string): Vacancy => {
  const v = sampleVacancy(3);
  const uni = {
    id: 900,
    created_at: at,
    updated_at: "2024-01-01T00:00:00.000000",
    name: "Университет",
    url: "https://u.example/",
  };
  return { ...v, agency: { ...v.agency, universities: [uni] } };
};

// Each value reported in issue 7 item 6, at record index 1 behind a valid record.
const IMPOSSIBLE: [string, unknown, string][] = [
  ["publish_date 2024-13-45", vacancy({ publish_date: "2024-13-45" }), "publish_date"],
  ["publish_date 0000-00-00", vacancy({ publish_date: "0000-00-00" }), "publish_date"],
  ["publish_date 2024-02-30", vacancy({ publish_date: "2024-02-30" }), "publish_date"],
  [
    "created_at 9999-99-99T99:99:99.999999",
    vacancy({ created_at: "9999-99-99T99:99:99.999999" }),
    "created_at",
  ],
  ["updated_at 24:00", vacancy({ updated_at: "2024-01-01T24:00:00.000000" }), "updated_at"],
  [
    "nested university time",
    withUniversityTime("2024-02-30T10:00:00.000000"),
    "agency.universities[0].created_at",
  ],
  [
    "deadline 2023-02-29",
    competition({ document_reception_finished: "2023-02-29" }),
    "document_reception_finished",
  ],
  [
    "latitude 999",
    competition({ document_reception_map_latitude: "999" }),
    "document_reception_map_latitude",
  ],
  [
    "longitude -999",
    competition({ document_reception_map_longitude: "-999" }),
    "document_reception_map_longitude",
  ],
  ["salary 1e32", vacancy({ salary_to: "1" + "0".repeat(32) + ".00" }), "salary_to"],
  ["salary 1e10", vacancy({ salary_to: "10000000000.00" }), "salary_to"],
  ["negative salary", vacancy({ salary_from: "-5000.00" }), "salary_from"],
];

Deno.test("import: impossible dates, times, coordinates and salaries reject the whole file with index and path", async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const path = `${dir}/v.db`;
    await importFiles(path, [await writeJson(dir, "base.json", [sampleVacancy(1)])]);
    const before = contents(path);
    for (const [what, record, field] of IMPOSSIBLE) {
      const file = await writeJson(dir, "bad.json", [sampleVacancy(2), record]);
      await assert.rejects(importFiles(path, [file]), (err: Error) => {
        assert.ok(err instanceof ImportError, `${what}: ${err}`);
        assert.equal(err.index, 1, what);
        assert.equal(err.path, field, what);
        assert.match(err.message, /bad\.json: record 1: (vacancy|competition) field /, what);
        return true;
      }, what);
      assert.equal(contents(path), before, `${what}: nothing may be written`);
    }
  } finally {
    await cleanup();
  }
});

Deno.test("import: edge values that are real (leap day, poles, antimeridian, zero salary) are accepted", async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const path = `${dir}/e.db`;
    const file = await writeJson(dir, "edge.json", [
      vacancy({
        publish_date: "2024-02-29",
        created_at: "2000-02-29T23:59:59.999999",
        salary_from: "0.00",
        salary_to: "9999999999.99",
      }),
      competition({
        document_reception_map_latitude: "90",
        document_reception_map_longitude: "-180",
        document_reception_finished: "2024-02-29",
      }),
      sampleCompetition(5, {
        document_reception_map_latitude: "-90.000000",
        document_reception_map_longitude: "180.000000",
      }),
    ]);
    const report = await importFiles(path, [file]);
    assert.deepEqual(report.records, { agencies: 0, vacancies: 1, competitions: 2 });
    const catalog = openCatalog(path, { readonly: true });
    try {
      const v = JSON.parse(catalog.get("vacancies", 3)!);
      assert.equal(v.publish_date, "2024-02-29");
      assert.equal(v.salary_from, "0.00");
    } finally {
      catalog.close();
    }
  } finally {
    await cleanup();
  }
});
