/**
 * The requests the DRF differential test sends to both servers.
 *
 * @module
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import type { Case } from "./_raw_http.ts";

/** The lowest id of an unpublished record of `table`. */
export function hiddenId(dbPath: string, table: string): number {
  const db = new DatabaseSync(dbPath, { readOnly: true });
  try {
    const row = db.prepare(`SELECT id FROM ${table} WHERE published = 0 ORDER BY id LIMIT 1`)
      .get() as { id: number } | undefined;
    assert.ok(row, `the demo data has an unpublished ${table}`);
    return row.id;
  } finally {
    db.close();
  }
}

/** Every request, grouped by theme. */
export function cases(hiddenVacancy: number): Case[] {
  const V = "/api/v1/vacancies/";
  const C = "/api/v1/competitions/";
  const A = "/api/v1/agencies/for_vacancies/";
  const list: Case[] = [];
  const get = (target: string, extra: Omit<Case, "target"> = {}) => list.push({ target, ...extra });
  // Collections, default page; then every record byte for byte, 100 a page.
  get(V, { raw: true });
  get(C, { raw: true });
  get(A, { raw: true });
  for (const p of ["1", "2", "3", "4"]) get(`${V}?page_size=100&page=${p}`, { raw: true });
  for (const p of ["1", "2"]) get(`${C}?page_size=100&page=${p}`, { raw: true });
  get(`${V}?page_size=25&page=16`);
  get(`${V}?page_size=25&page=17`);
  // Page numbers: Python int() syntax, "last", invalid ones.
  for (
    const p of [
      "1",
      "2",
      "40",
      "last",
      "LAST",
      "Last",
      "0",
      "-1",
      "41",
      "abc",
      "1.5",
      "2.0",
      "",
      "02",
      "%202",
      "%2B2",
      "2%20",
      "1_0",
      "1__0",
      "_1",
      "%D9%A2", // ARABIC-INDIC DIGIT TWO: Python int() reads it as 2
      "%EF%BC%93", // FULLWIDTH DIGIT THREE
      "%C2%A02", // NO-BREAK SPACE around the number
      "%1C2", // U+001C, white space to Python, not to JavaScript
      "%EF%BB%BF2", // BOM: white space to JavaScript, not to Python
      "2%00",
      "99999999999999999999",
      "%E2%80%A8",
    ]
  ) get(`${V}?page=${p}`);
  get(`${C}?page=2`, { raw: true });
  get(`${C}?page=last`);
  get(`${C}?page=21`);
  get(`${V}?page=2&page=3`);
  get(`${V}?search=специалист&agency=1&page=999999`);
  get(`${V}?ordering=-salary_from&status=1&page=99999`);
  get(`${V}?page=3&page=abc`);
  get(`${V}?page=abc&page=3`);
  get(`${A}?page=abc`);
  // Page sizes.
  for (
    const s of [
      "25",
      "100",
      "1000",
      "0",
      "-1",
      "abc",
      "2.5",
      "",
      "%2B7",
      "1_5",
      "99999999999999999999",
    ]
  ) get(`${V}?page_size=${s}&page=2`);
  get(`${V}?page_size=25&page=last`);
  get(`${V}?page_size=7&page_size=3`);
  get(`${A}?page_size=5`);
  // Formats.
  for (const f of ["json", "api", "xml", "JSON", "", "json&format=xml", "xml&format=json"]) {
    get(`${V}?format=${f}`);
  }
  get(`${V}?format=api&page=2`);
  get(`${V}?format=api&page=abc`);
  get(`${A}?format=api`);
  get(`${A}?format=xml`);
  // Accept headers.
  const accept = (target: string, a: string, raw = false) =>
    get(target, { headers: { accept: a }, raw });
  accept(V, "application/json");
  accept(`${V}?page=2`, "application/json; indent=2", true);
  accept(`${V}?page=abc`, "application/json; indent=2", true);
  accept("/api/v1/vacancies/1/", "application/json;indent=4", true);
  accept(A, "application/json; indent=0", true);
  accept(V, "application/json; indent=20", true);
  accept(V, "application/json; indent=abc", true);
  accept(V, "application/json; charset=utf-8");
  accept(V, "text/html");
  accept(V, "application/xml");
  accept(V, "*/*");
  accept(V, "text/*");
  accept(V, "application/*");
  accept(V, "text/html;q=0.9, application/json;q=0.1");
  accept(V, "application/xml, */*;q=0.1");
  accept(V, "image/png, text/*");
  accept(V, "");
  accept(V, "application/json;q=0");
  accept(V, "application/json;q=0.1, text/html;q=1");
  accept(V, "text/html; indent=2, application/json");
  accept(V, "text/html, application/json");
  accept(V, "application/json; indent=2, text/html", true);
  accept(V, "Application/JSON");
  accept(V, "APPLICATION/json; indent=2", true);
  accept(V, "*/json");
  accept(V, "application/json; indent=2; q=0.5", true);
  accept(V, 'application/json; indent="3"', true);
  accept(V, "application/json; INDENT=2", true);
  accept(V, "application/json; indent= 2", true);
  accept(V, "application/json ; indent=2", true);
  accept(V, "application/json; indent=1_0", true);
  accept(V, "application/json; indent=+3", true);
  accept(V, "application/json; indent= 3 ", true);
  accept(V, "application/json; indent=99999999999999999999", true);
  accept(V, "application/json; indent=-99999999999999999999", true);
  // Not "application/json; indent=2, application/json; indent=4": DRF keeps tokens of one
  // precedence in a Python set, so which one wins depends on the process's hash seed.
  get(V, { method: "HEAD", headers: { accept: "application/json; indent=2" } });
  get("/api/v1/vacancies/999999/", { method: "HEAD" });
  get(V, { headers: { "x-http-method-override": "DELETE" } });
  accept(V, "  ");
  accept(`${V}?format=xml`, "application/json; indent=2", true);
  accept(V, "application/xml; indent=2", true);
  accept("/api/v1/vacancies/999999/", "application/json; indent=2", true);
  get(V, { method: "OPTIONS", headers: { accept: "application/json; indent=2" }, raw: true });
  get(V, { method: "PUT", headers: { accept: "application/json; indent=2" }, raw: true });
  accept(`${V}?format=json`, "text/html");
  accept(`${V}?format=api`, "application/json");
  accept(`${V}?format=xml`, "application/xml");
  // Methods.
  get(V, { method: "HEAD" });
  get(`${V}?page=abc`, { method: "HEAD" });
  get(`${V}?format=xml`, { method: "HEAD" });
  get("/api/v1/vacancies/1/", { method: "HEAD" });
  get(A, { method: "HEAD" });
  get(V, { method: "OPTIONS" });
  get(V, { method: "OPTIONS", headers: { "access-control-request-method": "GET" } });
  get("/api/v1/vacancies", { method: "OPTIONS" });
  get(`${C}?page=abc`, { method: "OPTIONS" });
  get(A, { method: "OPTIONS" });
  get(`${V}?format=xml`, { method: "OPTIONS" });
  get(V, { method: "OPTIONS", headers: { accept: "application/xml" } });
  for (const m of ["POST", "PUT", "PATCH", "DELETE", "TRACE", "BREW", "post", "get", "options"]) {
    get(V, { method: m });
  }
  get(A, { method: "DELETE" });
  get("/api/v1/competitions/1/", { method: "PUT" });
  // 405 comes before any body parsing: a malformed body changes nothing.
  get(V, { method: "POST", headers: { "content-type": "application/json" }, body: "{" });
  get(V, { method: "PUT", headers: { "content-type": "text/plain" }, body: "x".repeat(70000) });
  get(`${V}?format=xml`, { method: "POST", body: "a=1" });
  get(V, { method: "POST", headers: { accept: "application/xml" } });
  get(V, { method: "OPTIONS", headers: { "content-type": "application/json" }, body: "{" });
  get(`${V}?format=api`, { method: "OPTIONS" });
  get(`${V}?page=abc`, { headers: { accept: "text/html" } });
  // Missing trailing slash: a relative 301 with the query kept, any method.
  get("/api/v1/vacancies");
  get("/api/v1/vacancies?page=2&b=%2F");
  get("/api/v1/vacancies?flag", { method: "POST" });
  get("/api/v1/agencies/for_vacancies", { method: "HEAD" });
  get("/api/v1/competitions/1");
  get("/api/v1/vacancies/1", { method: "DELETE" });
  // Unknown query parameters are carried into the links, re-encoded and sorted.
  for (
    const q of [
      "b=2&a=1&page=2",
      "flag&page=2",
      "q=%D0%BF%D1%80%D0%B8%D0%B2%D0%B5%D1%82&page=2",
      "q=a%20b&page=2",
      "q=a+b&page=2",
      "q=a%2Fb&page=2",
      "q=%2B&page=2",
      "q=%3C%3E%26%22",
      "a=1&a=2&page=2",
      "z=1&a=2&z=0",
      "B=1&a=2&_=3&page=3",
      "q=%E2%80%A8%E2%80%A9",
      "q=%C3%28&page=2",
      "q=%ZZ&page=2",
      "a=1=2&=x&&page=2&",
      "%F0%9F%98%80=%F0%9F%98%80",
      "q=~-._*'()!",
      "q=%EF%BB%BFx&page=2",
    ]
  ) get(`${V}?${q}`, { raw: true });
  get(`${C}?flag&format=json&page=3`, { raw: true });
  // Absolute links follow the Host header as sent; forwarding headers are ignored.
  for (
    const host of ["Example.COM:8080", "example.com", "[::1]:9000", "EXAMPLE.com.", "1.2.3.4:80"]
  ) {
    get(`${V}?page=2`, { headers: { host }, raw: true });
  }
  // Host headers Django refuses (400) even with ALLOWED_HOSTS = ["*"].
  for (const host of ["", "ex_ample.com", "example.com:"]) {
    get(`${V}?page=2`, { headers: { host } });
    get("/api/v1/vacancies/1/", { headers: { host } });
    get("/api/v1/vacancies", { headers: { host } });
  }
  get(`${V}?page=2`, {
    headers: { "x-forwarded-host": "proxy.example", "x-forwarded-proto": "https" },
  });
  // Percent-encoded and raw UTF-8 request targets.
  get("/api/v1/%76acancies/?page=2");
  get("/api/v1/vacancies/%31/");
  get("/api/v1/vacancies/?q=%D0%BF%D1%80%D0%B8%D0%BC%D0%B5%D1%80&page=2");
  get("/api/v1/vacancies?q=%D0%BF%D1%80%D0%B8%D0%BC%D0%B5%D1%80&b=%2F%20");
  get("/api//v1/vacancies/");
  get("/api/v1/vacancies/../competitions/");
  get("/api/v1/vacancies/./");
  get("/api/v1/vacancies/%2E%2E/competitions/");
  get("/api/v1/vacancies/?", { raw: true });
  get("/api/v1/vacancies/?&", { raw: true });
  get("/api/v1/vacancies/?page=2#frag");
  get("/api/v1/vacancies%2F?page=2");
  get("/api/v1/%76acancies?page=2");
  get("/api/v1/%76acancies/1/");
  get("/api/v1/vacancies/%ZZ/");
  // Encoded letters and slashes anywhere in the path: Django routes the decoded path.
  get("/%61pi/v1/competitions/?page=2");
  get("/%61%70%69/v1/vacancies/?page=2");
  get("/api%2Fv1%2Fvacancies/?page=2");
  get("/api%2fv1/competitions/1/");
  get("/api/v1/vacancies/1%2F/");
  get("/api/v1/vacancies/%31%2F/");
  get("/api/v1/vacancies/1%2F2/");
  get("/%61pi/v1/vacancies");
  get("/api/v1/vacancies%ZZ/");
  get("/api/v1/vacancies?q='&r=%22");
  get("/api/v1/vacancies/?q='&r=%22&page=2", { raw: true });
  // Conditional requests (our addition): a 304 only where DRF answers 200.
  const conditionals: Record<string, string>[] = [
    { "if-none-match": "*" },
    { "if-modified-since": "Fri, 01 Jan 2100 00:00:00 GMT" },
  ];
  for (const h of conditionals) {
    get(`${V}?page=abc`, { headers: h });
    get(`${V}?page=2`, { headers: h });
    get("/api/v1/vacancies/999999/", { headers: h });
    get("/api/v1/vacancies/1/", { headers: h, method: "HEAD" });
  }
  // Parameters separated by ';' are one value to Python 3.11 and Django 3.2.
  get(`${V}?page=2;x=1`);
  get(`${V}?a=1;b=2&page=2`, { raw: true });
  get(`${V}?page=+2`);
  get(`${V}?page`);
  get(`${V}?page=2&page`);
  get(`${V}?=&page=2`, { raw: true });
  get(`${V}?page_size=abc&page=last`);
  get("/API/v1/vacancies/");
  get("/api/v1/Vacancies/");
  get(`${V}?pa%67e=2`, { raw: true });
  get(`${V}?PAGE=2`, { raw: true });
  get(`${V}?page=0000000000000000000002`);
  get(`${V}?page_size=5&page_size=`);
  get(`${V}?page_size=%D9%A5&page=2`, { raw: true });
  get("/api/v1/vacancies?format=xml");
  get("/api/v1/vacancies/%D0%B0/");
  // Detail routes.
  get("/api/v1/vacancies/97/", { raw: true }); // U+2028 in its text
  get("/api/v1/vacancies/1/", { raw: true });
  get("/api/v1/competitions/1/", { raw: true });
  get("/api/v1/agencies/for_vacancies/1/", { raw: true });
  for (
    const id of [
      "999999",
      String(hiddenVacancy),
      "abc",
      "0",
      "-1",
      "01",
      "%2B1",
      "%201",
      "1_0",
      "1e3",
      "%D9%A1",
    ]
  ) get(`/api/v1/vacancies/${id}/`);
  get("/api/v1/agencies/for_vacancies/0/");
  get("/api/v1/vacancies/1/?format=xml");
  get("/api/v1/vacancies/1/?format=api");
  get("/api/v1/vacancies/1/?page=abc");
  get("/api/v1/vacancies/1/", { method: "OPTIONS" });
  get("/api/v1/vacancies/999999/", { method: "OPTIONS" });
  get("/api/v1/competitions/abc/", { method: "OPTIONS" });
  get("/api/v1/agencies/for_vacancies/1/", { method: "OPTIONS" });
  // Paths neither serves.
  get("/api/v1/vacancies/1.5/");
  get("/api/v1/vacancies/1.json");
  get("/api/v1/nothing/");
  get("/api/v1/vacancies/1/extra/");
  get("/api/v1/vacancies/99999999999999999999/");
  return list;
}

/** Requests for an empty catalogue: page 1 exists (empty), nothing else does. */
export function emptyCatalogCases(): Case[] {
  const list: Case[] = [];
  for (const path of ["/api/v1/vacancies/", "/api/v1/competitions/"]) {
    for (const q of ["", "?page=1", "?page=last", "?page=2", "?page=0", "?page_size=5&x=1"]) {
      list.push({ target: path + q, raw: true });
    }
    list.push({ target: path, method: "HEAD" });
    list.push({ target: `${path}?format=api` });
    list.push({ target: `${path}1/` });
  }
  list.push({ target: "/api/v1/agencies/for_vacancies/", raw: true });
  list.push({ target: "/api/v1/agencies/for_vacancies/1/" });
  return list;
}
