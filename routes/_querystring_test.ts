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

Deno.test("parseQs and quotePlus agree with Python on broken escapes, invalid UTF-8 and astral characters", () => {
  // Expected values printed by Python 3's parse_qs(keep_blank_values=True) and quote_plus(safe="").
  const parsed: [string, string, string][] = [
    ["a=%D0%B6x%E2%82", "a", "жx\uFFFD"],
    ["a=%FF%FEz", "a", "\uFFFD\uFFFDz"],
    ["a=%F0%9F%98%80+%41%4", "a", "😀 A%4"],
    ["a=%%25%2", "a", "%%%2"],
    ["x%5=%e2%82%ac%C3", "x%5", "€\uFFFD"],
  ];
  for (const [raw, key, value] of parsed) assert.deepEqual(parseQs(raw).get(key), [value], raw);
  const quoted: [string, string][] = [
    ["😀 a", "%F0%9F%98%80+a"],
    ["ж/~", "%D0%B6%2F~"],
    ["a+b&c=d", "a%2Bb%26c%3Dd"],
    ["\x00\x7f\x80", "%00%7F%C2%80"],
  ];
  for (const [s, expected] of quoted) assert.equal(quotePlus(s), expected, s);
});
