import assert from "node:assert/strict";
import { pageQuery, parseQs, pythonInt, quotePlus, urlencode } from "./_querystring.ts";

Deno.test("parseQs keeps blanks, decodes plus and percent, keeps first-seen key order", () => {
  const q = parseQs("b=2&a=x+y&flag&a=%D0%B6&bad=%ZZ&&c=");
  assert.deepEqual([...q.entries()], [
    ["b", ["2"]],
    ["a", ["x y", "ж"]],
    ["flag", [""]],
    ["bad", ["%ZZ"]],
    ["c", [""]],
  ]);
});

Deno.test("urlencode sorts keys and quotes like Python quote_plus", () => {
  const q = parseQs("search=a b/c,d&format=api&page=3&search=ё");
  q.delete("page");
  assert.equal(urlencode(q), "format=api&search=a+b%2Fc%2Cd&search=%D1%91");
  assert.equal(quotePlus("~._-"), "~._-");
});

Deno.test("pythonInt accepts what int() accepts and nothing else", () => {
  assert.equal(pythonInt("02"), 2);
  assert.equal(pythonInt(" 2"), 2);
  assert.equal(pythonInt("+2"), 2);
  assert.equal(pythonInt("-1"), -1);
  assert.equal(pythonInt("1_0"), 10);
  for (const bad of ["", "1.5", "2.0", "abc", "1__0", "_1", "0x10", "1e3"]) {
    assert.equal(pythonInt(bad), undefined, bad);
  }
});

Deno.test("pageQuery writes each page's query as urlencode with page replaced (removed for 1)", () => {
  const queries = [
    "",
    "page=3",
    "agency=4&page=7",
    "search=a b/c,d&format=api&page=3&search=ё",
    "zeta=1&PAGE=2&pagez=3&pag=4&page=9&page=10&Ж=5&a%20b=6&=7",
    "ordering=-salary_from&page_size=20&page=2",
  ];
  for (const raw of queries) {
    const q = parseQs(raw);
    const link = pageQuery(q);
    for (const page of [1, 2, 17]) {
      const expected = new Map(q);
      if (page === 1) expected.delete("page");
      else expected.set("page", [String(page)]);
      assert.equal(link(page), urlencode(expected), `${raw} page ${page}`);
    }
  }
  assert.equal(pageQuery(parseQs("a=1&page=2"))(1), "a=1");
  assert.equal(pageQuery(parseQs("page=2"))(1), "");
});

Deno.test("quotePlus: safe strings unchanged, everything else escaped as before", () => {
  assert.equal(quotePlus("page_size-2.x~"), "page_size-2.x~");
  assert.equal(quotePlus("a b"), "a+b");
  assert.equal(quotePlus("ж/"), "%D0%B6%2F");
  assert.equal(quotePlus(""), "");
});
