import assert from "node:assert/strict";
import { openCatalog } from "./catalog.ts";
import { importFiles } from "./import.ts";
import {
  idsOf,
  sampleCompetition,
  sampleVacancy,
  tempDir,
  writeJson,
} from "../tests/_data_fixtures.ts";
import {
  FIELD_CACHE_MAX,
  fieldStems,
  ftsQuery,
  htmlToText,
  STEM_CACHE_MAX,
  stemCacheSizes,
  stems,
} from "./_text.ts";
import { boundingBoxes, haversineKm } from "./_geo.ts";

Deno.test("text: HTML stripped, entities decoded, ё folded, Russian and English stems", () => {
  assert.equal(
    htmlToText('<p style="color: red">Служба&nbsp;&laquo;Госуслуги&raquo; &mdash; &amp;lt;</p>'),
    "Служба «Госуслуги» — &lt;",
  );
  assert.equal(htmlToText("a<br/>b&#8470;1&#x41;"), "a b№1A");
  assert.deepEqual(stems("Специалиста СПЕЦИАЛИСТЫ специалист"), [
    "специалист",
    "специалист",
    "специалист",
  ]);
  assert.deepEqual(stems("Учёт учета"), stems("учет учёта"));
  assert.deepEqual(stems("developers developer"), ["develop", "develop"]);
  // Plain-text fields keep what looks like markup; HTML fields drop it.
  assert.deepEqual(fieldStems("стаж <3 лет> опыт", false), stems("стаж 3 лет опыт"));
  assert.deepEqual(fieldStems("стаж <3 лет> опыт", true), stems("стаж опыт"));
  assert.equal(ftsQuery(" , --- ,"), null);
  assert.equal(ftsQuery("специалиста,отдел"), '"специалист"* AND "отдел"*');
  assert.equal(ftsQuery("IT"), '"it"');
});

/** Text fields emptied, so only what a test sets is searchable. */
const BLANK = {
  experience_upgo: "",
  experience_text: "",
  education: "",
  professions: "",
  explanation_requirements: "",
  job_responsibilities: "",
  requirements_for_knowledge: "",
  requirements_for_skills: "",
  additional_info: "",
};

Deno.test("text: stems of the most recently used words and field values are kept, within bounds", () => {
  const kept = fieldStems("Ведущий специалист", false);
  for (let i = 0; i <= FIELD_CACHE_MAX; i++) {
    fieldStems(`v${i}`, false);
    // A value used all along stays, however many others come by.
    if (i % 1000 === 0) assert.equal(fieldStems("Ведущий специалист", false), kept);
  }
  assert.equal(fieldStems("Ведущий специалист", false), kept, "the kept array itself");
  assert.equal(stemCacheSizes().fields, FIELD_CACHE_MAX, "full, not started over");
  const words = Array.from({ length: STEM_CACHE_MAX + 100 }, (_, i) => `w${i}`).join(" ");
  assert.equal(stems(words).length, STEM_CACHE_MAX + 100);
  assert.equal(stemCacheSizes().words, STEM_CACHE_MAX);
});

Deno.test("search: word forms, ё/е, case, AND of terms, HTML stripped, unpublished hidden", async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const path = `${dir}/s.db`;
    const file = await writeJson(dir, "v.json", [
      sampleVacancy(1, { ...BLANK, title: "Главный специалист отдела учёта" }),
      sampleVacancy(2, {
        ...BLANK,
        title: "Программист",
        additional_info: '<p style="color: red">Портал&nbsp;&laquo;Госуслуги&raquo;</p>',
      }),
      sampleVacancy(3, { ...BLANK, title: "Ведущий специалист-эксперт, программист" }),
      sampleVacancy(4, { ...BLANK, title: "Специалист по учету", is_public: false }),
      sampleVacancy(5, { ...BLANK, title: "Senior developers wanted" }),
    ]);
    await importFiles(path, [file]);
    const catalog = openCatalog(path, { readonly: true });
    const find = (search: string) => idsOf(catalog.list("vacancies", { search }).docs);
    assert.deepEqual(find("специалиста"), [1, 3]);
    assert.deepEqual(find("СПЕЦИАЛИСТЫ"), [1, 3]);
    assert.deepEqual(find("учет"), [1]);
    assert.deepEqual(find("УЧЁТА"), [1]);
    assert.deepEqual(find("специалист программист"), [3]);
    assert.deepEqual(find("специалист,программисты"), [3]);
    assert.deepEqual(find("госуслуги"), [2]);
    assert.deepEqual(find("color"), []);
    assert.deepEqual(find("red"), []);
    assert.deepEqual(find("developer"), [5]);
    assert.deepEqual(find("програм"), [2, 3]); // prefix, like DRF's icontains
    assert.deepEqual(find("несуществующее"), []);
    // A value without searchable terms filters nothing, as DRF drops empty terms.
    assert.equal(catalog.list("vacancies", { search: " ,-- " }).count, 4);
    // Search combines with filters and ordering.
    assert.deepEqual(
      idsOf(
        catalog.list("vacancies", {
          search: "специалист",
          ordering: [{ field: "id", desc: true }],
        }).docs,
      ),
      [3, 1],
    );
    assert.equal(catalog.list("vacancies", { search: "специалист" }).count, 2);
    catalog.close();
    // Re-import with a new title: the old words stop matching, the new ones match.
    const again = await writeJson(dir, "v2.json", [
      sampleVacancy(1, { ...BLANK, title: "Юрисконсульт" }),
    ]);
    await importFiles(path, [again]);
    const c2 = openCatalog(path, { readonly: true });
    assert.deepEqual(idsOf(c2.list("vacancies", { search: "специалист" }).docs), [3]);
    assert.deepEqual(idsOf(c2.list("vacancies", { search: "юрисконсульта" }).docs), [1]);
    c2.close();
  } finally {
    await cleanup();
  }
});

Deno.test("geo: haversine matches known city distances; boxes wrap the antimeridian", () => {
  const moscow = [55.7558, 37.6173] as const;
  const spb = [59.9343, 30.3351] as const;
  const kazan = [55.7961, 49.1064] as const;
  const d1 = haversineKm(...moscow, ...spb);
  assert.ok(d1 > 630 && d1 < 637, `Moscow-SPb ${d1}`);
  const d2 = haversineKm(...moscow, ...kazan);
  assert.ok(d2 > 715 && d2 < 722, `Moscow-Kazan ${d2}`);
  assert.equal(haversineKm(10, 20, 10, 20), 0);
  const boxes = boundingBoxes(64.73, 179.9, 100);
  assert.equal(boxes.length, 2);
  assert.ok(boxes.some(([minLon, maxLon]) => minLon <= -179.5 && maxLon >= -179.5));
  assert.deepEqual(boundingBoxes(89.95, 0, 50).map((b) => [b[0], b[1]]), [[-180, 180]]);
});

Deno.test("near: competitions within a great-circle radius, across the antimeridian", async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const path = `${dir}/n.db`;
    const at = (id: number, lat: string, lon: string, extra = {}) =>
      sampleCompetition(id, {
        document_reception_map_latitude: lat,
        document_reception_map_longitude: lon,
        ...extra,
      });
    const file = await writeJson(dir, "c.json", [
      at(1, "55.755826", "37.617300"), // Moscow
      at(2, "59.934280", "30.335099"), // St Petersburg, ~634 km
      at(3, "55.796127", "49.106405"), // Kazan, ~719 km
      at(4, "64.734816", "177.514745"), // Anadyr
      at(5, "55.760000", "37.620000", { is_removed: true }), // Moscow, unpublished
      at(6, "", ""), // no coordinates
    ]);
    await importFiles(path, [file]);
    const catalog = openCatalog(path, { readonly: true });
    const near = (lat: number, lon: number, radiusKm: number) =>
      idsOf(catalog.list("competitions", { near: { lat, lon, radiusKm } }).docs);
    assert.deepEqual(near(55.7558, 37.6173, 10), [1]);
    assert.deepEqual(near(55.7558, 37.6173, 600), [1]);
    assert.deepEqual(near(55.7558, 37.6173, 650), [1, 2]);
    assert.deepEqual(near(55.7558, 37.6173, 730), [1, 2, 3]);
    // From the other side of 180°: Anadyr is ~140 km west of (64.73, -179.5).
    assert.deepEqual(near(64.73, -179.5, 200), [4]);
    assert.deepEqual(near(64.73, -179.5, 100), []);
    assert.deepEqual(near(64.73, 180.5, 200), [4]); // longitudes wrap
    assert.deepEqual(near(55.7558, 37.6173 + 360, 10), [1]);
    assert.deepEqual(near(0, 0, 100), []);
    // Combined with another filter.
    assert.equal(
      catalog.list("competitions", {
        near: { lat: 55.7558, lon: 37.6173, radiusKm: 800 },
        deadlineFrom: "9999-01-01",
      }).count,
      0,
    );
    // The R*Tree holds exactly the published competitions with coordinates.
    const rows = catalog.db.prepare("SELECT id FROM competition_rtree ORDER BY id").all();
    assert.deepEqual(rows.map((r) => r.id), [1, 2, 3, 4]);
    catalog.close();
  } finally {
    await cleanup();
  }
});
