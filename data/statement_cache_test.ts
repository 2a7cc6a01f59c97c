/**
 * The catalogue's prepared statements are bounded in bytes: SQL that varies
 * with the request (one `?` per id of an `agency=` list) no longer keeps a
 * compiled statement per shape for good (issue 20).
 *
 * @module
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { demoDb, tempDir } from "../tests/_data_fixtures.ts";
import { statementBytes, StatementCache } from "./_statement_cache.ts";

Deno.test("the statement cache keeps the most recently used within its byte budget", () => {
  const db = new DatabaseSync(":memory:");
  const sql = (n: number) => `SELECT ${Array.from({ length: n }, (_, i) => i).join(", ")}`;
  const budget = statementBytes(sql(60)) * 16;
  const cache = new StatementCache(db, budget);
  const first = cache.get(sql(1));
  for (let n = 2; n <= 60; n++) cache.get(sql(n));
  assert.ok(cache.bytes <= budget, `${cache.bytes} > ${budget}`);
  assert.ok(cache.size >= 4);
  assert.notEqual(cache.get(sql(1)), first, "the oldest statement was dropped and prepared again");
  const kept = cache.get(sql(60));
  assert.equal(cache.get(sql(60)), kept, "a kept statement is reused");
  // One statement over an eighth of the budget is prepared but never kept.
  const before = cache.size;
  cache.get(sql(2000));
  assert.equal(cache.size, before);
  db.close();
});

Deno.test("lists of many agency filter shapes leave the catalogue's memory flat", async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const path = demoDb(dir, { vacancies: 2000, competitions: 20, agencies: 40 });
    // 3 orderings x 800 list lengths: 2,400 distinct SQL shapes, each compiled
    // to a program that grows with its IN list. RSS after the first third is
    // the high-water mark of compiling them; the rest must not add to it.
    const script = `
      import { openCatalog } from ${JSON.stringify(new URL("./catalog.ts", import.meta.url).href)};
      const rss = () => Number(Deno.readTextFileSync("/proc/self/status").match(/VmRSS:\\s+(\\d+)/)[1]) / 1024;
      const cat = openCatalog(${JSON.stringify(path)}, { readonly: true });
      let seed = 7;
      const rand = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
      const orderings = ["-publish_date", "title", "id"];
      const marks = [];
      for (const field of orderings) {
        const desc = field.startsWith("-");
        for (let i = 0; i < 800; i++) {
          const n = 1 + Math.floor(rand() * 800);
          cat.list("vacancies", {
            agency: Array.from({ length: n }, (_, k) => (k % 40) + 1),
            ordering: [{ field: field.replace("-", ""), desc }],
          });
        }
        gc();
        marks.push(rss());
      }
      console.log(JSON.stringify(marks));
    `;
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["eval", "--v8-flags=--expose-gc", "--ext=js", script],
      env: { MALLOC_ARENA_MAX: "2" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    const marks = JSON.parse(new TextDecoder().decode(out.stdout)) as number[];
    const grew = marks[2] - marks[0];
    assert.ok(
      grew < 24,
      `RSS ${marks.map((m) => m.toFixed(0)).join(" -> ")} MiB: +${grew.toFixed(0)}`,
    );
  } finally {
    await cleanup();
  }
});
