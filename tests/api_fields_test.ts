/**
 * Every field of every record the seed defines, in the seed's order, with
 * the seed's types, as served by a real server over HTTP.
 */
import assert from "node:assert/strict";
import { fetchJson, startTestServer } from "./_api_helpers.ts";
import {
  AGENCY_FIELDS,
  COMPETITION_FIELDS,
  UNIVERSITY_FIELDS,
  VACANCY_FIELDS,
} from "./_seed_fields.ts";

const TS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const MONEY = /^\d+\.\d{2}$/;
const COORD = /^-?\d{1,3}\.\d+$/;

// deno-lint-ignore no-explicit-any
type Rec = Record<string, any>;

function checkRef(o: Rec, extra: string[] = []) {
  assert.deepEqual(Object.keys(o), ["id", "title", ...extra]);
  assert.equal(typeof o.id, "number");
  assert.equal(typeof o.title, "string");
  for (const k of extra) assert.equal(typeof o[k], "number");
}

function checkAgency(a: Rec) {
  assert.deepEqual(Object.keys(a), AGENCY_FIELDS);
  assert.ok(Number.isInteger(a.id) && Number.isInteger(a.code));
  for (
    const k of [
      "title",
      "genitive_name",
      "address",
      "email_additional_recipients",
      "email_internship",
    ]
  ) {
    assert.equal(typeof a[k], "string", k);
  }
  assert.match(a.inn, /^\d+$/);
  assert.equal(typeof a.is_from_upgo, "boolean");
  checkRef(a.type_of);
  assert.ok(Array.isArray(a.universities));
  for (const u of a.universities) {
    assert.deepEqual(Object.keys(u), UNIVERSITY_FIELDS);
    assert.match(u.created_at, TS);
    assert.match(u.updated_at, TS);
    assert.match(u.url, /^https?:\/\//);
  }
  const ids = a.universities.map((u: Rec) => u.id);
  assert.deepEqual(
    ids,
    [...ids].sort((x: number, y: number) => x - y),
    "nested lists ordered by id",
  );
}

function checkCommon(r: Rec) {
  checkAgency(r.agency);
  checkRef(r.groups_of_positions, ["code"]);
  checkRef(r.status);
  checkRef(r.experience);
  assert.equal(r.created_by, null);
  assert.match(r.created_at, TS);
  assert.match(r.updated_at, TS);
  assert.match(r.publish_date, DATE);
  assert.equal(r.is_public, true, "only published records are listed");
  assert.equal(r.is_removed, false, "only published records are listed");
  for (const k of Object.keys(r).filter((k) => k.startsWith("tip_"))) {
    assert.equal(typeof r[k], "string");
  }
  assert.ok(Number.isInteger(r.code));
}

let server: Awaited<ReturnType<typeof startTestServer>>;

Deno.test({
  name: "api fields",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    server = await startTestServer();
    try {
      await t.step("agencies: bare array of Agency records in seed order", async () => {
        const { status, body } = await fetchJson(`${server.url}/api/v1/agencies/for_vacancies/`);
        assert.equal(status, 200);
        assert.ok(Array.isArray(body) && body.length >= 10);
        for (const a of body) checkAgency(a);
        assert.ok(
          body.some((a: Rec) => a.universities.length > 0),
          "some agencies have universities",
        );
        assert.ok(body.some((a: Rec) => a.genitive_name === ""), "empty strings occur");
      });

      await t.step("vacancies: every seed field in order with the seed's types", async () => {
        let url: string | null = `${server.url}/api/v1/vacancies/?page_size=100`;
        let seen = 0, nullSalary = 0, withSalary = 0;
        while (url) {
          const { body } = await fetchJson(url);
          for (const v of body.results as Rec[]) {
            assert.deepEqual(Object.keys(v), VACANCY_FIELDS);
            checkCommon(v);
            assert.equal(v.url, `/vakansii/${v.id}/`);
            assert.ok(Array.isArray(v.industries));
            for (const i of v.industries) checkRef(i, ["code"]);
            for (const k of ["salary_from", "salary_to"]) {
              if (v[k] === null) nullSalary++;
              else {
                assert.match(v[k], MONEY);
                withSalary++;
              }
            }
            assert.equal(typeof v.publish_on_other_sites, "boolean");
            seen++;
          }
          url = body.next;
        }
        assert.ok(seen > 100);
        assert.ok(nullSalary > 0 && withSalary > 0, "both null and decimal salaries occur");
      });

      await t.step("competitions: industries are ids, coordinates decimal strings", async () => {
        const { body } = await fetchJson(`${server.url}/api/v1/competitions/?page_size=100`);
        for (const c of body.results as Rec[]) {
          assert.deepEqual(new Set(Object.keys(c)), new Set(COMPETITION_FIELDS));
          assert.equal(Object.keys(c).length, COMPETITION_FIELDS.length);
          checkCommon(c);
          for (const i of c.industries) {
            assert.ok(Number.isInteger(i), "competition industries are ids");
          }
          checkRef(c.competition_type);
          assert.match(c.document_reception_map_latitude, COORD);
          assert.match(c.document_reception_map_longitude, COORD);
          for (
            const k of [
              "document_reception_finished",
              "document_reception_estimated_date",
              "document_reception_public_result_date",
              "document_reception_announced_date",
            ]
          ) assert.match(c[k], DATE, k);
          assert.equal(c.vacancy_info, null);
          assert.equal(c.replies, null);
        }
      });

      await t.step(
        "HTML fields are served byte-for-byte with entities and inline styles",
        async () => {
          const { text } = await fetchJson(`${server.url}/api/v1/vacancies/?page_size=100`);
          assert.match(text, /&nbsp;|&laquo;|&mdash;/);
          assert.match(text, /style=\\"/);
          assert.doesNotMatch(text, /\u2028|\u2029/);
        },
      );
    } finally {
      await server.close();
    }
  },
});
