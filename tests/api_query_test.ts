/**
 * Filters, search and ordering of the list endpoints over real HTTP. The
 * expected answers are computed independently from the full unfiltered list.
 */
import assert from "node:assert/strict";
import { fetchJson, startTestServer, type TestServer } from "./_api_helpers.ts";

// deno-lint-ignore no-explicit-any
type Rec = Record<string, any>;

async function all(url: string): Promise<Rec[]> {
  const out: Rec[] = [];
  let next: string | null = url + (url.includes("?") ? "&" : "?") + "page_size=100";
  while (next) {
    const { status, body } = await fetchJson(next);
    assert.equal(status, 200, next);
    out.push(...body.results);
    next = body.next;
  }
  return out;
}

const ids = (rs: Rec[]) => rs.map((r) => r.id);

function haversineKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180;
  const a = Math.sin((lat2 - lat1) * rad / 2) ** 2 +
    Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin((lon2 - lon1) * rad / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.sqrt(a));
}

function plain(html: string): string {
  return html.replace(/<[^>]*>/g, " ").replace(/&nbsp;/g, " ").toLowerCase().replaceAll("ё", "е");
}

Deno.test({
  name: "api filters, search and ordering",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const s: TestServer = await startTestServer();
    const api = `${s.url}/api/v1`;
    try {
      const vacancies = await all(`${api}/vacancies/`);
      const competitions = await all(`${api}/competitions/`);

      await t.step("agency, group, industry and status filters (single and lists)", async () => {
        const a1 = vacancies[0].agency.id, a2 = vacancies[5].agency.id;
        assert.deepEqual(
          ids(await all(`${api}/vacancies/?agency=${a1}`)),
          ids(vacancies.filter((v) => v.agency.id === a1)),
        );
        assert.deepEqual(
          ids(await all(`${api}/vacancies/?agency=${a1},${a2}`)),
          ids(vacancies.filter((v) => v.agency.id === a1 || v.agency.id === a2)),
        );
        const g = vacancies[3].groups_of_positions.id;
        const byGroup = await all(`${api}/vacancies/?group=${g}`);
        assert.ok(byGroup.length > 0);
        assert.deepEqual(
          ids(byGroup),
          ids(vacancies.filter((v) => v.groups_of_positions.id === g)),
        );
        const ind = vacancies.find((v) => v.industries.length > 0)!.industries[0].id;
        assert.deepEqual(
          ids(await all(`${api}/vacancies/?industry=${ind}`)),
          ids(vacancies.filter((v) => v.industries.some((i: Rec) => i.id === ind))),
        );
        const cind = competitions.find((c) => c.industries.length > 0)!.industries[0];
        assert.deepEqual(
          ids(await all(`${api}/competitions/?industry=${cind}`)),
          ids(competitions.filter((c) => c.industries.includes(cind))),
        );
        const st = vacancies[0].status.id;
        assert.equal(
          (await all(`${api}/vacancies/?status=${st}`)).length,
          vacancies.filter((v) => v.status.id === st).length,
        );
        assert.equal((await fetchJson(`${api}/vacancies/?agency=999999`)).body.count, 0);
      });

      await t.step("salary range (overlap) and publish-date range", async () => {
        const min = 60000, max = 90000;
        const got = ids(await all(`${api}/vacancies/?salary_min=${min}&salary_max=${max}`));
        const want = ids(vacancies.filter((v) => {
          if (v.salary_from === null && v.salary_to === null) return false;
          const lo = v.salary_from === null ? -Infinity : Number(v.salary_from);
          const hi = v.salary_to === null ? Infinity : Number(v.salary_to);
          return hi >= min && lo <= max;
        }));
        assert.ok(want.length > 0);
        assert.deepEqual(got, want);
        const dates = vacancies.map((v) => v.publish_date).sort();
        const from = dates[Math.floor(dates.length / 4)], to = dates[Math.floor(dates.length / 2)];
        assert.deepEqual(
          ids(await all(`${api}/vacancies/?publish_date_from=${from}&publish_date_to=${to}`)),
          ids(vacancies.filter((v) => v.publish_date >= from && v.publish_date <= to)),
        );
      });

      await t.step("competitions: reception deadline range and near/radius_km", async () => {
        const ds = competitions.map((c) => c.document_reception_finished).sort();
        const from = ds[10], to = ds[ds.length - 10];
        assert.deepEqual(
          ids(await all(`${api}/competitions/?deadline_from=${from}&deadline_to=${to}`)),
          ids(
            competitions.filter((c) =>
              c.document_reception_finished >= from && c.document_reception_finished <= to
            ),
          ),
        );
        // Kazan, 300 km: includes Kazan's competitions, excludes Moscow's (~720 km away).
        const [lat, lon, r] = [55.796127, 49.106414, 300];
        const near = await all(`${api}/competitions/?near=${lat},${lon}&radius_km=${r}`);
        const want = competitions.filter((c) =>
          haversineKm(
            lat,
            lon,
            Number(c.document_reception_map_latitude),
            Number(c.document_reception_map_longitude),
          ) <= r
        );
        assert.ok(want.length > 0, "demo data has competitions around Kazan");
        assert.deepEqual(ids(near), ids(want));
      });

      await t.step("invalid filter values are 400 with a detail", async () => {
        for (
          const q of [
            "vacancies/?salary_min=lots",
            "vacancies/?agency=x",
            "vacancies/?publish_date_from=2024-13-45",
            "competitions/?near=91,0&radius_km=5",
            "competitions/?near=55.7,37.6",
            "competitions/?near=55.7,37.6&radius_km=-3",
          ]
        ) {
          const { status, headers, body } = await fetchJson(`${api}/${q}`);
          assert.equal(status, 400, q);
          assert.equal(headers.get("content-type"), "application/json");
          assert.equal(typeof body.detail, "string");
          assert.ok(body.detail.length > 10, body.detail);
        }
      });

      await t.step("filters follow the same value rules as imported records", async () => {
        // data/values.ts: the values an import refuses are refused as filters too,
        // and the edge values an import accepts are accepted.
        for (
          const q of [
            "vacancies/?publish_date_from=2024-02-30",
            "vacancies/?publish_date_to=0000-00-00",
            "competitions/?deadline_from=2023-02-29",
            "vacancies/?salary_min=-5",
            "vacancies/?salary_max=1e32",
            "vacancies/?salary_max=10000000000",
            "vacancies/?salary_min=100.125",
            "competitions/?near=55.7,-999&radius_km=5",
          ]
        ) {
          const { status, body } = await fetchJson(`${api}/${q}`);
          assert.equal(status, 400, q);
          assert.match(body.detail, /^Invalid value for '\w+': /, q);
        }
        for (
          const q of [
            "vacancies/?publish_date_from=2024-02-29",
            "vacancies/?salary_min=0&salary_max=9999999999.99",
            "competitions/?near=90,-180&radius_km=5",
          ]
        ) {
          assert.equal((await fetchJson(`${api}/${q}`)).status, 200, q);
        }
      });

      await t.step(
        "search: Russian word forms, case and ё/е insensitive, AND of terms",
        async () => {
          const matches = (r: Rec, stem: string) =>
            plain(
              [
                r.title,
                r.job_responsibilities,
                r.requirements_for_knowledge,
                r.requirements_for_skills,
                r.professions,
                r.education,
                r.additional_info,
              ].join(" "),
            ).includes(stem);
          const base = await all(`${api}/vacancies/?search=специалист`);
          assert.ok(base.length > 0);
          for (const r of base) assert.ok(matches(r, "специалист"), r.title);
          for (const form of ["специалиста", "СПЕЦИАЛИСТЫ", "специалистов"]) {
            assert.deepEqual(
              ids(await all(`${api}/vacancies/?search=${encodeURIComponent(form)}`)),
              ids(base),
              form,
            );
          }
          const e1 = await all(`${api}/vacancies/?search=${encodeURIComponent("учёта")}`);
          const e2 = await all(`${api}/vacancies/?search=${encodeURIComponent("учета")}`);
          assert.ok(e1.length > 0);
          assert.deepEqual(ids(e1), ids(e2));
          const both = await all(
            `${api}/vacancies/?search=${encodeURIComponent("специалист, учет")}`,
          );
          assert.deepEqual(ids(both), ids(base.filter((r) => e2.some((x) => x.id === r.id))));
          const none = await fetchJson(`${api}/vacancies/?search=zzzqqqxxx`);
          assert.equal(none.status, 200);
          assert.equal(none.body.count, 0);
          assert.deepEqual(none.body.results, []);
        },
      );

      await t.step("ordering: fields, descending, nulls last, unknown dropped", async () => {
        const byDate = await all(`${api}/vacancies/?ordering=-publish_date`);
        for (let i = 1; i < byDate.length; i++) {
          assert.ok(byDate[i - 1].publish_date >= byDate[i].publish_date);
        }
        const bySalary = await all(`${api}/vacancies/?ordering=salary_from`);
        const firstNull = bySalary.findIndex((v) => v.salary_from === null);
        assert.ok(firstNull > 0);
        assert.ok(
          bySalary.slice(firstNull).every((v) => v.salary_from === null),
          "nulls last ascending",
        );
        for (let i = 1; i < firstNull; i++) {
          assert.ok(Number(bySalary[i - 1].salary_from) <= Number(bySalary[i].salary_from));
        }
        const desc = await all(`${api}/vacancies/?ordering=-salary_from`);
        assert.equal(desc.at(-1)!.salary_from, null, "nulls last descending");
        assert.ok(Number(desc[0].salary_from) >= Number(desc[1].salary_from));
        const title = await all(`${api}/vacancies/?ordering=-unknown,title`);
        const plainTitle = await all(`${api}/vacancies/?ordering=title`);
        assert.deepEqual(ids(title), ids(plainTitle));
        const sorted = await all(`${api}/vacancies/?ordering=-id`);
        assert.deepEqual(ids(sorted), ids(vacancies).reverse());
      });

      await t.step("filters are carried into pagination links", async () => {
        const { body } = await fetchJson(
          `${api}/vacancies/?ordering=-id&search=${encodeURIComponent("специалист")}`,
        );
        assert.equal(
          body.next,
          `${api}/vacancies/?ordering=-id&page=2&search=%D1%81%D0%BF%D0%B5%D1%86%D0%B8%D0%B0%D0%BB%D0%B8%D1%81%D1%82`,
        );
      });
    } finally {
      await s.close();
    }
  },
});
